"""``score`` and ``demo``: score a response against a key and report it."""
import json
import sys
from pathlib import Path
from typing import Dict, List, Optional

import typer
from wasabi import color

from ..clusters import Clusters
from ..counting import METRICS
from ..errors import CorefInputError
from ..readers.conll import read_conll
from ..readers.corpus import load_pairs
from ..report.table import documents_table, metrics_table
from ..scoring import CorpusResult, Settings, score_documents, score_pairs
from . import app

DATA = Path(__file__).resolve().parent.parent / "data"


def parse_metrics(value: str) -> List[str]:
    """Comma-separated metric names, checked."""
    names = [name.strip() for name in value.split(",") if name.strip()]
    unknown = [name for name in names if name not in METRICS]
    if unknown or not names:
        raise typer.BadParameter(f"unknown metric(s) {unknown}; choose from {','.join(METRICS)}")
    return names


def load_documents(path: Path) -> Dict[str, Clusters]:
    """Documents of a CoNLL-2012 file by name."""
    return {name: doc.clusters for name, doc in read_conll(path).items()}


def render(result: CorpusResult, fmt: str, per_doc: bool) -> str:
    """The report in ``json`` or ``table`` form."""
    if fmt == "json":
        return json.dumps(result.to_json(per_doc=per_doc), indent=2, ensure_ascii=False) + "\n"
    parts = [metrics_table(result.metrics())]
    if per_doc:
        documents = result.to_json(per_doc=True)["documents"]
        parts.append(documents_table({name: doc["metrics"] for name, doc in documents.items()}))
    return "\n".join(parts)


_ICONS = {"good": ("✔", "green"), "info": ("ℹ", "blue"), "warn": ("⚠", "yellow"), "fail": ("✘", "red")}


def say(kind: str, text: str) -> None:
    """A ``good``/``info``/``warn``/``fail`` message, one line on standard
    error (never wrapped, so paths stay whole), keeping standard output for
    the report alone."""
    icon, colour = _ICONS[kind]
    if sys.stderr.isatty():
        icon = color(icon, fg=colour)
    sys.stderr.write(f"{icon} {text}\n")


def emit(text: str, output: Optional[Path]) -> None:
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf8")
        say("good", f"Saved scores to {output}")


def fail(err: Exception) -> None:
    say("fail", str(err))
    raise typer.Exit(1)


@app.command()
def score(
    key: Path = typer.Argument(..., help="Gold coreference: CoNLL-2012 file (.conll, .gz) or spaCy DocBin (.spacy)", exists=True, dir_okay=False),
    response: Path = typer.Argument(..., help="System coreference: CoNLL-2012 or .spacy; with a .spacy side, documents pair by order", exists=True, dir_okay=False),
    metrics: str = typer.Option(",".join(METRICS), "--metrics", "-m", help="Comma-separated metrics"),
    twinless: str = typer.Option("conll", "--twinless", help="Twinless policy: conll, b3all, b30, sys"),
    singletons: str = typer.Option("keep", "--singletons", help="keep or remove singleton entities"),
    match: str = typer.Option("exact", "--match", help="Mention matching: exact, head, overlap, partial (head and partial need heads)"),
    min_overlap: Optional[float] = typer.Option(None, "--min-overlap", help="--match overlap: least overlap θ in (0, 1] (default 0.5)"),
    overlap_measure: Optional[str] = typer.Option(None, "--overlap-measure", help="--match overlap: dice (default) or jaccard"),
    per_doc: bool = typer.Option(False, "--per-doc", help="Also report every document"),
    fmt: str = typer.Option("table", "--format", "-f", help="table or json"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the report to this file"),
) -> None:
    """Score RESPONSE against KEY with every chosen metric."""
    if fmt not in ("table", "json"):
        raise typer.BadParameter("--format must be 'table' or 'json'")
    try:
        settings = Settings(
            metrics=tuple(parse_metrics(metrics)), matcher=match, twinless=twinless, singletons=singletons,
            min_overlap=min_overlap, overlap_measure=overlap_measure,
        )
        pairs, warnings = load_pairs(key, response)
        result = score_pairs(pairs, settings, warnings)
    except (CorefInputError, ValueError) as err:
        fail(err)
    for warning in result.warnings:
        say("warn", warning)
    emit(render(result, fmt, per_doc), output)


@app.command()
def demo() -> None:
    """Score the small example bundled with the package and print the table."""
    key, response = DATA / "demo.key.conll", DATA / "demo.response.conll"
    say("info", f"Scoring {response.name} against {key.name} ({DATA})")
    result = score_documents(load_documents(key), load_documents(response))
    sys.stdout.write(render(result, "table", per_doc=True))
