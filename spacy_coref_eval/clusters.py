"""Stage 1 data model: the coreference clusters of one document.

Every reader (CoNLL-2012 files, spaCy span groups) produces :class:`Clusters`;
everything downstream (twinning, policies, counting) works on it.
"""
from dataclasses import dataclass, field
from typing import Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from .errors import CorefInputError

Span = Tuple[int, int]
Entities = Sequence[Sequence[Span]]

_EMPTY = np.zeros(0, dtype=np.int64)


@dataclass(frozen=True)
class Clusters:
    """Mentions of one document as token spans, each in exactly one entity.

    ``starts[m]``/``ends[m]`` delimit mention ``m`` (``end`` exclusive, as in
    spaCy), ``entity[m]`` is its entity index in ``0 .. n_entities - 1`` and
    ``heads[m]`` (optional) its head token. Mentions are kept in reading
    order: entities by first appearance, mentions within an entity as given.
    ``repeated`` counts mentions dropped on construction because their span
    was already present (see :meth:`from_entities`).
    """

    starts: np.ndarray = field(default_factory=lambda: _EMPTY)
    ends: np.ndarray = field(default_factory=lambda: _EMPTY)
    entity: np.ndarray = field(default_factory=lambda: _EMPTY)
    n_entities: int = 0
    heads: Optional[np.ndarray] = None
    repeated: int = 0

    def __len__(self) -> int:
        return len(self.starts)

    @classmethod
    def from_entities(
        cls,
        entities: Iterable[Iterable[Span]],
        heads: Optional[Iterable[Iterable[int]]] = None,
    ) -> "Clusters":
        """Build from entities given as lists of ``(start, end)`` spans.

        A span given twice keeps its first occurrence in the order given and
        the later copies are dropped and counted in ``repeated``; an entity
        left empty disappears. Readers pass entities in the reference
        scorer's order (docs/metrics.md §3) so that the copy it keeps is the one kept.
        """
        spans = []
        labels = []
        for index, entity in enumerate(entities):
            for span in entity:
                spans.append(span)
                labels.append(index)
        head_array = None
        if heads is not None:
            head_array = np.array([h for entity in heads for h in entity], dtype=np.int64)
            if len(head_array) != len(spans):
                raise CorefInputError("heads must give one token per mention")
        if not spans:
            return cls(heads=_EMPTY if heads is not None else None)
        array = np.array(spans, dtype=np.int64).reshape(-1, 2)
        return cls.from_arrays(array[:, 0], array[:, 1], np.array(labels, dtype=np.int64), head_array)

    @classmethod
    def from_arrays(
        cls,
        starts: np.ndarray,
        ends: np.ndarray,
        labels: np.ndarray,
        heads: Optional[np.ndarray] = None,
    ) -> "Clusters":
        """Build from parallel arrays. Entities are ordered by label value and
        mentions within an entity keep their array order; a repeated span
        keeps its first copy in that order, as in :meth:`from_entities`."""
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
        keep = _first_occurrences(starts, ends)
        repeated = len(starts) - len(keep)
        if repeated:
            starts, ends, labels = starts[keep], ends[keep], labels[keep]
            heads = heads[keep] if heads is not None else None
        entity, n_entities = _dense_labels(labels)
        return cls(starts, ends, entity, n_entities, heads, repeated)

    @classmethod
    def per_document(
        cls, doc: np.ndarray, starts: np.ndarray, ends: np.ndarray, labels: np.ndarray, n_docs: int
    ) -> List["Clusters"]:
        """:meth:`from_arrays` of ``n_docs`` documents at once, without
        heads: document ``d`` has the mentions with ``doc == d`` (``doc``
        nondecreasing), in array order."""
        doc = np.asarray(doc, dtype=np.int64)
        starts = np.asarray(starts, dtype=np.int64)
        ends = np.asarray(ends, dtype=np.int64)
        labels = np.asarray(labels, dtype=np.int64)
        _check_spans(starts, ends)
        order = np.lexsort((labels, doc))
        keep = order[_first_occurrences(starts[order], ends[order], doc[order])]
        given = np.bincount(doc, minlength=n_docs)
        doc, starts, ends, labels = doc[keep], starts[keep], ends[keep], labels[keep]
        new = np.ones(len(keep), dtype=bool)
        new[1:] = (labels[1:] != labels[:-1]) | (doc[1:] != doc[:-1])
        first_entity = np.r_[0, np.cumsum(np.bincount(doc[new], minlength=n_docs))]
        entity = np.cumsum(new) - 1 - first_entity[doc]
        bounds = np.searchsorted(doc, np.arange(n_docs + 1)).tolist()
        n_entities = np.diff(first_entity).tolist()
        repeated = (given - np.diff(bounds)).tolist()
        return [
            cls(starts[lo:hi], ends[lo:hi], entity[lo:hi], n, None, dropped)
            for lo, hi, n, dropped in zip(bounds[:-1], bounds[1:], n_entities, repeated)
        ]

    def entities(self) -> Tuple[Tuple[Span, ...], ...]:
        """The entities as tuples of ``(start, end)`` spans, in stored order."""
        out = [[] for _ in range(self.n_entities)]
        for s, e, k in zip(self.starts.tolist(), self.ends.tolist(), self.entity.tolist()):
            out[k].append((s, e))
        return tuple(tuple(entity) for entity in out)

    def subset(self, mask: np.ndarray) -> "Clusters":
        """The mentions where ``mask`` is true, entities renumbered densely."""
        heads = self.heads[mask] if self.heads is not None else None
        entity, n_entities = _dense_labels(self.entity[mask])
        return Clusters(self.starts[mask], self.ends[mask], entity, n_entities, heads, self.repeated)

    @property
    def extent(self) -> int:
        """One past the last token any mention or head touches (0 when empty)."""
        last = int(self.ends.max()) if len(self) else 0
        if self.heads is not None and len(self):
            last = max(last, int(self.heads.max()) + 1)
        return last

    @classmethod
    def stack(cls, parts: Sequence["Clusters"], offsets: Sequence[int]) -> Tuple["Clusters", np.ndarray]:
        """Several documents as one: part ``d`` shifted by ``offsets[d]``
        tokens (offsets must keep the parts apart) and its entities
        renumbered after those of the parts before. Returns the stacked
        clusters and the document index of every mention. Heads are kept
        when every part with mentions has them."""
        if not parts:
            return cls(), _EMPTY
        sizes = [len(part) for part in parts]
        shift = np.repeat(np.asarray(offsets, dtype=np.int64), sizes)
        first_entity = np.cumsum([0] + [part.n_entities for part in parts[:-1]])
        relabel = np.repeat(first_entity.astype(np.int64), sizes)
        doc = np.repeat(np.arange(len(parts), dtype=np.int64), sizes)
        heads = None
        if all(part.heads is not None for part in parts if len(part)):
            heads = np.concatenate([part.heads if part.heads is not None else _EMPTY for part in parts])
            heads = np.where(heads >= 0, heads + shift, -1)
        stacked = cls(
            np.concatenate([part.starts for part in parts]) + shift,
            np.concatenate([part.ends for part in parts]) + shift,
            np.concatenate([part.entity for part in parts]) + relabel,
            int(sum(part.n_entities for part in parts)),
            heads,
            sum(part.repeated for part in parts),
        )
        return stacked, doc

    def non_singletons(self) -> np.ndarray:
        """Mask of the mentions whose entity has more than one mention."""
        sizes = np.bincount(self.entity, minlength=self.n_entities)
        return sizes[self.entity] > 1

    def without_singletons(self) -> "Clusters":
        """Drop entities of one mention (the CorefUD default)."""
        return self.subset(self.non_singletons())


def _check_spans(starts: np.ndarray, ends: np.ndarray) -> None:
    bad_spans = (ends <= starts) | (starts < 0)
    if bad_spans.any():
        bad = int(np.argmax(bad_spans))
        raise CorefInputError(f"mention ({starts[bad]}, {ends[bad]}) is empty, reversed or before the first token")


def _first_occurrences(starts: np.ndarray, ends: np.ndarray, doc: Optional[np.ndarray] = None) -> np.ndarray:
    """Indices of the first occurrence of every distinct span (of every
    document), in order."""
    if len(starts) < 2:
        return np.arange(len(starts))
    keys = (ends, starts) if doc is None else (ends, starts, doc)
    order = np.lexsort((np.arange(len(starts)), *keys))
    first = np.ones(len(order), dtype=bool)
    first[1:] = np.logical_or.reduce([key[order][1:] != key[order][:-1] for key in keys])
    return np.sort(order[first])


def _dense_labels(labels: np.ndarray) -> Tuple[np.ndarray, int]:
    """Labels renumbered 0..n-1 in order of value."""
    if len(labels) == 0:
        return _EMPTY, 0
    uniques, inverse = np.unique(labels, return_inverse=True)
    return inverse.ravel().astype(np.int64), len(uniques)


ClustersLike = Union[Clusters, Entities]


def as_clusters(value: ClustersLike) -> Clusters:
    """Clusters from a :class:`Clusters` or a list of entities of
    ``(start, end)`` spans (see :meth:`Clusters.from_entities`)."""
    return value if isinstance(value, Clusters) else Clusters.from_entities(value)
