"""What one markable column of a CoNLL-UA document holds (docs/ua.md):
markables, their entities, split antecedents (``ElementOf``), minimum
spans (``Min``), non-referring entities (``-Pseudo``) and bridging pairs."""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, partial
from typing import NamedTuple, Optional

import numpy as np

from ...errors import CorefInputError

Span = tuple[int, int]
Split = tuple[tuple[Span, ...], ...]
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


@dataclass(eq=False)
class Markables:
    """The markables of one column of one document in reading order, as
    columns: spans, entity indices (entities by first markable), entity
    ids, markable ids, opening lines (the numbers as arrays), and the
    ``Min`` and ``ElementOf`` values of the markables that have them (by
    markable index)."""

    starts: np.ndarray
    ends: np.ndarray
    entity: np.ndarray
    entity_ids: list[str]
    markable_ids: list[str]
    lines: np.ndarray
    mins: dict[int, str]
    element_of: dict[int, str]

    @classmethod
    def of_lists(cls, starts: Sequence[int], ends: Sequence[int], entity: Sequence[int], *rest) -> "Markables":
        entity_ids, markable_ids, lines, mins, element_of = rest
        arrays = (np.array(values, dtype=np.int64) for values in (starts, ends, entity, lines))
        starts_, ends_, entity_, lines_ = arrays
        return cls(starts_, ends_, entity_, entity_ids, markable_ids=markable_ids, lines=lines_, mins=mins, element_of=element_of)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Markables):
            return NotImplemented
        return all(np.array_equal(getattr(self, n), getattr(other, n)) for n in ("starts", "ends", "entity", "lines")) and (
            (self.entity_ids, self.markable_ids, self.mins, self.element_of)
            == (other.entity_ids, other.markable_ids, other.mins, other.element_of)
        )


_markable = partial(tuple.__new__, Markable)
"""A :class:`Markable` from a tuple of its fields, without a Python call."""


def _min_span(value: str) -> Optional[Span]:
    """``Min=a``, ``Min=a,b`` or the guidelines' range ``Min=a-b``
    (1-based document token positions) as a 0-based ``[start, end)``
    span; ``(-1, -1)`` when not of that form (checked where minimum spans
    are used: :func:`~.view.check_min_spans`)."""
    parts = value.split("-") if "-" in value else value.split(",")
    if not all(p.isdigit() for p in parts[:2]) or ("-" in value and len(parts) != 2):
        return (-1, -1)
    first = int(parts[0]) - 1
    last = int(parts[1]) - 1 if len(parts) > 1 else first
    return (first, last + 1)


@dataclass(frozen=True)
class Layer:
    """The markables of one column of one document (its ``table``; as
    :class:`Markable` s in reading order: :attr:`markables`), its
    entities (ids, whether referring, the plural entities each is an
    element of) and the bridging pairs ``(anaphor, anchor)`` as markable
    positions."""

    table: Markables
    entity_ids: tuple[str, ...]
    referring: tuple[bool, ...]
    element_of: tuple[tuple[int, ...], ...]
    bridging: tuple[tuple[int, int], ...] = ()

    @cached_property
    def markables(self) -> tuple[Markable, ...]:
        table = self.table
        min_spans: list[Optional[Span]] = [None] * len(table.markable_ids)
        for i, value in table.mins.items():
            min_spans[i] = _min_span(value)
        columns = (table.starts.tolist(), table.ends.tolist(), table.entity.tolist())
        return tuple(map(_markable, zip(*columns, min_spans, table.lines.tolist(), table.markable_ids)))

    def columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The markables' starts, ends and entities as arrays."""
        return self.table.starts, self.table.ends, self.table.entity

    def members(self) -> dict[int, list[int]]:
        """Every plural entity's direct element entities, in markable order."""
        out: dict[int, list[int]] = {}
        if not any(self.element_of):
            return out
        for markable in self.markables:
            for plural in self.element_of[markable.entity]:
                entities = out.setdefault(plural, [])
                if markable.entity not in entities:
                    entities.append(markable.entity)
        return out

    def entity_markables(self) -> list[list[Markable]]:
        """The markables of every entity, in markable order."""
        out: list[list[Markable]] = [[] for _ in self.entity_ids]
        for markable in self.markables:
            out[markable.entity].append(markable)
        return out

    def splits(self) -> dict[int, Split]:
        """Every plural entity's split-antecedent element: the entities
        reached from it through ``ElementOf`` that are not plurals
        themselves (a plural of plurals is flattened), each as the tuple
        of its spans."""
        members = self.members()
        if not members:
            return {}
        spans = [tuple((m.start, m.end) for m in ms) for ms in self.entity_markables()]
        out: dict[int, Split] = {}
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


NON_REFERRING = "-Pseudo"
GUIDELINES_NON_REFERRING = "_Pseudo"
"""The other ending of non-referring entity ids in the UA guidelines (not
read so by the UA scorer)."""


def build_layer(columns: Markables, bridges: list[tuple[str, str, int]], where: str, *, warnings: list[str]) -> Layer:
    """The :class:`Layer` of ``columns`` and their bridging pairs
    ``(anaphor id, anchor id, line)``; split antecedents checked for cycles,
    references to missing entities and markables warned and ignored."""
    entity_ids = tuple(columns.entity_ids)
    entity_index = {eid: i for i, eid in enumerate(entity_ids)} if columns.element_of else {}
    element_of: list[list[int]] = [[] for _ in entity_ids] if columns.element_of else []
    for i in sorted(columns.element_of):
        own = int(columns.entity[i])
        for plural in filter(None, columns.element_of[i].split(",")):
            if plural not in entity_index:
                warnings.append(f"{where}, line {columns.lines[i]}: ElementOf={plural} names no entity of the document; ignored")
            elif entity_index[plural] not in element_of[own]:
                element_of[own].append(entity_index[plural])
    if columns.element_of:
        _check_acyclic(element_of, entity_ids, where)
    position = {mid: i for i, mid in enumerate(columns.markable_ids)} if bridges else {}
    pairs = []
    for anaphor, anchor, line in bridges:
        missing = [mid for mid in (anaphor, anchor) if mid not in position]
        if missing:
            warnings.append(f"{where}, line {line}: bridging pair ({anaphor}, {anchor}) skipped: no markable {missing[0]}")
            continue
        pairs.append((position[anaphor], position[anchor]))
    if (NON_REFERRING + "\n") in "\n".join(entity_ids) + "\n":
        referring = tuple(not eid.endswith(NON_REFERRING) for eid in entity_ids)
    else:
        referring = (True,) * len(entity_ids)
    elements = tuple(map(tuple, element_of)) if element_of else ((),) * len(entity_ids)
    return Layer(columns, entity_ids, referring, elements, bridging=tuple(pairs))


def _check_acyclic(element_of: list[list[int]], entity_ids: tuple[str, ...], where: str) -> None:
    """Refuse split antecedents that form a cycle (the UA scorer never
    returns on them), naming an entity on the cycle."""
    state = [0] * len(entity_ids)
    for root in range(len(entity_ids)):
        stack = [(root, iter(element_of[root]))]
        if state[root]:
            continue
        state[root] = 1
        while stack:
            entity, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[entity] = 2
                stack.pop()
            elif state[child] == 1:
                raise CorefInputError(
                    f"{where}: split antecedents form a cycle: entity {entity_ids[child]} is (through ElementOf) an element of itself"
                )
            elif state[child] == 0:
                state[child] = 1
                stack.append((child, iter(element_of[child])))


EMPTY = Layer(Markables.of_lists([], [], [], [], [], [], {}, {}), (), (), ())
