"""The string table of a DocBin: the strings of 64-bit hashes, looked up
only when words or token attributes are needed, as only then is spaCy (its
string hashing and symbols) imported (docs/formats.md)."""

from typing import Any, Optional

import numpy as np

from ...errors import CorefInputError


class StringTable:
    """The strings of a file by hash. A list of strings is checked on
    construction; they are hashed on the first lookup. spaCy's symbols
    (e.g. POS names), which resolve without being in the table, are added
    when met."""

    def __init__(self, strings: Any, source: str) -> None:
        if not isinstance(strings, list) or not set(map(type, strings)) <= {str}:
            raise CorefInputError(f"{source}: damaged DocBin: the string table is not a list of strings")
        self.source = source
        self.strings = np.array(strings, dtype=object)
        self._slots: Optional[tuple[np.ndarray, np.ndarray, int]] = None

    def _table(self) -> tuple[np.ndarray, np.ndarray, int]:
        if self._slots is None:
            from spacy.strings import get_string_id

            hashes = np.fromiter(map(get_string_id, self.strings.tolist()), dtype=np.uint64, count=len(self.strings))
            self._slots = (hashes, *_hash_slots(hashes))
        return self._slots

    def index(self, values: np.ndarray) -> np.ndarray:
        """Where the string of every value is in ``self.strings``; -1 for
        values found neither in the table nor among spaCy's symbols."""
        hashes, slots, probes = self._table()
        at = np.full(len(values), -1, dtype=np.int64)
        mask = len(slots) - 1
        todo = np.arange(len(values))
        slot = (values & np.uint64(mask)).astype(np.int64)
        wanted = values
        for _ in range(probes):
            found = slots[slot]
            used = found >= 0
            hit = used & (hashes[np.maximum(found, 0)] == wanted)
            at[todo[hit]] = found[hit]
            more = used & ~hit
            todo, slot, wanted = todo[more], (slot[more] + 1) & mask, wanted[more]
            if len(todo) == 0:
                break
        missing = at < 0
        if missing.any():
            for value in np.unique(values[missing]).tolist():
                symbol = _symbol(value)
                if symbol is not None:
                    at[values == value] = len(self.strings)
                    self.strings = np.append(self.strings, np.array([symbol], dtype=object))
        return at

    def lookup(self, values: np.ndarray, what: str) -> list[str]:
        """The strings of ``values``; a value without one is an error
        naming the token and ``what`` the value is."""
        at = self.index(values)
        if np.any(at < 0):
            token = int(np.argmax(at < 0))
            raise CorefInputError(f"token {token}: {what} hash {values[token]} is missing from the string table")
        return self.strings[at].tolist()

    def words(self, orth: np.ndarray, index: int) -> list[str]:
        """The texts of the ORTH hashes of document ``index``; a hash
        without one is spaCy's error E018, named with the file and doc."""
        try:
            return self.lookup(orth, "text")
        except CorefInputError as err:
            raise CorefInputError(f"{self.source}: document index {index}: {err}") from None


def _hash_slots(hashes: np.ndarray) -> tuple[np.ndarray, int]:
    """An open-addressing table (linear probing, at most half full) of the
    positions of ``hashes``, and its longest probe sequence: a vectorised
    lookup of every token's hash, several times faster than a binary
    search."""
    size = 1 << (2 * len(hashes)).bit_length()
    slots = np.full(size, -1, dtype=np.int64)
    slot = (hashes & np.uint64(size - 1)).astype(np.int64)
    pending = np.arange(len(hashes))
    probes = 0
    while len(pending):
        probes += 1
        _, first = np.unique(slot[pending], return_index=True)
        claim = pending[first]
        claim = claim[slots[slot[claim]] < 0]
        slots[slot[claim]] = claim
        pending = np.setdiff1d(pending, claim, assume_unique=True)
        slot[pending] = (slot[pending] + 1) & (size - 1)
    return slots, probes


def _symbol(value: int) -> Optional[str]:
    """The name of one of spaCy's symbols (``StringStore`` resolves them
    without storing them), or ``None``."""
    from spacy.strings import StringStore

    try:
        return StringStore()[value]
    except KeyError:
        return None
