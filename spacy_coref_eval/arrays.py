"""Array routines that several stages use: the values of many ranges,
ranks of distinct integers and a linear-time stable order of small
integer keys."""

from collections.abc import Sequence

import numpy as np


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


NO_INTEGERS = _read_only(np.zeros(0, dtype=np.int64))
"""An empty int64 array, shared (read-only): no labels, tokens, heads."""
NO_SPANS = _read_only(np.zeros((0, 2), dtype=np.int64))
"""An empty ``(0, 2)`` int64 array of ``(start, end)`` rows, shared (read-only)."""


def range_values(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Every value of ``range(lo[i], hi[i])``, range after range, in one array."""
    sizes = hi - lo
    return np.repeat(lo - (np.cumsum(sizes) - sizes), sizes) + np.arange(int(sizes.sum()))


def expand_ranges(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(owner, value)`` for every ``value`` in ``range(lo[owner], hi[owner])``."""
    return np.repeat(np.arange(len(lo)), hi - lo), range_values(lo, hi)


def pair_brackets(group: np.ndarray, rank: np.ndarray, opening: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each opening bracket with its closing: within each ``group``, in
    ``rank`` order, a closing pairs with the latest unclosed opening. An
    opening at depth d and the closing that returns to depth d are
    consecutive once events are sorted by (group, depth, rank). Returns the
    indices of the paired openings and closings, and whether each event's
    group balances (no closing without an opening, none left open); pairs
    are given for balanced groups only."""
    order = np.lexsort((rank, group))
    sorted_group = group[order]
    delta = np.where(opening[order], 1, -1)
    depth_after = np.cumsum(delta)
    starts = np.r_[True, sorted_group[1:] != sorted_group[:-1]]
    base = np.maximum.accumulate(np.where(starts, np.arange(len(order)), 0))
    depth_after = depth_after - (depth_after[base] - delta[base])
    level = np.where(delta > 0, depth_after - 1, depth_after)
    run = np.cumsum(starts) - 1
    bad_run = np.zeros(int(run[-1]) + 1 if len(run) else 0, dtype=bool)
    bad_run[run[level < 0]] = True
    bad_run[run[np.r_[starts[1:], True] & (depth_after != 0)]] = True
    balanced = np.empty(len(order), dtype=bool)
    balanced[order] = ~bad_run[run]
    kept = order[balanced[order]]
    nested = kept[np.lexsort((rank[kept], level[balanced[order]], group[kept]))]
    return nested[0::2], nested[1::2], balanced


def compact(values: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct ``values`` (integers in ``[0, size)``), ascending, and
    the rank of every integer among them (a lookup table of ``size``):
    ``np.unique`` with its inverse, in O(n + size) without sorting."""
    present = np.zeros(size, dtype=bool)
    present[values] = True
    return np.flatnonzero(present), np.cumsum(present) - 1


def stable_order(keys: np.ndarray, n_keys: int) -> np.ndarray:
    """``np.argsort(keys, kind="stable")`` for integer keys in
    ``[0, n_keys)``: as 16-bit keys when they fit, which NumPy sorts by
    radix sort in linear time."""
    if n_keys <= 1 << 16:
        keys = keys.astype(np.uint16)
    return np.argsort(keys, kind="stable")


def lexsort(keys: Sequence[np.ndarray]) -> np.ndarray:
    """``np.lexsort(keys)`` (the last key first, ties in index order), as one
    stable sort of the keys packed into an integer where their ranges fit
    in 62 bits."""
    bounds = [(int(key.min()), int(key.max())) for key in keys] if len(keys[0]) else []
    widths = [(high - low).bit_length() for low, high in bounds]
    if not bounds or sum(widths) > 62:
        return np.lexsort(keys)
    packed = np.zeros(len(keys[0]), dtype=np.int64)
    for key, (low, _), width in zip(reversed(keys), reversed(bounds), reversed(widths)):
        packed <<= width
        packed |= key - low
    return np.argsort(packed, kind="stable")
