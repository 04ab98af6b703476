"""What the commands print: the report on standard output (or a file),
messages on standard error, bad input as one line and exit code 1. The JSON
of ``score`` and ``merge`` is built here, once (:func:`score_json`)."""
import json
import sys
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, Iterable, Iterator, NoReturn, Optional, Sequence, Tuple

import typer

from ..errors import CorefEvalWarning, CorefInputError

if TYPE_CHECKING:
    from ..scoring import CorpusResult

_ICONS = {"good": ("✔", "green"), "info": ("ℹ", "blue"), "warn": ("⚠", "yellow"), "fail": ("✘", "red")}
FORMATS = ("table", "json")


def say(kind: str, text: str) -> None:
    """A ``good``/``info``/``warn``/``fail`` message, one line on standard
    error (never wrapped, so paths stay whole), keeping standard output for
    the report alone. Control characters in ``text`` are escaped."""
    from ..report.labels import printable

    icon, colour = _ICONS[kind]
    if sys.stderr.isatty():
        from wasabi import color

        icon = color(icon, fg=colour)
    try:
        sys.stderr.write(f"{icon} {printable(text)}\n")
    except OSError:
        pass


def fail(err: Exception) -> NoReturn:
    """Stop with the error as one line, exit code 1."""
    say("fail", str(err))
    raise typer.Exit(1)


@contextmanager
def reported_errors() -> Iterator[None]:
    """Bad input (:class:`CorefInputError`, :class:`ValueError`) stops the
    command with one line; :class:`CorefEvalWarning` s raised inside are
    printed on standard error first, each once."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CorefEvalWarning)
        try:
            yield
        except (CorefInputError, ValueError) as err:
            _say_warnings(caught)
            fail(err)
        except MemoryError:
            _say_warnings(caught)
            fail(CorefInputError("out of memory: the input is too large for this machine"))
        _say_warnings(caught)


def _say_warnings(caught: Sequence[warnings.WarningMessage]) -> None:
    for message in dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, CorefEvalWarning)):
        say("warn", message)


def output_format(fmt: Optional[str], output: Optional[Path]) -> str:
    """``--format``, or when it is not given the format of ``--output``'s
    suffix (``.json``: JSON), else ``table``."""
    if fmt is None:
        return "json" if output is not None and output.suffix.lower() == ".json" else "table"
    if fmt not in FORMATS:
        raise typer.BadParameter(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    return fmt


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
    classes: Any = None
    """A :class:`~spacy_coref_eval.analysis.resolution.ResolutionClassResult` (``--classes``)."""


def score_json(result: "CorpusResult", per_doc: bool = False, analyses: Analyses = Analyses()) -> Dict[str, Any]:
    """The JSON document of ``score`` and ``merge``: ``settings``,
    ``metrics``, the analyses asked for (``intervals``, ``macro``,
    ``errors``), ``documents`` with ``per_doc`` and ``warnings``."""
    out: Dict[str, Any] = {"settings": result.settings.to_dict(), "metrics": result.metrics()}
    if analyses.intervals is not None:
        bounds = {name: {rate: list(pair) for rate, pair in rates.items()} for name, rates in analyses.intervals.items()}
        out["intervals"] = {**bounds, "level": analyses.level, "n_resamples": analyses.n_resamples, "seed": analyses.seed}
    if analyses.macro is not None:
        out["macro"] = analyses.macro
    if analyses.errors is not None:
        from ..analysis.error_types import TOTAL

        out["errors"] = {TOTAL: analyses.errors[TOTAL]}
    if analyses.classes is not None:
        out["resolution_classes"] = analyses.classes.to_dict()
    if per_doc:
        out["documents"] = {name: {"metrics": rates} for name, rates in result.document_metrics().items()}
        for index, (name, document) in enumerate(out["documents"].items()):
            if analyses.errors is not None:
                document["errors"] = analyses.errors[name]
            if analyses.classes is not None:
                document["resolution_classes"] = analyses.classes.document(index).to_dict()
    out["warnings"] = list(result.warnings)
    return out


def json_text(data: Any) -> str:
    """``data`` as the indented JSON the commands write."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def render(result: "CorpusResult", fmt: str, per_doc: bool, analyses: Analyses = Analyses()) -> str:
    """The report in ``json`` or ``table`` form."""
    if fmt == "json":
        return json_text(score_json(result, per_doc, analyses))
    from ..analysis.error_types import TOTAL
    from ..report.table import documents_table, errors_table, intervals_table, macro_table, metrics_table

    parts = [metrics_table(result.metrics())]
    if analyses.intervals is not None:
        parts.append(
            f"Bootstrap {100 * analyses.level:g}% intervals ({analyses.n_resamples} resamples "
            f"of the documents, seed {analyses.seed})\n" + intervals_table(analyses.intervals)
        )
    if analyses.macro is not None:
        parts.append("Macro averages over documents\n" + macro_table(analyses.macro))
    if per_doc:
        parts.append(documents_table(result.document_metrics()))
    if analyses.errors is not None:
        shown = analyses.errors if per_doc else {TOTAL: analyses.errors[TOTAL]}
        parts.append("Errors (m. = mentions, e. = entities)\n" + errors_table(shown))
    if analyses.classes is not None:
        parts.append(_classes_text(analyses.classes.to_dict(), "Resolution classes (Stoyanov et al. 2009), MUC-RC"))
        for index, name in enumerate(result.names if per_doc else ()):
            parts.append(_classes_text(analyses.classes.document(index).to_dict(), f"Resolution classes of {name}"))
    return "\n".join(parts)


def _classes_text(block: Dict[str, Any], title: str) -> str:
    from ..report.labels import printable
    from ..report.table import classes_table

    return f"{printable(title)}; CPP prediction {100 * block['cpp']:.2f}\n" + classes_table(block)


def report(
    result: "CorpusResult",
    fmt: str,
    per_doc: bool,
    output: Optional[Path],
    analyses: Analyses = Analyses(),
    inputs: Sequence[Path] = (),
) -> None:
    """Warnings on standard error, then the report to ``output`` or standard output."""
    for warning in result.warnings:
        say("warn", warning)
    write(render(result, fmt, per_doc, analyses), output, "scores", inputs)


def write(text: str, output: Optional[Path], what: str, inputs: Iterable[Path] = ()) -> None:
    """``text`` to ``output`` (atomically, never over an input; see
    :mod:`~spacy_coref_eval.files`), saying so, or to standard output."""
    from ..files import write_output

    if output is None:
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except OSError as err:
            fail(CorefInputError(f"cannot write {what} to standard output: {err.strerror or err}"))
        return
    try:
        write_output(output, text, inputs)
    except CorefInputError as err:
        fail(err)
    say("good", f"Saved {what} to {output}")
