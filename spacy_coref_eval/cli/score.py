"""``score``, ``merge`` and ``demo``: score a response against a key, merge
scores of shards, and report them. The scoring machinery is imported when a
command runs, not when the command line starts."""
from dataclasses import replace
from pathlib import Path
from typing import Optional, Sequence

import click

from ._app import app
from .options import (
    CI,
    FORMAT,
    INPUT_HELP,
    MACRO,
    N_PROCESS,
    N_RESAMPLES,
    PER_DOC,
    SEED,
    ScoringOptions,
    compose,
    existing_path,
    key_argument,
    scoring_options,
)
from .output import output_format, reported_errors, say, say_warnings, write

DATA = Path(__file__).resolve().parent.parent / "data"
OUTPUT = click.option(
    "--output", "-o", type=click.Path(path_type=Path), default=None,
    help="Write the report to this file (.json: JSON unless --format says otherwise)",
)
SAVE_COUNTS = click.option(
    "--save-counts", "save_counts_to", type=click.Path(path_type=Path), default=None,
    help="Also save every document's counts here (.json, else msgpack), for 'merge'",
)
REPORTING = compose(PER_DOC, CI, MACRO, SEED, N_RESAMPLES, FORMAT, OUTPUT)
WHY = compose(
    click.option(
        "--waterfall", is_flag=True,
        help="Add the error-impact waterfall: every metric after fixing each kind of error in turn, and each kind "
        "alone (by document too with --per-doc)",
    ),
    click.option(
        "--errors-list", is_flag=True,
        help="Add every error of every document: missing, extra and span-error mentions; missing, extra, divided "
        "and conflated entities with their mentions",
    ),
    click.option(
        "--by", "by", multiple=True,
        help="Add every metric by stratum of chain-length, mention-type, entity-type or attr:KEY (repeatable)",
    ),
    click.option(
        "--chain-lengths", default="1,2-5,6+", show_default=True,
        help="--by chain-length: entity sizes of each stratum, N, N-M or N+, from 1 on",
    ),
    click.option(
        "--variants", is_flag=True,
        help="Add the variant matrix: exact, head and partial matching with singletons kept and removed under "
        "--preset corefud, and the reference setting, from one read of the input",
    ),
)


CROSS_DOCUMENT = compose(
    click.option(
        "--cross-document", is_flag=True,
        help="Entity ids are shared across the documents of a file (ECB+): score all documents as one, or one per "
        "topic with --topic-pattern (CoNLL-2012 input)",
    ),
    click.option(
        "--topic-pattern", default=None, metavar="REGEX",
        help="--cross-document: documents whose names give the same first group of REGEX form one topic, "
        "scored as one document (implies --cross-document)",
    ),
)


@app.command(epilog=INPUT_HELP, short_help="Score a response against a key")
@key_argument()
@click.argument("response", type=existing_path())
@REPORTING
@click.option("--errors", is_flag=True, help="Add counts of error kinds (by document too with --per-doc)")
@click.option(
    "--classes", is_flag=True,
    help="Add resolution classes (Stoyanov et al. 2009): class mix and MUC-RC per class (by document too with --per-doc)",
)
@WHY
@CROSS_DOCUMENT
@SAVE_COUNTS
@N_PROCESS
@scoring_options
def score(
    scoring: ScoringOptions, key: Path, response: Path, per_doc: bool, ci: Optional[float], macro: bool, seed: int,
    n_resamples: int, fmt: Optional[str], output: Optional[Path], errors: bool, classes: bool,
    waterfall: bool, errors_list: bool, by: Sequence[str], chain_lengths: str, variants: bool,
    cross_document: bool, topic_pattern: Optional[str], save_counts_to: Optional[Path], n_process: int,
) -> None:
    """Score RESPONSE against KEY with every chosen metric (KEY and RESPONSE:
    files in any format the package reads, see 'formats')."""
    from ..analysis.summary import analyse
    from ..files import check_distinct
    from ..scoring import evaluate_corpus

    inputs = (key, response)
    fmt = output_format(fmt, output, inputs)
    with reported_errors():
        check_distinct([output, save_counts_to])
        cross_document = cross_document or topic_pattern is not None
        breakdowns = asked(scoring, waterfall, errors_list, by, chain_lengths, variants, cross_document)
        options = scoring.options(
            tokens=classes or breakdowns.tokens, words=errors_list, n_process=n_process,
            twinning=errors or classes or breakdowns.twinning,
            cross_document=cross_document, topic_pattern=topic_pattern, stream=not variants,
        )
        run = evaluate_corpus(key, response, options)
        if save_counts_to is not None:
            from ..shards import save_counts

            save_counts(run.result, save_counts_to, inputs)
        tokens = run.corpus.tokens() if classes else None
        analyses = analyse(
            run.result, ci, n_resamples, seed, macro, errors, tokens, breakdowns, run.corpus,
            response_documents(response, options, run, breakdowns), n_process,
        )
        analyses = replace(analyses, alignment=run.corpus.alignment)
    report(run.result, fmt, per_doc, output, analyses, inputs)


def asked(
    scoring: ScoringOptions, waterfall: bool, errors_list: bool, by: Sequence[str], chain_lengths: str, variants: bool,
    cross_document: bool = False,
):
    """The breakdowns asked for (:class:`~..analysis.summary.Breakdowns`);
    refused where they cannot work: an unknown stratum attribute,
    unreadable chain lengths, and ``--variants`` with a setting of its own
    (it sets preset, matching and singletons itself)."""
    from ..analysis.summary import Breakdowns

    if by:
        from ..analysis.attributes import ChainLengths, check_attribute

        for attribute in by:
            check_attribute(attribute)
        ChainLengths.parse(chain_lengths)
    if variants:
        given = [f"--{name}" for name in ("preset", "match", "singletons") if getattr(scoring, name) is not None]
        if given:
            raise ValueError(f"--variants scores every preset, matching and singleton setting itself; leave out {', '.join(given)}")
    return Breakdowns(waterfall, errors_list, tuple(by), chain_lengths, variants, cross_document)


def response_documents(response: Path, options, run, breakdowns) -> list:
    """The response's documents for strata read off the input's own
    attributes (entity types, ``attr:KEY``), read again; else none."""
    if not breakdowns.response_attributes:
        return []
    from ..analysis.attributes import paired_response_documents

    return paired_response_documents(response, options, run.result.names)


@app.command(short_help="Merge counts of shards scored apart")
@click.argument("counts", nargs=-1, required=True, type=existing_path(dir_okay=False))
@REPORTING
@click.option(
    "--save-counts", "save_counts_to", type=click.Path(path_type=Path), default=None, help="Also save the merged counts here"
)
def merge(
    counts: Sequence[Path], per_doc: bool, ci: Optional[float], macro: bool, seed: int, n_resamples: int,
    fmt: Optional[str], output: Optional[Path], save_counts_to: Optional[Path],
) -> None:
    """Merge the counts of shards scored separately into one corpus score
    (the same as scoring all documents at once), with intervals and macro
    averages as 'score' gives them (error kinds need the clusters: ask
    'score --errors'). COUNTS: files written by 'score --save-counts'."""
    from ..analysis.summary import analyse
    from ..files import check_distinct
    from ..shards import load_counts, merge_results, save_counts

    fmt = output_format(fmt, output, counts)
    with reported_errors():
        check_distinct([output, save_counts_to])
        result = merge_results([load_counts(path) for path in counts], [str(path) for path in counts])
        if save_counts_to is not None:
            save_counts(result, save_counts_to, counts)
        analyses = analyse(result, ci, n_resamples, seed, macro)
    report(result, fmt, per_doc, output, analyses, counts)


@app.command(short_help="Score the bundled example")
def demo() -> None:
    """Score the small example bundled with the package and print the table."""
    from ..scoring import evaluate_corpus

    key, response = DATA / "demo.key.conll", DATA / "demo.response.conll"
    say("info", f"Scoring {response.name} against {key.name} ({DATA})")
    report(evaluate_corpus(key, response).result, "table", per_doc=True, output=None)


def report(result, fmt: str, per_doc: bool, output: Optional[Path], analyses=None, inputs: Sequence[Path] = ()) -> None:
    """Warnings on standard error, then the report to ``output`` or standard output."""
    from ..analysis.summary import Analyses
    from ..report.text import render

    say_warnings(result.warnings)
    write(render(result, fmt, per_doc, analyses or Analyses()), output, "scores", inputs)
