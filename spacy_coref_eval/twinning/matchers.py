"""Matchers decide which response mention is the twin of which key mention
(Stoyanov et al. 2009; docs/metrics.md §3). A matcher is called with the key and the
response :class:`~spacy_coref_eval.clusters.Clusters` and returns, for every
response mention, the index of its key twin or -1.

Every matcher first twins the mentions with identical spans
(:func:`exact_twins`); the non-exact ones then twin the rest by the highest
total score, one-to-one (:func:`twin_by_score`), and differ only in their
score function s(k, r), as in the CorefUD / Universal Anaphora scorers.
"""
from dataclasses import dataclass
from numbers import Real
from typing import Any, Callable, ClassVar, Dict, List, Protocol, Tuple, Union, runtime_checkable

import numpy as np
from scipy.optimize import linear_sum_assignment

from ..arrays import connected_blocks, expand_ranges
from ..clusters import Clusters
from ..errors import CorefInputError

ScoreFunction = Callable[[Clusters, Clusters, np.ndarray, np.ndarray], np.ndarray]
OVERLAP_MEASURES = ("dice", "jaccard")
TIE_TOLERANCE = 1e-12
"""Assignment totals closer than this are ties: float noise is ~1e-16 per
score, and distinct totals of ratios of token counts lie much further apart
in practice."""


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
    """Twin of each response mention with the same (start, end) in the key,
    else -1; O((n + m) log n). Spans are unique on each side, so the twins
    are one-to-one."""
    twins = np.full(len(response), -1, dtype=np.int64)
    if len(key) == 0 or len(response) == 0:
        return twins
    width = int(max(key.ends.max(), response.ends.max())) + 1
    key_codes = key.starts * width + key.ends
    order = np.argsort(key_codes, kind="stable")
    sorted_codes = key_codes[order]
    codes = response.starts * width + response.ends
    position = np.minimum(np.searchsorted(sorted_codes, codes), len(sorted_codes) - 1)
    found = sorted_codes[position] == codes
    twins[found] = order[position[found]]
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


def _assignment_value(scores: np.ndarray) -> float:
    if scores.size == 0:
        return 0.0
    rows, cols = linear_sum_assignment(scores, maximize=True)
    return float(scores[rows, cols].sum())


def best_assignment(scores: np.ndarray) -> List[Tuple[int, int]]:
    """A one-to-one assignment of maximum total score over the cells with
    score > 0, rows and columns being mentions in (start, end) order.

    Among optimal assignments (totals within :data:`TIE_TOLERANCE`) it is the
    one that gives each column in turn, earliest first, the earliest row that
    still allows an optimal total, and no row only if none does: the
    lexicographically smallest. This costs one
    :func:`~scipy.optimize.linear_sum_assignment` per tried cell, O(c · b³)
    for a block of b mentions and c candidate cells.
    """
    best = _assignment_value(scores)
    free = np.ones(scores.shape[0], dtype=bool)
    chosen: List[Tuple[int, int]] = []
    total = 0.0
    for col in range(scores.shape[1]):
        for row in np.flatnonzero(free & (scores[:, col] > 0)).tolist():
            free[row] = False
            rest = _assignment_value(scores[free][:, col + 1 :])
            if total + scores[row, col] + rest >= best - TIE_TOLERANCE:
                chosen.append((row, col))
                total += scores[row, col]
                break
            free[row] = True
    return chosen


def _solve_blocks(
    rows: np.ndarray, cols: np.ndarray, scores: np.ndarray, n_rows: int, n_cols: int
) -> Tuple[np.ndarray, np.ndarray]:
    """:func:`best_assignment` on each connected block of the candidate
    graph. Nearly all blocks are stars (one row or one column) or 2 × 2;
    both kinds are solved for all blocks at once with the same result as
    :func:`best_assignment`, the rest one by one."""
    if len(rows) == 0:
        return rows, cols
    block, block_rows, block_cols = connected_blocks(rows, cols, n_rows, n_cols)
    lone = np.bincount(block, minlength=len(block_rows))[block] == 1
    star = ~lone & ((block_rows == 1) | (block_cols == 1))[block]
    square = ((block_rows == 2) & (block_cols == 2))[block]
    picked = [
        (rows[lone], cols[lone]),
        _solve_stars(np.flatnonzero(star), rows, cols, scores, block),
        _solve_squares(np.flatnonzero(square), rows, cols, scores, block),
    ]
    order = np.flatnonzero(~lone & ~star & ~square)
    order = order[np.argsort(block[order], kind="stable")]
    firsts = np.flatnonzero(np.diff(block[order], prepend=-1))
    for start, end in zip(firsts.tolist(), firsts[1:].tolist() + [len(order)]):
        members = order[start:end]
        local_rows, row_index = np.unique(rows[members], return_inverse=True)
        local_cols, col_index = np.unique(cols[members], return_inverse=True)
        matrix = np.zeros((len(local_rows), len(local_cols)))
        matrix[row_index.ravel(), col_index.ravel()] = scores[members]
        chosen = np.array(best_assignment(matrix), dtype=np.int64).reshape(-1, 2)
        picked.append((local_rows[chosen[:, 0]], local_cols[chosen[:, 1]]))
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
    solved exactly by :func:`best_assignment`.
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


def _intersection(key: Clusters, response: Clusters, k: np.ndarray, r: np.ndarray) -> np.ndarray:
    common = np.minimum(key.ends[k], response.ends[r]) - np.maximum(key.starts[k], response.starts[r])
    return np.maximum(common, 0)


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
        return np.where(same, _intersection(key, response, k, r) / (key.ends[k] - key.starts[k]), 0.0)


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
        common = _intersection(key, response, k, r)
        sizes = (key.ends[k] - key.starts[k]) + (response.ends[r] - response.starts[r])
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
        head = key.heads[k]
        starts, ends = response.starts[r], response.ends[r]
        inside = (key.starts[k] <= starts) & (ends <= key.ends[k])
        has_head = (starts <= head) & (head < ends)
        return np.where(inside & has_head, (ends - starts) / (key.ends[k] - key.starts[k]), 0.0)


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
