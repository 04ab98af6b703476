"""Stage 2's result: the key and response mentions of a corpus and the twin
of every response mention (docs/metrics.md §3).

Documents are stacked on disjoint token ranges (:meth:`Clusters.stack`), so
one matcher call twins a whole corpus and no span of one document meets a
span of another. Everything after twinning reads this one object: the
twinless policies and the counts (through :meth:`TwinnedCorpus.partitions`),
mention identification, the error kinds and the report's document views.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Optional

import numpy as np

from ..arrays import NO_INTEGERS
from ..model.clusters import Clusters, ClustersBatch, same_sets
from .matchers import Matcher


@dataclass(frozen=True)
class Twinned:
    """Key and response as partitions of one mention id space.

    ``key[m]`` / ``response[m]`` is the entity of mention id ``m`` on that
    side, or -1 where the mention is absent, and ``doc[m]`` its document.
    Key mentions take ids ``0 .. n_key - 1`` in key order; a twinned
    response mention shares its twin's id and twinless response mentions
    follow. Entity labels are unique across documents and need not be dense
    (a rewrite may empty an entity).
    """

    key: np.ndarray
    response: np.ndarray
    doc: np.ndarray
    n_docs: int

    def with_sides(self, key: np.ndarray, response: np.ndarray) -> "Twinned":
        """The same mention ids and documents with rewritten partitions."""
        return replace(self, key=key, response=response)

    @property
    def twinless_key(self) -> np.ndarray:
        return (self.key >= 0) & (self.response < 0)

    @property
    def twinless_response(self) -> np.ndarray:
        return (self.response >= 0) & (self.key < 0)


@dataclass(frozen=True)
class Memberships:
    """What a scorer that counts a mention in every entity it is given in
    (the CorefUD scorer; docs/corefud.md §10) compares, for a whole corpus.

    ``key_sizes[i]`` / ``response_sizes[j]`` count the memberships of every
    entity (0 for an entity emptied by zero removal), ``key_doc`` /
    ``response_doc`` give each entity's document. ``recall`` holds one
    ``(key entity, response entity)`` pair per key membership found in a
    response entity (the last one holding it), ``precision`` one per
    response membership found in a key entity (the last one), ``found``
    one per key membership and each response entity holding it (CEAF's
    similarity). The zero score reads the classes last.
    """

    key_sizes: np.ndarray
    key_doc: np.ndarray
    response_sizes: np.ndarray
    response_doc: np.ndarray
    recall: tuple[np.ndarray, np.ndarray]
    precision: tuple[np.ndarray, np.ndarray]
    found: tuple[np.ndarray, np.ndarray]
    n_docs: int
    response_codes: np.ndarray = field(default_factory=lambda: NO_INTEGERS)
    """The class of every response mention (equal for copies)."""
    key_looked: np.ndarray = field(default_factory=lambda: NO_INTEGERS)
    """For every key mention, the response class the zero score looks it
    up as (its own where the response has it, else its twin's), or -1."""


@dataclass(frozen=True)
class TwinnedCorpus:
    """Every document's key and response mentions, stacked, and their twins.

    ``key`` and ``response`` hold the stacked clusters (document ``d``
    shifted by ``offsets[d]`` tokens, its mentions contiguous and in reading
    order), ``key_doc`` / ``response_doc`` the document of every mention, and
    ``twins[j]`` the index of the key twin of response mention ``j``, or -1.
    Document ``d`` takes the tokens ``offsets[d]`` up to the next offset.
    """

    key: Clusters
    response: Clusters
    key_doc: np.ndarray
    response_doc: np.ndarray
    offsets: np.ndarray
    twins: np.ndarray
    n_docs: int
    size: int = 0
    """Tokens the stacked documents take: the last offset plus the last extent."""
    memberships: Optional[Memberships] = field(default=None, compare=False, repr=False)
    """Set by matchers that count a mention in each of its entities
    (:class:`Memberships`); ``key`` and ``response`` then hold every copy,
    and only the first copy of a mention has a twin."""

    @property
    def twinned(self) -> np.ndarray:
        """Mask of the response mentions that have a twin."""
        return self.twins >= 0

    @property
    def same_span(self) -> np.ndarray:
        """Mask of the response mentions twinned with a key mention of the
        very same span (every twin under exact matching)."""
        found = self.twins >= 0
        out = np.zeros(len(self.twins), dtype=bool)
        twins = self.twins[found]
        out[found] = (self.key.starts[twins] == self.response.starts[found]) & (self.key.ends[twins] == self.response.ends[found])
        if self.key.nodes is not None or self.response.nodes is not None:
            out[found] &= same_sets(self.key, self.response, k=twins, r=np.flatnonzero(found))
        return out

    def partitions(self) -> Twinned:
        """Key and response entities on one mention id space (:class:`Twinned`)."""
        twinless = self.twins < 0
        n_key, n_extra = len(self.key), int(twinless.sum())
        ids = self.twins.copy()
        ids[twinless] = n_key + np.arange(n_extra)
        key_labels = np.full(n_key + n_extra, -1, dtype=np.int64)
        key_labels[:n_key] = self.key.entity
        response_labels = np.full(n_key + n_extra, -1, dtype=np.int64)
        response_labels[ids] = self.response.entity
        doc = np.empty(n_key + n_extra, dtype=np.int64)
        doc[:n_key] = self.key_doc
        doc[ids] = self.response_doc
        return Twinned(key_labels, response_labels, doc, self.n_docs)

    def document(self, index: int) -> tuple[Clusters, Clusters, np.ndarray]:
        """Key and response clusters of one document on its own token
        offsets, and the twins as indices into that document's key."""
        key_range = _range(self.key_doc, index)
        response_range = _range(self.response_doc, index)
        shift = int(self.offsets[index])
        key = self.key.subset(slice(*key_range)).shifted(-shift)
        response = self.response.subset(slice(*response_range)).shifted(-shift)
        twins = self.twins[response_range[0] : response_range[1]]
        return key, response, np.where(twins >= 0, twins - key_range[0], -1)

    @classmethod
    def concat(cls, parts: Sequence["TwinnedCorpus"]) -> "TwinnedCorpus":
        """Corpora twinned separately (shards of consecutive documents) as one."""
        if len(parts) == 1:
            return parts[0]
        doc_shift = np.cumsum([0] + [part.n_docs for part in parts[:-1]])
        token_shift = np.cumsum([0] + [part.size for part in parts[:-1]])
        key, _ = Clusters.stack([part.key for part in parts], token_shift)
        response, _ = Clusters.stack([part.response for part in parts], token_shift)
        key_shift = np.cumsum([0] + [len(part.key) for part in parts[:-1]])
        twins = [np.where(part.twins >= 0, part.twins + shift, -1) for part, shift in zip(parts, key_shift)]
        return cls(
            key,
            response,
            np.concatenate([part.key_doc + shift for part, shift in zip(parts, doc_shift)]),
            np.concatenate([part.response_doc + shift for part, shift in zip(parts, doc_shift)]),
            offsets=np.concatenate([part.offsets + shift for part, shift in zip(parts, token_shift)]),
            twins=np.concatenate(twins),
            n_docs=int(sum(part.n_docs for part in parts)),
            size=int(sum(part.size for part in parts)),
        )


def twin_corpus(
    documents: Sequence[tuple[Clusters, Clusters, int]], matcher: Matcher, remove_singletons: bool = False, *, remove_zeros: bool = False
) -> TwinnedCorpus:
    """Twin the response of every ``(key, response, n_tokens)`` document
    with its key in one call of ``matcher`` (one per document if it is
    ``per_document``), after dropping singleton entities from both sides
    when ``remove_singletons`` (the CorefUD default), then zero mentions
    when ``remove_zeros`` (in that order, as the CorefUD scorer does, so an
    entity left with one mention stays). Every document's range holds its
    ``n_tokens`` tokens, so that token information can be stacked on the
    same offsets."""
    custom = getattr(matcher, "twin_corpus", None)
    if custom is not None:
        return custom(documents, remove_singletons, remove_zeros)
    return _twin_stacked(
        stack_documents(documents), len(documents), matcher, remove_singletons=remove_singletons, remove_zeros=remove_zeros
    )


def twin_batches(
    key: ClustersBatch,
    response: ClustersBatch,
    n_tokens: np.ndarray,
    *,
    matcher: Matcher,
    remove_singletons: bool = False,
    remove_zeros: bool = False,
) -> TwinnedCorpus:
    """:func:`twin_corpus` of documents given as columns (document ``d``
    of ``key`` and of ``response``, with ``n_tokens[d]`` tokens), stacked
    without being split into documents (docs/formats.md, Columns)."""
    if getattr(matcher, "twin_corpus", None) is not None:
        documents = list(zip(key.split(), response.split(), n_tokens.tolist()))
        return twin_corpus(documents, matcher, remove_singletons, remove_zeros=remove_zeros)
    offsets, size = _offsets(key.extents(), response.extents(), n_tokens)
    stacked = offsets, key.stack(offsets), response.stack(offsets), size
    return _twin_stacked(stacked, key.n_docs, matcher, remove_singletons=remove_singletons, remove_zeros=remove_zeros)


def _twin_stacked(
    stacked: tuple[np.ndarray, "Stacked", "Stacked", int], n_docs: int, matcher: Matcher, *, remove_singletons: bool, remove_zeros: bool
) -> TwinnedCorpus:
    offsets, (key, key_doc), (response, response_doc), size = stacked
    if remove_singletons:
        (key, key_doc), (response, response_doc) = (
            kept(key, key_doc, key.non_singletons()),
            kept(response, response_doc, response.non_singletons()),
        )
    if remove_zeros:
        (key, key_doc), (response, response_doc) = kept(key, key_doc, ~key.zeros()), kept(response, response_doc, ~response.zeros())
    if getattr(matcher, "per_document", False):
        twins = twin_each(matcher, key, key_doc, response=response, response_doc=response_doc, n_docs=n_docs)
    else:
        twins = matcher(key, response)
    return TwinnedCorpus(key, response, key_doc, response_doc, offsets=offsets, twins=twins, n_docs=n_docs, size=size)


Stacked = tuple[Clusters, np.ndarray]


def stack_documents(documents: Sequence[tuple[Clusters, Clusters, int]]) -> tuple[np.ndarray, Stacked, Stacked, int]:
    """The documents' offsets, their keys and responses stacked (with each
    mention's document) and the tokens they take."""
    keys = [key for key, _, _ in documents]
    responses = [response for _, response, _ in documents]
    n_tokens = np.fromiter((n for _, _, n in documents), dtype=np.int64, count=len(documents))
    offsets, size = _offsets(Clusters.extents(keys), Clusters.extents(responses), n_tokens)
    return offsets, Clusters.stack(keys, offsets), Clusters.stack(responses, offsets), size


def _offsets(key_extents: np.ndarray, response_extents: np.ndarray, n_tokens: np.ndarray) -> tuple[np.ndarray, int]:
    """Where every document starts when stacked, and the tokens they take:
    each takes its tokens or its mentions' extent, whichever is more, and
    one more token."""
    extents = np.maximum(np.maximum(key_extents, response_extents), n_tokens) + 1
    offsets = np.r_[0, np.cumsum(extents)[:-1]].astype(np.int64) if len(n_tokens) else NO_INTEGERS
    return offsets, int(extents.sum())


def kept(clusters: Clusters, doc: np.ndarray, mask: np.ndarray) -> tuple[Clusters, np.ndarray]:
    """The mentions of one stacked side where ``mask`` holds, and their documents."""
    return clusters.subset(mask), doc[mask]


def twin_each(
    matcher: Matcher, key: Clusters, key_doc: np.ndarray, *, response: Clusters, response_doc: np.ndarray, n_docs: int
) -> np.ndarray:
    """The twins of stacked documents, ``matcher`` called on each alone."""
    twins = np.full(len(response), -1, dtype=np.int64)
    for index in range(n_docs):
        key_range, response_range = _range(key_doc, index), _range(response_doc, index)
        if key_range[0] == key_range[1] or response_range[0] == response_range[1]:
            continue
        found = matcher(key.subset(slice(*key_range)), response.subset(slice(*response_range)))
        twins[response_range[0] : response_range[1]] = np.where(found >= 0, found + key_range[0], -1)
    return twins


def _range(doc: np.ndarray, index: int) -> tuple[int, int]:
    """Where document ``index``'s mentions lie in a stacked side."""
    return int(np.searchsorted(doc, index, "left")), int(np.searchsorted(doc, index, "right"))
