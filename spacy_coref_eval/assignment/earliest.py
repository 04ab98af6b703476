"""The earliest optimal assignment: among maximum-score assignments, the
one that gives each column in turn the earliest row that still allows the
optimum (docs/metrics.md §3, §7)."""

from typing import NamedTuple, Optional

import numpy as np

from ..arrays import stable_order
from .blocks import GROUP_NODES, Blocks, connected_blocks, relabel, strong_components
from .gains import Gains, Ratios, as_ratios
from .lsap import python_matchings
from .sparse import SMALL_CELLS, max_gain_matching


def earliest_optimal(
    rows: np.ndarray, cols: np.ndarray, scores: np.ndarray, *, n_rows: int, n_cols: int, ratios: Optional[Ratios]
) -> np.ndarray:
    """The edges ``(rows[e], cols[e])`` (scores > 0, distinct) of a one-to-one
    assignment of maximum total score, as indices ordered by column: among
    optimal assignments the one that gives each column in turn, earliest
    first, the earliest row that still allows an optimal total, and no row
    only if none does (the lexicographically smallest).

    Pad the graph with a row ``R + j`` ("column j has no row") for each
    column and a column ``C + i`` for each row, joined by gain-0 edges
    (i, C + i), (R + j, j) and (R + j, C + i) for every edge (i, j). Its
    perfect matchings are the assignments with their pads: unmatched nodes
    take their own pad, and the pads of a pair (i, j) take each other.

    0. Edges no optimal assignment uses are dropped, and the rows and
       columns every optimal assignment matches are found
       (:func:`_reduce`): the optimal assignments stay as they are, and
       some blocks split. Gains are exact integers when ``ratios``
       (:func:`as_ratios`) are given (:meth:`Gains.of`).
    1. One sparse or dense solve per group of blocks
       (:func:`_optimal_by_block`) gives an optimal assignment, hence an
       optimal perfect matching M.
    2. Optimal dual values (:func:`_tight_edges`): by LP duality (the
       assignment polytope is integral) a perfect matching is optimal iff
       all its edges are tight (u_a + v_b = g_ab), so the optimal
       assignments are exactly the perfect matchings of the tight
       subgraph T.
    3. A tight edge off M lies in a perfect matching of T iff it closes an
       alternating cycle, i.e. iff its ends share a strongly connected
       component of T directed rows → columns off M, columns → rows on M
       (Dulmage & Mendelsohn 1958); rows alone in theirs keep their column
       in M. The other columns, in order, fix their row: with M a perfect
       matching of T that agrees with every fixed column, a tight edge
       (i, j) lies in one that agrees with them iff it is in M or closes an
       alternating cycle through unfixed nodes other than j. One search
       from M(j) finds the earliest reachable candidate row; M is switched
       along that cycle, which keeps the invariant for the next column. The
       pad row (no row) stays only when no real row is reachable.

    Memory O(E). Time: the solves; Bellman–Ford rounds of O(E), as many as
    the longest improving alternating path has edges (about 15 on blocks of
    a thousand ambiguous mentions); one strongly connected components pass;
    an O(E) search only for a column whose row in M is not already its
    earliest candidate.
    """
    if len(rows) == 0:
        return np.zeros(0, dtype=np.int64)
    return earliest_on_gains(rows, cols, Gains.of(scores, ratios, n_rows + n_cols), n_rows=n_rows, n_cols=n_cols)


def earliest_on_gains(rows: np.ndarray, cols: np.ndarray, gains: Gains, *, n_rows: int, n_cols: int) -> np.ndarray:
    """:func:`earliest_optimal` on gains already made. Beyond
    :data:`~.blocks.GROUP_NODES` rows and columns, with the
    reductions of step 0, one solve per group of blocks and the components
    of step 3; up to it, whose fixed costs outweigh their savings, with one
    solve and the search over all tight edges. The solve, and the
    components after it, are made in Python when the blocks are small
    enough (:func:`~.lsap.python_matchings`), else by SciPy."""
    by_component = n_rows + n_cols > GROUP_NODES
    if by_component:
        kept, free_rows, free_cols = _reduce(rows, cols, gains, n_rows=n_rows, n_cols=n_cols)
        rows, cols, values = rows[kept], cols[kept], gains.values[kept]
    else:
        kept, values = np.arange(len(rows)), gains.values
    blocks = connected_blocks(rows, cols, n_rows=n_rows, n_cols=n_cols)
    found = python_matchings(blocks, rows, cols, selected=np.ones(len(blocks), dtype=bool), gains=[values])
    python = found is not None
    if found is not None:
        (matched,) = found
    elif by_component:
        matched = _optimal_by_block(rows, cols, values, free_rows=free_rows, free_cols=free_cols, blocks=blocks)
    else:
        matched = max_gain_matching(rows, cols, values, n_rows=n_rows, n_cols=n_cols, small_cells=SMALL_CELLS)
    left, right, mate_edge = _padded(rows, cols, n_rows=n_rows, n_cols=n_cols, matched=matched)
    tight = _tight_edges(rows, cols, values, n_rows=n_rows, n_cols=n_cols, matched=matched, gains=gains)
    chosen = _fix_columns(left, right, tight, mate_edge=mate_edge, n_rows=n_rows, n_cols=n_cols, by_component=by_component, python=python)
    return kept[chosen[np.argsort(cols[chosen], kind="stable")]]


def _optimal_by_block(
    rows: np.ndarray, cols: np.ndarray, gains: np.ndarray, *, free_rows: np.ndarray, free_cols: np.ndarray, blocks: Blocks
) -> np.ndarray:
    """Edge indices of a maximum-gain assignment, by one
    :func:`~.sparse.max_gain_matching` per group of the connected
    ``blocks``, where only the rows in ``free_rows`` (or, turned around, the
    columns in ``free_cols``) may stay unmatched: each group takes the
    orientation whose solve is smaller."""
    if len(rows) == 0:
        return np.zeros(0, dtype=np.int64)
    shape = len(free_rows), len(free_cols)
    every = np.ones(len(blocks), dtype=bool)
    matched = []
    for members in blocks.groups(every, GROUP_NODES, large_alone=True):
        group_rows, row_index, group_cols, col_index = relabel(rows[members], cols[members], n_rows=shape[0], n_cols=shape[1])
        n_group_rows, n_group_cols = len(group_rows), len(group_cols)
        may_miss_rows, may_miss_cols = free_rows[group_rows], free_cols[group_cols]
        by_rows = n_group_rows * (n_group_cols + int(may_miss_rows.sum()))
        by_cols = n_group_cols * (n_group_rows + int(may_miss_cols.sum()))
        if by_cols < by_rows:
            found = max_gain_matching(
                col_index,
                row_index,
                gains[members],
                n_rows=n_group_cols,
                n_cols=n_group_rows,
                may_miss=may_miss_cols,
                small_cells=SMALL_CELLS,
            )
        else:
            found = max_gain_matching(
                row_index,
                col_index,
                gains[members],
                n_rows=n_group_rows,
                n_cols=n_group_cols,
                may_miss=may_miss_rows,
                small_cells=SMALL_CELLS,
            )
        matched.append(members[found])
    return np.concatenate(matched)


def _padded(
    rows: np.ndarray, cols: np.ndarray, *, n_rows: int, n_cols: int, matched: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The padded graph of :func:`earliest_optimal` as ``(left, right)`` per
    edge (the real edges, then (i, C + i), (R + j, j) and (R + j, C + i)),
    and the edge of the perfect matching M at each left node, M extending
    the assignment ``matched`` (edge indices)."""
    n_edges = len(rows)
    pad_rows, pad_cols = n_rows + np.arange(n_cols), n_cols + np.arange(n_rows)
    left = np.concatenate([rows, np.arange(n_rows), pad_rows, n_rows + cols])
    right = np.concatenate([cols, pad_cols, np.arange(n_cols), n_cols + rows])
    mate_edge = np.concatenate([n_edges + np.arange(n_rows), n_edges + n_rows + np.arange(n_cols)])
    mate_edge[rows[matched]] = matched
    mate_edge[n_rows + cols[matched]] = n_edges + n_rows + n_cols + matched
    return left, right, mate_edge


def _tight_edges(
    rows: np.ndarray, cols: np.ndarray, values: np.ndarray, *, n_rows: int, n_cols: int, matched: np.ndarray, gains: Gains
) -> np.ndarray:
    """Mask of the edges of :func:`_padded` that are tight under optimal
    dual values (step 2 of :func:`earliest_optimal`). Those of the
    unpadded problem, u, v ≥ 0 with u_i + v_j ≥ g_ij, equality on the
    optimal assignment M and 0 on nodes it leaves unmatched, come from the
    least v with v_j ≥ v_M(i) + g_ij − g_iM(i) for every edge (i, j) ∉ M
    of a matched row i, v_j ≥ g_ij for those of unmatched rows, v ≥ 0:
    longest paths, by Bellman–Ford rounds relaxing all arcs at once; then
    u_i = g_iM(i) − v_M(i). As M is optimal, no alternating path or cycle
    gains, so there is no positive cycle, v is 0 on unmatched columns and
    u ≥ 0. Pads take dual 0, so that (i, C + i) is tight iff u_i = 0,
    (R + j, j) iff v_j = 0, and every edge between pads is."""
    col_of = np.full(n_rows, -1)
    col_of[rows[matched]] = cols[matched]
    gain_of = np.zeros(n_rows)
    gain_of[rows[matched]] = values[matched]
    off = np.ones(len(rows), dtype=bool)
    off[matched] = False
    from_matched = off & (col_of[rows] >= 0)
    starting = off & ~from_matched
    v = np.zeros(n_cols)
    np.maximum.at(v, cols[starting], values[starting])
    src, dst = col_of[rows[from_matched]], cols[from_matched]
    length = values[from_matched] - gain_of[rows[from_matched]]
    for _ in range(n_cols + 1):
        longer = v[src] + length
        better = longer > v[dst] + gains.slack
        if not better.any():
            break
        np.maximum.at(v, dst[better], longer[better])
    else:
        raise AssertionError("positive cycle: the assignment was not optimal")
    u = np.where(col_of >= 0, gain_of - v[col_of], 0.0)
    unmatched_cols = np.ones(n_cols, dtype=bool)
    unmatched_cols[cols[matched]] = False
    if (u < -gains.tolerance).any() or (v[unmatched_cols] > gains.tolerance).any():
        raise AssertionError("gaining alternating path: the assignment was not optimal")
    return np.concatenate(
        [u[rows] + v[cols] - values <= gains.tolerance, u <= gains.tolerance, v <= gains.tolerance, np.ones(len(rows), dtype=bool)]
    )


class Adjacency(NamedTuple):
    """Neighbours of node a: ``targets[starts[a]:starts[a + 1]]``, as lists
    for the node-by-node searches."""

    starts: list[int]
    targets: list[int]


def _fix_columns(
    left: np.ndarray,
    right: np.ndarray,
    tight: np.ndarray,
    *,
    mate_edge: np.ndarray,
    n_rows: int,
    n_cols: int,
    by_component: bool,
    python: bool,
) -> np.ndarray:
    """Step 3 of :func:`earliest_optimal` on the padded graph and its
    ``tight`` edges: the padded edge indices of the chosen real edges. With
    ``by_component``, rows alone in their strongly connected component keep
    their column in M and the search sees only edges within components that
    hold a real edge (components in Python if ``python``, else by SciPy);
    without, every column is searched over all tight edges (the same
    choice)."""
    size = n_rows + n_cols
    right_of = right[mate_edge]
    left_of = np.empty(size, dtype=np.int64)
    left_of[right_of] = np.arange(size)
    real = (left < n_rows) & (right < n_cols)
    if by_component:
        component = _strong_components(left, left_of[right], tight, mate_edge=mate_edge, size=size, python=python)
        group = component[left]
        inner = tight & (group == component[left_of[right]]) & (np.bincount(component)[group] > 1)
        with_real = np.zeros(size, dtype=bool)
        with_real[group[inner & real]] = True
        within = np.flatnonzero(inner & with_real[group])
        alone = mate_edge[~inner[mate_edge] & real[mate_edge]]
    else:
        within, alone = np.flatnonzero(tight), np.zeros(0, dtype=np.int64)
    if len(within) == 0:
        return alone
    order = within[stable_order(left[within], size)]
    graph = Adjacency(np.r_[0, np.cumsum(np.bincount(left[order], minlength=size))].tolist(), right[order].tolist())
    candidates = within[real[within]]
    candidates = candidates[np.lexsort((left[candidates], right[candidates]))]
    columns, first = np.unique(right[candidates], return_index=True)
    chosen = _fix_in_order(
        graph,
        Adjacency(np.r_[first, len(candidates)].tolist(), left[candidates].tolist()),
        columns.tolist(),
        right_of=right_of.tolist(),
        left_of=left_of.tolist(),
        n_rows=n_rows,
    )
    edge_of = dict(zip(zip(left[candidates].tolist(), right[candidates].tolist()), candidates.tolist()))
    return np.r_[alone, np.array([edge_of[pair] for pair in chosen], dtype=np.int64)]


def _strong_components(
    left: np.ndarray, mate_of_right: np.ndarray, tight: np.ndarray, *, mate_edge: np.ndarray, size: int, python: bool
) -> np.ndarray:
    """The strongly connected component of every left node of the tight
    graph directed left → right off M and right → left on M, each right
    node merged into its mate (the one node it leads to): arcs a → M(b)
    for the tight edges (a, b) off M (``mate_of_right`` holds M(b) per
    edge, so the arcs are distinct), by :func:`~.blocks.strong_components`."""
    off_m = tight.copy()
    off_m[mate_edge] = False
    return strong_components(size, left[off_m], mate_of_right[off_m], python=python)


def _fix_in_order(
    graph: Adjacency, candidates: Adjacency, columns: list[int], *, right_of: list[int], left_of: list[int], n_rows: int
) -> list[tuple[int, int]]:
    """The sequential part of step 3: ``graph`` holds the tight neighbours
    of each padded row within its component, ``candidates`` the real rows
    so tight with each of ``columns`` in turn, ``right_of`` and ``left_of``
    the perfect matching M (switched in place). Returns the real
    (row, column) pairs fixed."""
    size = len(right_of)
    fixed_left, fixed_right = [False] * size, [False] * size
    chosen: list[tuple[int, int]] = []
    starts, rows = candidates
    for k, j in enumerate(columns):
        best = mate = left_of[j]
        wanted = []
        for row in rows[starts[k] : starts[k + 1]]:
            if row == mate:
                break
            if not fixed_left[row]:
                wanted.append(row)
        if wanted:
            best = _switch_to_earliest(graph, right_of, left_of, fixed_right=fixed_right, j=j, wanted=wanted)
        fixed_left[best] = fixed_right[j] = True
        if best < n_rows:
            chosen.append((best, j))
    return chosen


def _switch_to_earliest(
    graph: Adjacency, right_of: list[int], left_of: list[int], *, fixed_right: list[bool], j: int, wanted: list[int]
) -> int:
    """The earliest of the ``wanted`` rows (unfixed candidates of column j
    before M(j), in order) reachable from M(j) by an alternating path
    through unfixed nodes other than j, with M switched along the cycle
    so that it matches that row to j; M(j) itself if none is."""
    mate = left_of[j]
    first, wanted_set = wanted[0], set(wanted)
    came_from = {mate: (-1, -1)}
    seen_right = {j}
    queue = [mate]
    found = []
    starts, targets = graph
    for a in queue:
        for b in targets[starts[a] : starts[a + 1]]:
            if b in seen_right or fixed_right[b] or b == right_of[a]:
                continue
            seen_right.add(b)
            row = left_of[b]
            if row in came_from:
                continue
            came_from[row] = (a, b)
            if row in wanted_set:
                found.append(row)
                if row == first:
                    break
            queue.append(row)
        else:
            continue
        break
    if not found:
        return mate
    best = row = min(found)
    while row != mate:
        previous, b = came_from[row]
        right_of[previous], left_of[b] = b, previous
        row = previous
    right_of[best], left_of[j] = j, best
    return best


def best_assignment(scores: np.ndarray) -> list[tuple[int, int]]:
    """:func:`earliest_optimal` on a dense matrix of scores (cells > 0 are
    the candidates): ``(row, column)`` pairs, by column."""
    rows, cols = np.nonzero(scores > 0)
    values = scores[rows, cols]
    n_rows, n_cols = scores.shape
    chosen = earliest_optimal(rows, cols, values, n_rows=n_rows, n_cols=n_cols, ratios=as_ratios(values))
    return list(zip(rows[chosen].tolist(), cols[chosen].tolist()))


class Reduced(NamedTuple):
    """What :func:`_reduce` leaves: the ``kept`` edge indices, and the rows
    and columns that some optimal assignment may leave unmatched (masks)."""

    kept: np.ndarray
    free_rows: np.ndarray
    free_cols: np.ndarray


def _reduce(rows: np.ndarray, cols: np.ndarray, gains: Gains, *, n_rows: int, n_cols: int) -> Reduced:
    """Drops dominated edges: edge (i, j) is dominated if row i has another
    column j' with g(i, j') > g(i, j) + g(i', j') for every other row i'
    of j' (0 if none), or the same with rows and columns swapped. No
    optimal assignment uses a dominated edge: trading (i, j) and (i', j')
    for (i, j') gains (an exchange argument, as in reductions for the
    assignment problem). Likewise a row that is the strictly best row of
    one of its columns is matched in every optimal assignment (that cell
    would replace the column's row), and so is such a column. Decided only
    on exact gains, in one pass (a second one finds little); on float gains
    nothing is dropped or known."""
    kept = np.arange(len(rows))
    free_rows, free_cols = np.ones(n_rows, dtype=bool), np.ones(n_cols, dtype=bool)
    if not gains.exact:
        return Reduced(kept, free_rows, free_cols)
    g = gains.values
    row_net = g - _best_of_others(cols, g, n_cols, none=0.0)
    col_net = g - _best_of_others(rows, g, n_rows, none=0.0)
    free_rows[rows[row_net > 0]] = False
    free_cols[cols[col_net > 0]] = False
    dominated = _best_of_others(rows, row_net, n_rows, none=-np.inf) > g
    dominated |= _best_of_others(cols, col_net, n_cols, none=-np.inf) > g
    return Reduced(kept[~dominated], free_rows, free_cols)


def _best_of_others(group: np.ndarray, values: np.ndarray, n_groups: int, *, none: float) -> np.ndarray:
    """For each element, the largest value among the other elements of its
    group, or ``none``."""
    best = np.full(n_groups, none)
    np.maximum.at(best, group, values)
    edge = np.arange(len(values))
    top = np.full(n_groups, len(values))
    at_best = values == best[group]
    np.minimum.at(top, group[at_best], edge[at_best])
    is_top = top[group] == edge
    second = np.full(n_groups, none)
    np.maximum.at(second, group[~is_top], values[~is_top])
    return np.where(is_top, second[group], best[group])
