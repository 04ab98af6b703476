"""The one Python assignment solver, SciPy's own algorithm, for problems
too small to be worth importing SciPy's solvers (a quarter of a second):
the CorefUD preset's dense assignment, with SciPy's very choice among
optimal assignments, and the maximum-gain matchings of CEAF and MOR totals
and of twinning, block by block. Python solves a problem whose matrices
have at most :data:`PYTHON_CELLS` cells each and that needs at most
:data:`PYTHON_SCANS` reduced costs in all, SciPy the others
(docs/metrics.md §7): which one depends on that problem alone, never on
what the process solved before."""

import math
from collections.abc import Iterator, Sequence
from typing import Optional

import numpy as np

from ..arrays import expand_ranges
from .blocks import GROUP_NODES, Blocks
from .sparse import max_gain_matching

PYTHON_CELLS = 10_000
"""The largest matrix solved in Python (100 × 100; the CorefUD preset's
matrices on the 40 GUM documents are at most 57 × 43)."""
PYTHON_SCANS = 200_000
"""The most reduced costs one problem computes in Python (0.15–0.25 µs each,
so at most about 50 ms) before SciPy solves it instead (docs/metrics.md §7)."""
ROW_SCANS = 10
"""What each row of a block costs in Python besides its reduced costs
(about 2 µs: its lists, duals and path), counted as this many of them."""

Pairs = tuple[np.ndarray, np.ndarray]


def dense_assignment(scores: np.ndarray) -> Pairs:
    """The cells of SciPy's optimal assignment on ``scores``
    (``linear_sum_assignment(-scores)``) with a positive score, as the
    CorefUD scorer keeps them: by :func:`shortest_path_assignment` for a
    matrix of at most :data:`PYTHON_CELLS` cells that needs at most
    :data:`PYTHON_SCANS` reduced costs, else by SciPy (the same cells)."""
    if scores.size == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    found = _solve(-scores, PYTHON_SCANS)[0] if scores.size <= PYTHON_CELLS else None
    if found is None:
        from scipy.optimize import linear_sum_assignment

        found = linear_sum_assignment(-scores)
    rows, cols = found
    kept = scores[rows, cols] > 0
    return rows[kept], cols[kept]


def shortest_path_assignment(cost: np.ndarray) -> Pairs:
    """``scipy.optimize.linear_sum_assignment(cost)`` of a finite cost
    matrix, in Python: the same ``(rows, cols)``, as SciPy (1.9 and later)
    finds them, by the shortest augmenting path algorithm for rectangular
    problems (Crouse 2016, pp. 1685–1686). A matrix taller than wide is
    solved transposed, and the pairs come sorted by row.

    Rows are added one at a time. Each takes a shortest augmenting path,
    Dijkstra-like, over costs reduced by the dual values u and v: the
    columns not yet reached are scanned in a fixed order (from the last
    column, each column reached replaced by the last one left), and the
    nearest is reached next: among equally near ones the last free one in
    that order, or the first if none is free; the path ends at a free
    column. The duals are then
    updated and the assignment switched along the path. Every floating-point
    operation is SciPy's, in SciPy's order, so ties between optimal
    assignments are decided as SciPy decides them."""
    found, _ = _solve(cost, math.inf)
    assert found is not None, "no limit"
    return found


def _solve(cost: np.ndarray, max_scans: float) -> tuple[Optional[Pairs], int]:
    """:func:`shortest_path_assignment`, or None if it would compute more
    than ``max_scans`` reduced costs, and the number it computed."""
    cost = np.asarray(cost, dtype=np.float64)
    n_rows, n_cols = cost.shape
    if n_rows == 0 or n_cols == 0:
        return (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)), 0
    transposed = n_cols < n_rows
    matrix = (cost.T if transposed else cost).tolist()
    col_of, scans = _augment_rows(matrix, len(matrix), len(matrix[0]), max_scans=max_scans)
    if col_of is None:
        return None, scans
    if transposed:
        order = np.argsort(col_of)
        return (np.array(col_of, dtype=np.int64)[order], order.astype(np.int64)), scans
    return (np.arange(n_rows, dtype=np.int64), np.array(col_of, dtype=np.int64)), scans


def _augment_rows(matrix: list[list[float]], n_rows: int, n_cols: int, *, max_scans: float) -> tuple[Optional[list[int]], int]:
    """The column of every row (``n_rows <= n_cols``) of
    :func:`shortest_path_assignment`, or None past ``max_scans`` reduced
    costs, and the number computed."""
    scans = 0
    u, v = [0.0] * n_rows, [0.0] * n_cols
    col_of, row_of, path = [-1] * n_rows, [-1] * n_cols, [-1] * n_cols
    for current in range(n_rows):
        shortest = [math.inf] * n_cols
        remaining = list(range(n_cols - 1, -1, -1))
        seen_rows, seen_cols = [], []
        row, reach = current, 0.0
        while True:
            seen_rows.append(row)
            scans += len(remaining)
            if scans > max_scans:
                return None, scans
            costs, u_row = matrix[row], u[row]
            lowest, index = math.inf, -1
            for position, col in enumerate(remaining):
                reduced = reach + costs[col] - u_row - v[col]
                if reduced < shortest[col]:
                    path[col] = row
                    shortest[col] = reduced
                distance = shortest[col]
                if distance < lowest or (distance == lowest and row_of[col] < 0):
                    lowest, index = distance, position
            reach = lowest
            col = remaining[index]
            seen_cols.append(col)
            remaining[index] = remaining[-1]
            remaining.pop()
            if row_of[col] < 0:
                break
            row = row_of[col]
        u[current] += reach
        for row in seen_rows:
            if row != current:
                u[row] += reach - shortest[col_of[row]]
        for seen in seen_cols:
            v[seen] -= reach - shortest[seen]
        while True:
            row = path[col]
            row_of[col] = row
            col_of[row], col = col, col_of[row]
            if row == current:
                break
    return col_of, scans


def matchings_by_group(
    blocks: Blocks, rows: np.ndarray, cols: np.ndarray, *, selected: np.ndarray, gains: Sequence[np.ndarray]
) -> Iterator[list[np.ndarray]]:
    """The edge indices of a maximum-gain matching of the ``selected``
    blocks of the graph with edges ``(rows[e], cols[e])`` under each of
    ``gains`` (arrays over the edges): all at once by
    :func:`python_matchings` if it solves them, else for each group of
    blocks (:meth:`Blocks.groups` of :data:`GROUP_NODES`) by SciPy."""
    found = python_matchings(blocks, rows, cols, selected=selected, gains=gains)
    if found is not None:
        yield found
        return
    for cells in blocks.groups(selected, GROUP_NODES):
        row_ids, local_rows = np.unique(rows[cells], return_inverse=True)
        col_ids, local_cols = np.unique(cols[cells], return_inverse=True)
        local_rows, local_cols = local_rows.ravel(), local_cols.ravel()
        yield [
            cells[max_gain_matching(local_rows, local_cols, np.asarray(gain[cells], np.float64), n_rows=len(row_ids), n_cols=len(col_ids))]
            for gain in gains
        ]


def python_matchings(
    blocks: Blocks, rows: np.ndarray, cols: np.ndarray, *, selected: np.ndarray, gains: Sequence[np.ndarray]
) -> Optional[list[np.ndarray]]:
    """The edge indices of a maximum-gain matching of the ``selected``
    blocks under each of ``gains`` (positive, over the edges), as
    :func:`~.sparse.max_gain_matching` finds them, in Python: each block is
    the dense matrix of its gains, 0 off its edges, with a row per node of
    its shorter side, solved by :func:`shortest_path_assignment`'s
    algorithm; an assigned 0 is no pair. None if a block has more than
    :data:`PYTHON_CELLS` cells or the blocks need more than
    :data:`PYTHON_SCANS` reduced costs in all, each row counting
    :data:`ROW_SCANS` more: known before any solve when their cells and
    rows alone exceed it, else when a solve passes it."""
    chosen = np.flatnonzero(selected)
    heights, widths = blocks.n_rows[chosen], blocks.n_cols[chosen]
    sizes, n_lines, n_across = heights * widths, np.minimum(heights, widths), np.maximum(heights, widths)
    scans = len(gains) * ROW_SCANS * int(n_lines.sum())
    if int(sizes.max(initial=0)) > PYTHON_CELLS or scans + len(gains) * int(sizes.sum()) > PYTHON_SCANS:
        return None
    owner, position = expand_ranges(blocks.bounds[chosen], blocks.bounds[chosen + 1])
    cells = blocks.edges[position]
    counts = blocks.n_edges[chosen]
    starts = np.cumsum(counts) - counts
    local = []
    for ids in (rows[cells], cols[cells]):
        _, rank = np.unique(owner * (int(ids.max(initial=0)) + 1) + ids, return_inverse=True)
        rank = rank.ravel()
        local.append(rank - np.repeat(np.minimum.reduceat(rank, starts), counts))
    tall = heights > widths
    offsets = np.cumsum(sizes) - sizes
    code = offsets[owner] + np.where(tall[owner], local[1], local[0]) * n_across[owner]
    code += np.where(tall[owner], local[0], local[1])
    shapes = list(zip(offsets.tolist(), n_lines.tolist(), n_across.tolist()))
    found = []
    for gain in gains:
        flat = np.zeros(int(sizes.sum()))
        flat[code] = -np.asarray(gain, dtype=np.float64)[cells]
        costs = flat.tolist()
        picked: list[int] = []
        for offset, height, width in shapes:
            matrix = [costs[start : start + width] for start in range(offset, offset + height * width, width)]
            col_of, used = _augment_rows(matrix, height, width, max_scans=PYTHON_SCANS - scans)
            scans += used
            if col_of is None:
                return None
            picked.extend(offset + line * width + col for line, col in enumerate(col_of))
        assigned = np.zeros(len(flat), dtype=bool)
        assigned[picked] = True
        found.append(np.sort(cells[assigned[code]]))
    return found
