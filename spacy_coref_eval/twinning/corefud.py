"""The CorefUD scorer's mention alignment (``--preset corefud``;
docs/corefud.md §3), for the official scorer's numbers to the last digit,
and what its metrics count (:meth:`CorefUDMatcher.twin_corpus`, §10).

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

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..arrays import range_values
from ..assignment import dense_assignment
from ..model.clusters import Clusters, first_occurrences, set_codes
from .matchers import ExactMatcher, HeadMatcher, PartialMatcher
from .spans import exact_twins, overlapping_pairs
from .twinned import Memberships, Stacked, TwinnedCorpus, kept, stack_documents, twin_each

MODES: dict[str, Any] = {"exact": ExactMatcher(), "head": HeadMatcher(), "partial": PartialMatcher()}
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
        key_index, response_index = np.flatnonzero(key_free), np.flatnonzero(response_free)
        twins = np.full(len(response_index), -1, dtype=np.int64)
        if len(key_index) and len(response_index):
            twins = exact_twins(key.subset(key_free), response.subset(response_free))
            twins = np.where(twins >= 0, key_index[np.maximum(twins, 0)], -1)
        if self.mode == "head":
            assert key.heads is not None and response.heads is not None  # checked by check()
            found = np.flatnonzero(twins >= 0)
            twins[found[key.heads[twins[found]] != response.heads[response_index[found]]]] = -1
        zero_twins[response_index] = twins
        twins = zero_twins
        if self.mode == "exact":
            return twins
        taken = np.zeros(len(key), dtype=bool)
        taken[twins[twins >= 0]] = True
        rows, cols = _in_mention_order(key, np.flatnonzero(~taken)), _in_mention_order(response, np.flatnonzero(twins < 0))
        if len(rows) == 0 or len(cols) == 0:
            return twins
        scores = np.zeros((len(rows), len(cols)))
        i, j = overlapping_pairs(key.starts[rows], key.ends[rows], response_starts=response.starts[cols], response_ends=response.ends[cols])
        scores[i, j] = MODES[self.mode].score(key, response, rows[i], cols[j])
        picked_rows, picked_cols = dense_assignment(scores)
        twins[cols[picked_cols]] = rows[picked_rows]
        return twins

    def twin_corpus(
        self, documents: Sequence[tuple[Clusters, Clusters, int]], remove_singletons: bool, remove_zeros: bool
    ) -> TwinnedCorpus:
        """Every document twinned as the CorefUD scorer reads and aligns it
        (docs/corefud.md §2, §10): every copy of a mention given in several
        entities kept (:attr:`Clusters.memberships`), repeats within an
        entity dropped, singleton entities then zero mentions removed
        (entities emptied by the latter kept, with no mention), one
        alignment per document of the first copies, and the
        :class:`~.twinned.Memberships` its metrics count."""
        documents = [(_every_copy(key), _every_copy(response), n) for key, response, n in documents]
        offsets, key, response, size = stack_documents(documents)
        n_docs = len(documents)
        codes = _class_codes(key[0], response[0], self.mode == "head")
        key, key_codes = _within_entities(key, codes[0])
        response, response_codes = _within_entities(response, codes[1])
        if remove_singletons:
            key, key_codes = _masked(key, key_codes, key[0].non_singletons())
            response, response_codes = _masked(response, response_codes, response[0].non_singletons())
        emptied = (np.zeros(0, dtype=np.int64),) * 2
        if remove_zeros:
            emptied = _emptied(key, ~key[0].zeros()), _emptied(response, ~response[0].zeros())
            key, key_codes = _masked(key, key_codes, ~key[0].zeros())
            response, response_codes = _masked(response, response_codes, ~response[0].zeros())
        key_first = first_occurrences(key_codes)
        response_first = first_occurrences(response_codes)
        first_key, first_key_doc = _masked(key, key_codes, _mask(len(key_codes), key_first))[0]
        first_response, first_response_doc = _masked(response, response_codes, _mask(len(response_codes), response_first))[0]
        first_twins = twin_each(self, first_key, first_key_doc, response=first_response, response_doc=first_response_doc, n_docs=n_docs)
        twins = np.full(len(response_codes), -1, dtype=np.int64)
        paired = first_twins >= 0
        twins[response_first[paired]] = key_first[first_twins[paired]]
        memberships = _memberships(key, key_codes, response, response_codes=response_codes, twins=twins, emptied=emptied, n_docs=n_docs)
        return TwinnedCorpus(
            key[0], response[0], key[1], response[1], offsets=offsets, twins=twins, n_docs=n_docs, size=size, memberships=memberships
        )

    def check(self, key: Clusters, response: Clusters) -> None:
        MODES[self.mode].check(key, response)

    def config(self) -> dict[str, Any]:
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
    assert key.nodes is not None and response.nodes is not None  # zero mentions are token sets
    key_deps, response_deps = key.nodes.zero_deps, response.nodes.zero_deps
    assert key_deps is not None and response_deps is not None
    scores = np.array([[_dependency_score(key_deps[k], response_deps[r]) for r in cols.tolist()] for k in rows.tolist()])
    picked_rows, picked_cols = dense_assignment(scores)
    twins[cols[picked_cols]] = rows[picked_rows]
    return twins


def _dependency_score(key: tuple[int, tuple], response: tuple[int, tuple]) -> float:
    """The CorefUD scorer's similarity of two zeros' heads: 0 in different
    sentences, else 10 F1 of their (parent, relation) sets plus F1 of their
    parent sets."""
    if key[0] != response[0]:
        return 0.0
    relations = 10 * _f1(frozenset(key[1]), frozenset(response[1]))
    return relations + _f1(frozenset(p for p, _ in key[1]), frozenset(p for p, _ in response[1]))


def _f1(key: frozenset[Hashable], response: frozenset[Hashable]) -> float:
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


def _every_copy(clusters: Clusters) -> Clusters:
    return clusters if clusters.memberships is None else clusters.memberships


def _mask(size: int, index: np.ndarray) -> np.ndarray:
    mask = np.zeros(size, dtype=bool)
    mask[index] = True
    return mask


def _class_codes(key: Clusters, response: Clusters, with_heads: bool) -> tuple[np.ndarray, np.ndarray]:
    """One code per mention of both sides, equal where the CorefUD scorer
    takes two mentions for the same: the same tokens (and, under head
    matching, the same head)."""
    if key.nodes is None and response.nodes is None:
        columns = [np.concatenate([key.starts, response.starts]), np.concatenate([key.ends, response.ends])]
    else:
        columns = [np.concatenate(set_codes(key.node_sets(), response.node_sets()))]
    if with_heads:
        columns.append(np.concatenate([_heads(key), _heads(response)]) + 1)
    if len(columns[0]) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    code = columns[0].astype(np.int64)
    for column in columns[1:]:
        width = int(column.max()) + 1
        if int(code.max()) >= np.iinfo(np.int64).max // width:
            code = np.unique(np.stack([code, column], axis=1), axis=0, return_inverse=True)[1].ravel()
        code = code * width + column
    codes = np.unique(code, return_inverse=True)[1].ravel().astype(np.int64)
    return codes[: len(key)], codes[len(key) :]


def _heads(clusters: Clusters) -> np.ndarray:
    return clusters.heads if clusters.heads is not None else np.full(len(clusters), -1, dtype=np.int64)


def _masked(side: Stacked, codes: np.ndarray, mask: np.ndarray) -> tuple[Stacked, np.ndarray]:
    if mask.all():
        return side, codes
    return kept(side[0], side[1], mask), codes[mask]


def _within_entities(side: Stacked, codes: np.ndarray) -> tuple[Stacked, np.ndarray]:
    """A side without the later copies of a mention within one entity."""
    return _masked(side, codes, _mask(len(codes), first_occurrences(codes, side[0].entity)))


def _entity_docs(side: Stacked) -> np.ndarray:
    clusters, doc = side
    out = np.zeros(clusters.n_entities, dtype=np.int64)
    out[clusters.entity] = doc
    return out


def _emptied(side: Stacked, mask: np.ndarray) -> np.ndarray:
    """The documents of the entities that keep no mention under ``mask``."""
    clusters = side[0]
    left = np.bincount(clusters.entity[mask], minlength=clusters.n_entities)
    present = np.bincount(clusters.entity, minlength=clusters.n_entities)
    return _entity_docs(side)[(left == 0) & (present > 0)]


def _memberships(
    key: Stacked,
    key_codes: np.ndarray,
    response: Stacked,
    *,
    response_codes: np.ndarray,
    twins: np.ndarray,
    emptied: tuple[np.ndarray, np.ndarray],
    n_docs: int,
) -> Memberships:
    """What the CorefUD scorer's metrics count (docs/corefud.md §10): a
    membership is looked up by the class its alignment dict gives (the
    twin's class; where a class is aligned on both sides, the response
    side's entry), and found in the last entity of the other side holding
    that class (in every such entity for CEAF)."""
    n_codes = int(max(key_codes.max(initial=-1), response_codes.max(initial=-1))) + 1
    lookup = np.arange(n_codes)
    found = np.flatnonzero(twins >= 0)
    k, r = key_codes[twins[found]], response_codes[found]
    moved = k != r
    lookup[k[moved]] = r[moved]
    lookup[r[moved]] = k[moved]
    key_entity, response_entity = key[0].entity, response[0].entity
    last_response = np.full(n_codes, -1, dtype=np.int64)
    np.maximum.at(last_response, response_codes, response_entity)
    last_key = np.full(n_codes, -1, dtype=np.int64)
    np.maximum.at(last_key, key_codes, key_entity)
    key_looked, response_looked = lookup[key_codes], lookup[response_codes]
    sigma, kappa = last_response[key_looked], last_key[response_looked]
    pairs = np.unique(np.stack([response_codes, response_entity], axis=1), axis=0).reshape(-1, 2)
    lo = np.searchsorted(pairs[:, 0], key_looked, "left")
    hi = np.searchsorted(pairs[:, 0], key_looked, "right")
    found_rows = np.repeat(key_entity, hi - lo)
    found_cols = pairs[range_values(lo, hi), 1]
    (key_sizes, key_doc), (response_sizes, response_doc) = _sizes(key, emptied[0]), _sizes(response, emptied[1])
    return Memberships(
        key_sizes,
        key_doc,
        response_sizes,
        response_doc,
        recall=(key_entity[sigma >= 0], sigma[sigma >= 0]),
        precision=(kappa[kappa >= 0], response_entity[kappa >= 0]),
        found=(found_rows, found_cols),
        n_docs=n_docs,
        response_codes=response_codes,
        key_looked=np.where(last_response[key_codes] >= 0, key_codes, np.where(lookup[key_codes] != key_codes, key_looked, -1)),
    )


def _sizes(side: Stacked, emptied: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Memberships of every entity, emptied ones last (size 0), and each
    entity's document."""
    sizes = np.bincount(side[0].entity, minlength=side[0].n_entities)
    return (np.concatenate([sizes, np.zeros(len(emptied), dtype=np.int64)]), np.concatenate([_entity_docs(side), emptied]))
