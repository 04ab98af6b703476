"""The sparse contingency table of a key and a response partition (SPEC §1):
the nonzero n_ij = |k_i ∩ r_j| plus the entity sizes. Every metric is a
function of this table."""
from dataclasses import dataclass
from typing import Tuple

import numpy as np

from ..twinning.policies import Twinned


@dataclass(frozen=True)
class Contingency:
    """``key_sizes[i]`` = |k_i|, ``response_sizes[j]`` = |r_j| (empty
    entities dropped), and the nonzero cells ``counts[c]`` = n_ij with
    ``i = rows[c]``, ``j = cols[c]``, sorted by (row, col)."""

    key_sizes: np.ndarray
    response_sizes: np.ndarray
    rows: np.ndarray
    cols: np.ndarray
    counts: np.ndarray

    @classmethod
    def from_twinned(cls, twinned: Twinned) -> "Contingency":
        key, key_sizes = _dense(twinned.key)
        response, response_sizes = _dense(twinned.response)
        both = (key >= 0) & (response >= 0)
        width = max(len(response_sizes), 1)
        codes, counts = np.unique(key[both] * width + response[both], return_counts=True)
        return cls(key_sizes, response_sizes, codes // width, codes % width, counts.astype(np.int64))

    @property
    def row_sums(self) -> np.ndarray:
        """Σ_j n_ij: mentions of each key entity present in the response."""
        return np.bincount(self.rows, weights=self.counts, minlength=len(self.key_sizes))

    @property
    def col_sums(self) -> np.ndarray:
        """Σ_i n_ij: mentions of each response entity present in the key."""
        return np.bincount(self.cols, weights=self.counts, minlength=len(self.response_sizes))

    def transpose(self) -> "Contingency":
        """The table with key and response swapped."""
        order = np.lexsort((self.rows, self.cols))
        return Contingency(
            self.response_sizes, self.key_sizes,
            self.cols[order], self.rows[order], self.counts[order],
        )


def _dense(labels: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Labels renumbered over the nonempty entities (-1 stays -1), and sizes."""
    present = labels >= 0
    if not present.any():
        return np.full(len(labels), -1, dtype=np.int64), np.zeros(0, dtype=np.int64)
    sizes = np.bincount(labels[present])
    nonempty = sizes > 0
    if nonempty.all():
        return labels, sizes
    rank = np.cumsum(nonempty) - 1
    dense = np.full(len(labels), -1, dtype=np.int64)
    dense[present] = rank[labels[present]]
    return dense, sizes[nonempty]
