"""Matchers decide which response mention is the twin of which key mention
(Stoyanov et al. 2009; docs/metrics.md §3). A matcher is called with the key and the
response :class:`~spacy_coref_eval.clusters.Clusters` and returns, for every
response mention, the index of its key twin or -1.

Every matcher first twins the mentions with identical spans
(:func:`exact_twins`); the non-exact ones then twin the rest by the highest
total score, one-to-one (:func:`twin_by_score`), and differ only in their
score function s(k, r), as in the CorefUD / Universal Anaphora scorers.
"""
import math
from dataclasses import dataclass
from numbers import Real
from typing import Any, Callable, ClassVar, Dict, List, NamedTuple, Optional, Protocol, Tuple, Union, runtime_checkable

import numpy as np

from ..arrays import GROUP_NODES, SMALL_CELLS, compact, connected_blocks, expand_ranges, max_gain_matching, stable_order
from ..clusters import Clusters, common_tokens, holds, set_codes
from ..errors import CorefInputError

ScoreFunction = Callable[[Clusters, Clusters, np.ndarray, np.ndarray], np.ndarray]
OVERLAP_MEASURES = ("dice", "jaccard")
TIE_TOLERANCE = 1e-12
"""2 × 2 blocks (:func:`_solve_squares`) count float totals closer than this
as ties: float noise is ~1e-16 per score, and distinct totals of two ratios
of token counts lie much further apart. Larger blocks compare totals of
exact ratios (:func:`as_ratios`), which decides the same on such scores."""


@runtime_checkable
class Matcher(Protocol):
    """Twins response mentions with key mentions, one-to-one: called with
    the key and the response, it returns the key twin of every response
    mention, or -1. ``check`` raises :class:`CorefInputError` when the input
    lacks what the matcher reads (heads); ``config`` is what the JSON
    ``settings`` echo."""

    name: str

    def __call__(self, key: Clusters, response: Clusters) -> np.ndarray: ...

    def check(self, key: Clusters, response: Clusters) -> None: ...

    def config(self) -> Dict[str, Any]: ...


def exact_twins(key: Clusters, response: Clusters) -> np.ndarray:
    """Twin of each response mention with the same tokens in the key, else
    -1; O((n + m) log n) on ranges. Mentions are unique on each side, so the
    twins are one-to-one. A mention whose token set is not its range can
    only equal another such set, which is compared as a set."""
    twins = np.full(len(response), -1, dtype=np.int64)
    if len(key) == 0 or len(response) == 0:
        return twins
    key_odd, response_odd = key.scattered(), response.scattered()
    width = int(max(key.ends.max(), response.ends.max())) + 1
    if key.nodes is None:
        order, sorted_codes = _sorted_spans(key, width)
    else:
        key_codes = np.where(key_odd, -1, key.starts * width + key.ends)
        order = np.argsort(key_codes, kind="stable")
        sorted_codes = key_codes[order]
    codes = response.starts * width + response.ends
    position = np.minimum(np.searchsorted(sorted_codes, codes), len(sorted_codes) - 1)
    found = (sorted_codes[position] == codes) & ~response_odd
    twins[found] = order[position[found]]
    if response_odd.any() and key_odd.any():
        key_ids, response_ids = np.flatnonzero(key_odd), np.flatnonzero(response_odd)
        key_codes, response_codes = set_codes(key.nodes.take(key_ids), response.nodes.take(response_ids))
        by_code = dict(zip(key_codes.tolist(), key_ids.tolist()))
        twins[response_ids] = [by_code.get(code, -1) for code in response_codes.tolist()]
    return twins


def _twinless_by_span(key: Clusters, response: Clusters) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`exact_twins`, and the mentions left without a twin on each
    side, ordered by (start, end): both sides sorted by span once, then
    merged (two sorted runs, so the stable sort of their concatenation is a
    linear merge). Mentions that are token sets take :func:`exact_twins`
    and a sort of the rest."""
    if key.nodes is not None or response.nodes is not None:
        return _twinless_of_sets(key, response)
    twins = np.full(len(response), -1, dtype=np.int64)
    width = 1 + max((int(side.ends.max()) for side in (key, response) if len(side)), default=0)
    key_order, key_codes = _sorted_spans(key, width)
    response_order, response_codes = _sorted_spans(response, width)
    key_free, response_free = np.ones(len(key), dtype=bool), np.ones(len(response), dtype=bool)
    if len(key) and len(response):
        codes = np.concatenate([key_codes, response_codes])
        merged = np.argsort(codes, kind="stable")
        codes = codes[merged]
        pair = np.flatnonzero((codes[1:] == codes[:-1]) & (merged[:-1] < len(key)) & (merged[1:] >= len(key)))
        key_rank, response_rank = merged[pair], merged[pair + 1] - len(key)
        twins[response_order[response_rank]] = key_order[key_rank]
        key_free[key_rank] = response_free[response_rank] = False
    return twins, key_order[key_free], response_order[response_free]


def _twinless_of_sets(key: Clusters, response: Clusters) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_twinless_by_span` where some mentions are token sets."""
    twins = exact_twins(key, response)
    taken = np.zeros(len(key), dtype=bool)
    taken[twins[twins >= 0]] = True
    free_keys, free_responses = np.flatnonzero(~taken), np.flatnonzero(twins < 0)
    return (
        twins,
        free_keys[np.lexsort((key.ends[free_keys], key.starts[free_keys]))],
        free_responses[np.lexsort((response.ends[free_responses], response.starts[free_responses]))],
    )


def _sorted_spans(clusters: Clusters, width: int) -> Tuple[np.ndarray, np.ndarray]:
    """The mentions ordered by (start, end), and their spans as sorted codes
    start · width + end."""
    codes = clusters.starts * width + clusters.ends
    order = np.argsort(codes, kind="stable")
    return order, codes[order]


def overlapping_pairs(
    key_starts: np.ndarray, key_ends: np.ndarray, response_starts: np.ndarray, response_ends: np.ndarray
) -> Tuple[np.ndarray, np.ndarray]:
    """Indices ``(i, j)`` of every key span i that shares a token with
    response span j, each pair once.

    Spans overlap iff one starts inside the other: r starts in [k.start, k.end),
    or k starts in (r.start, r.end). With both sides sorted by start, each
    case is one contiguous range per span, found by binary search, so this
    costs O((n + m) log(n + m) + c) for c overlapping pairs, never O(n · m).
    """
    key_order = np.argsort(key_starts, kind="stable")
    response_order = np.argsort(response_starts, kind="stable")
    keys, responses = _overlaps_by_start(
        key_starts[key_order], key_ends[key_order], response_starts[response_order], response_ends[response_order]
    )
    return key_order[keys], response_order[responses]


def _overlaps_by_start(
    key_starts: np.ndarray, key_ends: np.ndarray, response_starts: np.ndarray, response_ends: np.ndarray
) -> Tuple[np.ndarray, np.ndarray]:
    """:func:`overlapping_pairs` of spans already sorted by start on both
    sides. Where each range begins (the responses starting before each key,
    the keys starting at or before each response) comes from one merge of
    the two sorted runs of starts, keys first among equals; where it ends,
    from binary search."""
    n_keys = len(key_starts)
    merged = np.argsort(np.concatenate([key_starts, response_starts]), kind="stable")
    position = np.empty(len(merged), dtype=np.int64)
    position[merged] = np.arange(len(merged))
    keys_a, responses_a = expand_ranges(
        position[:n_keys] - np.arange(n_keys), np.searchsorted(response_starts, key_ends, "left")
    )
    responses_b, keys_b = expand_ranges(
        position[n_keys:] - np.arange(len(response_starts)), np.searchsorted(key_starts, response_ends, "left")
    )
    return np.concatenate([keys_a, keys_b]), np.concatenate([responses_a, responses_b])


MAX_DENOMINATOR = 1 << 16
"""Scores are read as fractions p/q with q up to this (token counts are far
smaller)."""
QUICK_DENOMINATOR = 256
"""Denominators up to this are found for all scores at once; larger ones
one score at a time."""
REDUCED_COST_TOLERANCE = 1e-9
"""When scores are not such fractions, a reduced cost up to this (relative
to the largest score) counts as zero. Float noise stays near 1e-15; the
answer is the exact one when distinct totals of a block of n mentions lie
more than n times this apart."""
Ratios = Tuple[np.ndarray, np.ndarray]


def as_ratios(scores: np.ndarray) -> Optional[Ratios]:
    """Integer numerators and denominators ``(p, q)`` with every score the
    correctly rounded float of p/q and q ≤ :data:`MAX_DENOMINATOR`, or None
    if a score is no such fraction.

    The fraction is unique: two with denominators up to 2^16 differ by at
    least 2^-32, far more than the rounding of a score up to 2^16, so the
    smallest q for which p = round(score · q) gives back the score is the
    score's own.
    """
    values, inverse = np.unique(scores, return_inverse=True)
    if len(values) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if values[0] <= 0 or values[-1] > MAX_DENOMINATOR:
        return None
    denominators = np.zeros(len(values), dtype=np.int64)
    quick = np.arange(1, QUICK_DENOMINATOR + 1)
    for chunk in range(0, len(values), 1024):
        part = values[chunk:chunk + 1024, None]
        hit = np.rint(part * quick) / quick == part
        found = hit.any(axis=1)
        denominators[chunk:chunk + 1024][found] = quick[hit.argmax(axis=1)[found]]
    slow = np.flatnonzero(denominators == 0).tolist()
    if slow:
        from fractions import Fraction
    for index in slow:
        fraction = Fraction(float(values[index])).limit_denominator(MAX_DENOMINATOR)
        if float(fraction) != values[index]:
            return None
        denominators[index] = fraction.denominator
    numerators = np.rint(values * denominators).astype(np.int64)
    inverse = inverse.ravel()
    return numerators[inverse], denominators[inverse]


@dataclass(frozen=True)
class Gains:
    """Scores as the solver sees them: ``values`` (float64), reduced costs
    up to ``tolerance`` count as zero, and shortest paths ignore
    improvements up to ``slack``."""

    values: np.ndarray
    tolerance: float
    slack: float

    @property
    def exact(self) -> bool:
        """Whether the values are exact integers (ratios made whole)."""
        return self.slack == 0.0

    @classmethod
    def of(cls, scores: np.ndarray, ratios: Optional[Ratios], n_nodes: int) -> "Gains":
        """Integers (as float64) proportional to the scores, small enough
        that every sum a solver forms on ``n_nodes`` nodes is exact: each
        p/q times the least common multiple L of the denominators. Equal
        totals are then equal as rationals, exactly, and a reduced cost is
        0 or at least 1. Without ``ratios``, or if L is too large, the
        scores themselves (scaled to at most 1) with
        :data:`REDUCED_COST_TOLERANCE`."""
        budget = 2.0 ** 50 / (4 * (n_nodes + 1))
        if ratios is not None:
            numerators, denominators = ratios
            common = 1
            for q in np.unique(denominators).tolist():
                common = math.lcm(common, q)
            if common <= budget and float(scores.max()) * common + 1 <= budget:
                return cls((numerators * (common // denominators)).astype(np.float64), 0.5, 0.0)
        slack = REDUCED_COST_TOLERANCE / (4 * (n_nodes + 1))
        return cls(scores / scores.max(), REDUCED_COST_TOLERANCE, slack)


def earliest_optimal(
    rows: np.ndarray, cols: np.ndarray, scores: np.ndarray, n_rows: int, n_cols: int, ratios: Optional[Ratios]
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
    return _earliest(rows, cols, Gains.of(scores, ratios, n_rows + n_cols), n_rows, n_cols)


def _earliest(rows: np.ndarray, cols: np.ndarray, gains: Gains, n_rows: int, n_cols: int) -> np.ndarray:
    """:func:`earliest_optimal` on gains already made. Beyond
    :data:`~spacy_coref_eval.arrays.GROUP_NODES` rows and columns, with the
    reductions of step 0, one solve per group of blocks and the components
    of step 3; up to it, whose fixed costs outweigh their savings, with one
    solve and the search over all tight edges."""
    if n_rows + n_cols > GROUP_NODES:
        kept, free_rows, free_cols = _reduce(rows, cols, gains, n_rows, n_cols)
        rows, cols, values = rows[kept], cols[kept], gains.values[kept]
        matched = _optimal_by_block(rows, cols, values, free_rows, free_cols)
    else:
        kept, values = np.arange(len(rows)), gains.values
        matched = max_gain_matching(rows, cols, values, n_rows, n_cols, small_cells=SMALL_CELLS)
    left, right, mate_edge = _padded(rows, cols, n_rows, n_cols, matched)
    tight = _tight_edges(rows, cols, values, n_rows, n_cols, matched, gains)
    chosen = _fix_columns(left, right, tight, mate_edge, n_rows, n_cols, n_rows + n_cols > GROUP_NODES)
    return kept[chosen[np.argsort(cols[chosen], kind="stable")]]


def _optimal_by_block(
    rows: np.ndarray, cols: np.ndarray, gains: np.ndarray, free_rows: np.ndarray, free_cols: np.ndarray
) -> np.ndarray:
    """Edge indices of a maximum-gain assignment, by one
    :func:`~spacy_coref_eval.arrays.max_gain_matching` per group of
    connected blocks, where only the rows in ``free_rows`` (or, turned
    around, the columns in ``free_cols``) may stay unmatched: each group
    takes the orientation whose solve is smaller."""
    if len(rows) == 0:
        return np.zeros(0, dtype=np.int64)
    shape = len(free_rows), len(free_cols)
    blocks = connected_blocks(rows, cols, *shape)
    matched = []
    for members in blocks.groups(np.ones(len(blocks), dtype=bool), GROUP_NODES, large_alone=True):
        group_rows, row_index, group_cols, col_index = _relabel(rows[members], cols[members], *shape)
        n_group_rows, n_group_cols = len(group_rows), len(group_cols)
        may_miss_rows, may_miss_cols = free_rows[group_rows], free_cols[group_cols]
        by_rows = n_group_rows * (n_group_cols + int(may_miss_rows.sum()))
        by_cols = n_group_cols * (n_group_rows + int(may_miss_cols.sum()))
        if by_cols < by_rows:
            found = max_gain_matching(
                col_index, row_index, gains[members], n_group_cols, n_group_rows, may_miss_cols, SMALL_CELLS
            )
        else:
            found = max_gain_matching(
                row_index, col_index, gains[members], n_group_rows, n_group_cols, may_miss_rows, SMALL_CELLS
            )
        matched.append(members[found])
    return np.concatenate(matched)


def _padded(
    rows: np.ndarray, cols: np.ndarray, n_rows: int, n_cols: int, matched: np.ndarray
) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
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
    rows: np.ndarray, cols: np.ndarray, values: np.ndarray, n_rows: int, n_cols: int, matched: np.ndarray,
    gains: Gains,
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
    return np.concatenate([
        u[rows] + v[cols] - values <= gains.tolerance, u <= gains.tolerance, v <= gains.tolerance,
        np.ones(len(rows), dtype=bool),
    ])


class Adjacency(NamedTuple):
    """Neighbours of node a: ``targets[starts[a]:starts[a + 1]]``, as lists
    for the node-by-node searches."""

    starts: List[int]
    targets: List[int]


def _fix_columns(
    left: np.ndarray, right: np.ndarray, tight: np.ndarray, mate_edge: np.ndarray, n_rows: int, n_cols: int,
    by_component: bool,
) -> np.ndarray:
    """Step 3 of :func:`earliest_optimal` on the padded graph and its
    ``tight`` edges: the padded edge indices of the chosen real edges. With
    ``by_component``, rows alone in their strongly connected component keep
    their column in M and the search sees only edges within components that
    hold a real edge; without, every column is searched over all tight edges
    (the same choice)."""
    size = n_rows + n_cols
    right_of = right[mate_edge]
    left_of = np.empty(size, dtype=np.int64)
    left_of[right_of] = np.arange(size)
    real = (left < n_rows) & (right < n_cols)
    if by_component:
        component = _strong_components(left, left_of[right], tight, mate_edge, size)
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
        graph, Adjacency(np.r_[first, len(candidates)].tolist(), left[candidates].tolist()), columns.tolist(),
        right_of.tolist(), left_of.tolist(), n_rows,
    )
    edge_of = dict(zip(zip(left[candidates].tolist(), right[candidates].tolist()), candidates.tolist()))
    return np.r_[alone, np.array([edge_of[pair] for pair in chosen], dtype=np.int64)]


def _strong_components(
    left: np.ndarray, mate_of_right: np.ndarray, tight: np.ndarray, mate_edge: np.ndarray, size: int
) -> np.ndarray:
    """The strongly connected component of every left node of the tight
    graph directed left → right off M and right → left on M, each right
    node merged into its mate (the one node it leads to): arcs a → M(b)
    for the tight edges (a, b) off M (``mate_of_right`` holds M(b) per
    edge). By SciPy's :func:`~scipy.sparse.csgraph.connected_components`."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    off_m = tight.copy()
    off_m[mate_edge] = False
    sources, targets = left[off_m], mate_of_right[off_m]
    order = stable_order(sources, size)
    starts = np.r_[0, np.cumsum(np.bincount(sources, minlength=size))]
    arcs = csr_matrix((np.ones(len(order)), targets[order], starts), shape=(size, size))
    return connected_components(arcs, directed=True, connection="strong")[1]


def _fix_in_order(
    graph: Adjacency, candidates: Adjacency, columns: List[int], right_of: List[int], left_of: List[int],
    n_rows: int,
) -> List[Tuple[int, int]]:
    """The sequential part of step 3: ``graph`` holds the tight neighbours
    of each padded row within its component, ``candidates`` the real rows
    so tight with each of ``columns`` in turn, ``right_of`` and ``left_of``
    the perfect matching M (switched in place). Returns the real
    (row, column) pairs fixed."""
    size = len(right_of)
    fixed_left, fixed_right = [False] * size, [False] * size
    chosen: List[Tuple[int, int]] = []
    starts, rows = candidates
    for k, j in enumerate(columns):
        best = mate = left_of[j]
        wanted = []
        for row in rows[starts[k]:starts[k + 1]]:
            if row == mate:
                break
            if not fixed_left[row]:
                wanted.append(row)
        if wanted:
            best = _switch_to_earliest(graph, right_of, left_of, fixed_right, j, wanted)
        fixed_left[best] = fixed_right[j] = True
        if best < n_rows:
            chosen.append((best, j))
    return chosen


def _switch_to_earliest(
    graph: Adjacency, right_of: List[int], left_of: List[int], fixed_right: List[bool], j: int, wanted: List[int]
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
        for b in targets[starts[a]:starts[a + 1]]:
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


def best_assignment(scores: np.ndarray) -> List[Tuple[int, int]]:
    """:func:`earliest_optimal` on a dense matrix of scores (cells > 0 are
    the candidates): ``(row, column)`` pairs, by column."""
    rows, cols = np.nonzero(scores > 0)
    values = scores[rows, cols]
    chosen = earliest_optimal(rows, cols, values, *scores.shape, as_ratios(values))
    return list(zip(rows[chosen].tolist(), cols[chosen].tolist()))


def _solve_blocks(
    rows: np.ndarray, cols: np.ndarray, scores: np.ndarray, n_rows: int, n_cols: int
) -> Tuple[np.ndarray, np.ndarray]:
    """:func:`earliest_optimal` on each connected block of the candidate
    graph. Nearly all blocks are stars (one row or one column), told apart
    by node degrees alone and solved for all at once with the same result;
    the rest go to :func:`_solve_entangled`."""
    if len(rows) == 0:
        return rows, cols
    row_degree, col_degree = np.bincount(rows, minlength=n_rows), np.bincount(cols, minlength=n_cols)
    row_shares, col_shares = np.zeros(n_rows, dtype=bool), np.zeros(n_cols, dtype=bool)
    row_shares[rows[col_degree[cols] > 1]] = True
    col_shares[cols[row_degree[rows] > 1]] = True
    one_row, one_col = ~row_shares[rows], ~col_shares[cols]
    lone = one_row & one_col
    star = np.flatnonzero((one_row | one_col) & ~lone)
    picked = [(rows[lone], cols[lone]), _solve_stars(star, rows, cols, scores, np.where(one_row, rows, n_rows + cols))]
    rest = ~(one_row | one_col)
    if rest.any():
        picked.append(_solve_entangled(rows[rest], cols[rest], scores[rest], n_rows, n_cols))
    return np.concatenate([r for r, _ in picked]), np.concatenate([c for _, c in picked])


def _solve_entangled(
    rows: np.ndarray, cols: np.ndarray, scores: np.ndarray, n_rows: int, n_cols: int
) -> Tuple[np.ndarray, np.ndarray]:
    """Blocks of two rows and two columns or more: the 2 × 2 ones all at
    once, the rest by :func:`earliest_optimal` together, on gains exact for
    all of them; if no common scale is exact, in groups of blocks, each on
    its own gains."""
    local_rows, row_index, local_cols, col_index = _relabel(rows, cols, n_rows, n_cols)
    n_rows, n_cols = len(local_rows), len(local_cols)
    blocks = connected_blocks(row_index, col_index, n_rows, n_cols)
    square = (blocks.n_rows == 2) & (blocks.n_cols == 2)
    picked = [_solve_squares(np.flatnonzero(square[blocks.of_edge]), row_index, col_index, scores, blocks.of_edge)]
    if not square.all():
        ratios = as_ratios(scores)
        rest = np.flatnonzero(~square[blocks.of_edge])
        rest_row_labels, rest_rows, rest_col_labels, rest_cols = _relabel(
            row_index[rest], col_index[rest], n_rows, n_cols
        )
        shape = len(rest_row_labels), len(rest_col_labels)
        gains = Gains.of(scores[rest], _part(ratios, rest), sum(shape))
        if gains.exact:
            chosen = [rest[_earliest(rest_rows, rest_cols, gains, *shape)]]
        else:
            chosen = []
            for members in blocks.groups(~square, GROUP_NODES):
                group_rows, group_row_index, group_cols, group_col_index = _relabel(
                    row_index[members], col_index[members], n_rows, n_cols
                )
                chosen.append(members[earliest_optimal(
                    group_row_index, group_col_index, scores[members], len(group_rows), len(group_cols),
                    _part(ratios, members),
                )])
        picked.extend((row_index[edges], col_index[edges]) for edges in chosen)
    return local_rows[np.concatenate([r for r, _ in picked])], local_cols[np.concatenate([c for _, c in picked])]


def _relabel(
    rows: np.ndarray, cols: np.ndarray, n_rows: int, n_cols: int
) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rows and columns that have edges, and every edge's row and
    column numbered among them, in order
    (:func:`~spacy_coref_eval.arrays.compact`)."""
    row_labels, row_rank = compact(rows, n_rows)
    col_labels, col_rank = compact(cols, n_cols)
    return row_labels, row_rank[rows], col_labels, col_rank[cols]


def _part(ratios: Optional[Ratios], edges: np.ndarray) -> Optional[Ratios]:
    return None if ratios is None else (ratios[0][edges], ratios[1][edges])


class Reduced(NamedTuple):
    """What :func:`_reduce` leaves: the ``kept`` edge indices, and the rows
    and columns that some optimal assignment may leave unmatched (masks)."""

    kept: np.ndarray
    free_rows: np.ndarray
    free_cols: np.ndarray


def _reduce(rows: np.ndarray, cols: np.ndarray, gains: Gains, n_rows: int, n_cols: int) -> Reduced:
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
    row_net = g - _best_of_others(cols, g, n_cols, 0.0)
    col_net = g - _best_of_others(rows, g, n_rows, 0.0)
    free_rows[rows[row_net > 0]] = False
    free_cols[cols[col_net > 0]] = False
    dominated = _best_of_others(rows, row_net, n_rows, -np.inf) > g
    dominated |= _best_of_others(cols, col_net, n_cols, -np.inf) > g
    return Reduced(kept[~dominated], free_rows, free_cols)


def _best_of_others(group: np.ndarray, values: np.ndarray, n_groups: int, none: float) -> np.ndarray:
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


def _solve_stars(
    cells: np.ndarray, rows: np.ndarray, cols: np.ndarray, scores: np.ndarray, block: np.ndarray
) -> Tuple[np.ndarray, np.ndarray]:
    """Blocks with one row or one column take their best cell, the earliest
    column and row among equals."""
    cells = cells[np.lexsort((rows[cells], cols[cells], -scores[cells], block[cells]))]
    best = cells[np.r_[True, block[cells][1:] != block[cells][:-1]]] if len(cells) else cells
    return rows[best], cols[best]


def _solve_squares(
    cells: np.ndarray, rows: np.ndarray, cols: np.ndarray, scores: np.ndarray, block: np.ndarray
) -> Tuple[np.ndarray, np.ndarray]:
    """Blocks of two rows and two columns, :func:`best_assignment`'s rule
    written out: column 0 takes row 0 if that still allows the best total,
    else row 1 if that does; column 1 then takes a row left, by the same
    rule."""
    if len(cells) == 0:
        return cells, cells
    ids, local = np.unique(block[cells], return_inverse=True)
    low_row = np.full(len(ids), np.iinfo(np.int64).max)
    low_col = np.full(len(ids), np.iinfo(np.int64).max)
    np.minimum.at(low_row, local, rows[cells])
    np.minimum.at(low_col, local, cols[cells])
    high_row = np.zeros(len(ids), dtype=np.int64)
    high_col = np.zeros(len(ids), dtype=np.int64)
    np.maximum.at(high_row, local, rows[cells])
    np.maximum.at(high_col, local, cols[cells])
    s = np.zeros((len(ids), 2, 2))
    s[local, (rows[cells] == high_row[local]).astype(int), (cols[cells] == high_col[local]).astype(int)] = scores[cells]
    best = np.maximum(s[:, 0, 0] + s[:, 1, 1], s[:, 0, 1] + s[:, 1, 0]) - TIE_TOLERANCE
    first_row0 = (s[:, 0, 0] > 0) & (s[:, 0, 0] + s[:, 1, 1] >= best)
    first_row1 = ~first_row0 & (s[:, 1, 0] > 0) & (s[:, 1, 0] + s[:, 0, 1] >= best)
    first_none = ~first_row0 & ~first_row1
    second_row0 = (first_row1 & (s[:, 0, 1] > 0)) | (first_none & (s[:, 0, 1] > 0) & (s[:, 0, 1] >= best))
    second_row1 = (first_row0 & (s[:, 1, 1] > 0)) | (
        first_none & ~second_row0 & (s[:, 1, 1] > 0) & (s[:, 1, 1] >= best)
    )
    pick_rows, pick_cols = [], []
    for taken, row, col in (
        (first_row0, low_row, low_col), (first_row1, high_row, low_col),
        (second_row0, low_row, high_col), (second_row1, high_row, high_col),
    ):
        pick_rows.append(row[taken])
        pick_cols.append(col[taken])
    return np.concatenate(pick_rows), np.concatenate(pick_cols)


def twin_by_score(key: Clusters, response: Clusters, score: ScoreFunction) -> np.ndarray:
    """Exact twins first, then the rest by the highest total ``score``,
    one-to-one over pairs with score > 0 (docs/metrics.md §3).

    Only overlapping spans are candidates (:func:`overlapping_pairs`), so
    every score function must be 0 on disjoint spans. Candidate generation
    is O((n + m) log(n + m) + c); each connected block of candidates is then
    solved exactly by :func:`earliest_optimal`.
    """
    twins, free_keys, free_responses = _twinless_by_span(key, response)
    i, j = _overlaps_by_start(
        key.starts[free_keys], key.ends[free_keys], response.starts[free_responses], response.ends[free_responses]
    )
    if len(i) == 0:
        return twins
    scores = np.asarray(score(key, response, free_keys[i], free_responses[j]), dtype=np.float64)
    positive = scores > 0
    rows, cols = _solve_blocks(i[positive], j[positive], scores[positive], len(free_keys), len(free_responses))
    twins[free_responses[cols]] = free_keys[rows]
    return twins


def require_heads(clusters: Clusters, side: str, matcher: str) -> None:
    """Raise :class:`CorefInputError` if ``clusters`` has mentions but no heads."""
    if clusters.heads is None and len(clusters):
        raise CorefInputError(
            f"the {matcher!r} matcher needs mention heads, but the {side} has none "
            "(plain CoNLL-2012 files carry no heads); supply the "
            f"{side} as a parsed .spacy corpus (heads from Span.root) or give "
            "its heads in an explicit head span group"
        )


@dataclass(frozen=True)
class ExactMatcher:
    """Same start and end: the CoNLL reference scorer's matching."""

    name: ClassVar[str] = "exact"

    def __call__(self, key: Clusters, response: Clusters) -> np.ndarray:
        return exact_twins(key, response)

    def check(self, key: Clusters, response: Clusters) -> None:
        """Nothing to check: spans are all this matcher reads."""

    def config(self) -> Dict[str, Any]:
        return {"match": self.name}


class ScoredMatcher:
    """A matcher that twins the mentions left after exact twinning by a
    score s(k, r) (:func:`twin_by_score`); ``heads_of`` names the sides
    whose heads the score reads."""

    name: ClassVar[str]
    heads_of: ClassVar[Tuple[str, ...]] = ()

    def __call__(self, key: Clusters, response: Clusters) -> np.ndarray:
        self.check(key, response)
        return twin_by_score(key, response, self.score)

    def check(self, key: Clusters, response: Clusters) -> None:
        for side, clusters in (("key", key), ("response", response)):
            if side in self.heads_of:
                require_heads(clusters, side, self.name)

    def score(self, key: Clusters, response: Clusters, k: np.ndarray, r: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def config(self) -> Dict[str, Any]:
        return {"match": self.name}


@dataclass(frozen=True)
class HeadMatcher(ScoredMatcher):
    """Same head token, s(k, r) = |k ∩ r| / |k| (docs/metrics.md §3). Heads come from
    the reader; a head of -1 (unknown) matches nothing."""

    name: ClassVar[str] = "head"
    heads_of: ClassVar[Tuple[str, ...]] = ("key", "response")

    def score(self, key: Clusters, response: Clusters, k: np.ndarray, r: np.ndarray) -> np.ndarray:
        assert key.heads is not None and response.heads is not None, "checked by require_heads"
        same = (key.heads[k] == response.heads[r]) & (key.heads[k] >= 0)
        return np.where(same, common_tokens(key, response, k, r) / key.sizes[k], 0.0)


@dataclass(frozen=True)
class OverlapMatcher(ScoredMatcher):
    """Token overlap of at least θ = ``min_overlap``: s(k, r) is Dice
    2|k ∩ r| / (|k| + |r|), or Jaccard |k ∩ r| / |k ∪ r|, when that is ≥ θ,
    else 0 (docs/metrics.md §3). With θ = 1 only identical spans match."""

    min_overlap: float = 0.5
    overlap_measure: str = "dice"
    name: ClassVar[str] = "overlap"

    def __post_init__(self) -> None:
        theta = self.min_overlap
        if isinstance(theta, bool) or not isinstance(theta, Real) or not 0 < theta <= 1:
            raise ValueError(f"min_overlap must be a number in (0, 1], not {theta!r}")
        if self.overlap_measure not in OVERLAP_MEASURES:
            raise ValueError(f"overlap measure must be one of {OVERLAP_MEASURES}, not {self.overlap_measure!r}")
        object.__setattr__(self, "min_overlap", float(theta))

    def score(self, key: Clusters, response: Clusters, k: np.ndarray, r: np.ndarray) -> np.ndarray:
        common = common_tokens(key, response, k, r)
        sizes = key.sizes[k] + response.sizes[r]
        ratio = 2 * common / sizes if self.overlap_measure == "dice" else common / (sizes - common)
        return np.where(ratio >= self.min_overlap, ratio, 0.0)

    def config(self) -> Dict[str, Any]:
        return {"match": self.name, "min_overlap": self.min_overlap, "overlap_measure": self.overlap_measure}


@dataclass(frozen=True)
class PartialMatcher(ScoredMatcher):
    """CorefUD's partial match (CorefUD / Universal Anaphora scorer): r lies
    inside k and contains k's head, s(k, r) = |r| / |k| (docs/metrics.md §3). Only the
    key needs heads."""

    name: ClassVar[str] = "partial"
    heads_of: ClassVar[Tuple[str, ...]] = ("key",)

    def score(self, key: Clusters, response: Clusters, k: np.ndarray, r: np.ndarray) -> np.ndarray:
        assert key.heads is not None, "checked by require_heads"
        sizes = response.sizes[r]
        inside = common_tokens(key, response, k, r) == sizes
        return np.where(inside & holds(response, r, key.heads[k]), sizes / key.sizes[k], 0.0)


MATCHERS: Dict[str, type] = {
    "exact": ExactMatcher,
    "head": HeadMatcher,
    "overlap": OverlapMatcher,
    "partial": PartialMatcher,
}


def get_matcher(matcher: Union[str, Matcher, None] = None, **options: Any) -> Matcher:
    """A matcher object from a name in :data:`MATCHERS` with its options
    (``min_overlap`` and ``overlap_measure`` for ``"overlap"``), or an
    object as given (``None`` means exact)."""
    if matcher is None:
        matcher = "exact"
    if not isinstance(matcher, str):
        if options:
            raise ValueError(f"matcher options {sorted(options)} need a matcher name, not an object")
        return matcher
    if matcher not in MATCHERS:
        raise ValueError(f"unknown matcher {matcher!r}; choose from {list(MATCHERS)}")
    try:
        return MATCHERS[matcher](**options)
    except TypeError:
        raise ValueError(f"the {matcher!r} matcher takes no option(s) {sorted(options)}") from None
