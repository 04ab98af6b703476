"""CoNLL-2012 files by document, for reading a batch at a time."""

from collections.abc import Iterator
from typing import Any

from ..index import Entries, Fallback, entries
from .vectorised import BEGIN


def document_entries(scan: Iterator[tuple[int, Any]]) -> Entries:
    """Documents to the end of their ``#end document`` line, the lines
    between two documents with the second, those after the last with
    it."""
    names: list[str] = []
    cuts: list[int] = []
    for offset, match in scan:
        if match is None:
            if len(cuts) != len(names):
                raise Fallback("a document without '#end document'")
            return entries(names, [0, *cuts[:-1], offset]), b"", False
        begin = BEGIN.fullmatch(match.group().decode("utf8", "replace"))
        if (begin is not None) != (len(names) == len(cuts)) or (begin is not None and not (begin.group(1) or "").strip()):
            raise Fallback("'#begin document' and '#end document' do not alternate")
        if begin is not None:
            names.append(begin.group(1).rstrip())
        else:
            cuts.append(offset + len(match.group()) + 1)
    raise AssertionError("the scan ends with the file's size")
