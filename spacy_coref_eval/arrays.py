"""Array routines that several stages use: expanding ranges, the connected
blocks of a bipartite graph, and a sparse maximum-gain matching on it."""
from dataclasses import dataclass
from typing import Iterator, Optional, Tuple

import numpy as np


def range_values(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Every value of ``range(lo[i], hi[i])``, range after range, in one array."""
    sizes = hi - lo
    return np.repeat(lo - (np.cumsum(sizes) - sizes), sizes) + np.arange(int(sizes.sum()))


def expand_ranges(lo: np.ndarray, hi: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """``(owner, value)`` for every ``value`` in ``range(lo[owner], hi[owner])``."""
    return np.repeat(np.arange(len(lo)), hi - lo), range_values(lo, hi)


GROUP_NODES = 512
"""Small blocks are solved together in groups of about this many nodes: one
solver call per block would cost its overhead on each of many tiny blocks,
one call for all would let the sparse solver's work per row (linear in the
nodes of the problem) grow with the whole union."""


@dataclass(frozen=True)
class Blocks:
    """The connected blocks of a bipartite graph given by its edges
    ``(rows[e], cols[e])``.

    ``edges`` lists the edge indices block by block (each block's in input
    order); block ``b`` owns ``edges[bounds[b]:bounds[b + 1]]``.
    """

    of_edge: np.ndarray
    n_rows: np.ndarray
    n_cols: np.ndarray
    edges: np.ndarray
    bounds: np.ndarray

    def __len__(self) -> int:
        return len(self.n_rows)

    @property
    def n_edges(self) -> np.ndarray:
        """Edges of every block."""
        return np.diff(self.bounds)

    @property
    def first_edges(self) -> np.ndarray:
        """The first edge (in input order) of every block."""
        return self.edges[self.bounds[:-1]]

    def groups(self, selected: np.ndarray, max_nodes: int = 0, large_alone: bool = False) -> Iterator[np.ndarray]:
        """The edge indices of the ``selected`` blocks (a mask over blocks),
        block by block. With ``max_nodes``, consecutive selected blocks are
        joined into one group until their rows and columns reach
        ``max_nodes``, so that a solver called once per group is called few
        times on many small blocks, never on one huge union; with
        ``large_alone``, blocks of ``max_nodes // 2`` rows and columns or
        more stay alone, for a solver whose time grows with the product of
        a group's rows and columns."""
        chosen = np.flatnonzero(selected)
        if len(chosen) == 0:
            return
        owner, position = expand_ranges(self.bounds[chosen], self.bounds[chosen + 1])
        if max_nodes:
            nodes = (self.n_rows + self.n_cols)[chosen]
            small = nodes < max_nodes // 2 if large_alone else np.ones(len(chosen), dtype=bool)
            group = (np.cumsum(nodes * small) - nodes * small) // max_nodes
            group = np.where(small, group, len(chosen) + np.arange(len(chosen)))
        else:
            group = np.arange(len(chosen))
        cuts = np.flatnonzero(np.diff(group[owner])) + 1
        yield from np.split(self.edges[position], cuts)


def connected_blocks(rows: np.ndarray, cols: np.ndarray, n_rows: int, n_cols: int) -> Blocks:
    """The :class:`Blocks` of the bipartite graph on ``n_rows`` rows and
    ``n_cols`` columns whose edges are ``(rows[e], cols[e])``, numbered by
    their smallest node; O(n + e), sorting only block numbers."""
    n_nodes = n_rows + n_cols
    component = components(n_nodes, np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64) + n_rows)
    labels, block_of = compact(component[rows], n_nodes)
    of_edge = block_of[component[rows]]
    edges = stable_order(of_edge, len(labels))
    bounds = np.r_[0, np.cumsum(np.bincount(of_edge, minlength=len(labels)))]
    per_row = np.bincount(component[:n_rows], minlength=n_nodes)[labels]
    per_col = np.bincount(component[n_rows:], minlength=n_nodes)[labels]
    return Blocks(of_edge, per_row, per_col, edges, bounds)


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


def components(n_nodes: int, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The connected component of every node of the graph with edges
    ``(u[e], v[e])``, labelled by its smallest node. Each round hooks the
    larger root of every edge whose ends have different roots under the
    smaller one, then shortens every path to its root (pointer jumping, as
    in Shiloach & Vishkin 1982); roots only ever decrease, and every round
    that changes anything removes at least one root, so this ends with one
    root per component. On paths the number of roots at least halves each
    round."""
    parent = np.arange(n_nodes, dtype=np.int64)
    while len(u):
        ends_u, ends_v = parent[u], parent[v]
        differ = ends_u != ends_v
        if not differ.any():
            break
        np.minimum.at(parent, np.maximum(ends_u, ends_v)[differ], np.minimum(ends_u, ends_v)[differ])
        while True:
            jumped = parent[parent]
            if np.array_equal(jumped, parent):
                break
            parent = jumped
    return parent


def edge_index(
    rows: np.ndarray, cols: np.ndarray, n_cols: int, find_rows: np.ndarray, find_cols: np.ndarray
) -> np.ndarray:
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
    rows: np.ndarray, cols: np.ndarray, gains: np.ndarray, n_rows: int, n_cols: int,
    may_miss: Optional[np.ndarray] = None, small_cells: int = 0,
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
    return edge_index(rows, cols, n_cols, matched_rows, matched_cols)
