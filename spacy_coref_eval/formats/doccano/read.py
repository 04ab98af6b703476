"""Reading doccano's exports (:mod:`.`)."""
from pathlib import Path
from typing import Any, Dict, List, Tuple

from ...errors import CorefInputError
from ..annotation import AnnotatedDocument, annotated_side
from ..annotation.records import (
    check_names,
    coreference_type,
    json_lines,
    record_name,
    text_document,
)
from ..base import ReadOptions
from ..document import Side

NAMES = ("doc_id", "document", "name", "id")


def read_doccano(path: Path, options: ReadOptions = ReadOptions()) -> Side:
    from . import FORMAT

    documents: List[AnnotatedDocument] = []
    for number, record in json_lines(path):
        source = f"{path}, line {number}"
        text = record.get("text")
        if not isinstance(text, str):
            raise CorefInputError(f"{source}: a doccano record needs its 'text'")
        mentions: Dict[Any, List[Tuple[int, int]]] = {}
        try:
            for entity in record.get("entities") or []:
                mentions[entity["id"]] = [(int(entity["start_offset"]), int(entity["end_offset"]))]
            for start, end, *_ in record.get("label") or []:
                mentions[f"label {start}-{end}"] = [(int(start), int(end))]
            links = [
                (coreference_type(relation.get("type")), relation["from_id"], relation["to_id"])
                for relation in record.get("relations") or []
            ]
        except (KeyError, TypeError, ValueError) as err:
            raise CorefInputError(f"{source}: an entity, label or relation lacks {err}") from None
        documents.append(text_document(record_name(record, NAMES, f"doc{len(documents)}"), text, mentions, links, source))
    check_names([d.name for d in documents], path)
    return annotated_side(path, FORMAT, documents)
