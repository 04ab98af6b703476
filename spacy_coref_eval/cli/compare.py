"""``compare``: systems scored against one key. Two: per metric both
scores, their difference and p-values of two paired significance tests
(:func:`~spacy_coref_eval.analysis.statistics.compare`); more: ranked, with
those tests between neighbours and every pair
(:func:`~spacy_coref_eval.analysis.ranking.rank_systems`)."""

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional, cast

import click

from ._app import app
from .options import (
    FORMAT,
    INPUT_HELP,
    N_RESAMPLES,
    RANK_BY,
    SEED,
    ScoringOptions,
    check_level,
    input_path,
    key_argument,
    output_path,
    scoring_options,
)
from .output import STRICT, named, output_format, reported_errors, say_warnings, write
from .sections import section
from .stdin import standard_input

MAX_ROUNDS = 10_000_000


@app.command("compare", epilog=INPUT_HELP, short_help="Compare or rank systems on one key, with significance")
@section("Output", STRICT)
@key_argument()
@click.argument("systems", nargs=-1, required=True, type=input_path())
@section(
    "Analyses",
    click.option("--rounds", default=10000, type=click.IntRange(1, MAX_ROUNDS), help="Rounds of the approximate randomization test"),
)
@N_RESAMPLES
@SEED
@section(
    "Analyses",
    click.option("--classes", is_flag=True, help="Also test every resolution class's MUC-RC (Stoyanov et al. 2009)"),
    click.option(
        "--rank-by", default="conll", type=click.Choice(RANK_BY), help="With three or more systems: the metric whose F1 ranks them"
    ),
    click.option("--ci", "level", default=0.95, type=float, callback=check_level, help="With three or more systems: interval level"),
)
@section(
    "Output",
    click.option(
        "--html",
        "html_path",
        type=output_path(),
        default=None,
        help="With three or more systems: also write the ranking as an HTML page with its interval plot",
    ),
)
@FORMAT
@section(
    "Output",
    click.option(
        "--output", "-o", type=output_path(), default=None, help="Write the comparison to this file (.json: JSON; -: standard output)"
    ),
)
@scoring_options
def compare_command(scoring: ScoringOptions, key: Path, systems: Sequence[Path], **options: Any) -> None:
    """Compare SYSTEMS on KEY. Two systems A and B: per metric both F1,
    B − A and p-values of approximate randomization (two-sided) and of a
    paired bootstrap (one-sided, in the direction observed). Three or
    more: ranked by --rank-by, each with a bootstrap interval and those
    p-values against the next; every pair in the JSON."""
    given = scoring.formats()
    labels = ("KEY", *(f"SYSTEM {index + 1}" for index in range(len(systems))))
    with standard_input((key, *systems), labels, (given[0], *(given[1],) * len(systems))) as paths:
        compared(scoring, paths[0], paths[1:], **options)


def compared(scoring: ScoringOptions, key: Path, systems: Sequence[Path], *, classes: bool, **options: Any) -> None:
    """``compare`` of files (standard input already in one)."""
    if len(systems) < 2:
        raise click.UsageError("compare needs at least two systems")
    if len(systems) > 2:
        if classes:
            raise click.UsageError("--classes compares two systems")
        return rank_command(scoring, key, systems, **options)
    return pair_command(scoring, key, systems, classes=classes, **options)


def pair_command(
    scoring: ScoringOptions,
    key: Path,
    systems: Sequence[Path],
    *,
    rounds: int,
    n_resamples: int,
    seed: int,
    classes: bool,
    html_path: Optional[Path],
    fmt: Optional[str],
    output: Optional[Path],
    **ranking: Any,
) -> None:
    """``compare`` of two systems (``ranking``: the options only a
    ranking uses)."""
    if html_path is not None:
        raise click.UsageError("--html writes the ranking of three or more systems ('report' writes one system's page)")
    system_a, system_b = systems
    from ..analysis.resolution import score_resolution_classes
    from ..analysis.statistics import compare
    from ..report.json import comparison_json, json_text
    from ..report.labels import settings_line
    from ..report.table import comparison_table

    fmt = output_format(fmt, output, (key, *systems))
    with reported_errors():
        runs = scored_systems(key, systems, scoring.options(tokens=classes, twinning=classes))
        per_class = None
        if classes:
            # two systems: more are ranked above
            per_class = cast(tuple[Any, Any], tuple(score_resolution_classes(run.result, run.corpus.tokens()) for run in runs))
        comparison = compare(runs[0].result, runs[1].result, n_rounds=rounds, n_resamples=n_resamples, seed=seed, classes=per_class)
    warnings = said_warnings(systems, runs)
    if fmt == "json":
        data = comparison_json(
            named(key),
            [named(path) for path in systems],
            runs[0].result,
            comparison=comparison,
            rounds=rounds,
            n_resamples=n_resamples,
            seed=seed,
            warnings=warnings,
        )
        text = json_text(data)
    else:
        text = (
            f"A = {named(system_a)}, B = {named(system_b)}; {len(runs[0].result.names)} documents; p-values: approximate "
            f"randomization ({rounds} rounds), paired bootstrap ({n_resamples} resamples), seed {seed}\n" + comparison_table(comparison)
        )
        if classes:
            text += "\nResolution classes, MUC-RC (Stoyanov et al. 2009)\n" + comparison_table(comparison, "Class")
        text += "\n" + settings_line(runs[0].result.settings.to_dict())
    write(text, output, "the comparison", inputs=(key, *systems))


def rank_command(
    scoring: ScoringOptions,
    key: Path,
    systems: Sequence[Path],
    *,
    rounds: int,
    n_resamples: int,
    seed: int,
    rank_by: str,
    level: float,
    html_path: Optional[Path],
    fmt: Optional[str],
    output: Optional[Path],
) -> None:
    """``compare`` of three or more systems: the ranking (and its page)."""
    from ..analysis.ranking import rank_systems
    from ..report.json import json_text, ranking_json
    from ..report.labels import settings_line
    from ..report.table import ranking_table

    fmt = output_format(fmt, output, (key, *systems))
    labels = [named(path) for path in systems]
    with reported_errors():
        if html_path is not None:
            from ..files import check_distinct

            check_distinct([output, html_path])
        runs = scored_systems(key, systems, scoring.options(twinning=False))
        ranking = rank_systems(
            [run.result for run in runs], labels, rank_by, n_rounds=rounds, n_resamples=n_resamples, seed=seed, level=level
        )
    warnings = said_warnings(systems, runs)
    result = runs[0].result
    if fmt == "json":
        text = json_text(
            ranking_json(
                named(key),
                labels,
                result,
                ranking=ranking,
                rounds=rounds,
                n_resamples=n_resamples,
                seed=seed,
                level=level,
                warnings=warnings,
            )
        )
    else:
        text = (
            f"{len(systems)} systems on {named(key)}; {len(result.names)} documents; ranked by {rank_by} F1, "
            f"{level:.0%} bootstrap intervals; p against the next: approximate randomization ({rounds} rounds), "
            f"paired bootstrap ({n_resamples} resamples), seed {seed}\n"
            + ranking_table(ranking, labels)
            + "\n"
            + settings_line(result.settings.to_dict())
        )
    write(text, output, "the ranking", inputs=(key, *systems))
    if html_path is not None:
        from ..report.ranking import ranking_page

        page = ranking_page(ranking, labels, named(key), n_documents=len(result.names), level=level, settings=result.settings.to_dict())
        write(page, html_path, "the ranking page", inputs=(key, *systems))


def scored_systems(key: Path, systems: Sequence[Path], options: Any) -> list:
    """The runs of ``systems`` against ``key``; refused where a system does
    not hold the same documents as the first (a missing document would be
    scored as an empty response)."""
    from ..analysis.statistics import check_same_documents
    from ..scoring import evaluate_corpus

    runs = [evaluate_corpus(key, path, options) for path in systems]
    for path, run in zip(systems[1:], runs[1:]):
        check_same_documents(
            runs[0].corpus.response_names,
            run.corpus.response_names,
            f"cannot compare {named(systems[0])} with {named(path)}: they hold different documents",
            labels=(Path(named(systems[0])).name, Path(named(path)).name),
        )
    return runs


def said_warnings(systems: Sequence[Path], runs: Sequence) -> list[str]:
    """The runs' warnings, each after its system's name, said on standard error."""
    warnings = [f"{named(path)}: {note}" for path, run in zip(systems, runs) for note in run.result.warnings]
    say_warnings(warnings)
    return warnings
