"""Maximum-gain matchings of many small blocks, for totals (CEAF, MOR):
group by group, in plain Python while the work is small (a millisecond
where importing SciPy's solvers takes a quarter of a second), else by
SciPy (docs/metrics.md §7)."""
from heapq import heappop, heappush
from typing import Callable, Dict, Iterator, List, Sequence, Set, Tuple

import numpy as np

from .blocks import GROUP_NODES, Blocks
from .sparse import max_gain_matching

PYTHON_WORK = 200_000
"""The most work, Σ over blocks of rows × (edges + rows), solved in Python:
about 50 ms in the worst case (long augmenting paths), a few ms on dense
blocks."""

Solver = Callable[..., np.ndarray]
"""``solve(rows, cols, gains, *, n_rows, n_cols)``: :func:`python_matching` or :func:`~.sparse.max_gain_matching`."""


def in_python(blocks: Blocks, selected: np.ndarray) -> bool:
    """Whether the ``selected`` blocks are solved by :func:`python_matching`:
    when their work stays within :data:`PYTHON_WORK`."""
    n_rows = blocks.n_rows[selected].astype(np.int64)
    return int((n_rows * (blocks.n_edges[selected] + n_rows)).sum()) <= PYTHON_WORK


def solver_for(blocks: Blocks, selected: np.ndarray) -> Solver:
    """The solver of the ``selected`` blocks: :func:`python_matching` when
    :func:`in_python`, else SciPy's."""
    return python_matching if in_python(blocks, selected) else max_gain_matching


def matchings_by_group(
    blocks: Blocks, rows: np.ndarray, cols: np.ndarray, *, selected: np.ndarray, gains: Sequence[np.ndarray]
) -> Iterator[List[np.ndarray]]:
    """For each group of the ``selected`` blocks of the graph with edges
    ``(rows[e], cols[e])`` (:meth:`Blocks.groups` of :data:`GROUP_NODES`),
    the edge indices of a maximum-gain matching under each of ``gains``
    (arrays over the edges), by the solver of :func:`solver_for`."""
    solve = solver_for(blocks, selected)
    for cells in blocks.groups(selected, GROUP_NODES):
        row_ids, local_rows = np.unique(rows[cells], return_inverse=True)
        col_ids, local_cols = np.unique(cols[cells], return_inverse=True)
        local_rows, local_cols, shape = local_rows.ravel(), local_cols.ravel(), (len(row_ids), len(col_ids))
        yield [
            cells[solve(local_rows, local_cols, np.asarray(gain[cells], np.float64), n_rows=shape[0], n_cols=shape[1])]
            for gain in gains
        ]


def python_matching(rows: np.ndarray, cols: np.ndarray, gains: np.ndarray, *, n_rows: int, n_cols: int) -> np.ndarray:
    """Indices of the edges ``(rows[e], cols[e])`` (distinct, gains > 0) of a
    one-to-one matching of maximum total gain, in row order, as
    :func:`~.sparse.max_gain_matching` gives them.

    Every row may also stay unmatched, at gain 0, through a column of its
    own; rows are added one at a time, each by a shortest augmenting path
    (Dijkstra on costs ``-gain`` reduced by column potentials, which keep
    them nonnegative), so each step explores only the row's own block.
    """
    pad = n_cols
    n_columns = n_cols + n_rows
    adjacent: List[List[Tuple[int, float, int]]] = [[(pad + row, 0.0, -1)] for row in range(n_rows)]
    for edge, (row, col, gain) in enumerate(zip(rows.tolist(), cols.tolist(), np.asarray(gains, dtype=np.float64).tolist())):
        adjacent[row].append((col, -gain, edge))
    potential = [0.0] * n_columns
    owner = [-1] * n_columns
    column_of = [-1] * n_rows
    cost_of = [0.0] * n_rows
    edge_of = [-1] * n_rows
    for source in range(n_rows):
        distance: Dict[int, float] = {}
        via: Dict[int, Tuple[int, float, int]] = {}
        heap: List[Tuple[float, int]] = []
        for col, cost, edge in adjacent[source]:
            reduced = cost - potential[col]
            if reduced < distance.get(col, np.inf):
                distance[col] = reduced
                via[col] = (source, cost, edge)
                heappush(heap, (reduced, col))
        reached: List[int] = []
        settled: Set[int] = set()
        while True:
            length, col = heappop(heap)
            if col in settled:
                continue
            settled.add(col)
            reached.append(col)
            row = owner[col]
            if row < 0:
                break
            base = length - cost_of[row] + potential[col]
            for other, cost, edge in adjacent[row]:
                if other in settled:
                    continue
                reduced = base + cost - potential[other]
                if reduced < distance.get(other, np.inf):
                    distance[other] = reduced
                    via[other] = (row, cost, edge)
                    heappush(heap, (reduced, other))
        for settled_col in reached:
            potential[settled_col] += distance[settled_col] - length
        while True:
            row, cost, edge = via[col]
            previous = column_of[row]
            owner[col], column_of[row], cost_of[row], edge_of[row] = row, col, cost, edge
            if row == source:
                break
            col = previous
    return np.array([edge for edge in edge_of if edge >= 0], dtype=np.int64)
