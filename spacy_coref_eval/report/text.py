"""The text report of ``score`` and ``merge`` (tables), and the one choice
between it and the JSON (:func:`render`)."""
from typing import Any, Dict

from ..analysis.summary import Analyses
from ..scoring import CorpusResult
from .json import json_text, score_json
from .labels import printable

FORMATS = ("table", "json")
"""What :func:`render` writes."""


def render(result: CorpusResult, fmt: str, per_doc: bool, analyses: Analyses = Analyses()) -> str:
    """The report of a result in ``json`` or ``table`` form."""
    if fmt == "json":
        return json_text(score_json(result, per_doc, analyses))
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
    return "\n".join(parts)


def _classes_text(block: Dict[str, Any], title: str) -> str:
    from .table import classes_table

    return f"{printable(title)}; CPP prediction {100 * block['cpp']:.2f}\n" + classes_table(block)
