"""Reading Label Studio's JSON export (:mod:`.`)."""
import json
from pathlib import Path
from typing import Any, Dict, List, Tuple, cast

from ...errors import CorefInputError
from ..annotation import AnnotatedDocument, annotated_side
from ..annotation.records import (
    check_names,
    coreference_type,
    identifier,
    objects,
    offset,
    read_text_file,
    record_name,
    text_document,
)
from ..base import ReadOptions
from ..document import Side
from . import FORMAT

NAMES = ("name", "document", "doc_id")


def read_labelstudio(path: Path, options: ReadOptions = ReadOptions()) -> Side:
    try:
        tasks = json.loads(read_text_file(path, options.limits))
    except ValueError as err:
        raise CorefInputError(f"{path}: not JSON ({err})") from None
    tasks = objects(tasks if isinstance(tasks, list) else [tasks], str(path), "a Label Studio export")
    documents: List[AnnotatedDocument] = []
    for number, task in enumerate(tasks):
        source = f"{path}, task {number}"
        data = task.get("data")
        text = data.get("text") if isinstance(data, dict) else None
        if not isinstance(text, str):
            raise CorefInputError(f"{source}: a task needs its data.text")
        given = objects(task.get("annotations") or task.get("completions"), source, "annotations")
        annotations = [a for a in given if not a.get("was_cancelled")]
        result = objects(annotations[0].get("result"), source, "an annotation's result") if annotations else []
        mentions: Dict[Any, List[Tuple[int, int]]] = {}
        links = []
        for item in result:
            kind = item.get("type")
            if kind == "relation":
                labels = item.get("labels") or [None]
                label = labels[0] if isinstance(labels, list) and isinstance(labels[0], (str, type(None))) else None
                links.append((coreference_type(label), identifier(item.get("from_id"), source),
                              identifier(item.get("to_id"), source)))
            elif isinstance(item.get("value"), dict) and "start" in item["value"] and "end" in item["value"]:
                span = (offset(item["value"]["start"], source), offset(item["value"]["end"], source))
                mentions[identifier(item.get("id"), source)] = [span]
        name = record_name(cast(Dict[str, Any], data), NAMES, str(task.get("id", f"doc{number}")))
        documents.append(text_document(name, text, mentions, links, source))
    check_names([d.name for d in documents], path)
    return annotated_side(path, FORMAT, documents)
