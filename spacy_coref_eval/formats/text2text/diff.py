"""Which words of two word sequences correspond (docs/formats.md §10): a longest common subsequence found by patience
anchoring (words found once on both sides split the problem, Bram
Cohen's patience diff) with :class:`difflib.SequenceMatcher` on the small
pieces left, and what lies between matched words counted as replaced,
inserted or deleted."""

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

import numpy as np

SMALL = 40_000
"""Pieces with at most this many word pairs go to SequenceMatcher at once."""
LARGE = 4_000_000
"""Pieces without anchors and with more word pairs are left unmatched."""


@dataclass(frozen=True)
class WordMap:
    """For every response word the key word it stands for (``-1``: a word
    of the response only), and the counts: key words missing from the
    response (``inserted`` back), response words not in the key
    (``deleted``), and words paired in order with a different word
    (``replaced``). ``first`` is ``(key word, response word)`` where the
    sequences first part, or ``None``."""

    mapping: np.ndarray
    inserted: int
    deleted: int
    replaced: int
    first: object = None


def map_words(key: Sequence[str], response: Sequence[str]) -> WordMap:
    """:class:`WordMap` of ``response`` onto ``key`` (the words compared as
    given; fold them first). Between two matched words, the unmatched
    words of each side pair in order (replaced); the rest of the longer
    side is inserted or deleted."""
    ids: dict[str, int] = {}
    a = np.fromiter((ids.setdefault(word, len(ids)) for word in key), dtype=np.int64, count=len(key))
    b = np.fromiter((ids.setdefault(word, len(ids)) for word in response), dtype=np.int64, count=len(response))
    i, j = matched_pairs(a, b)
    mapping = np.full(len(b), -1, dtype=np.int64)
    mapping[j] = i
    gap_i = np.diff(np.concatenate([[-1], i, [len(a)]])) - 1
    gap_j = np.diff(np.concatenate([[-1], j, [len(b)]])) - 1
    starts_i = np.concatenate([[0], i + 1])
    starts_j = np.concatenate([[0], j + 1])
    paired = np.minimum(gap_i, gap_j)
    for gap in np.flatnonzero(paired).tolist():
        mapping[starts_j[gap] : starts_j[gap] + paired[gap]] = np.arange(starts_i[gap], starts_i[gap] + paired[gap])
    open_gaps = np.flatnonzero((gap_i > 0) | (gap_j > 0))
    first = None if not len(open_gaps) else (int(starts_i[open_gaps[0]]), int(starts_j[open_gaps[0]]))
    return WordMap(mapping, int((gap_i - paired).sum()), int((gap_j - paired).sum()), int(paired.sum()), first=first)


def matched_pairs(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Indices ``(i, j)`` of matched elements (``a[i] == b[j]``), both
    increasing: common prefix and suffix, then anchors (runs of words
    unique on both sides, their longest chain in order), recursively;
    SequenceMatcher on pieces of at most :data:`SMALL` pairs, or without
    anchors and at most :data:`LARGE` pairs; a larger piece without
    anchors matches nothing."""
    n_ids = int(max(a.max(initial=0), b.max(initial=0))) + 1
    out_i: list[np.ndarray] = []
    out_j: list[np.ndarray] = []
    stack = [(0, len(a), 0, len(b))]
    while stack:
        a0, a1, b0, b1 = stack.pop()
        n = min(a1 - a0, b1 - b0)
        differ = np.flatnonzero(a[a0 : a0 + n] != b[b0 : b0 + n])
        head = int(differ[0]) if len(differ) else n
        out_i.append(np.arange(a0, a0 + head))
        out_j.append(np.arange(b0, b0 + head))
        a0, b0 = a0 + head, b0 + head
        n = min(a1 - a0, b1 - b0)
        differ = np.flatnonzero(a[a1 - n : a1][::-1] != b[b1 - n : b1][::-1])
        tail = int(differ[0]) if len(differ) else n
        out_i.append(np.arange(a1 - tail, a1))
        out_j.append(np.arange(b1 - tail, b1))
        a1, b1 = a1 - tail, b1 - tail
        if a0 == a1 or b0 == b1:
            continue
        anchors = None if (a1 - a0) * (b1 - b0) <= SMALL else _anchors(a[a0:a1], b[b0:b1], n_ids)
        if anchors is None:
            if (a1 - a0) * (b1 - b0) > LARGE:
                continue
            blocks = SequenceMatcher(None, a[a0:a1].tolist(), b[b0:b1].tolist(), autojunk=False).get_matching_blocks()
            for block in blocks:
                out_i.append(np.arange(a0 + block.a, a0 + block.a + block.size))
                out_j.append(np.arange(b0 + block.b, b0 + block.b + block.size))
            continue
        ai, bj = anchors[0] + a0, anchors[1] + b0
        out_i.append(ai)
        out_j.append(bj)
        bounds_a = np.concatenate([[a0], ai + 1]), np.concatenate([ai, [a1]])
        bounds_b = np.concatenate([[b0], bj + 1]), np.concatenate([bj, [b1]])
        for piece in zip(bounds_a[0].tolist(), bounds_a[1].tolist(), bounds_b[0].tolist(), bounds_b[1].tolist()):
            if piece[0] < piece[1] and piece[2] < piece[3]:
                stack.append(piece)
    i = np.concatenate([np.zeros(0, dtype=np.int64)] + out_i)
    j = np.concatenate([np.zeros(0, dtype=np.int64)] + out_j)
    order = np.argsort(i, kind="stable")
    return i[order], j[order]


def _anchors(a: np.ndarray, b: np.ndarray, n_ids: int):
    """Where runs of words found exactly once in ``a`` and once in ``b``
    start (runs of up to 4 words, as many as fit one 63-bit code), the
    longest chain of them in the same order on both sides; None when
    there is none."""
    bits = max(int(n_ids).bit_length(), 1)
    width = max(1, min(4, 63 // bits, len(a), len(b)))
    codes_a, codes_b = _runs(a, width, bits), _runs(b, width, bits)
    values_a, counts_a = np.unique(codes_a, return_counts=True)
    values_b, counts_b = np.unique(codes_b, return_counts=True)
    unique = np.intersect1d(values_a[counts_a == 1], values_b[counts_b == 1], assume_unique=True)
    if not len(unique):
        return None
    at_a = np.flatnonzero(np.isin(codes_a, unique))
    at_b = np.flatnonzero(np.isin(codes_b, unique))
    at_b = at_b[np.argsort(codes_b[at_b], kind="stable")][np.searchsorted(unique, codes_a[at_a])]
    keep = _increasing_run(at_b)
    return at_a[keep], at_b[keep]


def _runs(ids: np.ndarray, width: int, bits: int) -> np.ndarray:
    """One code for every run of ``width`` consecutive ids."""
    n = len(ids) - width + 1
    codes = ids[:n].copy()
    for offset in range(1, width):
        codes = (codes << bits) | ids[offset : offset + n]
    return codes


def _increasing_run(values: np.ndarray) -> np.ndarray:
    """Indices of a longest strictly increasing subsequence of ``values``
    (patience sorting, O(n log n))."""
    tails: list[int] = []
    tail_at: list[int] = []
    before = [-1] * len(values)
    for index, value in enumerate(values.tolist()):
        place = bisect_left(tails, value)
        if place == len(tails):
            tails.append(value)
            tail_at.append(index)
        else:
            tails[place] = value
            tail_at[place] = index
        before[index] = tail_at[place - 1] if place else -1
    run = []
    at = tail_at[-1] if tail_at else -1
    while at >= 0:
        run.append(at)
        at = before[at]
    return np.array(run[::-1], dtype=np.int64)
