"""``score``, ``merge`` and ``demo``: score a response against a key, merge
scores of shards, and report them. The scoring machinery is imported when a
command runs, not when the command line starts."""
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional

import typer

from . import app
from .options import (
    CI,
    FORMAT,
    KEY_ARGUMENT,
    MACRO,
    N_RESAMPLES,
    PER_DOC,
    RESPONSE_ARGUMENT,
    SEED,
    ScoringOptions,
    with_scoring_options,
)
from .output import Analyses, output_format, report, reported_errors, say

if TYPE_CHECKING:
    from ..scoring import CorpusResult

DATA = Path(__file__).resolve().parent.parent / "data"
OUTPUT = typer.Option(None, "--output", "-o", help="Write the report to this file (.json: JSON unless --format says otherwise)")
SAVE_COUNTS = typer.Option(None, "--save-counts", help="Also save every document's counts here (.json, else msgpack), for 'merge'")


@app.command()
@with_scoring_options
def score(
    scoring: ScoringOptions,
    key: Path = KEY_ARGUMENT,
    response: Path = RESPONSE_ARGUMENT,
    per_doc: bool = PER_DOC,
    ci: Optional[float] = CI,
    macro: bool = MACRO,
    errors: bool = typer.Option(False, "--errors", help="Add counts of error kinds (by document too with --per-doc)"),
    classes: bool = typer.Option(
        False, "--classes",
        help="Add resolution classes (Stoyanov et al. 2009): class mix and MUC-RC per class (by document too with --per-doc)",
    ),
    seed: int = SEED,
    n_resamples: int = N_RESAMPLES,
    fmt: Optional[str] = FORMAT,
    output: Optional[Path] = OUTPUT,
    save_counts_to: Optional[Path] = SAVE_COUNTS,
    n_process: int = typer.Option(1, "--n-process", "-n", min=1, max=256, help="Score documents in this many processes"),
) -> None:
    """Score RESPONSE against KEY with every chosen metric."""
    from ..formats.corpus import load_corpus
    from ..scoring import score_pairs

    fmt = output_format(fmt, output)
    inputs = (key, response)
    with reported_errors():
        settings = scoring.settings()
        loaded = load_corpus(key, response, *scoring.readers(), with_words=False, with_tokens=classes, formats=scoring.formats())
        tokens = [loaded.tokens[name] for name, _, _ in loaded.pairs] if classes else None
        lengths = [len(part) for part in tokens] if tokens is not None else None
        result = score_pairs(
            loaded.pairs, settings, loaded.warnings, n_process=n_process, lengths=lengths, keep_twinned=errors or classes
        )
        if save_counts_to is not None:
            from ..shards import save_counts

            save_counts(result, save_counts_to, inputs)
        analyses = analyses_of(result, ci, n_resamples, seed, macro)
        if errors:
            from ..analysis import corpus_error_counts

            analyses = replace(analyses, errors=corpus_error_counts(result))
        if tokens is not None:
            from ..analysis.resolution import score_resolution_classes

            analyses = replace(analyses, classes=score_resolution_classes(result, tokens))
    report(result, fmt, per_doc, output, analyses, inputs)


@app.command()
def merge(
    counts: List[Path] = typer.Argument(..., help="Counts files written by 'score --save-counts'", exists=True, dir_okay=False),
    per_doc: bool = PER_DOC,
    ci: Optional[float] = CI,
    macro: bool = MACRO,
    seed: int = SEED,
    n_resamples: int = N_RESAMPLES,
    fmt: Optional[str] = FORMAT,
    output: Optional[Path] = OUTPUT,
    save_counts_to: Optional[Path] = typer.Option(None, "--save-counts", help="Also save the merged counts here"),
) -> None:
    """Merge the counts of shards scored separately into one corpus score
    (the same as scoring all documents at once), with intervals and macro
    averages as 'score' gives them (error kinds need the clusters: ask
    'score --errors')."""
    from ..shards import load_counts, merge_results, save_counts

    fmt = output_format(fmt, output)
    with reported_errors():
        result = merge_results([load_counts(path) for path in counts], [str(path) for path in counts])
        if save_counts_to is not None:
            save_counts(result, save_counts_to, counts)
        analyses = analyses_of(result, ci, n_resamples, seed, macro)
    report(result, fmt, per_doc, output, analyses, counts)


def analyses_of(result: "CorpusResult", ci: Optional[float], n_resamples: int, seed: int, macro: bool) -> Analyses:
    """The intervals and macro averages asked for."""
    if ci is None and not macro:
        return Analyses(n_resamples=n_resamples, seed=seed)
    from ..analysis import bootstrap_intervals, macro_average

    return Analyses(
        intervals=None if ci is None else bootstrap_intervals(result, ci, n_resamples, seed),
        level=ci, n_resamples=n_resamples, seed=seed,
        macro=macro_average(result) if macro else None,
    )


@app.command()
def demo() -> None:
    """Score the small example bundled with the package and print the table."""
    from ..formats.corpus import load_pairs
    from ..scoring import score_pairs

    key, response = DATA / "demo.key.conll", DATA / "demo.response.conll"
    say("info", f"Scoring {response.name} against {key.name} ({DATA})")
    pairs, warnings = load_pairs(key, response)
    report(score_pairs(pairs, warnings=warnings), "table", per_doc=True, output=None)
