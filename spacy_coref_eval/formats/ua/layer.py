"""What one markable column of a CoNLL-UA document holds (docs/ua.md):
markables, their entities, split antecedents (``ElementOf``), minimum
spans (``Min``), non-referring entities (``-Pseudo``) and bridging pairs."""
from dataclasses import dataclass, field
from typing import Dict, List, NamedTuple, Optional, Tuple

import numpy as np

Span = Tuple[int, int]
Split = Tuple[Tuple[Span, ...], ...]
"""A split-antecedent element: one tuple of spans per antecedent entity
(Paun et al. 2023), in the order the UA scorer lists them (compare two
as ``frozenset`` s)."""


class _Listed:
    """A span hashed as the UA scorer hashes its markables, so that a set
    of antecedent entities lists them in the order its set does (which
    decides, for a span in two antecedent entities, which one the
    alignment looks it up in)."""

    __slots__ = ("span",)

    def __init__(self, span: Span) -> None:
        self.span = span

    def __hash__(self) -> int:
        return hash(frozenset((self.span[0], self.span[1] - 1)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Listed) and other.span == self.span


class Markable(NamedTuple):
    """One markable: its token span ``[start, end)``, entity index, minimum
    span (``None``: none given) and the line it opens on."""

    start: int
    end: int
    entity: int
    min_span: Optional[Span]
    line: int
    markable_id: str


@dataclass(frozen=True)
class Layer:
    """The markables of one column of one document in reading order, its
    entities (ids, whether referring, the plural entities each is an
    element of) and the bridging pairs ``(anaphor, anchor)`` as markable
    positions."""

    markables: Tuple[Markable, ...]
    entity_ids: Tuple[str, ...]
    referring: Tuple[bool, ...]
    element_of: Tuple[Tuple[int, ...], ...]
    bridging: Tuple[Tuple[int, int], ...] = ()
    arrays: Optional[Tuple[np.ndarray, np.ndarray, np.ndarray]] = field(default=None, compare=False, repr=False)
    """The markables' starts, ends and entities as arrays, when the reader
    has them (else built by :meth:`columns`)."""

    def columns(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The markables' starts, ends and entities as arrays."""
        if self.arrays is not None:
            return self.arrays
        n = len(self.markables)
        return tuple(np.fromiter((m[i] for m in self.markables), dtype=np.int64, count=n) for i in range(3))

    def members(self) -> Dict[int, List[int]]:
        """Every plural entity's direct element entities, in markable order."""
        out: Dict[int, List[int]] = {}
        if not any(self.element_of):
            return out
        for markable in self.markables:
            for plural in self.element_of[markable.entity]:
                entities = out.setdefault(plural, [])
                if markable.entity not in entities:
                    entities.append(markable.entity)
        return out

    def entity_markables(self) -> List[List[Markable]]:
        """The markables of every entity, in markable order."""
        out: List[List[Markable]] = [[] for _ in self.entity_ids]
        for markable in self.markables:
            out[markable.entity].append(markable)
        return out

    def splits(self) -> Dict[int, Split]:
        """Every plural entity's split-antecedent element: the entities
        reached from it through ``ElementOf`` that are not plurals
        themselves (a plural of plurals is flattened), each as the tuple
        of its spans."""
        members = self.members()
        if not members:
            return {}
        spans = [tuple((m.start, m.end) for m in ms) for ms in self.entity_markables()]
        out: Dict[int, Split] = {}
        for plural in members:
            leaves, seen, queue = set(), {plural}, list(members[plural])
            while queue:
                entity = queue.pop(0)
                if entity in members:
                    queue.extend(e for e in members[entity] if e not in seen)
                    seen.update(members[entity])
                else:
                    leaves.add(tuple(map(_Listed, spans[entity])))
            out[plural] = tuple(tuple(listed.span for listed in leaf) for leaf in leaves)
        return out
