"""``report``: score a response against a key and write one self-contained
HTML page: scores with bootstrap intervals, charts, error types and the
worst documents' gold and predicted mentions side by side."""
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Optional, Sequence

import typer

from . import app
from .options import (
    KEY_ARGUMENT,
    N_RESAMPLES,
    RESPONSE_ARGUMENT,
    SEED,
    ScoringOptions,
    check_level,
    with_scoring_options,
)
from .output import reported_errors, say, write

if TYPE_CHECKING:
    from ..formats.tokens import Tokens
    from ..scoring import CorpusResult

WORST = typer.Option(5, "--worst", min=0, help="Show this many lowest-scoring documents side by side")
MAX_TOKENS = typer.Option(400, "--max-tokens", min=1, help="Show at most this many tokens of each (the stretch with most errors)")


@app.command("report")
@with_scoring_options
def report_command(
    scoring: ScoringOptions,
    key: Path = KEY_ARGUMENT,
    response: Path = RESPONSE_ARGUMENT,
    output: Path = typer.Option(..., "--output", "-o", help="Write the HTML report to this file"),
    ci: float = typer.Option(0.95, "--ci", callback=check_level, help="Confidence level of the bootstrap intervals, in (0, 1)"),
    n_resamples: int = N_RESAMPLES,
    seed: int = SEED,
    worst: int = WORST,
    max_tokens: int = MAX_TOKENS,
    n_process: int = typer.Option(1, "--n-process", "-n", min=1, max=256, help="Score documents in this many processes"),
) -> None:
    """Write an HTML report of RESPONSE scored against KEY: scores with
    bootstrap intervals, charts, error types and the worst documents'
    gold and predicted mentions side by side."""
    from ..errors import CorefInputError
    from ..formats.corpus import load_corpus
    from ..scoring import score_pairs

    with reported_errors():
        settings = scoring.settings()
        loaded = load_corpus(key, response, *scoring.readers(), with_tokens=True, formats=scoring.formats())
        if not loaded.pairs:
            raise CorefInputError(f"{key}: no documents to report on")
        tokens = [loaded.tokens[name] for name, _, _ in loaded.pairs]
        result = score_pairs(
            loaded.pairs, settings, loaded.warnings, n_process=n_process, lengths=[len(part) for part in tokens]
        )
        page = report_page(
            result, loaded.words, str(key), str(response), ci, n_resamples, seed, worst, max_tokens, tokens
        )
    for warning in result.warnings:
        say("warn", warning)
    write(page, output, "the report", (key, response))


def report_page(
    result: "CorpusResult",
    words: Mapping[str, Sequence[str]],
    key: str,
    response: str,
    level: float = 0.95,
    n_resamples: int = 1000,
    seed: int = 0,
    worst: int = 5,
    max_tokens: int = 400,
    tokens: Optional[Sequence["Tokens"]] = None,
) -> str:
    """The HTML page of a scoring run: its analyses computed (resolution
    classes when the documents' ``tokens`` are given and the run was scored
    with their lengths; when a document cannot be classified, the page goes
    on without them and says why among its warnings, and so does a
    warning), its views built from the run's own twinning, then rendered."""
    from dataclasses import replace

    from ..analysis import bootstrap_intervals, corpus_error_counts, macro_average
    from ..analysis.resolution import score_resolution_classes
    from ..errors import CorefInputError, warn
    from ..report.html import render_report
    from ..report.views import build_report

    classes = None
    if tokens is not None:
        try:
            classes = score_resolution_classes(result, tokens).to_dict()
        except CorefInputError as err:
            note = f"resolution classes left out: {err}"
            warn(note)
            result = replace(result, warnings=[*result.warnings, note])
    data = build_report(
        result, words,
        intervals=bootstrap_intervals(result, level=level, n_resamples=n_resamples, seed=seed),
        macro=macro_average(result),
        errors=corpus_error_counts(result),
        key=key, response=response, level=level, n_resamples=n_resamples, seed=seed,
        worst=worst, max_tokens=max_tokens,
        classes=classes,
    )
    return render_report(data)
