"""The JSON documents of ``score``, ``merge`` and ``compare``, built once
here from a result and its analyses."""
import json
from typing import Any, Dict, List, Mapping, Sequence

from ..analysis.summary import Analyses
from ..scoring import CorpusResult


def score_json(result: CorpusResult, per_doc: bool = False, analyses: Analyses = Analyses()) -> Dict[str, Any]:
    """The JSON document of ``score`` and ``merge``: ``settings``,
    ``metrics``, the analyses asked for (``intervals``, ``macro``,
    ``errors``, ``resolution_classes``, ``waterfall``, ``errors_list``,
    ``strata``, ``variants``; docs/analyses.md; ``cross_document``,
    docs/crossdoc.md), ``documents`` with ``per_doc``, ``alignment`` when
    the response was aligned onto the key, and ``warnings``."""
    out: Dict[str, Any] = {"settings": result.settings.to_dict(), "metrics": result.metrics()}
    if analyses.intervals is not None:
        bounds = {name: {rate: list(pair) for rate, pair in rates.items()} for name, rates in analyses.intervals.items()}
        out["intervals"] = {**bounds, "level": analyses.level, "n_resamples": analyses.n_resamples, "seed": analyses.seed}
    if analyses.macro is not None:
        out["macro"] = analyses.macro
    if analyses.errors is not None:
        from ..analysis.error_types import TOTAL

        out["errors"] = {TOTAL: analyses.errors[TOTAL]}
    if analyses.classes is not None:
        out["resolution_classes"] = analyses.classes.to_dict()
    if analyses.waterfall is not None:
        out["waterfall"] = analyses.waterfall.to_dict()
    if analyses.errors_list is not None:
        out["errors_list"] = analyses.errors_list
    if analyses.strata is not None:
        out["strata"] = analyses.strata
    if analyses.variants is not None:
        out["variants"] = [variant.to_dict() for variant in analyses.variants]
    if analyses.cross_document is not None:
        out["cross_document"] = analyses.cross_document.to_dict(per_doc)
    if per_doc:
        out["documents"] = {name: {"metrics": rates} for name, rates in result.document_metrics().items()}
        for index, (name, document) in enumerate(out["documents"].items()):
            if analyses.errors is not None:
                document["errors"] = analyses.errors[name]
            if analyses.classes is not None:
                document["resolution_classes"] = analyses.classes.document(index).to_dict()
            if analyses.waterfall is not None:
                document["waterfall"] = analyses.waterfall.to_dict(index)
    if analyses.alignment:
        out["alignment"] = alignment_json(analyses.alignment)
    if analyses.closure:
        out["closure"] = dict(analyses.closure)
    out["warnings"] = list(result.warnings)
    return out


def alignment_json(reports: Mapping[str, Any]) -> Dict[str, Any]:
    """The ``alignment`` member: what aligning the response onto the key
    changed, in ``total`` and by document (docs/formats.md)."""
    from ..formats.document import pairing_counts, total_alignment

    total = {**total_alignment(reports).to_dict(), "paired": pairing_counts(reports)}
    return {"total": total, "documents": {name: report.to_dict() for name, report in reports.items()}}


def comparison_json(
    key: str,
    systems: Sequence[str],
    result: CorpusResult,
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


def ranking_json(
    key: str,
    systems: Sequence[str],
    result: CorpusResult,
    ranking: Any,
    rounds: int,
    n_resamples: int,
    seed: int,
    level: float,
    warnings: List[str],
) -> Dict[str, Any]:
    """The JSON document of ``compare`` with three or more systems
    (docs/analyses.md §5): the ``ranking``, best first, each system with
    its F1 per metric, the interval of the ranking metric and the tests
    against the next; and every pair's comparison under ``pairs``."""
    ranked = []
    for rank, index in enumerate(ranking.order):
        entry = {
            "rank": rank + 1, "system": systems[index], "f1": ranking.f1[index],
            "interval": list(ranking.intervals[index]),
        }
        if rank + 1 < len(ranking.order):
            entry["against_next"] = ranking.against_next(rank)
        ranked.append(entry)
    return {
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
        "pairs": [
            {"a": systems[i], "b": systems[j], "metrics": comparison} for (i, j), comparison in ranking.pairs.items()
        ],
        "warnings": warnings,
    }


def json_text(data: Any) -> str:
    """``data`` as the indented JSON the commands write."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
