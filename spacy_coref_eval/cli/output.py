"""What the commands print: the report on standard output (or a file),
messages on standard error, bad input as one line and exit code 1."""
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, NoReturn, Optional, Tuple

import typer
from wasabi import color

from ..analysis.error_types import TOTAL
from ..errors import CorefInputError
from ..report.table import documents_table, errors_table, intervals_table, macro_table, metrics_table
from ..scoring import CorpusResult

_ICONS = {"good": ("✔", "green"), "info": ("ℹ", "blue"), "warn": ("⚠", "yellow"), "fail": ("✘", "red")}


def say(kind: str, text: str) -> None:
    """A ``good``/``info``/``warn``/``fail`` message, one line on standard
    error (never wrapped, so paths stay whole), keeping standard output for
    the report alone."""
    icon, colour = _ICONS[kind]
    if sys.stderr.isatty():
        icon = color(icon, fg=colour)
    sys.stderr.write(f"{icon} {text}\n")


def fail(err: Exception) -> NoReturn:
    """Stop with the error as one line, exit code 1."""
    say("fail", str(err))
    raise typer.Exit(1)


def check_format(fmt: str) -> None:
    if fmt not in ("table", "json"):
        raise typer.BadParameter("--format must be 'table' or 'json'")


@dataclass(frozen=True)
class Analyses:
    """What ``score`` adds on request: bootstrap intervals with how they were
    drawn (``--ci``), macro averages (``--macro``) and error counts by
    document and in total (``--errors``)."""

    intervals: Optional[Dict[str, Dict[str, Tuple[float, float]]]] = None
    level: Optional[float] = None
    n_resamples: int = 1000
    seed: int = 0
    macro: Optional[Dict[str, Dict[str, float]]] = None
    errors: Optional[Dict[str, Dict[str, int]]] = None

    def to_json(self) -> Dict[str, Any]:
        """The top-level JSON keys of the analyses asked for."""
        out: Dict[str, Any] = {}
        if self.intervals is not None:
            bounds = {name: {rate: list(pair) for rate, pair in rates.items()} for name, rates in self.intervals.items()}
            out["intervals"] = {**bounds, "level": self.level, "n_resamples": self.n_resamples, "seed": self.seed}
        if self.macro is not None:
            out["macro"] = self.macro
        if self.errors is not None:
            out["errors"] = {TOTAL: self.errors[TOTAL]}
        return out


def score_json(result: CorpusResult, per_doc: bool, analyses: Analyses = Analyses()) -> Dict[str, Any]:
    """:meth:`CorpusResult.to_json` with the analyses added after
    ``metrics``, and every document's error counts with ``per_doc``."""
    data = result.to_json(per_doc=per_doc)
    if per_doc and analyses.errors is not None:
        for name, document in data["documents"].items():
            document["errors"] = analyses.errors[name]
    head = {key: data.pop(key) for key in ("settings", "metrics")}
    return {**head, **analyses.to_json(), **data}


def render(result: CorpusResult, fmt: str, per_doc: bool, analyses: Analyses = Analyses()) -> str:
    """The report in ``json`` or ``table`` form."""
    if fmt == "json":
        return json.dumps(score_json(result, per_doc, analyses), indent=2, ensure_ascii=False) + "\n"
    parts = [metrics_table(result.metrics())]
    if analyses.intervals is not None:
        parts.append(
            f"Bootstrap {100 * analyses.level:g}% intervals ({analyses.n_resamples} resamples "
            f"of the documents, seed {analyses.seed})\n" + intervals_table(analyses.intervals)
        )
    if analyses.macro is not None:
        parts.append("Macro averages over documents\n" + macro_table(analyses.macro))
    if per_doc:
        documents = result.to_json(per_doc=True)["documents"]
        parts.append(documents_table({name: doc["metrics"] for name, doc in documents.items()}))
    if analyses.errors is not None:
        shown = analyses.errors if per_doc else {TOTAL: analyses.errors[TOTAL]}
        parts.append("Errors (m. = mentions, e. = entities)\n" + errors_table(shown))
    return "\n".join(parts)


def report(
    result: CorpusResult, fmt: str, per_doc: bool, output: Optional[Path], analyses: Analyses = Analyses()
) -> None:
    """Warnings on standard error, then the report to ``output`` or standard output."""
    for warning in result.warnings:
        say("warn", warning)
    write(render(result, fmt, per_doc, analyses), output, "scores")


def write(text: str, output: Optional[Path], what: str) -> None:
    """``text`` to ``output``, saying so, or to standard output."""
    if output is None:
        sys.stdout.write(text)
        return
    try:
        output.write_text(text, encoding="utf8")
    except OSError as err:
        fail(CorefInputError(f"{output}: cannot write file: {err.strerror or err}"))
    say("good", f"Saved {what} to {output}")
