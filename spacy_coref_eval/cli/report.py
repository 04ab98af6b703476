"""``report``: score a response against a key and write one self-contained
HTML page: scores with bootstrap intervals, charts, error types and the
worst documents' gold and predicted mentions side by side."""
from pathlib import Path
from typing import Optional

import typer

from ..analysis import bootstrap_intervals, corpus_error_counts, macro_average
from ..errors import CorefInputError
from ..readers.corpus import load_pairs_with_words
from ..report.html import render_report
from ..report.views import build_report
from ..scoring import score_pairs
from . import app
from .options import (
    KEY_ARGUMENT, MATCH, METRICS_OPTION, MIN_OVERLAP, N_RESAMPLES, OVERLAP_MEASURE, RESPONSE_ARGUMENT, SEED,
    SINGLETONS, TWINLESS,
    build_settings, check_level,
)
from .output import fail, say


@app.command("report")
def report_command(
    key: Path = KEY_ARGUMENT,
    response: Path = RESPONSE_ARGUMENT,
    output: Path = typer.Option(..., "--output", "-o", help="Write the HTML report to this file"),
    ci: float = typer.Option(0.95, "--ci", callback=check_level, help="Confidence level of the bootstrap intervals, in (0, 1)"),
    n_resamples: int = N_RESAMPLES,
    seed: int = SEED,
    worst: int = typer.Option(5, "--worst", min=0, help="Show this many lowest-scoring documents side by side"),
    max_tokens: int = typer.Option(400, "--max-tokens", min=1, help="Show at most this many tokens of each (the stretch with most errors)"),
    metrics: str = METRICS_OPTION,
    twinless: str = TWINLESS,
    singletons: str = SINGLETONS,
    match: str = MATCH,
    min_overlap: Optional[float] = MIN_OVERLAP,
    overlap_measure: Optional[str] = OVERLAP_MEASURE,
    n_process: int = typer.Option(1, "--n-process", "-n", min=1, help="Score documents in this many processes"),
) -> None:
    """Write an HTML report of RESPONSE scored against KEY: scores with
    bootstrap intervals, charts, error types and the worst documents'
    gold and predicted mentions side by side."""
    try:
        settings = build_settings(metrics, twinless, singletons, match, min_overlap, overlap_measure)
        pairs, words, warnings = load_pairs_with_words(key, response)
        if not pairs:
            raise CorefInputError(f"{key}: no documents to report on")
        result = score_pairs(pairs, settings, warnings, n_process=n_process)
        data = build_report(
            pairs, words, result,
            intervals=bootstrap_intervals(result, level=ci, n_resamples=n_resamples, seed=seed),
            macro=macro_average(result),
            errors=corpus_error_counts(pairs, settings),
            key=str(key), response=str(response), level=ci, n_resamples=n_resamples, seed=seed,
            worst=worst, max_tokens=max_tokens,
        )
    except (CorefInputError, ValueError) as err:
        fail(err)
    for warning in result.warnings:
        say("warn", warning)
    try:
        output.write_text(render_report(data), encoding="utf8")
    except OSError as err:
        fail(CorefInputError(f"{output}: cannot write file: {err.strerror or err}"))
    say("good", f"Saved the report to {output}")
