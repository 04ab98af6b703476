"""``report``: score a response against a key and write one self-contained
HTML page (:func:`~spacy_coref_eval.report.page.report_page`)."""

from pathlib import Path
from typing import Any, Optional

import click

from ._app import app
from .options import (
    INPUT_HELP,
    N_PROCESS,
    N_RESAMPLES,
    SEED,
    ScoringOptions,
    analysis_options,
    check_level,
    input_path,
    key_argument,
    output_path,
    scoring_options,
)
from .output import STRICT, named, reported_errors, say_warnings, write
from .score import CROSS_DOCUMENT
from .sections import section
from .stdin import standard_input


@app.command("report", epilog=INPUT_HELP, short_help="Write an HTML report of a response against a key")
@section("Output", STRICT)
@key_argument()
@click.argument("response", type=input_path())
@section(
    "Output",
    click.option("--output", "-o", type=output_path(), required=True, help="Write the HTML report to this file (-: standard output)"),
    click.option("--worst", default=5, type=click.IntRange(min=0), help="Show this many lowest-scoring documents side by side"),
    click.option(
        "--max-tokens", default=400, type=click.IntRange(min=1), help="Show at most this many tokens of each (the stretch with most errors)"
    ),
)
@section(
    "Analyses",
    click.option("--ci", type=float, default=0.95, callback=check_level, help="Confidence level of the bootstrap intervals, in (0, 1)"),
)
@N_RESAMPLES
@SEED
@analysis_options("report")
@CROSS_DOCUMENT
@N_PROCESS
@scoring_options
def report_command(
    scoring: ScoringOptions,
    key: Path,
    response: Path,
    *,
    output: Path,
    ci: float,
    n_resamples: int,
    seed: int,
    worst: int,
    max_tokens: int,
    analyses: dict[str, Any],
    cross_document: bool,
    topic_pattern: Optional[str],
    n_process: int,
) -> None:
    """Write an HTML report of RESPONSE scored against KEY: scores with
    bootstrap intervals, charts, error types and the worst documents'
    gold and predicted mentions side by side; with --cross-document, the
    links within and across documents."""
    from ..errors import CorefInputError
    from ..report.page import report_page
    from ..scoring import evaluate_corpus
    from .score import asked, response_documents

    with standard_input((key, response), ("KEY", "RESPONSE"), scoring.formats()) as (key, response):
        cross_document = cross_document or topic_pattern is not None
        breakdowns = asked(scoring, analyses, cross_document)
        with reported_errors():
            options = scoring.options(
                words=True, tokens=True, n_process=n_process, cross_document=cross_document, topic_pattern=topic_pattern
            )
            run = evaluate_corpus(key, response, options)
            if not run.corpus.pairs:
                raise CorefInputError(f"{key}: no documents to report on")
            page = report_page(
                run.result,
                run.corpus.words(),
                key=named(key),
                response=named(response),
                level=ci,
                n_resamples=n_resamples,
                seed=seed,
                worst=worst,
                max_tokens=max_tokens,
                tokens=run.corpus.tokens(),
                breakdowns=breakdowns,
                corpus=run.corpus,
                response_documents=response_documents(response, options, run, breakdowns=breakdowns),
                n_process=n_process,
                alignment=run.corpus.alignment,
                closure=run.corpus.closure or None,
            )
        say_warnings(run.result.warnings)
        write(page, output, "the report", inputs=(key, response))
