"""Mentions given as strings without offsets (``clusters_strings``,
``clusters_text_mentions``, ...), placed in the text by one rule
(docs/formats.md, Mention strings): each cluster on its own, its strings
in the order given, each at its next free occurrence on word boundaries
after the cluster's previous one, wrapping round to the text's start."""
from functools import lru_cache
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ...errors import CorefInputError
from ..alignment import fold

STRING_MEMBERS = ("clusters_strings", "clusters_text_mentions", "clusters_token_text", "clusters_char_text")
"""The members that give mentions as strings, read in this order."""

_TABLE = 0x10000


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


def place_strings(text: str, clusters: Sequence[Sequence[str]]) -> Tuple[np.ndarray, np.ndarray, int]:
    """The mentions ``clusters`` (lists of strings) as character spans of
    ``text`` (end exclusive), their cluster indices, and how many strings
    could not be placed. Strings and text are compared folded (white space,
    quotes and bracket escapes as alignment folds them)."""
    folded = fold(text)
    unit_chars = np.repeat(np.arange(len(text), dtype=np.int64), np.diff(folded.before))
    haystack = _as_text(folded.units)
    cuts = word_cuts(folded.units, unit_chars)
    taken = set()
    spans: List[Tuple[int, int]] = []
    labels: List[int] = []
    unplaced = 0
    for label, cluster in enumerate(clusters):
        after = 0
        for string in cluster:
            needle = _as_text(fold(string).units)
            at = _occurrence(haystack, needle, after, cuts, taken) if needle else -1
            if at < 0:
                unplaced += 1
                continue
            end = at + len(needle)
            taken.add((at, end))
            spans.append((int(unit_chars[at]), int(unit_chars[end - 1]) + 1))
            labels.append(label)
            after = at + 1
    return (np.array(spans, dtype=np.int64).reshape(-1, 2), np.array(labels, dtype=np.int64), unplaced)


def _occurrence(haystack: str, needle: str, after: int, cuts: np.ndarray, taken: set) -> int:
    """The first occurrence of ``needle`` at or after ``after`` that starts
    and ends on word boundaries and is not ``taken``, else the first such
    before ``after``; -1 for none."""
    for lo, hi in ((after, len(haystack)), (0, after)):
        at = haystack.find(needle, lo)
        while 0 <= at < hi:
            end = at + len(needle)
            if cuts[at] and cuts[end] and (at, end) not in taken:
                return at
            at = haystack.find(needle, at + 1)
    return -1


def string_clusters(obj: Dict[str, Any], where: str) -> Tuple[Optional[str], List[List[str]]]:
    """The first strings member of ``obj`` that is not ``null`` and its
    clusters; a member of another shape is an error."""
    member = next((m for m in STRING_MEMBERS if obj.get(m) is not None), None)
    if member is None:
        return None, []
    value = obj[member]
    if not isinstance(value, list) or not all(
        isinstance(cluster, list) and all(isinstance(s, str) for s in cluster) for cluster in value
    ):
        raise CorefInputError(f"{where}: {member!r} must be a list of clusters, each a list of mention strings")
    return member, value
