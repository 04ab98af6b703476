"""jsonlines files by document, for reading a batch at a time."""

import json
from collections.abc import Iterator
from typing import Any

from ..index import Entries, Fallback, entries


def document_entries(scan: Iterator[tuple[int, Any]]) -> Entries:
    """One document a line, blank lines with the document before them
    (those before the first with the first)."""
    names: list[str] = []
    starts: list[int] = []
    for offset, match in scan:
        if match is None:
            return entries(names, [0, *starts[1:], offset]), b"", False
        if match.group(1) is None:
            raise Fallback("a line without a doc_key")
        try:
            names.append(json.loads(b'"' + match.group(1) + b'"'))
        except ValueError:
            raise Fallback("a doc_key that is not a JSON string") from None
        starts.append(offset)
    raise AssertionError("the scan ends with the file's size")
