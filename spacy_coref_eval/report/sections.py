"""How the table and the HTML report render the analyses built in, named
by the registry (:mod:`~spacy_coref_eval.analysis.registry`): a table
renderer takes ``(value, result, per_doc, analyses)`` and returns text
blocks; an HTML renderer takes ``(block, data)``, the analysis's JSON
block (or ``None``) and the page's :class:`~.views.ReportData`."""
from typing import Any, List, Mapping, Optional

from .labels import printable


def errors_text(value: Mapping[str, Any], result: Any, per_doc: bool, analyses: Any) -> List[str]:
    from ..analysis.error_types import TOTAL
    from .table import errors_table

    shown = value if per_doc else {TOTAL: value[TOTAL]}
    return ["Errors (m. = mentions, e. = entities)\n" + errors_table(shown)]


def classes_text(value: Any, result: Any, per_doc: bool, analyses: Any) -> List[str]:
    parts = [_classes_text(value.to_dict(), "Resolution classes (Stoyanov et al. 2009), MUC-RC")]
    for index, name in enumerate(result.names if per_doc else ()):
        parts.append(_classes_text(value.document(index).to_dict(), f"Resolution classes of {name}"))
    return parts


def _classes_text(block: Mapping[str, Any], title: str) -> str:
    from .table import classes_table

    return f"{printable(title)}; CPP prediction {100 * block['cpp']:.2f}\n" + classes_table(block)


def crossdoc_text(value: Any, result: Any, per_doc: bool, analyses: Any) -> List[str]:
    from .table import crossdoc_table

    return [crossdoc_table(value.to_dict(per_doc))]


def waterfall_text(value: Any, result: Any, per_doc: bool, analyses: Any) -> List[str]:
    from .table import waterfall_tables

    parts = ["Error-impact waterfall (Kummerfeld & Klein 2013)\n" + waterfall_tables(value.to_dict())]
    for index, name in enumerate(result.names if per_doc else ()):
        parts.append(f"Waterfall of {printable(name)}\n" + waterfall_tables(value.to_dict(index)))
    return parts


def strata_text(value: Mapping[str, Any], result: Any, per_doc: bool, analyses: Any) -> List[str]:
    from .table import strata_table

    return [strata_table(attribute, block, analyses.level) for attribute, block in value.items()]


def variants_text(value: Any, result: Any, per_doc: bool, analyses: Any) -> List[str]:
    from .table import variants_table

    return ["Variants (CorefUD conventions: --preset corefud)\n" + variants_table([v.to_dict() for v in value])]


def errors_list_text(value: Any, result: Any, per_doc: bool, analyses: Any) -> List[str]:
    from .table import errors_list_table

    return [
        "Errors of each document (spans: first token, one past the last; e<n>: entity n of that side)\n"
        + errors_list_table(value)
    ]


def errors_html(block: Optional[Mapping[str, Any]], data: Any) -> str:
    """The corpus's error counts, shown on every page."""
    from .html import errors_section

    return errors_section(data.errors.get("total", {}))


def classes_html(block: Optional[Mapping[str, Any]], data: Any) -> str:
    from .html import classes_section

    return classes_section(block)


def waterfall_html(block: Optional[Mapping[str, Any]], data: Any) -> str:
    from .breakdowns import waterfall_section

    return waterfall_section(block)


def strata_html(block: Optional[Mapping[str, Any]], data: Any) -> str:
    from .breakdowns import strata_section

    return strata_section(block, data.level)


def variants_html(block: Optional[Any], data: Any) -> str:
    from .breakdowns import variants_section

    return variants_section(block)


def crossdoc_html(block: Optional[Mapping[str, Any]], data: Any) -> str:
    from .crossdoc_html import cross_document_section
    from .views import cross_document_view

    return cross_document_section(cross_document_view(block, data.metrics, data.documents))
