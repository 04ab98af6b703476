"""The words of an LLM response put on its key's words as text2text-coref's
``clean`` puts them (docs/formats.md, text2text): its word edit distance
and its backtrack from the end of the document, computed in a diagonal
band (Ukkonen 1985, "Algorithms for approximate string matching") instead
of the full table, so a document with few edits costs about its length.
The band is widened until it holds the distance, so every value the
backtrack reads is the full table's. Documents whose band would exceed
:data:`MAX_CELLS` are cut at long runs of equal words (:mod:`.diff`) and
each piece aligned alone."""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .diff import matched_pairs

ZERO_PREFIX = "##"
"""Words starting so stand for empty nodes (zero mentions): free to skip."""
MAX_CELLS = 20_000_000
"""Largest band aligned at once; a longer document is cut into pieces."""
CUT_RUN = 64
"""A run of at least this many equal words may be a cut between pieces."""
_INF = 1 << 28


@dataclass(frozen=True)
class WordAlignment:
    """For every key word the response word it keeps (``-1``: put back
    without tags, as missing or replaced), the response's zero-mention words
    kept and the key word each lies before, and the counts: key words
    missing from the response (``inserted`` back), response words not in the
    key (``deleted``; ``leading`` of them before the first key word, which
    ``clean`` drops without counting) and words of a different form
    (``replaced``)."""

    source: np.ndarray
    zeros: tuple[tuple[int, int], ...]
    inserted: int
    deleted: int
    replaced: int
    leading: int


def align_words(response: Sequence[str], key: Sequence[str]) -> WordAlignment:
    """:class:`WordAlignment` of the response's word forms onto the key's."""
    ids: dict[str, int] = {}
    gold = np.fromiter((ids.setdefault(w, len(ids)) for w in key), dtype=np.int64, count=len(key))
    forms = np.fromiter((ids.setdefault(w, len(ids)) for w in response), dtype=np.int64, count=len(response))
    zero = np.fromiter((w.startswith(ZERO_PREFIX) for w in response), dtype=bool, count=len(response))
    source = np.full(len(key), -1, dtype=np.int64)
    zeros: list[tuple[int, int]] = []
    counts = np.zeros(4, dtype=np.int64)
    solved = _solve(forms, gold, zero)
    pieces = [(0, len(forms), 0, len(gold))] if solved is not None else _pieces(forms, gold, zero)
    for number, (a0, a1, b0, b1) in enumerate(pieces):
        table = solved if solved is not None else _solve(forms[a0:a1], gold[b0:b1], zero[a0:a1], limit=False)
        _backtrack(
            forms[a0:a1], gold[b0:b1], zero[a0:a1], table=table, at=(a0, b0), source=source, zeros=zeros, counts=counts, first=number == 0
        )
    zeros.sort(key=lambda item: (item[1], item[0]))
    inserted, deleted, replaced, leading = counts.tolist()
    return WordAlignment(source, tuple(zeros), inserted, deleted, replaced=replaced, leading=leading)


def _solve(forms: np.ndarray, gold: np.ndarray, zero: np.ndarray, *, limit: bool = True):
    """``(band, width, rank)`` holding the distance (:func:`_band`, widened
    by doubling), or ``None`` when ``limit`` and it would exceed
    :data:`MAX_CELLS`. A common tail is left out: the backtrack pairs it
    first whatever the table says."""
    m, n = len(forms), len(gold)
    tail = 0
    while tail < min(m, n) and forms[m - 1 - tail] == gold[n - 1 - tail] and not zero[m - 1 - tail]:
        tail += 1
    forms, gold, zero = forms[: m - tail], gold[: n - tail], zero[: m - tail]
    rows = np.flatnonzero(~zero)
    rank = np.concatenate([[0], np.cumsum(~zero)])
    width = max(_bound(forms[rows], gold), abs(len(rows) - len(gold)), 1)
    while True:
        if limit and (len(rows) + 1) * (2 * width + 1) > MAX_CELLS:
            return None
        band = _band(forms[rows], gold, rows + 1, width=width)
        if band[len(rows), len(gold) - len(rows) + width] <= width:
            return band, width, rank, tail
        width *= 2


def _bound(forms: np.ndarray, gold: np.ndarray) -> int:
    """An upper bound of the edit distance: the cost of the edits
    :func:`~.diff.matched_pairs` leaves (unmatched words paired in order
    as replacements, the rest inserted or deleted)."""
    i, j = matched_pairs(gold, forms)
    gap_i = np.diff(np.concatenate([[-1], i, [len(gold)]])) - 1
    gap_j = np.diff(np.concatenate([[-1], j, [len(forms)]])) - 1
    return int(np.maximum(gap_i, gap_j).sum())


def _pieces(forms: np.ndarray, gold: np.ndarray, zero: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Pieces cut in the middle of runs of :data:`CUT_RUN` equal words
    (:func:`~.diff.matched_pairs`), as response and key bounds."""
    m, n = len(forms), len(gold)
    plain = np.flatnonzero(~zero)
    i, j = matched_pairs(forms[plain], gold)
    i = plain[i]
    if not len(i):
        return [(0, m, 0, n)]
    same = (np.diff(i) == 1) & (np.diff(j) == 1)
    breaks = np.flatnonzero(~same) + 1
    starts, ends = np.concatenate([[0], breaks]), np.concatenate([breaks, [len(i)]])
    cuts = [(int(i[(s + e) // 2]), int(j[(s + e) // 2])) for s, e in zip(starts.tolist(), ends.tolist()) if e - s >= CUT_RUN]
    bounds = [(0, 0)] + cuts + [(m, n)]
    return [(a0, a1, b0, b1) for (a0, b0), (a1, b1) in zip(bounds, bounds[1:])]


def _backtrack(forms, gold, zero, *, table, at, source, zeros, counts, first: bool) -> None:
    """``clean``'s backtrack on one piece, written into ``source``,
    ``zeros`` and ``counts`` (inserted, deleted, replaced, leading) at
    offsets ``at`` (response, key)."""
    band, width, rank, tail = table
    a0, b0 = at
    m, n = len(forms), len(gold)
    size = 2 * width + 1
    source[b0 + n - tail : b0 + n] = np.arange(a0 + m - tail, a0 + m)

    def dp(i: int, j: int) -> int:
        if j == 0:
            return i
        r = int(rank[i])
        if r == 0:
            return j
        c = j - r + width
        return int(band[r, c]) if 0 <= c < size else _INF

    forms_l, gold_l, zero_l = forms.tolist(), gold.tolist(), zero.tolist()
    i, j = m - tail, n - tail
    inserted = deleted = replaced = 0
    while i > 0 and j > 0:
        if zero_l[i - 1]:
            zeros.append((a0 + i - 1, b0 + j))
            i -= 1
        elif forms_l[i - 1] == gold_l[j - 1]:
            source[b0 + j - 1] = a0 + i - 1
            i -= 1
            j -= 1
        else:
            here = dp(i, j)
            if here == dp(i - 1, j - 1) + 1:
                replaced += 1
                i -= 1
                j -= 1
            elif here == dp(i - 1, j) + 1:
                deleted += 1
                i -= 1
            else:
                inserted += 1
                j -= 1
    inserted += j
    left = int(i - zero[:i].sum())
    counts += (inserted, deleted + left, replaced, left if first else 0)


def _band(forms: np.ndarray, gold: np.ndarray, original: np.ndarray, *, width: int) -> np.ndarray:
    """``clean``'s table restricted to ``|i - j| <= width`` (rows: the
    response's non-zero words, numbered ``original`` in the full response;
    column 0 holds the full table's values), cell ``(r, j)`` at
    ``[r, j - r + width]``; cells outside the table are :data:`_INF`."""
    rows, n, size = len(forms), len(gold), 2 * width + 1
    band = np.full((rows + 1, size), _INF, dtype=np.int32)
    offsets = np.arange(size, dtype=np.int64)
    padded = np.concatenate([np.full(width + 1, -1), gold, np.full(rows + width + 1, -1)])
    equal = np.lib.stride_tricks.sliding_window_view(padded, size)[1 : rows + 1] == forms[:, None]
    js = offsets - width
    inside = np.lib.stride_tricks.sliding_window_view(
        np.concatenate([np.zeros(width + 1, bool), np.ones(n, bool), np.zeros(rows + width + 1, bool)]), size
    )
    band[0] = np.where((js >= 0) & (js <= n), js, _INF)
    previous = np.empty(size, dtype=np.int64)
    up = np.empty(size, dtype=np.int64)
    step = np.empty(size, dtype=np.int64)
    for r in range(1, rows + 1):
        previous[:] = band[r - 1]
        if 0 <= width - r + 1 < size:
            previous[width - r + 1] = original[r - 1] - 1
        up[:-1] = previous[1:]
        up[-1] = _INF
        np.minimum(previous, up, out=step)
        step += 1
        np.copyto(step, previous, where=equal[r - 1])
        valid = inside[r]
        step[~valid] = _INF
        if 0 <= width - r < size:
            step[width - r] = original[r - 1]
        step -= offsets
        np.minimum.accumulate(step, out=step)
        step += offsets
        np.minimum(step, _INF, out=step)
        step[~valid] = _INF
        if 0 <= width - r < size:
            step[width - r] = original[r - 1]
        band[r] = step
    return band
