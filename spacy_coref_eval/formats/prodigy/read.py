"""Reading Prodigy's ``rel.manual``/``coref.manual`` exports (:mod:`.`)."""

from pathlib import Path
from typing import Any, Optional, Union

from ...errors import CorefInputError
from ..annotation import AnnotatedDocument, annotated_side
from ..annotation.records import check_names, coreference_type, json_lines, record_name, text_document
from ..base import ReadOptions
from ..document import Side
from . import FORMAT

NAMES = ("doc_id", "document", "name", "id")


def parse_prodigy(data: Union[bytes, bytearray], path: Path, options: ReadOptions = ReadOptions()) -> Side:
    """A Prodigy JSONL export's bytes as a :class:`Side` (the format's reader)."""
    documents: list[AnnotatedDocument] = []
    for number, record in json_lines(data, path):
        if record.get("answer", "accept") != "accept":
            continue
        source = f"{path}, line {number}"
        text = record.get("text")
        if not isinstance(text, str):
            raise CorefInputError(f"{source}: a Prodigy record needs its 'text'")
        mentions: dict[Any, list[tuple[int, int]]] = {}
        by_token: dict[Any, Any] = {}
        try:
            for span in record.get("spans") or []:
                key = (int(span["start"]), int(span["end"]))
                mentions[key] = [key]
                for token in range(int(span.get("token_start", -1)), int(span.get("token_end", -2)) + 1):
                    by_token[token] = key
            links = [
                (coreference_type(relation.get("label")), _end(relation, "head", by_token), _end(relation, "child", by_token))
                for relation in record.get("relations") or []
            ]
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise CorefInputError(f"{source}: a span or relation lacks or misstates {err}") from None
        documents.append(text_document(record_name(record, NAMES, f"doc{len(documents)}"), text, mentions, links=links, source=source))
    check_names([d.name for d in documents], path)
    return annotated_side(path, FORMAT, documents)


def _end(relation: dict[str, Any], end: str, by_token: dict[Any, Any]) -> Optional[Any]:
    """A relation's ``head`` or ``child`` mention: its ``*_span`` where
    given, else the span holding its token."""
    span = relation.get(f"{end}_span")
    if isinstance(span, dict) and "start" in span:
        return (int(span["start"]), int(span["end"]))
    return by_token.get(relation.get(end), f"token {relation.get(end)}")
