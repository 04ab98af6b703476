"""How the table and the HTML report render the analyses built in, named
by the registry (:mod:`~spacy_coref_eval.analysis.registry`): a table
renderer takes ``(value, result, per_doc, analyses)`` and returns text
blocks; an HTML renderer takes ``(block, data)``, the analysis's JSON
block (or ``None``) and the page's :class:`~.views.ReportData`."""

from collections.abc import Mapping
from typing import Any, Optional

from ..analysis.error_types import TOTAL
from .breakdowns import strata_section, variants_section, waterfall_section
from .crossdoc_html import cross_document_section
from .html import classes_section, errors_section
from .labels import printable
from .table import classes_table, crossdoc_table, errors_list_table, errors_table, strata_table, variants_table, waterfall_tables
from .views import cross_document_view


def errors_text(value: Mapping[str, Any], result: Any, per_doc: bool, analyses: Any) -> list[str]:
    shown = value if per_doc else {TOTAL: value[TOTAL]}
    return ["Errors (m. = mentions, e. = entities)\n" + errors_table(shown)]


def classes_text(value: Any, result: Any, per_doc: bool, analyses: Any) -> list[str]:
    parts = [_classes_text(value.to_dict(), "Resolution classes (Stoyanov et al. 2009), MUC-RC")]
    for index, name in enumerate(result.names if per_doc else ()):
        parts.append(_classes_text(value.document(index).to_dict(), f"Resolution classes of {name}"))
    return parts


def _classes_text(block: Mapping[str, Any], title: str) -> str:
    return f"{printable(title)}; CPP prediction {100 * block['cpp']:.2f}\n" + classes_table(block)


def crossdoc_text(value: Any, result: Any, per_doc: bool, analyses: Any) -> list[str]:
    return [crossdoc_table(value.to_dict(per_doc))]


def waterfall_text(value: Any, result: Any, per_doc: bool, analyses: Any) -> list[str]:
    parts = ["Error-impact waterfall (Kummerfeld & Klein 2013)\n" + waterfall_tables(value.to_dict())]
    for index, name in enumerate(result.names if per_doc else ()):
        parts.append(f"Waterfall of {printable(name)}\n" + waterfall_tables(value.to_dict(index)))
    return parts


def strata_text(value: Mapping[str, Any], result: Any, per_doc: bool, analyses: Any) -> list[str]:
    return [strata_table(attribute, block, analyses.level) for attribute, block in value.items()]


def variants_text(value: Any, result: Any, per_doc: bool, analyses: Any) -> list[str]:
    return ["Variants (CorefUD conventions: --preset corefud)\n" + variants_table([v.to_dict() for v in value])]


def errors_list_text(value: Any, result: Any, per_doc: bool, analyses: Any) -> list[str]:
    return ["Errors of each document (spans: first token, one past the last; e<n>: entity n of that side)\n" + errors_list_table(value)]


def errors_html(block: Optional[Mapping[str, Any]], data: Any) -> str:
    """The corpus's error counts, shown on every page."""
    return errors_section(data.errors.get("total", {}))


def classes_html(block: Optional[Mapping[str, Any]], data: Any) -> str:
    return classes_section(block)


def waterfall_html(block: Optional[Mapping[str, Any]], data: Any) -> str:
    return waterfall_section(block)


def strata_html(block: Optional[Mapping[str, Any]], data: Any) -> str:
    return strata_section(block, data.level)


def variants_html(block: Optional[Any], data: Any) -> str:
    return variants_section(block)


def crossdoc_html(block: Optional[Mapping[str, Any]], data: Any) -> str:
    return cross_document_section(cross_document_view(block, data.metrics, data.documents))
