"""Reading doccano's exports (:mod:`.`)."""

from pathlib import Path
from typing import Any, Union

from ...errors import CorefInputError
from ..annotation import AnnotatedDocument, annotated_side
from ..annotation.records import check_names, coreference_type, identifier, json_lines, objects, offset, record_name, text_document
from ..base import ReadOptions
from ..document import Side
from . import FORMAT

NAMES = ("doc_id", "document", "name", "id")


def parse_doccano(data: Union[bytes, bytearray], path: Path, options: ReadOptions = ReadOptions()) -> Side:
    """A doccano JSONL export's bytes as a :class:`Side` (the format's reader)."""
    documents: list[AnnotatedDocument] = []
    for number, record in json_lines(data, path):
        source = f"{path}, line {number}"
        text = record.get("text")
        if not isinstance(text, str):
            raise CorefInputError(f"{source}: a doccano record needs its 'text'")
        mentions: dict[Any, list[tuple[int, int]]] = {}
        try:
            for entity in objects(record.get("entities"), source, "'entities'"):
                span = (offset(entity["start_offset"], source), offset(entity["end_offset"], source))
                mentions[identifier(entity["id"], source)] = [span]
            labels = record.get("label") or []
            if not isinstance(labels, list) or not all(isinstance(label, list) and len(label) >= 2 for label in labels):
                raise CorefInputError(f"{source}: 'label' must be a list of [start, end, label] lists")
            for start, end, *_ in labels:
                mentions[f"label {start}-{end}"] = [(offset(start, source), offset(end, source))]
            links = []
            for relation in objects(record.get("relations"), source, "'relations'"):
                kind = relation.get("type")
                links.append(
                    (
                        coreference_type(kind if isinstance(kind, str) else None),
                        identifier(relation["from_id"], source),
                        identifier(relation["to_id"], source),
                    )
                )
        except KeyError as err:
            raise CorefInputError(f"{source}: an entity or relation lacks {err}") from None
        documents.append(text_document(record_name(record, NAMES, f"doc{len(documents)}"), text, mentions, links=links, source=source))
    check_names([d.name for d in documents], path)
    return annotated_side(path, FORMAT, documents)
