"""The text report of ``score`` and ``merge`` (tables), and the one choice
between it and the JSON (:func:`render`)."""

from ..analysis.registry import resolve, table_order
from ..analysis.summary import Analyses
from ..scoring import CorpusResult
from .grids import documents_grid, intervals_grid, macro_grid, scores_grid
from .json import json_text, score_json
from .labels import settings_line
from .paper import PAPER_FORMATS, render_paper

FORMATS = ("table", "json", *PAPER_FORMATS)
"""What :func:`render` writes."""


def render(result: CorpusResult, fmt: str, per_doc: bool, *, analyses: Analyses = Analyses()) -> str:
    """The report of a result as a ``table`` (the table of every registered
    analysis computed, in the order of its ``table_rank``), ``json``, or the
    scores tables for papers (:data:`~.paper.PAPER_FORMATS`: the scores,
    the intervals and macro averages when computed, and with ``per_doc``
    every document's F1)."""
    if fmt == "json":
        return json_text(score_json(result, per_doc, analyses))
    if fmt in PAPER_FORMATS:
        return _paper(result, fmt, per_doc, analyses=analyses)
    from .table import documents_table, intervals_table, macro_table, metrics_table

    parts = [metrics_table(result.metrics())]
    if analyses.intervals is not None:
        parts.append(
            f"Bootstrap {100 * (analyses.level or 0.0):g}% intervals ({analyses.n_resamples} resamples "
            f"of the documents, seed {analyses.seed})\n" + intervals_table(analyses.intervals)
        )
    if analyses.macro is not None:
        parts.append("Macro averages over documents\n" + macro_table(analyses.macro))
    if per_doc:
        parts.append(documents_table(result.document_metrics()))
    for analysis in table_order():
        if analysis.table and analysis.name in analyses.results:
            parts.extend(resolve(analysis.table)(analyses.results[analysis.name], result, per_doc, analyses))
    parts.append(settings_line(result.settings.to_dict()))
    return "\n".join(parts)


def _paper(result: CorpusResult, fmt: str, per_doc: bool, *, analyses: Analyses) -> str:
    grids = [scores_grid(result.metrics())]
    if analyses.intervals is not None:
        grids.append(intervals_grid(analyses.intervals, analyses.level or 0.0))
    if analyses.macro is not None:
        grids.append(macro_grid(analyses.macro))
    if per_doc:
        grids.append(documents_grid(result.document_metrics()))
    return render_paper(grids, fmt, result.settings.to_dict())
