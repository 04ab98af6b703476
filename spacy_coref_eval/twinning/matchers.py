"""Matchers decide which response mention is the twin of which key mention
(Stoyanov et al. 2009; docs/metrics.md §3). A matcher is called with the key and the
response :class:`~spacy_coref_eval.model.clusters.Clusters` and returns, for every
response mention, the index of its key twin or -1.

Every matcher first twins the mentions with identical spans
(:func:`~.spans.exact_twins`); the non-exact ones then twin the rest by the highest
total score, one-to-one (:func:`twin_by_score`), and differ only in their
score function s(k, r), as in the CorefUD / Universal Anaphora scorers.
"""

from dataclasses import dataclass
from numbers import Real
from typing import Any, Callable, ClassVar, Protocol, Union, runtime_checkable

import numpy as np

from ..assignment import solve_blocks
from ..errors import CorefInputError
from ..model.clusters import Clusters, common_tokens, holds
from .spans import exact_twins, overlaps_by_start, twinless_by_span

ScoreFunction = Callable[[Clusters, Clusters, np.ndarray, np.ndarray], np.ndarray]
OVERLAP_MEASURES = ("dice", "jaccard")


@runtime_checkable
class Matcher(Protocol):
    """Twins response mentions with key mentions, one-to-one: called with
    the key and the response, it returns the key twin of every response
    mention, or -1. ``check`` raises :class:`CorefInputError` when the input
    lacks what the matcher reads (heads); ``config`` is what the JSON
    ``settings`` echo."""

    @property
    def name(self) -> str: ...

    def __call__(self, key: Clusters, response: Clusters) -> np.ndarray: ...

    def check(self, key: Clusters, response: Clusters) -> None: ...

    def config(self) -> dict[str, Any]: ...


def twin_by_score(key: Clusters, response: Clusters, score: ScoreFunction) -> np.ndarray:
    """Exact twins first, then the rest by the highest total ``score``,
    one-to-one over pairs with score > 0 (docs/metrics.md §3).

    Only overlapping spans are candidates
    (:func:`~.spans.overlapping_pairs`), so
    every score function must be 0 on disjoint spans. Candidate generation
    is O((n + m) log(n + m) + c); each connected block of candidates is then
    solved exactly by :func:`earliest_optimal`.
    """
    twins, free_keys, free_responses = twinless_by_span(key, response)
    i, j = overlaps_by_start(
        key.starts[free_keys],
        key.ends[free_keys],
        response_starts=response.starts[free_responses],
        response_ends=response.ends[free_responses],
    )
    if len(i) == 0:
        return twins
    scores = np.asarray(score(key, response, free_keys[i], free_responses[j]), dtype=np.float64)
    positive = scores > 0
    rows, cols = solve_blocks(i[positive], j[positive], scores[positive], n_rows=len(free_keys), n_cols=len(free_responses))
    twins[free_responses[cols]] = free_keys[rows]
    return twins


def require_heads(clusters: Clusters, side: str, matcher: str) -> None:
    """Raise :class:`CorefInputError` if ``clusters`` has mentions but no heads."""
    if clusters.heads is None and len(clusters):
        raise CorefInputError(
            f"the {matcher!r} matcher needs mention heads, but the {side} has none "
            "(plain CoNLL-2012 files carry no heads); supply the "
            f"{side} as a parsed .spacy corpus (heads from Span.root) or give "
            "its heads in an explicit head span group (--head-prefix, e.g. "
            "coref_head_clusters, as convert writes them)"
        )


@dataclass(frozen=True)
class ExactMatcher:
    """Same start and end: the CoNLL reference scorer's matching."""

    name: ClassVar[str] = "exact"

    def __call__(self, key: Clusters, response: Clusters) -> np.ndarray:
        return exact_twins(key, response)

    def check(self, key: Clusters, response: Clusters) -> None:
        """Nothing to check: spans are all this matcher reads."""

    def config(self) -> dict[str, Any]:
        return {"match": self.name}


class ScoredMatcher:
    """A matcher that twins the mentions left after exact twinning by a
    score s(k, r) (:func:`twin_by_score`); ``heads_of`` names the sides
    whose heads the score reads."""

    name: ClassVar[str]
    heads_of: ClassVar[tuple[str, ...]] = ()

    def __call__(self, key: Clusters, response: Clusters) -> np.ndarray:
        self.check(key, response)
        return twin_by_score(key, response, self.score)

    def check(self, key: Clusters, response: Clusters) -> None:
        for side, clusters in (("key", key), ("response", response)):
            if side in self.heads_of:
                require_heads(clusters, side, self.name)

    def score(self, key: Clusters, response: Clusters, k: np.ndarray, r: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def config(self) -> dict[str, Any]:
        return {"match": self.name}


@dataclass(frozen=True)
class HeadMatcher(ScoredMatcher):
    """Same head token, s(k, r) = |k ∩ r| / |k| (docs/metrics.md §3). Heads come from
    the reader; a head of -1 (unknown) matches nothing."""

    name: ClassVar[str] = "head"
    heads_of: ClassVar[tuple[str, ...]] = ("key", "response")

    def score(self, key: Clusters, response: Clusters, k: np.ndarray, r: np.ndarray) -> np.ndarray:
        assert key.heads is not None and response.heads is not None, "checked by require_heads"
        same = (key.heads[k] == response.heads[r]) & (key.heads[k] >= 0)
        return np.where(same, common_tokens(key, response, k=k, r=r) / key.sizes[k], 0.0)


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
        common = common_tokens(key, response, k=k, r=r)
        sizes = key.sizes[k] + response.sizes[r]
        ratio = 2 * common / sizes if self.overlap_measure == "dice" else common / (sizes - common)
        return np.where(ratio >= self.min_overlap, ratio, 0.0)

    def config(self) -> dict[str, Any]:
        return {"match": self.name, "min_overlap": self.min_overlap, "overlap_measure": self.overlap_measure}


@dataclass(frozen=True)
class PartialMatcher(ScoredMatcher):
    """CorefUD's partial match (CorefUD / Universal Anaphora scorer): r lies
    inside k and contains k's head, s(k, r) = |r| / |k| (docs/metrics.md §3). Only the
    key needs heads."""

    name: ClassVar[str] = "partial"
    heads_of: ClassVar[tuple[str, ...]] = ("key",)

    def score(self, key: Clusters, response: Clusters, k: np.ndarray, r: np.ndarray) -> np.ndarray:
        assert key.heads is not None, "checked by require_heads"
        sizes = response.sizes[r]
        inside = common_tokens(key, response, k=k, r=r) == sizes
        return np.where(inside & holds(response, r, key.heads[k]), sizes / key.sizes[k], 0.0)


MATCHERS: dict[str, type] = {"exact": ExactMatcher, "head": HeadMatcher, "overlap": OverlapMatcher, "partial": PartialMatcher}


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
