"""The CorefUD scorer's mention alignment (``--preset corefud``;
docs/corefud.md §3), for the official scorer's numbers to the last digit.

It differs from :func:`~.matchers.twin_by_score` in two ways that can
change a twin. Under head matching, identical token sets are twinned only
when their heads agree too ("super-exact"). And the mentions left are
aligned by one assignment over the whole document: every remaining key
mention against every remaining response mention, both in mention order
(first token, last token, size), solved as SciPy's
``linear_sum_assignment``, which the official scorer calls, solves the
negated scores (:func:`~spacy_coref_eval.assignment.dense_assignment`).
Among optimal assignments that solver picks the one it finds first, so a
tie between two candidates can be decided by mentions elsewhere in the
document; :func:`~spacy_coref_eval.assignment.earliest_optimal` would
decide such a tie by position alone. Reproducing the scorer means
reproducing that too.
"""
from dataclasses import dataclass
from typing import Any, ClassVar, Dict, FrozenSet, Hashable, Tuple

import numpy as np

from ..assignment import dense_assignment
from ..clusters import Clusters
from .matchers import ExactMatcher, HeadMatcher, PartialMatcher
from .spans import exact_twins, overlapping_pairs

MODES: Dict[str, Any] = {"exact": ExactMatcher(), "head": HeadMatcher(), "partial": PartialMatcher()}
"""The CorefUD scorer's matching modes, and the matcher whose score s(k, r) each uses."""
ZERO_MATCHES = ("linear", "dependent")
"""How zero mentions are matched: as node sets like any mention (``linear``),
or first among themselves by their heads' dependencies (``dependent``)."""


@dataclass(frozen=True)
class CorefUDMatcher:
    """One document's key and response aligned as the CorefUD scorer does,
    in ``mode`` ``exact``, ``head`` (its default) or ``partial``, zero
    mentions by ``zero_match`` (:data:`ZERO_MATCHES`). Called once per
    document (``per_document``)."""

    mode: str = "head"
    zero_match: str = "linear"
    per_document: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"the CorefUD preset matches mentions by {', '.join(MODES)}, not {self.mode!r}")
        if self.zero_match not in ZERO_MATCHES:
            raise ValueError(f"zero mentions are matched {' or '.join(ZERO_MATCHES)}, not {self.zero_match!r}")

    @property
    def name(self) -> str:
        return self.mode

    def __call__(self, key: Clusters, response: Clusters) -> np.ndarray:
        self.check(key, response)
        zero_twins = np.full(len(response), -1, dtype=np.int64)
        if self.zero_match == "dependent":
            zero_twins = _twin_zeros(key, response)
        key_free = np.ones(len(key), dtype=bool)
        key_free[zero_twins[zero_twins >= 0]] = False
        response_free = zero_twins < 0
        twins = exact_twins(key.subset(key_free), response.subset(response_free))
        key_index, response_index = np.flatnonzero(key_free), np.flatnonzero(response_free)
        twins = np.where(twins >= 0, key_index[np.maximum(twins, 0)], -1)
        if self.mode == "head":
            found = np.flatnonzero(twins >= 0)
            twins[found[key.heads[twins[found]] != response.heads[response_index[found]]]] = -1
        zero_twins[response_index] = twins
        twins = zero_twins
        if self.mode == "exact":
            return twins
        taken = np.zeros(len(key), dtype=bool)
        taken[twins[twins >= 0]] = True
        rows, cols = _in_mention_order(key, np.flatnonzero(~taken)), _in_mention_order(response, np.flatnonzero(twins < 0))
        scores = np.zeros((len(rows), len(cols)))
        i, j = overlapping_pairs(key.starts[rows], key.ends[rows], response.starts[cols], response.ends[cols])
        scores[i, j] = MODES[self.mode].score(key, response, rows[i], cols[j])
        picked_rows, picked_cols = dense_assignment(scores)
        twins[cols[picked_cols]] = rows[picked_rows]
        return twins

    def check(self, key: Clusters, response: Clusters) -> None:
        MODES[self.mode].check(key, response)

    def config(self) -> Dict[str, Any]:
        return {"match": self.mode, "zero_match": self.zero_match}


def _twin_zeros(key: Clusters, response: Clusters) -> np.ndarray:
    """Zero mentions twinned among themselves by their heads' enhanced
    dependencies (CRAC 2024; docs/corefud.md §5): one assignment over the
    key × response zeros in mention order maximising
    10 · F(dependencies) + F(their parents), 0 across sentences."""
    twins = np.full(len(response), -1, dtype=np.int64)
    rows, cols = _in_mention_order(key, np.flatnonzero(key.zeros())), _in_mention_order(response, np.flatnonzero(response.zeros()))
    if len(rows) == 0 or len(cols) == 0:
        return twins
    key_deps, response_deps = key.nodes.zero_deps, response.nodes.zero_deps
    scores = np.array([[_dependency_score(key_deps[k], response_deps[r]) for r in cols.tolist()] for k in rows.tolist()])
    picked_rows, picked_cols = dense_assignment(scores)
    twins[cols[picked_cols]] = rows[picked_rows]
    return twins


def _dependency_score(key: Tuple[int, Tuple], response: Tuple[int, Tuple]) -> float:
    """The CorefUD scorer's similarity of two zeros' heads: 0 in different
    sentences, else 10 F1 of their (parent, relation) sets plus F1 of their
    parent sets."""
    if key[0] != response[0]:
        return 0.0
    relations = 10 * _f1(frozenset(key[1]), frozenset(response[1]))
    return relations + _f1(frozenset(p for p, _ in key[1]), frozenset(p for p, _ in response[1]))


def _f1(key: FrozenSet[Hashable], response: FrozenSet[Hashable]) -> float:
    """2pr / (p + r) of two sets, 0 when they share nothing or one is empty
    (the official scorer divides by zero on an empty one)."""
    common = len(key & response)
    if common == 0:
        return 0.0
    p, r = common / len(key), common / len(response)
    return 2 * p * r / (p + r)


def _in_mention_order(clusters: Clusters, members: np.ndarray) -> np.ndarray:
    """``members`` sorted as the CorefUD scorer sorts mentions: by first
    token, last token, then number of tokens (stable beyond that)."""
    return members[np.lexsort((clusters.sizes[members], clusters.ends[members], clusters.starts[members]))]
