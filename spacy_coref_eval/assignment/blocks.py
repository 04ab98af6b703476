"""The connected blocks of a bipartite graph, in O(n + e) array passes, and
the groups of blocks a solver is called on (docs/metrics.md §7)."""

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ..arrays import compact, expand_ranges, stable_order

GROUP_NODES = 512
"""Small blocks are solved together in groups of about this many nodes: one
solver call per block would cost its overhead on each of many tiny blocks,
one call for all would let the sparse solver's work per row (linear in the
nodes of the problem) grow with the whole union."""

PYTHON_ARCS = 200_000
"""Strongly connected components of graphs with up to this many nodes and
arcs together are found in Python: at most about the CPU time that
importing SciPy's graph routines takes (docs/metrics.md §7)."""


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


def connected_blocks(rows: np.ndarray, cols: np.ndarray, *, n_rows: int, n_cols: int) -> Blocks:
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
    return Blocks(of_edge, per_row, per_col, edges, bounds=bounds)


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


def relabel(rows: np.ndarray, cols: np.ndarray, *, n_rows: int, n_cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rows and columns that have edges, and every edge's row and
    column numbered among them, in order
    (:func:`~spacy_coref_eval.arrays.compact`)."""
    row_labels, row_rank = compact(rows, n_rows)
    col_labels, col_rank = compact(cols, n_cols)
    return row_labels, row_rank[rows], col_labels, col_rank[cols]


def strong_components(n_nodes: int, sources: np.ndarray, targets: np.ndarray, *, python: bool = True) -> np.ndarray:
    """The strongly connected component of every node of the directed graph
    with the distinct arcs ``sources[a] → targets[a]`` (SciPy's routine
    never ends on a repeated arc), as labels (equal within a component): by
    Tarjan's algorithm (1972), iteratively, if ``python`` (SciPy not
    needed so far) and up to :data:`PYTHON_ARCS` nodes and arcs, else by
    SciPy's ``connected_components`` (the same partition, other labels)."""
    order = stable_order(sources, n_nodes)
    starts = np.r_[0, np.cumsum(np.bincount(sources, minlength=n_nodes))]
    if python and n_nodes + len(sources) <= PYTHON_ARCS:
        return np.array(_tarjan(starts.tolist(), targets[order].tolist()), dtype=np.int64)
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    arcs = csr_matrix((np.ones(len(order)), targets[order], starts), shape=(n_nodes, n_nodes))
    return connected_components(arcs, directed=True, connection="strong")[1]


def _tarjan(starts: list[int], targets: list[int]) -> list[int]:
    """Tarjan's strongly connected components of the graph whose node a has
    the arcs to ``targets[starts[a]:starts[a + 1]]``, numbered as they
    complete; the depth-first search keeps its own stack of (node, next
    arc) instead of recursing."""
    n_nodes = len(starts) - 1
    index, low, label = [-1] * n_nodes, [0] * n_nodes, [-1] * n_nodes
    on_stack = [False] * n_nodes
    stack: list[int] = []
    visited = found = 0
    for root in range(n_nodes):
        if index[root] >= 0:
            continue
        index[root] = low[root] = visited
        visited += 1
        stack.append(root)
        on_stack[root] = True
        search = [[root, starts[root]]]
        while search:
            frame = search[-1]
            node, arc = frame
            if arc < starts[node + 1]:
                frame[1] = arc + 1
                target = targets[arc]
                if index[target] < 0:
                    index[target] = low[target] = visited
                    visited += 1
                    stack.append(target)
                    on_stack[target] = True
                    search.append([target, starts[target]])
                elif on_stack[target] and index[target] < low[node]:
                    low[node] = index[target]
                continue
            search.pop()
            if search and low[node] < low[search[-1][0]]:
                low[search[-1][0]] = low[node]
            if low[node] == index[node]:
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    label[member] = found
                    if member == node:
                        break
                found += 1
    return label
