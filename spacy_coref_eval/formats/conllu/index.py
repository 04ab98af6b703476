"""CoNLL-U files by document, for reading a batch at a time."""

from collections.abc import Iterator
from typing import Any

from ..index import Entries, Fallback, entries
from .parse import NEWDOC, ids_per_document


def document_entries(scan: Iterator[tuple[int, Any]]) -> Entries:
    """Documents from one ``# newdoc id`` line to the next (the lines
    before the first with the first); the header is the file's
    ``# global.Entity`` line when it has one only, in its first document
    (a line in every document needs none). Entity order depends on the
    documents before unless the header's ids are ``GRP``."""
    names: list[str] = []
    starts: list[int] = []
    headers: list[tuple[int, bytes]] = []
    for offset, match in scan:
        if match is None:
            if not names:
                raise Fallback("no '# newdoc id' line")
            if len(headers) == 1 and len(names) > 1 and headers[0][0] < starts[1]:
                header = headers[0][1] + b"\n"
            elif len({line for _, line in headers}) <= 1 and len(headers) in (0, len(names)):
                header = b""
            else:
                raise Fallback("'# global.Entity' lines that not every document repeats")
            per_document = ids_per_document(line.decode("utf8", "replace") for _, line in headers)
            return entries(names, [0, *starts[1:], offset]), header, not per_document
        line = bytes(match.group())
        if line.startswith(b"# global."):
            headers.append((offset, line))
            continue
        newdoc = NEWDOC.match(line.decode("utf8", "replace").rstrip("\r"))
        if newdoc is None or newdoc.group(1) is None:
            raise Fallback("a '# newdoc' line without an id")
        names.append(newdoc.group(1).strip())
        starts.append(offset)
    raise AssertionError("the scan ends with the file's size")
