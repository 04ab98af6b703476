"""What indexing a file by document yields (docs/streaming.md §2): its
documents by byte range (:class:`Entry`), found by each format's
:class:`~.base.DocumentIndex`; :class:`Fallback` where a file cannot be
read a batch at a time, and is read whole instead."""

from dataclasses import dataclass


class Fallback(Exception):
    """The files are read whole instead (the message says why)."""


@dataclass(frozen=True)
class Entry:
    """One document of a file: its name and its bytes ``[start, end)``."""

    name: str
    start: int
    end: int


Entries = tuple[list[Entry], bytes, bool]
"""A file's documents, its header, and whether a document's entity order
depends on the documents before it."""


def entries(names: list[str], bounds: list[int]) -> list[Entry]:
    """Document ``i`` named ``names[i]`` from ``bounds[i]`` to ``bounds[i + 1]``."""
    return [Entry(name, bounds[i], bounds[i + 1]) for i, name in enumerate(names)]
