"""The text report of ``score`` and ``merge`` (tables), and the one choice
between it and the JSON (:func:`render`)."""
from ..analysis.registry import resolve, table_order
from ..analysis.summary import Analyses
from ..scoring import CorpusResult
from .json import json_text, score_json

FORMATS = ("table", "json")
"""What :func:`render` writes."""


def render(result: CorpusResult, fmt: str, per_doc: bool, analyses: Analyses = Analyses()) -> str:
    """The report of a result in ``json`` or ``table`` form: the table of
    every registered analysis computed, in the order of its ``table_rank``."""
    if fmt == "json":
        return json_text(score_json(result, per_doc, analyses))
    from .table import documents_table, intervals_table, macro_table, metrics_table

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
    for analysis in table_order():
        if analysis.table and analysis.name in analyses.results:
            parts.extend(resolve(analysis.table)(analyses.results[analysis.name], result, per_doc, analyses))
    return "\n".join(parts)
