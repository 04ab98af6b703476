"""The text report of ``score`` and ``merge`` (tables), and the one choice
between it and the JSON (:func:`render`)."""
from typing import Any, Dict, List

from ..analysis.summary import Analyses
from ..scoring import CorpusResult
from .json import json_text, score_json
from .labels import printable, settings_line
from .paper import PAPER_FORMATS, render_paper

FORMATS = ("table", "json", *PAPER_FORMATS)
"""What :func:`render` writes."""


def render(result: CorpusResult, fmt: str, per_doc: bool, analyses: Analyses = Analyses()) -> str:
    """The report of a result as a ``table``, ``json``, or the scores tables
    for papers (:data:`~.paper.PAPER_FORMATS`: the scores, the intervals
    and macro averages when computed, and with ``per_doc`` every document's
    F1)."""
    if fmt == "json":
        return json_text(score_json(result, per_doc, analyses))
    if fmt in PAPER_FORMATS:
        return _paper(result, fmt, per_doc, analyses)
    from ..analysis.error_types import TOTAL
    from .table import documents_table, errors_table, intervals_table, macro_table, metrics_table

    parts = [metrics_table(result.metrics())]
    if analyses.intervals is not None:
        parts.append(
            f"Bootstrap {100 * analyses.level:g}% intervals ({analyses.n_resamples} resamples "
            f"of the documents, seed {analyses.seed})\n" + intervals_table(analyses.intervals)
        )
    if analyses.macro is not None:
        parts.append("Macro averages over documents\n" + macro_table(analyses.macro))
    if per_doc:
        parts.append(documents_table(result.document_metrics()))
    if analyses.errors is not None:
        shown = analyses.errors if per_doc else {TOTAL: analyses.errors[TOTAL]}
        parts.append("Errors (m. = mentions, e. = entities)\n" + errors_table(shown))
    if analyses.classes is not None:
        parts.append(_classes_text(analyses.classes.to_dict(), "Resolution classes (Stoyanov et al. 2009), MUC-RC"))
        for index, name in enumerate(result.names if per_doc else ()):
            parts.append(_classes_text(analyses.classes.document(index).to_dict(), f"Resolution classes of {name}"))
    parts.extend(_analyses_text(result, per_doc, analyses))
    parts.append(settings_line(result.settings.to_dict()))
    return "\n".join(parts)


def _paper(result: CorpusResult, fmt: str, per_doc: bool, analyses: Analyses) -> str:
    from .grids import documents_grid, intervals_grid, macro_grid, scores_grid

    grids = [scores_grid(result.metrics())]
    if analyses.intervals is not None:
        grids.append(intervals_grid(analyses.intervals, analyses.level))
    if analyses.macro is not None:
        grids.append(macro_grid(analyses.macro))
    if per_doc:
        grids.append(documents_grid(result.document_metrics()))
    return render_paper(grids, fmt, result.settings.to_dict())


def _analyses_text(result: CorpusResult, per_doc: bool, analyses: Analyses) -> List[str]:
    """The tables of the waterfall, the strata, the variant matrix and the
    error list, where asked for (docs/analyses.md)."""
    from .table import crossdoc_table, errors_list_table, strata_table, variants_table, waterfall_tables

    parts = []
    if analyses.cross_document is not None:
        parts.append(crossdoc_table(analyses.cross_document.to_dict(per_doc)))
    if analyses.waterfall is not None:
        parts.append("Error-impact waterfall (Kummerfeld & Klein 2013)\n" + waterfall_tables(analyses.waterfall.to_dict()))
        for index, name in enumerate(result.names if per_doc else ()):
            parts.append(f"Waterfall of {printable(name)}\n" + waterfall_tables(analyses.waterfall.to_dict(index)))
    for attribute, block in (analyses.strata or {}).items():
        parts.append(strata_table(attribute, block, analyses.level))
    if analyses.variants is not None:
        parts.append("Variants (CorefUD conventions: --preset corefud)\n" + variants_table([v.to_dict() for v in analyses.variants]))
    if analyses.errors_list is not None:
        parts.append(
            "Errors of each document (spans: first token, one past the last; e<n>: entity n of that side)\n"
            + errors_list_table(analyses.errors_list)
        )
    return parts


def _classes_text(block: Dict[str, Any], title: str) -> str:
    from .table import classes_table

    return f"{printable(title)}; CPP prediction {100 * block['cpp']:.2f}\n" + classes_table(block)
