"""Reading Label Studio's JSON export (:mod:`.`)."""

import json
from pathlib import Path
from typing import Any, Union, cast

from ...errors import CorefInputError
from ..annotation import AnnotatedDocument, annotated_side
from ..annotation.records import check_names, coreference_type, export_text, identifier, objects, offset, record_name, text_document
from ..base import ReadOptions
from ..document import Side
from . import FORMAT

NAMES = ("name", "document", "doc_id")


def parse_labelstudio(data: Union[bytes, bytearray], path: Path, options: ReadOptions = ReadOptions()) -> Side:
    """A Label Studio JSON export's bytes as a :class:`Side` (the format's reader)."""
    try:
        tasks = json.loads(export_text(data, path))
    except ValueError as err:
        raise CorefInputError(f"{path}: not JSON ({err})") from None
    tasks = objects(tasks if isinstance(tasks, list) else [tasks], str(path), "a Label Studio export")
    documents: list[AnnotatedDocument] = []
    for number, task in enumerate(tasks):
        source = f"{path}, task {number}"
        given_data = task.get("data")
        text = given_data.get("text") if isinstance(given_data, dict) else None
        if not isinstance(text, str):
            raise CorefInputError(f"{source}: a task needs its data.text")
        given = objects(task.get("annotations") or task.get("completions"), source, "annotations")
        annotations = [a for a in given if not a.get("was_cancelled")]
        result = objects(annotations[0].get("result"), source, "an annotation's result") if annotations else []
        mentions: dict[Any, list[tuple[int, int]]] = {}
        links = []
        for item in result:
            kind = item.get("type")
            if kind == "relation":
                labels = item.get("labels") or [None]
                label = labels[0] if isinstance(labels, list) and isinstance(labels[0], (str, type(None))) else None
                links.append((coreference_type(label), identifier(item.get("from_id"), source), identifier(item.get("to_id"), source)))
            elif isinstance(item.get("value"), dict) and "start" in item["value"] and "end" in item["value"]:
                span = (offset(item["value"]["start"], source), offset(item["value"]["end"], source))
                mentions[identifier(item.get("id"), source)] = [span]
        name = record_name(cast(dict[str, Any], given_data), NAMES, str(task.get("id", f"doc{number}")))
        documents.append(text_document(name, text, mentions, links=links, source=source))
    check_names([d.name for d in documents], path)
    return annotated_side(path, FORMAT, documents)
