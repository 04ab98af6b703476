"""Array routines that several stages use: the values of many ranges,
ranks of distinct integers and a linear-time stable order of small
integer keys."""
from typing import Tuple

import numpy as np


def range_values(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Every value of ``range(lo[i], hi[i])``, range after range, in one array."""
    sizes = hi - lo
    return np.repeat(lo - (np.cumsum(sizes) - sizes), sizes) + np.arange(int(sizes.sum()))


def expand_ranges(lo: np.ndarray, hi: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """``(owner, value)`` for every ``value`` in ``range(lo[owner], hi[owner])``."""
    return np.repeat(np.arange(len(lo)), hi - lo), range_values(lo, hi)


def compact(values: np.ndarray, size: int) -> Tuple[np.ndarray, np.ndarray]:
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
