"""``score``, ``merge`` and ``demo``: score a response against a key, merge
scores of shards, and report them. The scoring machinery is imported when a
command runs, not when the command line starts."""

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Optional

import click

from ._app import app
from .options import (
    CI,
    INPUT_HELP,
    MACRO,
    N_PROCESS,
    N_RESAMPLES,
    PER_DOC,
    SEED,
    ScoringOptions,
    analysis_options,
    compose,
    existing_path,
    format_option,
    input_path,
    key_argument,
    output_path,
    scoring_options,
)
from .output import REPORT_FORMATS, STRICT, output_format, reported_errors, say, say_warnings, write
from .sections import section
from .stdin import standard_input

DATA = Path(__file__).resolve().parent.parent / "data"
OUTPUT = section(
    "Output",
    click.option(
        "--output",
        "-o",
        type=output_path(),
        default=None,
        help="Write the report to this file (.json: JSON unless --format says otherwise; -: standard output)",
    ),
)
SAVE_COUNTS = section(
    "Output",
    click.option(
        "--save-counts",
        "save_counts_to",
        type=click.Path(path_type=Path),
        default=None,
        help="Also save every document's counts here (.json, else msgpack), for 'merge'",
    ),
)
REPORTING = compose(PER_DOC, CI, MACRO, SEED, N_RESAMPLES, format_option(REPORT_FORMATS), OUTPUT)


CROSS_DOCUMENT = section(
    "Scoring",
    click.option(
        "--cross-document",
        is_flag=True,
        help="Entity ids are shared across the documents of a file (ECB+): score all documents as one, or one per "
        "topic with --topic-pattern (CoNLL-2012 input)",
    ),
    click.option(
        "--topic-pattern",
        default=None,
        metavar="REGEX",
        help="--cross-document: documents whose names give the same first group of REGEX form one topic, "
        "scored as one document (implies --cross-document)",
    ),
)


@app.command(epilog=INPUT_HELP, short_help="Score a response against a key")
@section("Output", STRICT)
@key_argument()
@click.argument("response", type=input_path())
@REPORTING
@analysis_options("score")
@CROSS_DOCUMENT
@SAVE_COUNTS
@N_PROCESS
@scoring_options
def score(
    scoring: ScoringOptions,
    key: Path,
    response: Path,
    *,
    per_doc: bool,
    ci: Optional[float],
    macro: bool,
    seed: int,
    n_resamples: int,
    fmt: Optional[str],
    output: Optional[Path],
    analyses: dict[str, Any],
    cross_document: bool,
    topic_pattern: Optional[str],
    save_counts_to: Optional[Path],
    n_process: int,
) -> None:
    """Score RESPONSE against KEY with every chosen metric (KEY and RESPONSE:
    files in any format the package reads, see 'formats')."""
    from ..analysis.summary import analyse
    from ..files import check_distinct
    from ..scoring import evaluate_corpus

    with standard_input((key, response), ("KEY", "RESPONSE"), scoring.formats()) as (key, response):
        inputs = (key, response)
        fmt = output_format(fmt, output, inputs, offered=REPORT_FORMATS)
        cross_document = cross_document or topic_pattern is not None
        breakdowns = asked(scoring, analyses, cross_document)
        check_paper_format(fmt, breakdowns)
        with reported_errors():
            check_distinct([output, save_counts_to])
            options = scoring.options(
                **breakdowns.run_options(), n_process=n_process, cross_document=cross_document, topic_pattern=topic_pattern
            )
            run = evaluate_corpus(key, response, options)
            if save_counts_to is not None:
                from ..shards import save_counts

                save_counts(run.result, save_counts_to, inputs)
            computed = analyse(
                run.result,
                level=ci,
                n_resamples=n_resamples,
                seed=seed,
                macro=macro,
                breakdowns=breakdowns,
                corpus=run.corpus,
                response_documents=response_documents(response, options, run, breakdowns=breakdowns),
                n_process=n_process,
            )
            computed = replace(computed, alignment=run.corpus.alignment, closure=run.corpus.closure or None)
        report(run.result if computed.result is None else computed.result, fmt, per_doc, output=output, analyses=computed, inputs=inputs)


def check_paper_format(fmt: str, breakdowns) -> None:
    """Refuse analyses that the paper formats (csv, tsv, markdown, latex:
    the scores, intervals, macro averages and documents) do not render."""
    if fmt in REPORT_FORMATS[2:] and breakdowns.asked:
        from ..analysis.registry import get_analysis

        flags = [get_analysis(name).options[0].flags.split("/")[0] for name in breakdowns.asked]
        raise click.UsageError(
            f"--format {fmt} writes the scores tables (with --ci, --macro, --per-doc); {', '.join(flags)} need --format table or json"
        )


def asked(scoring: ScoringOptions, analyses: Mapping[str, Any], cross_document: bool = False):
    """The registered analyses asked for by their option values
    (:class:`~..analysis.summary.Breakdowns`), each checked: refused where
    it cannot work (an unknown stratum attribute, unreadable chain
    lengths, ``--variants`` with a setting of its own): a usage error."""
    from ..analysis.summary import Breakdowns

    try:
        return Breakdowns(analyses, cross_document=cross_document).check(scoring)
    except ValueError as err:
        raise click.UsageError(str(err)) from None


def response_documents(response: Path, options, run, *, breakdowns) -> list:
    """The response's documents for strata read off the input's own
    attributes (entity types, ``attr:KEY``) and for the error list's
    entity ids, read again; else none."""
    if not breakdowns.response_attributes:
        return []
    from ..analysis.attributes import paired_response_documents

    return paired_response_documents(response, options, run.result.names)


@app.command(short_help="Merge counts of shards scored apart")
@click.argument("counts", nargs=-1, required=True, type=existing_path(dir_okay=False))
@REPORTING
@section(
    "Output",
    click.option("--save-counts", "save_counts_to", type=click.Path(path_type=Path), default=None, help="Also save the merged counts here"),
)
def merge(
    counts: Sequence[Path],
    per_doc: bool,
    ci: Optional[float],
    *,
    macro: bool,
    seed: int,
    n_resamples: int,
    fmt: Optional[str],
    output: Optional[Path],
    save_counts_to: Optional[Path],
) -> None:
    """Merge the counts of shards scored separately into one corpus score
    (the same as scoring all documents at once), with intervals and macro
    averages as 'score' gives them (error kinds need the clusters: ask
    'score --errors'). COUNTS: files written by 'score --save-counts'."""
    from ..analysis.summary import analyse
    from ..files import check_distinct
    from ..shards import load_counts, merge_results, save_counts

    fmt = output_format(fmt, output, counts, offered=REPORT_FORMATS)
    with reported_errors():
        check_distinct([output, save_counts_to])
        result = merge_results([load_counts(path) for path in counts], [str(path) for path in counts])
        if save_counts_to is not None:
            save_counts(result, save_counts_to, counts)
        computed = analyse(result, level=ci, n_resamples=n_resamples, seed=seed, macro=macro)
    report(result, fmt, per_doc, output=output, analyses=computed, inputs=counts)


@app.command(short_help="Score the bundled example")
def demo() -> None:
    """Score the small example bundled with the package and print the table."""
    from ..scoring import evaluate_corpus

    key, response = DATA / "demo.key.conll", DATA / "demo.response.conll"
    say("info", f"Scoring {response.name} against {key.name} ({DATA})")
    report(evaluate_corpus(key, response).result, "table", per_doc=True, output=None)


def report(result, fmt: str, per_doc: bool, *, output: Optional[Path], analyses=None, inputs: Sequence[Path] = ()) -> None:
    """Warnings on standard error, then the report to ``output`` or standard output."""
    from ..analysis.summary import Analyses
    from ..report.text import render

    say_warnings(result.warnings)
    write(render(result, fmt, per_doc, analyses=analyses or Analyses()), output, "scores", inputs=inputs)
