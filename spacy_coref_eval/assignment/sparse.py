"""SciPy's solvers behind one call: a maximum-gain matching, sparse or dense
by the problem's shape, imported only when a problem needs them
(docs/metrics.md §7)."""

from typing import Optional

import numpy as np


def edge_index(rows: np.ndarray, cols: np.ndarray, n_cols: int, *, find_rows: np.ndarray, find_cols: np.ndarray) -> np.ndarray:
    """The index ``e`` with ``(rows[e], cols[e]) == (find_rows[k], find_cols[k])``
    for every k (each pair must be an edge; edges are distinct)."""
    codes = rows.astype(np.int64) * n_cols + cols
    order = np.argsort(codes, kind="stable")
    return order[np.searchsorted(codes[order], find_rows.astype(np.int64) * n_cols + find_cols)]


DENSE_CELLS = 1 << 22
"""A matching problem whose full matrix has at most this many cells and is
at least 1/8 filled is solved dense (32 MB at most)."""


SMALL_CELLS = 1 << 15
"""Below about 180 × 180 cells the dense solver beats the sparse one's
fixed costs, however sparse the problem (``small_cells`` of
:func:`max_gain_matching`)."""


def max_gain_matching(
    rows: np.ndarray,
    cols: np.ndarray,
    gains: np.ndarray,
    *,
    n_rows: int,
    n_cols: int,
    may_miss: Optional[np.ndarray] = None,
    small_cells: int = 0,
) -> np.ndarray:
    """Indices of the edges ``(rows[e], cols[e])`` (distinct, gains > 0) of a
    one-to-one matching of maximum total gain.

    * Equal gains: the total is the gain times the size, so a maximum
      matching (Hopcroft–Karp,
      :func:`scipy.sparse.csgraph.maximum_bipartite_matching`).
    * Dense problems (:data:`DENSE_CELLS`), and those of at most
      ``small_cells`` cells (:data:`SMALL_CELLS` is a good choice):
      :func:`scipy.optimize.linear_sum_assignment` on the matrix of gains,
      0 for a missing edge, as an assigned zero cell is an unmatched pair.
    * Sparse problems: row i gets a pad column ``n_cols + i`` of gain 0, so
      that a matching covering every row exists, and gains become costs
      ``K − gain`` with ``K = 1 + max gain``, all ≥ 1 (the solver drops
      explicit zeros). A full matching has ``n_rows`` edges and costs
      ``n_rows · K`` less its gain; its real edges are a matching of that
      gain, and any matching extends to a full one through the pads; so a
      full matching of minimum cost is a matching of maximum gain. Rows
      outside ``may_miss`` (a mask; all rows by default), which the caller
      knows every maximum-gain matching to match, get no pad (the solver's
      time grows with its columns), and columns without edges keep the
      problem wider than tall.
      :func:`scipy.sparse.csgraph.min_weight_full_bipartite_matching`
      (LAPJVsp, Jonker & Volgenant 1987) solves it in memory linear in the
      edges. The problem is never square, so the solver skips its row
      reduction phase, which on near-equal float costs can cycle for
      minutes, and finds each row a shortest augmenting path.
    """
    if len(rows) == 0:
        return np.zeros(0, dtype=np.int64)
    from scipy.sparse import csr_matrix

    gains = np.asarray(gains, dtype=np.float64)
    cells = n_rows * n_cols
    if gains.min() == gains.max():
        from scipy.sparse.csgraph import maximum_bipartite_matching

        graph = csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n_rows, n_cols))
        col_of = np.asarray(maximum_bipartite_matching(graph, perm_type="column"))
        matched_rows = np.flatnonzero(col_of >= 0)
        matched_cols = col_of[matched_rows]
    elif cells <= small_cells or (cells <= DENSE_CELLS and cells <= 8 * len(rows)):
        from scipy.optimize import linear_sum_assignment

        matrix = np.zeros((n_rows, n_cols))
        matrix[rows, cols] = gains
        matched_rows, matched_cols = linear_sum_assignment(matrix, maximize=True)
        real = matrix[matched_rows, matched_cols] > 0
        matched_rows, matched_cols = matched_rows[real], matched_cols[real]
    else:
        from scipy.sparse.csgraph import min_weight_full_bipartite_matching

        top = float(gains.max()) + 1.0
        padded = np.arange(n_rows) if may_miss is None else np.flatnonzero(may_miss)
        graph = csr_matrix(
            (
                np.concatenate([top - gains, np.full(len(padded), top)]),
                (np.concatenate([rows, padded]), np.concatenate([cols, n_cols + np.arange(len(padded))])),
            ),
            shape=(n_rows, max(n_cols + len(padded), n_rows + 1)),
        )
        matched_rows, matched_cols = min_weight_full_bipartite_matching(graph)
        real = matched_cols < n_cols
        matched_rows, matched_cols = matched_rows[real], matched_cols[real]
    return edge_index(rows, cols, n_cols, find_rows=matched_rows, find_cols=matched_cols)
