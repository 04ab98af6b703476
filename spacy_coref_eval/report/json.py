"""The JSON documents of ``score``, ``merge`` and ``compare``, built once
here from a result and its analyses."""

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..about import __version__
from ..analysis.registry import get_analysis, resolve
from ..analysis.summary import Analyses
from ..formats.document import pairing_counts, total_alignment
from ..scoring import CorpusResult

SCHEMA_VERSION = "1"
"""The version of the JSON documents' layout (``schemas/score.schema.json``
describes that of ``score`` and ``merge``): raised when a member changes
meaning or goes, not when one is added."""


def stamped(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` after ``schema_version`` and the package's ``version``,
    the two members every JSON document of the command line begins with."""
    return {"schema_version": SCHEMA_VERSION, "version": __version__, **document}


def score_json(result: CorpusResult, per_doc: bool = False, analyses: Analyses = Analyses()) -> dict[str, Any]:
    """The JSON document of ``score`` and ``merge``: ``schema_version``,
    ``version`` (:func:`stamped`), ``settings``, ``metrics``, ``intervals``
    and ``macro`` when computed, the block of every registered analysis
    computed (docs/analyses.md), ``documents`` with ``per_doc`` (with each
    analysis's block per document, where it has one), ``alignment`` when
    the response was aligned onto the key, and ``warnings``."""
    out: dict[str, Any] = {"settings": result.settings.to_dict(), "metrics": result.metrics()}
    if analyses.intervals is not None:
        bounds = {name: {rate: list(pair) for rate, pair in rates.items()} for name, rates in analyses.intervals.items()}
        out["intervals"] = {**bounds, "level": analyses.level, "n_resamples": analyses.n_resamples, "seed": analyses.seed}
    if analyses.macro is not None:
        out["macro"] = analyses.macro
    out.update(analyses.blocks(per_doc))
    if per_doc:
        renderers = [(name, get_analysis(name).document_json) for name in analyses.results]
        documents = [(name, resolve(path)) for name, path in renderers if path]
        out["documents"] = {name: {"metrics": rates} for name, rates in result.document_metrics().items()}
        for index, (name, document) in enumerate(out["documents"].items()):
            for member, render in documents:
                document[member] = render(analyses.results[member], index, name)
    if analyses.alignment:
        out["alignment"] = alignment_json(analyses.alignment)
    if analyses.closure:
        out["closure"] = dict(analyses.closure)
    out["warnings"] = list(result.warnings)
    return stamped(out)


def alignment_json(reports: Mapping[str, Any]) -> dict[str, Any]:
    """The ``alignment`` member: what aligning the response onto the key
    changed, in ``total`` and by document (docs/formats.md)."""
    total = {**total_alignment(reports).to_dict(), "paired": pairing_counts(reports)}
    return {"total": total, "documents": {name: report.to_dict() for name, report in reports.items()}}


def comparison_json(
    key: str,
    systems: Sequence[str],
    result: CorpusResult,
    *,
    comparison: dict[str, dict[str, float]],
    rounds: int,
    n_resamples: int,
    seed: int,
    warnings: list[str],
) -> dict[str, Any]:
    """The JSON document of ``compare --format json``; resolution classes
    (``rc:CLASS`` entries of ``comparison``) under ``resolution_classes``."""
    classes = {name[3:]: entry for name, entry in comparison.items() if name.startswith("rc:")}
    return stamped(
        {
            "settings": result.settings.to_dict(),
            "key": key,
            "systems": {"a": systems[0], "b": systems[1]},
            "n_documents": len(result.names),
            "rounds": rounds,
            "n_resamples": n_resamples,
            "seed": seed,
            "metrics": {name: entry for name, entry in comparison.items() if not name.startswith("rc:")},
            **({"resolution_classes": classes} if classes else {}),
            "warnings": warnings,
        }
    )


def ranking_json(
    key: str,
    systems: Sequence[str],
    result: CorpusResult,
    *,
    ranking: Any,
    rounds: int,
    n_resamples: int,
    seed: int,
    level: float,
    warnings: list[str],
) -> dict[str, Any]:
    """The JSON document of ``compare`` with three or more systems
    (docs/analyses.md §5): the ``ranking``, best first, each system with
    its F1 per metric, the interval of the ranking metric and the tests
    against the next; and every pair's comparison under ``pairs``."""
    ranked = []
    for rank, index in enumerate(ranking.order):
        entry = {"rank": rank + 1, "system": systems[index], "f1": ranking.f1[index], "interval": list(ranking.intervals[index])}
        if rank + 1 < len(ranking.order):
            entry["against_next"] = ranking.against_next(rank)
        ranked.append(entry)
    return stamped(
        {
            "settings": result.settings.to_dict(),
            "key": key,
            "systems": list(systems),
            "n_documents": len(result.names),
            "rank_by": ranking.metric,
            "level": level,
            "rounds": rounds,
            "n_resamples": n_resamples,
            "seed": seed,
            "ranking": ranked,
            "pairs": [{"a": systems[i], "b": systems[j], "metrics": comparison} for (i, j), comparison in ranking.pairs.items()],
            "warnings": warnings,
        }
    )


def json_text(data: Any) -> str:
    """``data`` as the indented JSON the commands write."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
