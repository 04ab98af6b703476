"""``compare``: two systems scored against one key, per metric both scores,
their difference and p-values of two paired significance tests
(:func:`~spacy_coref_eval.analysis.statistics.compare`)."""
from pathlib import Path
from typing import Optional

import click

from ._app import app
from .options import FORMAT, INPUT_HELP, N_RESAMPLES, SEED, ScoringOptions, existing_path, key_argument, scoring_options
from .output import output_format, reported_errors, say_warnings, write

MAX_ROUNDS = 10_000_000


@app.command("compare", epilog=INPUT_HELP)
@key_argument()
@click.argument("system_a", type=existing_path())
@click.argument("system_b", type=existing_path())
@click.option("--rounds", default=10000, type=click.IntRange(1, MAX_ROUNDS), help="Rounds of the approximate randomization test")
@N_RESAMPLES
@SEED
@click.option("--classes", is_flag=True, help="Also test every resolution class's MUC-RC (Stoyanov et al. 2009)")
@FORMAT
@click.option(
    "--output", "-o", type=click.Path(path_type=Path), default=None, help="Write the comparison to this file (.json: JSON)"
)
@scoring_options
def compare_command(
    scoring: ScoringOptions, key: Path, system_a: Path, system_b: Path, rounds: int, n_resamples: int, seed: int,
    classes: bool, fmt: Optional[str], output: Optional[Path],
) -> None:
    """Compare SYSTEM_B with SYSTEM_A on KEY: per metric both F1, B − A and
    p-values of approximate randomization (two-sided) and of a paired
    bootstrap (one-sided, in the direction observed)."""
    from ..analysis.resolution import score_resolution_classes
    from ..analysis.statistics import check_same_documents, compare
    from ..report.json import comparison_json, json_text
    from ..report.table import comparison_table
    from ..scoring import evaluate_corpus

    systems = (system_a, system_b)
    fmt = output_format(fmt, output, (key, *systems))
    with reported_errors():
        options = scoring.options(tokens=classes)
        runs = [evaluate_corpus(key, path, options) for path in systems]
        check_same_documents(
            runs[0].corpus.response_names, runs[1].corpus.response_names,
            f"cannot compare {system_a} with {system_b}: they hold different documents",
            (system_a.name, system_b.name),
        )
        per_class = None
        if classes:
            per_class = tuple(score_resolution_classes(run.result, run.corpus.tokens()) for run in runs)
        comparison = compare(runs[0].result, runs[1].result, n_rounds=rounds, n_resamples=n_resamples, seed=seed, classes=per_class)
    warnings = [f"{path}: {note}" for path, run in zip(systems, runs) for note in run.result.warnings]
    say_warnings(warnings)
    if fmt == "json":
        data = comparison_json(str(key), [str(path) for path in systems], runs[0].result, comparison, rounds, n_resamples, seed, warnings)
        text = json_text(data)
    else:
        text = (
            f"A = {system_a}, B = {system_b}; {len(runs[0].result.names)} documents; p-values: approximate "
            f"randomization ({rounds} rounds), paired bootstrap ({n_resamples} resamples), seed {seed}\n"
            + comparison_table(comparison)
        )
        if classes:
            text += "\nResolution classes, MUC-RC (Stoyanov et al. 2009)\n" + comparison_table(comparison, "Class")
    write(text, output, "the comparison", (key, *systems))
