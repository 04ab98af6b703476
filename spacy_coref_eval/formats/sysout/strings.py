"""Mentions given as strings without offsets (``clusters_strings``,
``clusters_text_mentions``, ...), placed in the text by one rule
(docs/formats.md, Mention strings): each cluster on its own, its strings
in the order given, each at its next free occurrence on word boundaries
after the cluster's previous one, wrapping round to the text's start."""

from bisect import bisect_left
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Optional

import numpy as np

from ...errors import CorefInputError
from ..alignment import KeyText, fold

STRING_MEMBERS = ("clusters_strings", "clusters_text_mentions", "clusters_token_text", "clusters_char_text")
"""The members that give mentions as strings, read in this order."""

_TABLE = 0x10000
INDEXED_FROM = 200_000
"""Texts of this many units or more look strings up in a :class:`PrefixIndex`
(shorter ones are searched, which costs less there)."""


@lru_cache(maxsize=1)
def _alphanumeric() -> np.ndarray:
    return np.array([chr(code).isalnum() for code in range(_TABLE)], dtype=bool)


def word_cuts(units: np.ndarray, unit_chars: np.ndarray) -> np.ndarray:
    """``cuts[u]`` (``len(units) + 1`` entries): whether a word boundary lies
    before unit ``u``, i.e. units ``u - 1`` and ``u`` are not both letters
    or digits of adjacent characters."""
    table = _alphanumeric()
    alnum = table[np.minimum(units, _TABLE - 1)]
    wide = np.flatnonzero(units >= _TABLE)
    if len(wide):
        alnum[wide] = [chr(int(code)).isalnum() for code in units[wide].tolist()]
    cuts = np.ones(len(units) + 1, dtype=bool)
    cuts[1:-1] = ~(alnum[1:] & alnum[:-1] & (np.diff(unit_chars) == 1))
    return cuts


def _as_text(units: np.ndarray) -> str:
    return units.astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")


def place_strings(text: str, clusters: Sequence[Sequence[str]]) -> tuple[np.ndarray, np.ndarray, int]:
    """The mentions ``clusters`` (lists of strings) as character spans of
    ``text`` (end exclusive), their cluster indices, and how many strings
    could not be placed. Strings and text are compared folded (white space,
    quotes and bracket escapes as alignment folds them)."""
    folded = fold(text)
    unit_chars = np.repeat(np.arange(len(text), dtype=np.int64), np.diff(folded.before))
    haystack = _as_text(folded.units)
    cut_mask = word_cuts(folded.units, unit_chars)
    cuts = cut_mask.tobytes()
    index = PrefixIndex(folded.units, cut_mask) if len(haystack) >= INDEXED_FROM else None
    strings = KeyText.of([string for cluster in clusters for string in cluster])
    folded_strings = _as_text(strings.folded.units)
    needles = iter(folded_strings[a:b] for a, b in zip(strings.starts.tolist(), strings.ends.tolist()))
    found: dict[str, Occurrences] = {}
    spans: list[tuple[int, int]] = []
    labels: list[int] = []
    unplaced = 0
    for label, cluster in enumerate(clusters):
        after = 0
        for _ in cluster:
            needle = next(needles)
            occurrences = found.get(needle)
            if occurrences is None:
                candidates = index.starting(needle) if index is not None else _found(haystack, needle)
                occurrences = found[needle] = Occurrences(haystack, needle, cuts, candidates=candidates)
            at = occurrences.take(after)
            if at < 0:
                unplaced += 1
                continue
            spans.append((int(unit_chars[at]), int(unit_chars[at + len(needle) - 1]) + 1))
            labels.append(label)
            after = at + 1
    return (np.array(spans, dtype=np.int64).reshape(-1, 2), np.array(labels, dtype=np.int64), unplaced)


def _found(haystack: str, needle: str) -> list[int]:
    """Every place of ``needle`` in ``haystack``, by searching."""
    places = []
    at = haystack.find(needle) if needle else -1
    while at >= 0:
        places.append(at)
        at = haystack.find(needle, at + 1)
    return places


class PrefixIndex:
    """The word boundaries of a folded text that start a unit, grouped by a
    hash of the first ``k`` units from there (``k`` up to :attr:`LONGEST`;
    each group in text order), so that a string's candidate places are
    looked up by its first units, not searched for."""

    LONGEST = 8
    _BASE = 1_000_003
    _MASK = (1 << 64) - 1

    def __init__(self, units: np.ndarray, cuts: np.ndarray) -> None:
        self.starts = np.flatnonzero(cuts[:-1])
        self.padded = np.concatenate([units.astype(np.uint64) + 1, np.zeros(self.LONGEST, dtype=np.uint64)])
        self.groups: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def starting(self, needle: str) -> list[int]:
        """The word boundaries where the text's first units may be those of
        ``needle`` (equal hashes), in order."""
        k = min(self.LONGEST, len(needle))
        if k == 0:
            return []
        if k not in self.groups:
            keys = np.zeros(len(self.starts), dtype=np.uint64)
            for i in range(k):
                keys = keys * np.uint64(self._BASE) + self.padded[self.starts + i]
            order = np.argsort(keys, kind="stable")
            self.groups[k] = (keys[order], self.starts[order])
        key = 0
        for char in needle[:k]:
            key = (key * self._BASE + ord(char) + 1) & self._MASK
        keys, starts = self.groups[k]
        at = np.uint64(key)
        return starts[np.searchsorted(keys, at, "left") : np.searchsorted(keys, at, "right")].tolist()


class Occurrences:
    """The occurrences of one folded string in the folded text that start
    and end on word boundaries (``cuts``), in order, and which of them are
    still free (a next-free pointer per occurrence, with path compression)."""

    def __init__(self, haystack: str, needle: str, cuts: bytes, *, candidates: Sequence[int]) -> None:
        length = len(needle)
        self.starts = [at for at in candidates if cuts[at] and haystack.startswith(needle, at) and cuts[at + length]]
        self.next = list(range(len(self.starts) + 1))

    def _free(self, index: int) -> int:
        root = index
        while self.next[root] != root:
            root = self.next[root]
        while self.next[index] != root:
            self.next[index], index = root, self.next[index]
        return root

    def take(self, after: int) -> int:
        """The first free occurrence at or after unit ``after``, else the
        first free one before it, now taken; -1 for none."""
        first = bisect_left(self.starts, after)
        index = self._free(first)
        if index == len(self.starts):
            index = self._free(0)
            if index >= first:
                return -1
        self.next[index] = index + 1
        return self.starts[index]


def string_clusters(obj: dict[str, Any], where: str) -> tuple[Optional[str], list[list[str]]]:
    """The first strings member of ``obj`` that is not ``null`` and its
    clusters; a member of another shape is an error."""
    member = next((m for m in STRING_MEMBERS if obj.get(m) is not None), None)
    if member is None:
        return None, []
    value = obj[member]
    if not isinstance(value, list) or not all(isinstance(cluster, list) and all(isinstance(s, str) for s in cluster) for cluster in value):
        raise CorefInputError(f"{where}: {member!r} must be a list of clusters, each a list of mention strings")
    return member, value
