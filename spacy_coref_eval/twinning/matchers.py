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
from fractions import Fraction
from numbers import Real
from typing import Any, Callable, ClassVar, Dict, List, NamedTuple, Optional, Protocol, Tuple, Union, runtime_checkable

import numpy as np

from ..arrays import GROUP_NODES, connected_blocks, edge_index, expand_ranges, max_gain_matching
from ..clusters import Clusters, common_tokens, holds
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
    key_codes = np.where(key_odd, -1, key.starts * width + key.ends)
    order = np.argsort(key_codes, kind="stable")
    sorted_codes = key_codes[order]
    codes = response.starts * width + response.ends
    position = np.minimum(np.searchsorted(sorted_codes, codes), len(sorted_codes) - 1)
    found = (sorted_codes[position] == codes) & ~response_odd
    twins[found] = order[position[found]]
    if response_odd.any() and key_odd.any():
        by_set = {key.nodes.of(m).tobytes(): m for m in np.flatnonzero(key_odd).tolist()}
        for j in np.flatnonzero(response_odd).tolist():
            twins[j] = by_set.get(response.nodes.of(j).tobytes(), -1)
    return twins


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
    sorted_key_starts = key_starts[key_order]
    sorted_response_starts = response_starts[response_order]
    keys_a, response_ranks = expand_ranges(
        np.searchsorted(sorted_response_starts, key_starts, "left"),
        np.searchsorted(sorted_response_starts, key_ends, "left"),
    )
    responses_b, key_ranks = expand_ranges(
        np.searchsorted(sorted_key_starts, response_starts, "right"),
        np.searchsorted(sorted_key_starts, response_ends, "left"),
    )
    return (
        np.concatenate([keys_a, key_order[key_ranks]]),
        np.concatenate([response_order[response_ranks], responses_b]),
    )


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
    for index in np.flatnonzero(denominators == 0).tolist():
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

    1. One sparse solve (:func:`~spacy_coref_eval.arrays.max_gain_matching`)
       gives an optimal assignment, hence an optimal perfect matching M;
       gains are exact integers when ``ratios`` (:func:`as_ratios`) are
       given (:meth:`Gains.of`).
    2. Dual values u, v with u_a + v_b ≥ g_ab on every edge and equality on
       M are shortest-path distances in the graph with an arc M(a) → b of
       length g_aM(a) − g_ab for every edge (a, b) ∉ M (Bellman–Ford; no
       negative cycle, as M is optimal). By LP duality (the assignment
       polytope is integral) a perfect matching is optimal iff all its
       edges are tight (u_a + v_b = g_ab): the optimal assignments are
       exactly the perfect matchings of the tight subgraph T.
    3. Columns in order fix their row. With M a perfect matching of T that
       agrees with every fixed column, a tight edge (i, j) lies in a perfect
       matching of T that agrees with them iff it is in M or closes an
       alternating cycle: a path M(j) → … → i (tight edges out of rows, M
       edges back into them) through unfixed nodes other than j. One search
       from M(j) finds the earliest reachable candidate row; M is switched
       along that cycle, which keeps the invariant for the next column. The
       pad row (no row) stays only when no real row is reachable.

    Memory O(E). Time: one sparse solve; Bellman–Ford rounds of O(E), as
    many as the longest improving alternating path has edges (about 15 on
    blocks of a thousand ambiguous mentions); an O(E) search only for a
    column whose row in M is not already its earliest candidate.
    """
    if len(rows) == 0:
        return np.zeros(0, dtype=np.int64)
    size = n_rows + n_cols
    gains = Gains.of(scores, ratios, size)
    matched = max_gain_matching(rows, cols, gains.values, n_rows, n_cols)
    left, right, gain, mate_edge = _padded(rows, cols, gains.values, n_rows, n_cols, matched)
    tight = _tight_edges(left, right, gain, mate_edge, gains)
    right_of = right[mate_edge].tolist()
    left, right = left[tight], right[tight]
    order = np.lexsort((right, left))
    graph = Adjacency(np.searchsorted(left[order], np.arange(size + 1)).tolist(), right[order].tolist())
    real = (left < n_rows) & (right < n_cols)
    by_col = np.lexsort((left[real], right[real]))
    candidates = Adjacency(
        np.searchsorted(right[real][by_col], np.arange(n_cols + 1)).tolist(), left[real][by_col].tolist()
    )
    chosen = _fix_columns(graph, candidates, right_of, n_rows, n_cols)
    if not chosen:
        return np.zeros(0, dtype=np.int64)
    pairs = np.array(chosen, dtype=np.int64)
    return edge_index(rows, cols, n_cols, pairs[:, 0], pairs[:, 1])


def _padded(
    rows: np.ndarray, cols: np.ndarray, gains: np.ndarray, n_rows: int, n_cols: int, matched: np.ndarray
) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The padded graph of :func:`earliest_optimal` as ``(left, right,
    gain)`` per edge, and the edge of the perfect matching M at each left
    node, M extending the assignment ``matched`` (edge indices)."""
    n_edges = len(rows)
    pad_rows, pad_cols = n_rows + np.arange(n_cols), n_cols + np.arange(n_rows)
    left = np.concatenate([rows, np.arange(n_rows), pad_rows, n_rows + cols])
    right = np.concatenate([cols, pad_cols, np.arange(n_cols), n_cols + rows])
    gain = np.concatenate([gains, np.zeros(n_rows + n_cols + n_edges)])
    mate_edge = np.concatenate([n_edges + np.arange(n_rows), n_edges + n_rows + np.arange(n_cols)])
    mate_edge[rows[matched]] = matched
    mate_edge[n_rows + cols[matched]] = n_edges + n_rows + n_cols + matched
    return left, right, gain, mate_edge


def _tight_edges(
    left: np.ndarray, right: np.ndarray, gain: np.ndarray, mate_edge: np.ndarray, gains: Gains
) -> np.ndarray:
    """Mask of the padded edges with zero reduced cost under dual values
    from shortest paths (step 2 of :func:`earliest_optimal`): Bellman–Ford
    from every node at distance 0, all arcs relaxed at once each round."""
    size = len(mate_edge)
    free = np.ones(len(gain), dtype=bool)
    free[mate_edge] = False
    mate = mate_edge[left[free]]
    src, dst = right[mate], right[free]
    length = gain[mate] - gain[free]
    distance = np.zeros(size)
    for _ in range(size + 1):
        shorter = distance[src] + length
        better = shorter < distance[dst] - gains.slack
        if not better.any():
            break
        np.minimum.at(distance, dst[better], shorter[better])
    else:
        raise AssertionError("negative cycle: the assignment was not optimal")
    tight = ~free
    tight[free] = length + distance[src] - distance[dst] <= gains.tolerance
    return tight


class Adjacency(NamedTuple):
    """Neighbours of node a: ``targets[starts[a]:starts[a + 1]]``, as lists
    for the node-by-node searches."""

    starts: List[int]
    targets: List[int]


def _fix_columns(
    graph: Adjacency, candidates: Adjacency, right_of: List[int], n_rows: int, n_cols: int
) -> List[Tuple[int, int]]:
    """Step 3 of :func:`earliest_optimal`: ``graph`` holds the tight
    neighbours of each padded row, ``candidates`` the real rows tight with
    each column in order, ``right_of`` the perfect matching M (switched in
    place). Returns the (row, column) pairs fixed, by column."""
    size = len(right_of)
    left_of = [0] * size
    for a, b in enumerate(right_of):
        left_of[b] = a
    fixed_left, fixed_right = [False] * size, [False] * size
    chosen: List[Tuple[int, int]] = []
    starts, rows = candidates
    for j in range(n_cols):
        best = mate = left_of[j]
        for row in rows[starts[j]:starts[j + 1]]:
            if not fixed_left[row]:
                if row != mate:
                    best = _switch_to_earliest(graph, candidates, right_of, left_of, fixed_left, fixed_right, j)
                break
        fixed_left[best] = fixed_right[j] = True
        if best < n_rows:
            chosen.append((best, j))
    return chosen


def _switch_to_earliest(
    graph: Adjacency, candidates: Adjacency, right_of: List[int], left_of: List[int],
    fixed_left: List[bool], fixed_right: List[bool], j: int,
) -> int:
    """The earliest candidate row of column j reachable from M(j) by an
    alternating path through unfixed nodes other than j (M(j) itself if
    none earlier is), with M switched along the cycle so that it matches
    that row to j."""
    mate = left_of[j]
    wanted = []
    for row in candidates.targets[candidates.starts[j]:candidates.starts[j + 1]]:
        if row == mate:
            break
        if not fixed_left[row]:
            wanted.append(row)
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
    graph. Nearly all blocks are stars (one row or one column) or 2 × 2;
    both kinds are solved for all blocks at once with the same result, the
    rest in groups of blocks."""
    if len(rows) == 0:
        return rows, cols
    blocks = connected_blocks(rows, cols, n_rows, n_cols)
    block = blocks.of_edge
    lone = (blocks.n_edges == 1)[block]
    star = ~lone & ((blocks.n_rows == 1) | (blocks.n_cols == 1))[block]
    square = ((blocks.n_rows == 2) & (blocks.n_cols == 2))[block]
    picked = [
        (rows[lone], cols[lone]),
        _solve_stars(np.flatnonzero(star), rows, cols, scores, block),
        _solve_squares(np.flatnonzero(square), rows, cols, scores, block),
    ]
    other = (blocks.n_edges > 1) & (blocks.n_rows > 1) & (blocks.n_cols > 1)
    other &= ~((blocks.n_rows == 2) & (blocks.n_cols == 2))
    ratios = as_ratios(scores) if other.any() else None
    for members in blocks.groups(other, GROUP_NODES):
        local_rows, row_index = np.unique(rows[members], return_inverse=True)
        local_cols, col_index = np.unique(cols[members], return_inverse=True)
        chosen = members[earliest_optimal(
            row_index.ravel(), col_index.ravel(), scores[members], len(local_rows), len(local_cols),
            None if ratios is None else (ratios[0][members], ratios[1][members]),
        )]
        picked.append((rows[chosen], cols[chosen]))
    return np.concatenate([r for r, _ in picked]), np.concatenate([c for _, c in picked])


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


def _by_position(clusters: Clusters, members: np.ndarray) -> np.ndarray:
    """``members`` sorted by (start, end)."""
    return members[np.lexsort((clusters.ends[members], clusters.starts[members]))]


def twin_by_score(key: Clusters, response: Clusters, score: ScoreFunction) -> np.ndarray:
    """Exact twins first, then the rest by the highest total ``score``,
    one-to-one over pairs with score > 0 (docs/metrics.md §3).

    Only overlapping spans are candidates (:func:`overlapping_pairs`), so
    every score function must be 0 on disjoint spans. Candidate generation
    is O((n + m) log(n + m) + c); each connected block of candidates is then
    solved exactly by :func:`earliest_optimal`.
    """
    twins = exact_twins(key, response)
    taken = np.zeros(len(key), dtype=bool)
    taken[twins[twins >= 0]] = True
    free_keys = _by_position(key, np.flatnonzero(~taken))
    free_responses = _by_position(response, np.flatnonzero(twins < 0))
    i, j = overlapping_pairs(
        key.starts[free_keys], key.ends[free_keys],
        response.starts[free_responses], response.ends[free_responses],
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
