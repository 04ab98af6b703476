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
from typing import Any, Callable, ClassVar, Dict, Protocol, Tuple, Union, runtime_checkable

import numpy as np

from ..arrays import expand_ranges
from ..assignment.by_block import solve_blocks
from ..clusters import Clusters, common_tokens, holds, set_codes
from ..errors import CorefInputError

ScoreFunction = Callable[[Clusters, Clusters, np.ndarray, np.ndarray], np.ndarray]
OVERLAP_MEASURES = ("dice", "jaccard")


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
    rows, cols = solve_blocks(i[positive], j[positive], scores[positive], len(free_keys), len(free_responses))
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
