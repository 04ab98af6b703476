"""Reading Label Studio's JSON export (:mod:`.`)."""
import json
from pathlib import Path
from typing import Any, Dict, List, Tuple

from ...errors import CorefInputError
from ..annotation import AnnotatedDocument, annotated_side
from ..annotation.records import (
    check_names,
    coreference_type,
    record_name,
    text_document,
)
from ..base import ReadOptions
from ..document import Side

NAMES = ("name", "document", "doc_id")


def read_labelstudio(path: Path, options: ReadOptions = ReadOptions()) -> Side:
    from . import FORMAT

    try:
        with open(path, encoding="utf8") as handle:
            tasks = json.load(handle)
    except ValueError as err:
        raise CorefInputError(f"{path}: not JSON ({err})") from None
    tasks = tasks if isinstance(tasks, list) else [tasks]
    documents: List[AnnotatedDocument] = []
    for number, task in enumerate(tasks):
        source = f"{path}, task {number}"
        data = task.get("data") or {}
        text = data.get("text")
        if not isinstance(text, str):
            raise CorefInputError(f"{source}: a task needs its data.text")
        annotations = [a for a in task.get("annotations") or task.get("completions") or [] if not a.get("was_cancelled")]
        result = annotations[0].get("result", []) if annotations else []
        mentions: Dict[Any, List[Tuple[int, int]]] = {}
        links = []
        for item in result:
            if not isinstance(item, dict):
                raise CorefInputError(f"{source}: a result is a JSON object")
            kind = item.get("type")
            if kind == "relation":
                links.append((coreference_type((item.get("labels") or [None])[0]), item.get("from_id"), item.get("to_id")))
            elif isinstance(item.get("value"), dict) and "start" in item["value"] and "end" in item["value"]:
                mentions[item.get("id")] = [(int(item["value"]["start"]), int(item["value"]["end"]))]
        name = record_name(data, NAMES, str(task.get("id", f"doc{number}")))
        documents.append(text_document(name, text, mentions, links, source))
    check_names([d.name for d in documents], path)
    return annotated_side(path, FORMAT, documents)
