"""jsonlines files by document, for reading a batch at a time."""
import json
from typing import Any, Iterator, List, Tuple

from ..index import Entries, Fallback, entries


def document_entries(scan: Iterator[Tuple[int, Any]]) -> Entries:
    """One document a line, blank lines with the document before them
    (those before the first with the first)."""
    names: List[str] = []
    starts: List[int] = []
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
