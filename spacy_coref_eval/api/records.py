"""A system's output records in memory (fastcoref, maverick, wl-coref,
jsonlines dicts: docs/formats.md §6 and §9) scored as the same records in a
file are: written as JSON lines to a temporary folder and read by the
format's own reader, so that detection, character offsets and alignment
follow the system-output rules, and messages name the records."""

import json
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import CorefInputError
from .inputs import is_row


def is_records(value: Any) -> bool:
    """Whether ``value`` is a list of system records (dicts, not indiscrim rows)."""
    return isinstance(value, (list, tuple)) and bool(value) and all(isinstance(record, Mapping) and not is_row(record) for record in value)


@contextmanager
def record_files(key: Any, response: Any) -> Iterator[tuple]:
    """``key`` and ``response``, each a path as given or, for records, a
    temporary JSON lines file of them; a :class:`CorefInputError` raised
    within names ``key records`` or ``response records`` instead of the file."""
    with tempfile.TemporaryDirectory(prefix="spacy-coref-eval-") as folder:
        paths = {}
        sides = []
        for role, value in (("key", key), ("response", response)):
            if is_records(value):
                path = Path(folder) / f"{role}.jsonl"
                try:
                    text = "".join(json.dumps(dict(record), ensure_ascii=False) + "\n" for record in value)
                except (TypeError, ValueError) as err:
                    raise CorefInputError(f"{role} records: not JSON values ({err})") from None
                path.write_text(text, encoding="utf-8")
                paths[str(path)] = f"{role} records"
                value = path
            sides.append(value)
        try:
            yield tuple(sides)
        except CorefInputError as err:
            raise CorefInputError(renamed(str(err), paths)) from None


def renamed(text: str, paths: Mapping[str, str]) -> str:
    """``text`` with every temporary path replaced by what it holds
    (``response.jsonl:3`` → ``response records, line 3``)."""
    for path, name in paths.items():
        text = text.replace(f"{path}:", f"{name}, line ").replace(path, name)
    return text
