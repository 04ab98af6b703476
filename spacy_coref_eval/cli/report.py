"""``report``: score a response against a key and write one self-contained
HTML page (:func:`~spacy_coref_eval.report.page.report_page`)."""
from pathlib import Path
from typing import Optional, Sequence

import click

from ._app import app
from .options import INPUT_HELP, N_PROCESS, N_RESAMPLES, SEED, ScoringOptions, check_level, existing_path, key_argument, scoring_options
from .output import STRICT, reported_errors, say_warnings, write
from .score import CROSS_DOCUMENT


@app.command("report", epilog=INPUT_HELP, short_help="Write an HTML report of a response against a key")
@STRICT
@key_argument()
@click.argument("response", type=existing_path())
@click.option("--output", "-o", type=click.Path(path_type=Path), required=True, help="Write the HTML report to this file")
@click.option(
    "--ci", type=float, default=0.95, callback=check_level, help="Confidence level of the bootstrap intervals, in (0, 1)"
)
@N_RESAMPLES
@SEED
@click.option("--worst", default=5, type=click.IntRange(min=0), help="Show this many lowest-scoring documents side by side")
@click.option(
    "--max-tokens", default=400, type=click.IntRange(min=1), help="Show at most this many tokens of each (the stretch with most errors)"
)
@click.option(
    "--waterfall/--no-waterfall", default=True, show_default=True,
    help="Show the error-impact waterfall: every metric after fixing each kind of error in turn, and alone",
)
@click.option("--by", "by", multiple=True, help="Show every metric by stratum of chain-length, mention-type, entity-type or attr:KEY")
@click.option("--chain-lengths", default="1,2-5,6+", show_default=True, help="--by chain-length: entity sizes of each stratum")
@click.option("--variants", is_flag=True, help="Show the variant matrix (reference; exact, head and partial under --preset corefud)")
@CROSS_DOCUMENT
@N_PROCESS
@scoring_options
def report_command(
    scoring: ScoringOptions, key: Path, response: Path, output: Path, ci: float, n_resamples: int, seed: int,
    worst: int, max_tokens: int, waterfall: bool, by: Sequence[str], chain_lengths: str, variants: bool,
    cross_document: bool, topic_pattern: Optional[str], n_process: int,
) -> None:
    """Write an HTML report of RESPONSE scored against KEY: scores with
    bootstrap intervals, charts, error types and the worst documents'
    gold and predicted mentions side by side; with --cross-document, the
    links within and across documents."""
    from ..errors import CorefInputError
    from ..report.page import report_page
    from ..scoring import evaluate_corpus
    from .score import asked, response_documents

    with reported_errors():
        cross_document = cross_document or topic_pattern is not None
        breakdowns = asked(scoring, waterfall, False, by, chain_lengths, variants, cross_document)
        options = scoring.options(
            words=True, tokens=True, n_process=n_process, cross_document=cross_document, topic_pattern=topic_pattern,
        )
        run = evaluate_corpus(key, response, options)
        if not run.corpus.pairs:
            raise CorefInputError(f"{key}: no documents to report on")
        page = report_page(
            run.result, run.corpus.words(), str(key), str(response), ci, n_resamples, seed, worst, max_tokens,
            run.corpus.tokens(), breakdowns, run.corpus, response_documents(response, options, run, breakdowns), n_process,
            run.corpus.alignment,
        )
    say_warnings(run.result.warnings)
    write(page, output, "the report", (key, response))
