"""``score``, ``merge`` and ``demo``: score a response against a key, merge
scores of shards, and report them."""
from pathlib import Path
from typing import List, Optional

import typer

from ..counting import METRICS
from ..errors import CorefInputError
from ..readers.corpus import load_pairs
from ..scoring import Settings, score_pairs
from ..shards import load_counts, merge_results, save_counts
from . import app
from .output import check_format, fail, report, say

DATA = Path(__file__).resolve().parent.parent / "data"


def parse_metrics(value: str) -> List[str]:
    """Comma-separated metric names, checked."""
    names = [name.strip() for name in value.split(",") if name.strip()]
    unknown = [name for name in names if name not in METRICS]
    if unknown or not names:
        raise typer.BadParameter(f"unknown metric(s) {unknown}; choose from {','.join(METRICS)}")
    return names


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
    save_counts_to: Optional[Path] = typer.Option(None, "--save-counts", help="Also save every document's counts here (.json, else msgpack), for 'merge'"),
    n_process: int = typer.Option(1, "--n-process", "-n", min=1, help="Score documents in this many processes"),
) -> None:
    """Score RESPONSE against KEY with every chosen metric."""
    check_format(fmt)
    try:
        settings = Settings(
            metrics=tuple(parse_metrics(metrics)), matcher=match, twinless=twinless, singletons=singletons,
            min_overlap=min_overlap, overlap_measure=overlap_measure,
        )
        pairs, warnings = load_pairs(key, response)
        result = score_pairs(pairs, settings, warnings, n_process=n_process)
        if save_counts_to is not None:
            save_counts(result, save_counts_to)
    except (CorefInputError, ValueError) as err:
        fail(err)
    report(result, fmt, per_doc, output)


@app.command()
def merge(
    counts: List[Path] = typer.Argument(..., help="Counts files written by 'score --save-counts'", exists=True, dir_okay=False),
    per_doc: bool = typer.Option(False, "--per-doc", help="Also report every document"),
    fmt: str = typer.Option("table", "--format", "-f", help="table or json"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the report to this file"),
    save_counts_to: Optional[Path] = typer.Option(None, "--save-counts", help="Also save the merged counts here"),
) -> None:
    """Merge the counts of shards scored separately into one corpus score
    (the same as scoring all documents at once)."""
    check_format(fmt)
    try:
        result = merge_results([load_counts(path) for path in counts], [str(path) for path in counts])
        if save_counts_to is not None:
            save_counts(result, save_counts_to)
    except CorefInputError as err:
        fail(err)
    report(result, fmt, per_doc, output)


@app.command()
def demo() -> None:
    """Score the small example bundled with the package and print the table."""
    key, response = DATA / "demo.key.conll", DATA / "demo.response.conll"
    say("info", f"Scoring {response.name} against {key.name} ({DATA})")
    pairs, warnings = load_pairs(key, response)
    report(score_pairs(pairs, Settings(), warnings), "table", per_doc=True, output=None)
