"""``compare``: two systems scored against one key, per metric both scores,
their difference and p-values of two paired significance tests
(:func:`~spacy_coref_eval.analysis.statistics.compare`)."""
import json
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import typer

from ..analysis.statistics import check_same_documents, compare
from ..clusters import Clusters
from ..errors import CorefInputError
from ..readers.corpus import is_docbin, load_pairs, read_conll_documents
from ..report.table import comparison_table
from ..scoring import CorpusResult, Pair, pair_documents, score_pairs
from . import app
from .options import (
    FORMAT, KEY_ARGUMENT, MATCH, METRICS_OPTION, MIN_OVERLAP, N_RESAMPLES, OVERLAP_MEASURE, SEED, SINGLETONS,
    TWINLESS, build_settings,
)
from .output import check_format, fail, say, write


@app.command("compare")
def compare_command(
    key: Path = KEY_ARGUMENT,
    system_a: Path = typer.Argument(..., help="System A's coreference: CoNLL-2012 (file or directory) or .spacy", exists=True),
    system_b: Path = typer.Argument(..., help="System B's coreference: CoNLL-2012 (file or directory) or .spacy", exists=True),
    metrics: str = METRICS_OPTION,
    twinless: str = TWINLESS,
    singletons: str = SINGLETONS,
    match: str = MATCH,
    min_overlap: Optional[float] = MIN_OVERLAP,
    overlap_measure: Optional[str] = OVERLAP_MEASURE,
    rounds: int = typer.Option(10000, "--rounds", min=1, help="Rounds of the approximate randomization test"),
    n_resamples: int = N_RESAMPLES,
    seed: int = SEED,
    fmt: str = FORMAT,
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the comparison to this file"),
) -> None:
    """Compare SYSTEM_B with SYSTEM_A on KEY: per metric both F1, B − A and
    p-values of approximate randomization (two-sided) and of a paired
    bootstrap (one-sided, in the direction observed)."""
    check_format(fmt)
    systems = (system_a, system_b)
    try:
        settings = build_settings(metrics, twinless, singletons, match, min_overlap, overlap_measure)
        (pairs_a, pairs_b), notes = load_systems(key, systems)
        result_a = score_pairs(pairs_a, settings, notes[0])
        result_b = score_pairs(pairs_b, settings, notes[1])
        comparison = compare(result_a, result_b, n_rounds=rounds, n_resamples=n_resamples, seed=seed)
    except (CorefInputError, ValueError) as err:
        fail(err)
    warnings = [f"{path}: {note}" for path, result in zip(systems, (result_a, result_b)) for note in result.warnings]
    for warning in warnings:
        say("warn", warning)
    if fmt == "json":
        data = comparison_json(key, systems, result_a, comparison, rounds, n_resamples, seed, warnings)
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    else:
        text = (
            f"A = {system_a}, B = {system_b}; {len(result_a.documents)} documents; p-values: approximate "
            f"randomization ({rounds} rounds), paired bootstrap ({n_resamples} resamples), seed {seed}\n"
            + comparison_table(comparison)
        )
    write(text, output, "the comparison")


def load_systems(key: Path, systems: Sequence[Path]) -> Tuple[List[List[Pair]], List[List[str]]]:
    """Every system's document pairs against ``key``, and its warnings. CoNLL
    files pair by document name, and every system must hold the same
    documents; with a ``.spacy`` file documents pair by order
    (:func:`~spacy_coref_eval.readers.corpus.load_pairs`)."""
    if any(is_docbin(path) for path in (key, *systems)):
        loaded = [load_pairs(key, path) for path in systems]
        return [pairs for pairs, _ in loaded], [notes for _, notes in loaded]
    key_clusters = _conll_clusters(key)
    responses = [_conll_clusters(path) for path in systems]
    for path, response in zip(systems[1:], responses[1:]):
        check_same_documents(
            responses[0], response, f"cannot compare {systems[0]} with {path}: they hold different documents",
            (systems[0].name, path.name),
        )
    paired = [pair_documents(key_clusters, response) for response in responses]
    return [pairs for pairs, _ in paired], [notes for _, notes in paired]


def _conll_clusters(path: Path) -> Dict[str, Clusters]:
    return {name: document.clusters for name, document in read_conll_documents(path).items()}


def comparison_json(
    key: Path,
    systems: Sequence[Path],
    result: CorpusResult,
    comparison: Dict[str, Dict[str, float]],
    rounds: int,
    n_resamples: int,
    seed: int,
    warnings: List[str],
) -> Dict[str, Any]:
    """The JSON document of ``compare --format json``."""
    return {
        "settings": result.settings.to_dict(),
        "key": str(key),
        "systems": {"a": str(systems[0]), "b": str(systems[1])},
        "n_documents": len(result.documents),
        "rounds": rounds,
        "n_resamples": n_resamples,
        "seed": seed,
        "metrics": comparison,
        "warnings": warnings,
    }
