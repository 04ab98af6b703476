"""``compare``: two systems scored against one key, per metric both scores,
their difference and p-values of two paired significance tests
(:func:`~spacy_coref_eval.analysis.statistics.compare`)."""
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence

import typer

from . import app
from .options import (
    FORMAT,
    INPUT_FORMS,
    KEY_ARGUMENT,
    N_RESAMPLES,
    SEED,
    ScoringOptions,
    with_scoring_options,
)
from .output import json_text, output_format, reported_errors, say, write

if TYPE_CHECKING:
    from ..scoring import CorpusResult

MAX_ROUNDS = 10_000_000


@app.command("compare")
@with_scoring_options
def compare_command(
    scoring: ScoringOptions,
    key: Path = KEY_ARGUMENT,
    system_a: Path = typer.Argument(..., help=f"System A's coreference: {INPUT_FORMS}", exists=True),
    system_b: Path = typer.Argument(..., help=f"System B's coreference: {INPUT_FORMS}", exists=True),
    rounds: int = typer.Option(10000, "--rounds", min=1, max=MAX_ROUNDS, help="Rounds of the approximate randomization test"),
    n_resamples: int = N_RESAMPLES,
    seed: int = SEED,
    classes: bool = typer.Option(False, "--classes", help="Also test every resolution class's MUC-RC (Stoyanov et al. 2009)"),
    fmt: Optional[str] = FORMAT,
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the comparison to this file (.json: JSON)"),
) -> None:
    """Compare SYSTEM_B with SYSTEM_A on KEY: per metric both F1, B − A and
    p-values of approximate randomization (two-sided) and of a paired
    bootstrap (one-sided, in the direction observed)."""
    from ..analysis.resolution import score_resolution_classes
    from ..analysis.statistics import check_same_documents, compare
    from ..formats.corpus import load_corpus
    from ..report.table import comparison_table
    from ..scoring import score_pairs

    fmt = output_format(fmt, output)
    systems = (system_a, system_b)
    with reported_errors():
        settings = scoring.settings()
        loaded = [load_corpus(key, path, *scoring.readers(), with_words=False, with_tokens=classes, formats=scoring.formats()) for path in systems]
        check_same_documents(
            loaded[0].response_names, loaded[1].response_names,
            f"cannot compare {system_a} with {system_b}: they hold different documents",
            (system_a.name, system_b.name),
        )
        tokens = [[side.tokens[name] for name, _, _ in side.pairs] for side in loaded] if classes else [None, None]
        result_a, result_b = (
            score_pairs(side.pairs, settings, side.warnings, lengths=None if parts is None else [len(p) for p in parts])
            for side, parts in zip(loaded, tokens)
        )
        per_class = None
        if classes:
            per_class = (score_resolution_classes(result_a, tokens[0]), score_resolution_classes(result_b, tokens[1]))
        comparison = compare(result_a, result_b, n_rounds=rounds, n_resamples=n_resamples, seed=seed, classes=per_class)
    warnings = [f"{path}: {note}" for path, result in zip(systems, (result_a, result_b)) for note in result.warnings]
    for warning in warnings:
        say("warn", warning)
    if fmt == "json":
        text = json_text(comparison_json(key, systems, result_a, comparison, rounds, n_resamples, seed, warnings))
    else:
        text = (
            f"A = {system_a}, B = {system_b}; {len(result_a.names)} documents; p-values: approximate "
            f"randomization ({rounds} rounds), paired bootstrap ({n_resamples} resamples), seed {seed}\n"
            + comparison_table(comparison)
        )
        if classes:
            text += "\nResolution classes, MUC-RC (Stoyanov et al. 2009)\n" + comparison_table(comparison, "Class")
    write(text, output, "the comparison", (key, *systems))


def comparison_json(
    key: Path,
    systems: Sequence[Path],
    result: "CorpusResult",
    comparison: Dict[str, Dict[str, float]],
    rounds: int,
    n_resamples: int,
    seed: int,
    warnings: List[str],
) -> Dict[str, Any]:
    """The JSON document of ``compare --format json``; resolution classes
    (``rc:CLASS`` entries of ``comparison``) under ``resolution_classes``."""
    classes = {name[3:]: entry for name, entry in comparison.items() if name.startswith("rc:")}
    return {
        "settings": result.settings.to_dict(),
        "key": str(key),
        "systems": {"a": str(systems[0]), "b": str(systems[1])},
        "n_documents": len(result.names),
        "rounds": rounds,
        "n_resamples": n_resamples,
        "seed": seed,
        "metrics": {name: entry for name, entry in comparison.items() if not name.startswith("rc:")},
        **({"resolution_classes": classes} if classes else {}),
        "warnings": warnings,
    }
