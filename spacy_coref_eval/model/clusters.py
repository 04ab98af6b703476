"""Stage 1 data model: the coreference clusters of one document.

Every reader (CoNLL-2012 files, spaCy span groups, CorefUD CoNLL-U) produces
:class:`Clusters`; everything downstream (twinning, policies, counting) works
on it. A mention is a token range, or, where a reader has mentions that are
not ranges (discontinuous CorefUD mentions, empty nodes), a set of tokens
(:class:`NodeSets`).
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import chain
from typing import NamedTuple, Optional, Union

import numpy as np

from ..arrays import NO_INTEGERS, range_values
from ..errors import LISTED, CorefInputError, listed

Span = tuple[int, int]
Entities = Sequence[Sequence[Span]]


@dataclass(frozen=True)
class NodeSets:
    """The tokens of every mention as a set, for clusters whose mentions are
    not all token ranges: mention ``m`` holds ``tokens[indptr[m]:indptr[m + 1]]``
    (sorted, unique). ``zero[m]`` marks a zero mention (CorefUD: headed by
    an empty node) and ``zero_deps[m]``, when given, is what the CorefUD
    scorer's dependent zero matching reads of it: the sentence of its head
    and the head's enhanced dependencies ``((parent, relation), ...)``
    (``None`` for other mentions). A mention's ``(start, end)`` is then
    the hull of its set."""

    indptr: np.ndarray
    tokens: np.ndarray
    zero: np.ndarray
    zero_deps: Optional[np.ndarray] = None

    @classmethod
    def of_ranges(cls, starts: np.ndarray, ends: np.ndarray) -> "NodeSets":
        """Every mention the full range ``[start, end)``."""
        indptr = np.concatenate([[0], np.cumsum(ends - starts)]).astype(np.int64)
        return cls(indptr, range_values(starts, ends), np.zeros(len(starts), dtype=bool))

    def __len__(self) -> int:
        return len(self.zero)

    @property
    def sizes(self) -> np.ndarray:
        return np.diff(self.indptr)

    def of(self, m: int) -> np.ndarray:
        """The tokens of mention ``m``."""
        return self.tokens[self.indptr[m] : self.indptr[m + 1]]

    def take(self, index: np.ndarray) -> "NodeSets":
        """The sets of the mentions ``index`` (positions), in that order."""
        indptr = np.concatenate([[0], np.cumsum(self.sizes[index])]).astype(np.int64)
        source = range_values(self.indptr[index], self.indptr[index + 1])
        deps = None if self.zero_deps is None else self.zero_deps[index]
        return NodeSets(indptr, self.tokens[source], self.zero[index], deps)

    def shifted(self, shift: np.ndarray) -> "NodeSets":
        """Every set moved by ``shift[m]`` tokens."""
        return replace(self, tokens=self.tokens + np.repeat(shift, self.sizes))

    @classmethod
    def concat(cls, parts: Sequence["NodeSets"]) -> "NodeSets":
        bases = np.cumsum([0] + [int(part.indptr[-1]) for part in parts[:-1]])
        deps = None
        if any(part.zero_deps is not None for part in parts):
            deps = np.concatenate(
                [np.empty(0, dtype=object)]
                + [part.zero_deps if part.zero_deps is not None else np.full(len(part), None, dtype=object) for part in parts]
            )
        return cls(
            np.concatenate([[0]] + [part.indptr[1:] + base for part, base in zip(parts, bases)]).astype(np.int64),
            np.concatenate([NO_INTEGERS] + [part.tokens for part in parts]),
            np.concatenate([np.zeros(0, dtype=bool)] + [part.zero for part in parts]),
            deps,
        )


@dataclass(frozen=True)
class Clusters:
    """Mentions of one document as token spans, each in exactly one entity.

    ``starts[m]``/``ends[m]`` delimit mention ``m`` (``end`` exclusive, as in
    spaCy), ``entity[m]`` is its entity index in ``0 .. n_entities - 1`` and
    ``heads[m]`` (optional) its head token. Mentions are kept in reading
    order: entities by first appearance, mentions within an entity as given.
    ``repeated`` counts mentions dropped on construction because their span
    was already present (see :meth:`from_entities`). ``nodes``, when given,
    holds every mention's token set (:class:`NodeSets`) and ``starts``/``ends``
    their hulls; it is ``None`` when every mention is its range, which
    keeps that common case as cheap as spans.
    """

    starts: np.ndarray = field(default_factory=lambda: NO_INTEGERS)
    ends: np.ndarray = field(default_factory=lambda: NO_INTEGERS)
    entity: np.ndarray = field(default_factory=lambda: NO_INTEGERS)
    n_entities: int = 0
    heads: Optional[np.ndarray] = None
    repeated: int = 0
    nodes: Optional[NodeSets] = None
    etypes: Optional[np.ndarray] = field(default=None, compare=False, repr=False)
    """The type of every entity, an object array (CorefUD ``etype``;
    ``None`` where not given), when the reader has types."""
    memberships: Optional["Clusters"] = field(default=None, compare=False, repr=False)
    """When a token set was given in several entities: the clusters with
    every copy kept, only repeats within one entity (same tokens and head)
    dropped, for scorers that count a mention in each of its entities (the
    CorefUD scorer; docs/corefud.md §2). ``None`` otherwise."""

    def __len__(self) -> int:
        return len(self.starts)

    @classmethod
    def from_entities(cls, entities: Iterable[Iterable[Span]], heads: Optional[Iterable[Iterable[int]]] = None) -> "Clusters":
        """Build from entities given as lists of ``(start, end)`` spans.

        A span given twice keeps its first occurrence in the order given and
        the later copies are dropped and counted in ``repeated``; an entity
        left empty disappears. Readers pass entities in the reference
        scorer's order (docs/metrics.md §3) so that the copy it keeps is the one kept.
        """
        listed = [list(entity) for entity in entities]
        bounds = np.array([span for entity in listed for span in entity], dtype=np.int64).reshape(-1, 2)
        return cls.from_sized(bounds[:, 0], bounds[:, 1], [len(entity) for entity in listed], heads=heads)

    @classmethod
    def from_sized(
        cls, starts: np.ndarray, ends: np.ndarray, sizes: Sequence[int], *, heads: Optional[Iterable[Iterable[int]]] = None
    ) -> "Clusters":
        """:meth:`from_entities` on spans given entity after entity: entity
        ``i`` holds the next ``sizes[i]`` of ``starts`` and ``ends``."""
        head_array = None
        if heads is not None:
            head_array = np.fromiter(chain.from_iterable(heads), dtype=np.int64)
            if len(head_array) != len(starts):
                raise CorefInputError("heads must give one token per mention")
        labels = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
        return cls.from_arrays(starts, ends, labels, heads=head_array)

    @classmethod
    def from_arrays(
        cls,
        starts: np.ndarray,
        ends: np.ndarray,
        labels: np.ndarray,
        *,
        heads: Optional[np.ndarray] = None,
        nodes: Optional[NodeSets] = None,
        etypes: Optional[Union[Sequence[Optional[str]], np.ndarray]] = None,
    ) -> "Clusters":
        """Build from parallel arrays. Entities are ordered by label value and
        mentions within an entity keep their array order; a repeated span
        (with ``nodes``: a repeated token set) keeps its first copy in that
        order, as in :meth:`from_entities` (every copy in
        :attr:`memberships`). ``etypes[label]`` is the type of each label's
        entity."""
        starts = np.asarray(starts, dtype=np.int64)
        ends = np.asarray(ends, dtype=np.int64)
        labels = np.asarray(labels, dtype=np.int64)
        _check_spans(starts, ends)
        if heads is not None and np.any(heads < -1):
            raise CorefInputError("a mention head lies before the first token (-1 alone means unknown)")
        if np.any(labels[1:] < labels[:-1]):
            order = np.argsort(labels, kind="stable")
            starts, ends, labels = starts[order], ends[order], labels[order]
            heads = heads[order] if heads is not None else None
            nodes = nodes.take(order) if nodes is not None else None
        codes = (starts, ends) if nodes is None else set_codes(nodes)
        keep = first_occurrences(*codes)
        repeated = len(starts) - len(keep)
        memberships = None
        if repeated:
            within = first_occurrences(*codes, labels, *(() if heads is None else (heads,)))
            if len(within) > len(keep):
                entity, n_entities = _dense_labels(labels[within])
                memberships = cls(
                    starts[within],
                    ends[within],
                    entity,
                    n_entities,
                    heads=heads[within] if heads is not None else None,
                    repeated=0,
                    nodes=nodes.take(within) if nodes is not None else None,
                    etypes=_types_of(etypes, labels[within]),
                )
            starts, ends, labels = starts[keep], ends[keep], labels[keep]
            heads = heads[keep] if heads is not None else None
            nodes = nodes.take(keep) if nodes is not None else None
        entity, n_entities, kept = _dense_labels(labels, with_values=True)
        types = None if etypes is None else np.asarray(etypes, dtype=object)[kept]
        return cls(starts, ends, entity, n_entities, heads=heads, repeated=repeated, nodes=nodes, etypes=types, memberships=memberships)

    @classmethod
    def per_document(cls, doc: np.ndarray, starts: np.ndarray, ends: np.ndarray, *, labels: np.ndarray, n_docs: int) -> list["Clusters"]:
        """:meth:`from_arrays` of ``n_docs`` documents at once, without
        heads: document ``d`` has the mentions with ``doc == d`` (``doc``
        nondecreasing), in array order (a document with repeats is built
        by :meth:`from_arrays` itself, for its :attr:`memberships`)."""
        return ClustersBatch.build(doc, starts, ends, labels=labels, n_docs=n_docs).split()

    def entities(self) -> tuple[tuple[Span, ...], ...]:
        """The entities as tuples of ``(start, end)`` spans, in stored order."""
        out: list[list[Span]] = [[] for _ in range(self.n_entities)]
        for s, e, k in zip(self.starts.tolist(), self.ends.tolist(), self.entity.tolist()):
            out[k].append((s, e))
        return tuple(tuple(entity) for entity in out)

    def subset(self, mask: Union[np.ndarray, slice]) -> "Clusters":
        """The mentions where ``mask`` is true (or in the range ``mask``,
        without building a mask as long as every mention), entities
        renumbered densely."""
        heads = self.heads[mask] if self.heads is not None else None
        nodes = None
        if self.nodes is not None:
            index = np.arange(*mask.indices(len(self))) if isinstance(mask, slice) else np.flatnonzero(mask)
            nodes = self.nodes.take(index)
        entity, n_entities, kept = _dense_labels(self.entity[mask], with_values=True)
        etypes = None if self.etypes is None else self.etypes[kept]
        return Clusters(
            self.starts[mask], self.ends[mask], entity, n_entities, heads=heads, repeated=self.repeated, nodes=nodes, etypes=etypes
        )

    @property
    def sizes(self) -> np.ndarray:
        """The number of tokens of every mention."""
        return self.ends - self.starts if self.nodes is None else self.nodes.sizes

    def scattered(self) -> np.ndarray:
        """Mask of the mentions whose token set is not their range."""
        if self.nodes is None:
            return np.zeros(len(self), dtype=bool)
        return self.nodes.sizes != self.ends - self.starts

    def zeros(self) -> np.ndarray:
        """Mask of the zero mentions (:class:`NodeSets`; none without node sets)."""
        return np.zeros(len(self), dtype=bool) if self.nodes is None else self.nodes.zero

    def node_sets(self) -> NodeSets:
        """Every mention's token set (built from the ranges when not stored)."""
        return self.nodes if self.nodes is not None else NodeSets.of_ranges(self.starts, self.ends)

    def shifted(self, shift: int) -> "Clusters":
        """The same clusters ``shift`` tokens later (heads of -1 stay unknown)."""
        heads = None if self.heads is None else np.where(self.heads >= 0, self.heads + shift, -1)
        nodes = None if self.nodes is None else self.nodes.shifted(np.full(len(self), shift, dtype=np.int64))
        return replace(self, starts=self.starts + shift, ends=self.ends + shift, heads=heads, nodes=nodes)

    @property
    def extent(self) -> int:
        """One past the last token any mention or head touches (0 when empty)."""
        last = int(self.ends.max()) if len(self) else 0
        if self.heads is not None and len(self):
            last = max(last, int(self.heads.max()) + 1)
        return last

    @staticmethod
    def extents(parts: Sequence["Clusters"]) -> np.ndarray:
        """:attr:`extent` of every part, computed at once."""
        sizes = np.fromiter(map(len, parts), dtype=np.int64, count=len(parts))
        out = np.zeros(len(parts), dtype=np.int64)
        filled = np.flatnonzero(sizes)
        if len(filled) == 0:
            return out
        chosen = [parts[index] for index in filled.tolist()]
        last = np.concatenate([part.ends for part in chosen])
        headed = np.array([part.heads is not None for part in chosen])
        if headed.any():
            place = np.repeat(headed, sizes[filled])
            last[place] = np.maximum(last[place], np.concatenate([part.heads for part in chosen if part.heads is not None]) + 1)
        out[filled] = np.maximum.reduceat(last, np.r_[0, np.cumsum(sizes[filled])[:-1]])
        return out

    @classmethod
    def stack(cls, parts: Sequence["Clusters"], offsets: Union[Sequence[int], np.ndarray]) -> tuple["Clusters", np.ndarray]:
        """Several documents as one: part ``d`` shifted by ``offsets[d]``
        tokens (offsets must keep the parts apart) and its entities
        renumbered after those of the parts before. Returns the stacked
        clusters and the document index of every mention. Heads are kept
        when every part with mentions has them."""
        if not parts:
            return cls(), NO_INTEGERS
        sizes = [len(part) for part in parts]
        shift = np.repeat(np.asarray(offsets, dtype=np.int64), sizes)
        first_entity = np.cumsum([0] + [part.n_entities for part in parts[:-1]])
        relabel = np.repeat(first_entity.astype(np.int64), sizes)
        doc = np.repeat(np.arange(len(parts), dtype=np.int64), sizes)
        heads = None
        if all(part.heads is not None for part in parts if len(part)):
            heads = np.concatenate([part.heads if part.heads is not None else NO_INTEGERS for part in parts])
            heads = np.where(heads >= 0, heads + shift, -1)
        nodes = None
        if any(part.nodes is not None for part in parts):
            nodes = NodeSets.concat([part.node_sets() for part in parts]).shifted(shift)
        etypes = None
        if any(part.etypes is not None for part in parts):
            etypes = np.concatenate(
                [part.etypes if part.etypes is not None else np.full(part.n_entities, None, dtype=object) for part in parts]
            )
        stacked = cls(
            np.concatenate([part.starts for part in parts]) + shift,
            np.concatenate([part.ends for part in parts]) + shift,
            np.concatenate([part.entity for part in parts]) + relabel,
            int(sum(part.n_entities for part in parts)),
            heads=heads,
            repeated=sum(part.repeated for part in parts),
            nodes=nodes,
            etypes=etypes,
        )
        return stacked, doc

    def non_singletons(self) -> np.ndarray:
        """Mask of the mentions whose entity has more than one mention."""
        sizes = np.bincount(self.entity, minlength=self.n_entities)
        return sizes[self.entity] > 1

    def without_singletons(self) -> "Clusters":
        """Drop entities of one mention (the CorefUD default)."""
        return self.subset(self.non_singletons())


@dataclass(frozen=True)
class ClustersBatch:
    """The clusters of ``n_docs`` documents as columns, as
    :meth:`Clusters.per_document` builds them before splitting them into
    one :class:`Clusters` a document: mention ``m`` lies in document
    ``doc[m]`` (nondecreasing) on that document's tokens ``[starts[m],
    ends[m])``, in its entity ``entity[m]`` (numbered within the
    document); ``n_entities[d]`` and ``repeated[d]`` are those of document
    ``d``, and ``given`` the mentions ``(doc, starts, ends, labels)`` as
    given (a document with repeats is built from them, for its
    :attr:`Clusters.memberships`)."""

    doc: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    entity: np.ndarray
    n_entities: np.ndarray
    repeated: np.ndarray
    given: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]

    @classmethod
    def build(cls, doc: np.ndarray, starts: np.ndarray, ends: np.ndarray, *, labels: np.ndarray, n_docs: int) -> "ClustersBatch":
        """The columns of :meth:`Clusters.per_document`'s arguments."""
        doc = np.asarray(doc, dtype=np.int64)
        starts = np.asarray(starts, dtype=np.int64)
        ends = np.asarray(ends, dtype=np.int64)
        labels = np.asarray(labels, dtype=np.int64)
        _check_spans(starts, ends)
        shift = doc * (int(ends.max(initial=0)) + 1)
        placed_starts, placed_ends = starts + shift, ends + shift
        if np.all((doc[1:] > doc[:-1]) | (labels[1:] >= labels[:-1])):
            keep = first_occurrences(placed_starts, placed_ends)
        else:
            order = np.lexsort((labels, doc))
            keep = order[first_occurrences(placed_starts[order], placed_ends[order])]
        given = np.bincount(doc, minlength=n_docs)
        kept_doc, kept_labels = doc[keep], labels[keep]
        new = np.ones(len(keep), dtype=bool)
        new[1:] = (kept_labels[1:] != kept_labels[:-1]) | (kept_doc[1:] != kept_doc[:-1])
        first_entity = np.r_[0, np.cumsum(np.bincount(kept_doc[new], minlength=n_docs))]
        entity = np.cumsum(new) - 1 - first_entity[kept_doc]
        repeated = given - np.bincount(kept_doc, minlength=n_docs)
        return cls(
            kept_doc,
            starts[keep],
            ends[keep],
            entity,
            n_entities=np.diff(first_entity),
            repeated=repeated,
            given=(doc, starts, ends, labels),
        )

    @property
    def n_docs(self) -> int:
        return len(self.n_entities)

    def split(self) -> list[Clusters]:
        """Every document's :class:`Clusters`."""
        bounds = np.searchsorted(self.doc, np.arange(self.n_docs + 1)).tolist()
        out = [
            Clusters(self.starts[lo:hi], self.ends[lo:hi], self.entity[lo:hi], n, heads=None, repeated=dropped)
            for lo, hi, n, dropped in zip(bounds[:-1], bounds[1:], self.n_entities.tolist(), self.repeated.tolist())
        ]
        for d in np.flatnonzero(self.repeated).tolist():
            out[d] = self.document(d)
        return out

    def document(self, d: int) -> Clusters:
        """Document ``d``'s :class:`Clusters`."""
        if self.repeated[d]:
            doc, starts, ends, labels = self.given
            rows = slice(*np.searchsorted(doc, [d, d + 1]).tolist())
            return Clusters.from_arrays(starts[rows], ends[rows], labels[rows])
        lo, hi = np.searchsorted(self.doc, [d, d + 1]).tolist()
        return Clusters(self.starts[lo:hi], self.ends[lo:hi], self.entity[lo:hi], int(self.n_entities[d]), heads=None, repeated=0)

    def take(self, ids: np.ndarray) -> "ClustersBatch":
        """The documents ``ids``, in that order."""
        ids = np.asarray(ids, dtype=np.int64)
        order = np.arange(self.n_docs + 1)
        rows = _rows_of(self.doc, order, ids)
        given = self.given
        given_rows = _rows_of(given[0], order, ids)
        renumbered = np.repeat(np.arange(len(ids), dtype=np.int64), np.bincount(self.doc, minlength=self.n_docs)[ids])
        given_doc = np.repeat(np.arange(len(ids), dtype=np.int64), np.bincount(given[0], minlength=self.n_docs)[ids])
        return ClustersBatch(
            renumbered,
            self.starts[rows],
            self.ends[rows],
            self.entity[rows],
            n_entities=self.n_entities[ids],
            repeated=self.repeated[ids],
            given=(given_doc, *(column[given_rows] for column in given[1:])),
        )

    def extents(self) -> np.ndarray:
        """:attr:`Clusters.extent` of every document."""
        out = np.zeros(self.n_docs, dtype=np.int64)
        np.maximum.at(out, self.doc, self.ends)
        return out

    def stack(self, offsets: np.ndarray) -> tuple[Clusters, np.ndarray]:
        """:meth:`Clusters.stack` of the documents at ``offsets``."""
        if self.n_docs == 0:
            return Clusters(), NO_INTEGERS
        first_entity = np.r_[0, np.cumsum(self.n_entities)[:-1]].astype(np.int64)
        shift = offsets[self.doc]
        heads = None if len(self.doc) else NO_INTEGERS
        stacked = Clusters(
            self.starts + shift,
            self.ends + shift,
            self.entity + first_entity[self.doc],
            int(self.n_entities.sum()),
            heads=heads,
            repeated=int(self.repeated.sum()),
        )
        return stacked, self.doc


def _rows_of(doc: np.ndarray, order: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """The rows of the documents ``ids`` (``doc`` nondecreasing), document after document."""
    bounds = np.searchsorted(doc, order)
    return range_values(bounds[ids], bounds[ids + 1])


def _check_spans(starts: np.ndarray, ends: np.ndarray) -> None:
    bad_spans = (ends <= starts) | (starts < 0)
    if bad_spans.any():
        bad = int(np.argmax(bad_spans))
        raise CorefInputError(f"mention ({starts[bad]}, {ends[bad]}) is empty, reversed or before the first token")


def first_occurrences(*keys: np.ndarray) -> np.ndarray:
    """Indices of the first occurrence of every distinct combination of
    the ``keys``' values (a span: starts and ends; a token set: its
    :func:`set_codes`), in order."""
    n = len(keys[0])
    if n < 2:
        return np.arange(n)
    order = np.lexsort(keys[::-1])
    first = np.ones(n, dtype=bool)
    first[1:] = np.logical_or.reduce([key[order][1:] != key[order][:-1] for key in keys])
    return np.sort(order[first])


def set_codes(*sides: NodeSets) -> tuple[np.ndarray, ...]:
    """One integer per token set, equal for equal sets across all ``sides``
    (the same code in every side's array)."""
    interned: dict[bytes, int] = {}
    out = []
    for side in sides:
        codes = np.empty(len(side), dtype=np.int64)
        tokens, indptr = side.tokens, side.indptr.tolist()
        for m in range(len(side)):
            codes[m] = interned.setdefault(tokens[indptr[m] : indptr[m + 1]].tobytes(), len(interned))
        out.append(codes)
    return tuple(out)


def _types_of(etypes: Optional[Union[Sequence[Optional[str]], np.ndarray]], labels: np.ndarray) -> Optional[np.ndarray]:
    """The types of the entities ``labels`` hold, in label order."""
    if etypes is None:
        return None
    return np.asarray(etypes, dtype=object)[np.unique(labels, return_index=True)[0]]  # plain np.unique imports numpy.ma


def _dense_labels(labels: np.ndarray, with_values: bool = False):
    """Labels renumbered 0..n-1 in order of value, their number (and, with
    ``with_values``, the values in order)."""
    if len(labels) == 0:
        return (NO_INTEGERS, 0, NO_INTEGERS) if with_values else (NO_INTEGERS, 0)
    if np.any(labels[1:] < labels[:-1]):
        uniques, inverse = np.unique(labels, return_inverse=True)
        dense = inverse.ravel().astype(np.int64)
    else:
        first = np.empty(len(labels), dtype=bool)
        first[0] = True
        np.not_equal(labels[1:], labels[:-1], out=first[1:])
        dense = np.cumsum(first, dtype=np.int64) - 1
        uniques = labels[first]
    return (dense, len(uniques), uniques) if with_values else (dense, len(uniques))


def common_tokens(key: Clusters, response: Clusters, *, k: np.ndarray, r: np.ndarray) -> np.ndarray:
    """|k ∩ r| for every pair of mentions ``(k[i], r[i])``: range
    arithmetic, and set intersection where either is not a range."""
    common = np.maximum(np.minimum(key.ends[k], response.ends[r]) - np.maximum(key.starts[k], response.starts[r]), 0)
    odd = np.flatnonzero((key.scattered()[k] | response.scattered()[r]) & (common > 0))
    if len(odd):
        key_sets, response_sets = key.node_sets(), response.node_sets()
        for i in odd.tolist():
            common[i] = len(np.intersect1d(key_sets.of(int(k[i])), response_sets.of(int(r[i])), assume_unique=True))
    return common


def holds(clusters: Clusters, m: np.ndarray, tokens: np.ndarray) -> np.ndarray:
    """Whether mention ``m[i]`` holds token ``tokens[i]``, for every i."""
    inside = (clusters.starts[m] <= tokens) & (tokens < clusters.ends[m])
    odd = np.flatnonzero(clusters.scattered()[m] & inside)
    sets = clusters.node_sets()
    for i in odd.tolist():
        inside[i] = bool(np.isin(tokens[i], sets.of(int(m[i]))))
    return inside


def same_sets(key: Clusters, response: Clusters, *, k: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Whether key mention ``k[i]`` and response mention ``r[i]`` have the
    same tokens, for every i."""
    sizes = key.sizes[k]
    return (sizes == response.sizes[r]) & (common_tokens(key, response, k=k, r=r) == sizes)


ClustersLike = Union[Clusters, Entities]


def as_clusters(value: ClustersLike) -> Clusters:
    """Clusters from a :class:`Clusters` or a list of entities of
    ``(start, end)`` spans (see :meth:`Clusters.from_entities`)."""
    return value if isinstance(value, Clusters) else Clusters.from_entities(value)


class Pair(NamedTuple):
    """One document to score: its name, key and response clusters (or
    lists of entities of ``(start, end)`` spans), and its number of tokens
    (0 where unknown: the mentions' extent then stands for it)."""

    name: str
    key: ClustersLike
    response: ClustersLike
    n_tokens: int = 0


DROPPED = "dropped (first copy kept)"
EACH = "counted in each of their entities (repeats within one entity dropped)"


def repeated_warnings(repeated: Sequence[tuple[str, Clusters, Clusters]], each: bool = False) -> list[str]:
    """Warnings for repeated mentions (with ``each``, those given in
    several entities count in each where the clusters kept every copy):
    one line for each of the first documents, then one line for the rest."""

    def fate(clusters: Clusters) -> str:
        return EACH if each and clusters.memberships is not None else DROPPED

    lines = [
        (name, f"document {name!r}: {clusters.repeated} repeated mention(s) in the {side} {fate(clusters)}")
        for name, key, response in repeated
        for side, clusters in (("key", key), ("response", response))
        if clusters.repeated
    ]
    named = list(dict.fromkeys(name for name, _ in lines))
    shown = set(named[:LISTED])
    rest = named[LISTED:]
    notes = [line for name, line in lines if name in shown]
    if rest:
        total = sum(key.repeated + response.repeated for name, key, response in repeated if name in set(rest))
        notes.append(f"{len(rest)} more document(s) with {total} repeated mention(s) {EACH if each else DROPPED}: {listed(rest)}")
    return notes
