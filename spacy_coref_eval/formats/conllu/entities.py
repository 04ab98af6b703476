"""The ``Entity=`` bracket state machine: the ``# global.Entity`` header's
fields, and one document's openings and closings paired per entity, with
discontinuous subspans, empty nodes and every error named by line and entity
(docs/formats.md, CorefUD CoNLL-U)."""

import re
from typing import Any, NamedTuple, Optional, cast

import numpy as np

from ...errors import CorefInputError
from .document import EmptyNode

_ENTITY_VALUE = re.compile(r"(?:\([^()]+\)?|[^()]+\))+")
_SUBSPAN = re.compile(r"^([^\[\]]+)\[(\d+)/(\d+)\]$")
_FORBIDDEN_IN_EID = frozenset("=| \t[]")
_HEAD_LIMIT = 2**62
"""Head numbers from here on are outside every mention (and past int64)."""


class EntityHeader:
    __slots__ = ("text", "eid", "etype", "head", "line", "splits")

    def __init__(self, text: str, line: int, source: str) -> None:
        fields = text.split("-")
        self.text = text
        self.line = line
        eid = [i for i, f in enumerate(fields) if f in ("eid", "GRP")]
        if not eid:
            raise CorefInputError(f"{source}:{line}: '# global.Entity = {text}' names no eid (or GRP) field")
        self.eid = eid[0]
        etype = [i for i, f in enumerate(fields) if f in ("etype", "entity")]
        self.etype = etype[0] if etype else None
        self.head = fields.index("head") if "head" in fields else None
        self.splits = max(i for i in (self.eid, self.etype, self.head) if i is not None) + 1


def _field(parts: list[str], index: Optional[int]) -> Optional[str]:
    """Field ``index`` of an opening chunk split at dashes, if present."""
    return parts[index] if index is not None and index < len(parts) else None


class DocumentLayout(NamedTuple):
    """Where a document lies in its file: the file's ``# global.Entity``
    headers (by the token row they precede) and token rows' line numbers;
    the document's first row, its sentences' first rows, the words before
    each row (``None`` when every row is a word), its multiword-token rows,
    its empty-node rows (to their index) and its empty nodes. Rows past
    ``first_row`` are counted from it."""

    source: str
    name: str
    headers: list[tuple[int, EntityHeader]]
    row_line: np.ndarray
    first_row: int
    sentence_rows: list[int]
    words_before: Optional[np.ndarray]
    multiword: set[int]
    row_empty: dict[int, int]
    empty_nodes: list[EmptyNode]


class MentionReader:
    """Pairs the brackets of one document's ``Entity=`` values.

    Rows are the document's token lines counted from its first one. The
    values are cut into chunks by one regular expression; a loop pairs
    openings and closings per entity (the latest open mention of an entity
    closes first, as in udapi) and the rest is done on arrays."""

    def __init__(self, layout: DocumentLayout) -> None:
        self.source = layout.source
        self.headers = layout.headers
        self.row_line = layout.row_line
        self.name = layout.name
        self.first_row = layout.first_row
        self.sentence_rows = layout.sentence_rows
        self.words_before = layout.words_before
        self.multiword = layout.multiword
        self.row_empty = layout.row_empty
        self.empty_nodes = layout.empty_nodes
        self.entities: dict[str, int] = {}
        self.start: list[int] = []
        self.end: list[int] = []
        self.entity: list[int] = []
        self.bodies: list[tuple[list[str], EntityHeader]] = []
        self.last_part: dict[int, tuple[list[str], EntityHeader]] = {}
        self.spans: dict[int, list[list[int]]] = {}
        self.part: dict[int, tuple[int, int]] = {}
        self.pending: dict[str, int] = {}
        self.stacks: dict[str, list[int]] = {}

    def line_of(self, row: int) -> int:
        return int(self.row_line[self.first_row + row])

    def read(self, rows: list[int], text: str) -> None:
        """Pair the brackets of the ``Entity`` values ``text`` (one a line)
        of ``rows``."""
        if "\0" in text:
            row = rows[text[: text.index("\0")].count("\n")]
            raise CorefInputError(f"{self.source}:{self.line_of(row)}: malformed Entity= value (NUL character)")
        if self.multiword and not self.multiword.isdisjoint(rows):
            row = min(self.multiword.intersection(rows))
            raise CorefInputError(f"{self.source}:{self.line_of(row)}: Entity= on a multiword token line")
        self._pair(rows, text)

    def _malformed(self, rows: list[int], text: str) -> CorefInputError:
        for row, value in zip(rows, text.split("\n")):
            if not _ENTITY_VALUE.fullmatch(value):
                return CorefInputError(f"{self.source}:{self.line_of(row)}: malformed Entity={value}")
        return CorefInputError(f"{self.source}: malformed Entity= value")  # pragma: no cover

    def _header_at(self, row: int) -> tuple[Optional[EntityHeader], int]:
        """The header in force at ``row`` and the row where the next starts."""
        absolute = row + self.first_row
        chosen = None
        for position, header in self.headers:
            if position <= absolute:
                chosen = header
            else:
                return chosen, position - self.first_row
        return chosen, 1 << 62

    def _pair(self, rows: list[int], text: str) -> None:
        start, end, entity, bodies = self.start, self.end, self.entity, self.bodies
        entities = self.entities
        stacks = self.stacks
        part_of = self.part
        n_rows = len(rows)
        i = 0
        row = rows[0]
        header, next_header = self._header_at(row)
        if header is None:
            raise CorefInputError(f"{self.source}:{self.line_of(row)}: Entity= annotation but no '# global.Entity' header before it")
        eid_i, split = header.eid, header.splits
        pieces = text.replace("(", "\0(").replace(")", ")\0").replace("\n", "\0\n\0").split("\0")
        for chunk in filter(None, pieces):
            first = chunk[0]
            if first == "(":
                single = chunk[-1] == ")"
                parts = (chunk[1:-1] if single else chunk[1:]).split("-", split)
                try:
                    eid = parts[eid_i]
                except IndexError:
                    raise CorefInputError(
                        f"{self.source}:{self.line_of(row)}: Entity chunk {chunk} has no eid (header {header.text})"
                    ) from None
                index = entities.get(eid)
                if index is None:
                    if self._rare_opening(eid, parts, row, single=single, header=header):
                        continue
                    index = entities[eid]
                seq = len(start)
                start.append(row)
                entity.append(index)
                bodies.append((parts, header))
                if single:
                    end.append(row)
                else:
                    end.append(-1)
                    stack = stacks.get(eid)
                    if stack is None:
                        stacks[eid] = [seq]
                    else:
                        stack.append(seq)
            elif first == "\n":
                i += 1
                if i == n_rows:
                    break
                row = rows[i]
                if row >= next_header:
                    # a header: one was in force at an earlier row
                    header, next_header = cast(tuple[EntityHeader, int], self._header_at(row))
                    eid_i, split = header.eid, header.splits
            elif chunk[-1] == ")" and len(chunk) > 1:
                closing = chunk[:-1]
                stack = stacks.get(closing)
                if stack and (not part_of or stack[-1] not in part_of):
                    end[stack.pop()] = row
                else:
                    self._rare_closing(closing, row)
            else:
                raise self._malformed(rows, text)

    def _rare_opening(self, eid: str, parts: list[str], row: int, *, single: bool, header: EntityHeader) -> bool:
        """Check a new entity id, or open a subspan of a discontinuous
        mention. True when the chunk has been dealt with."""
        if not eid:
            raise CorefInputError(f"{self.source}:{self.line_of(row)}: Entity chunk with an empty eid")
        if eid[-1] != "]":
            if not _FORBIDDEN_IN_EID.isdisjoint(eid):
                raise CorefInputError(f"{self.source}:{self.line_of(row)}: entity id {eid!r} contains a character not allowed in ids")
            self.entities[eid] = len(self.entities)
            return False
        line = self.line_of(row)
        eid, part, total = self._subspan(eid, line)
        if not _FORBIDDEN_IN_EID.isdisjoint(eid):
            raise CorefInputError(f"{self.source}:{line}: entity id {eid!r} contains a character not allowed in ids")
        if eid not in self.entities:
            self.entities[eid] = len(self.entities)
        stack = self.stacks.setdefault(eid, [])
        if part == 1:
            if eid in self.pending:
                raise CorefInputError(
                    f"{self.source}:{line}: entity {eid}: a discontinuous mention opens before the last subspan of the previous one"
                )
            seq = len(self.start)
            self.start.append(row)
            self.end.append(-1)
            self.entity.append(self.entities[eid])
            self.bodies.append((parts, header))
            self.spans[seq] = [[row, -1]]
            if total > 1:
                self.pending[eid] = seq
        else:
            seq = self.pending.get(eid, -1)
            if seq < 0 or self.part[seq] != (part - 1, total) or self.spans[seq][-1][1] < 0:
                raise CorefInputError(
                    f"{self.source}:{line}: entity {eid}: subspan [{part}/{total}] opens, but no discontinuous "
                    f"mention of {eid} has its subspan [{part - 1}/{total}] read and closed"
                )
            self.spans[seq].append([row, -1])
            self.last_part[seq] = (parts, header)
            if part == total:
                del self.pending[eid]
        self.part[seq] = (part, total)
        stack.append(seq)
        if single:
            self._close_subspan(eid, part, row, line=line)
        return True

    def _rare_closing(self, body: str, row: int) -> None:
        line = self.line_of(row)
        if body[-1] == "]":
            eid, part, _ = self._subspan(body, line)
            self._close_subspan(eid, part, row, line=line)
            return
        if "-" in body or not _FORBIDDEN_IN_EID.isdisjoint(body):
            raise CorefInputError(f"{self.source}:{line}: malformed closing bracket {body})")
        stack = self.stacks.get(body)
        if not stack:
            raise CorefInputError(f"{self.source}:{line}: entity {body}: a mention closes here that was never opened")
        part, total = self.part[stack[-1]]
        raise CorefInputError(
            f"{self.source}:{line}: entity {body}: {body}) closes the open subspan "
            f"{body}[{part}/{total}] (close it with {body}[{part}/{total}]))"
        )

    def _close_subspan(self, eid: str, part: int, row: int, *, line: int) -> None:
        stack = self.stacks.get(eid)
        if not stack:
            raise CorefInputError(f"{self.source}:{line}: entity {eid}: a mention closes here that was never opened")
        seq = stack[-1]
        if self.part.get(seq, (0, 0))[0] != part:
            raise CorefInputError(
                f"{self.source}:{line}: entity {eid}: subspan {eid}[{part}/..]) does not close the "
                f"innermost open mention of {eid} (opened at line {self.line_of(self.start[seq])})"
            )
        stack.pop()
        self.spans[seq][-1][1] = row
        if part == self.part[seq][1]:
            self.end[seq] = row

    def _subspan(self, eid: str, line: int) -> tuple[str, int, int]:
        match = _SUBSPAN.match(eid)
        if not match:
            raise CorefInputError(f"{self.source}:{line}: malformed discontinuous mention id {eid!r} (e.g. e1[1/2])")
        part, total = int(match.group(2)), int(match.group(3))
        if not 1 <= part <= total:
            raise CorefInputError(f"{self.source}:{line}: subspan {eid!r}: the part must lie in 1..number of parts")
        return match.group(1), part, total

    def columns(self) -> dict[str, Any]:
        n = len(self.start)
        starts = np.array(self.start, dtype=np.int64)
        ends = np.array(self.end, dtype=np.int64)
        entity_ids = tuple(self.entities)
        if n and ends.min() < 0:
            m = int(np.argmax(ends < 0))
            if m in self.part and self.spans[m][-1][1] >= 0:
                part, total = self.part[m]
                raise CorefInputError(
                    f"{self.source}:{self.line_of(self.start[m])}: discontinuous mention of entity "
                    f"{entity_ids[self.entity[m]]} opened here has {part} of its {total} subspans (document {self.name!r})"
                )
            raise CorefInputError(
                f"{self.source}:{self.line_of(self.start[m])}: mention of entity "
                f"{entity_ids[self.entity[m]]} opened here is never closed (document {self.name!r})"
            )
        sentence_rows = np.array(self.sentence_rows, dtype=np.int64)
        crossing = np.searchsorted(sentence_rows, starts, "right") != np.searchsorted(sentence_rows, ends, "right")
        if crossing.any():
            m = int(np.argmax(crossing))
            raise CorefInputError(
                f"{self.source}:{self.line_of(self.start[m])}: mention of entity {entity_ids[self.entity[m]]} "
                f"opened here closes at line {self.line_of(self.end[m])}, in another sentence; CorefUD mentions "
                f"lie within one sentence (document {self.name!r})"
            )
        etypes = [_field(parts, header.etype) for parts, header in self.bodies]
        heads = self._head_numbers()
        lines = self.row_line[self.first_row + starts] if n else np.zeros(0, dtype=np.int64)
        zero = np.zeros(n, dtype=bool)
        contiguous = np.ones(n, dtype=bool)
        words_of: dict[int, tuple[int, ...]] = {}
        empty_of: dict[int, tuple[int, ...]] = {}
        if self.words_before is None:
            word_start, word_end = starts, ends + 1
            special = list(self.spans)
        else:
            word_start, word_end = self.words_before[starts], self.words_before[ends + 1]
            special = sorted(set(self.spans) | set(self._with_empty_nodes(starts, ends)))
        nodes = word_end - word_start
        head_words = word_start + heads - 1
        for m in special:
            words, empties, head, is_zero, n_nodes = self._node_sets(m, int(heads[m]))
            nodes[m] = n_nodes
            if m in self.spans:
                contiguous[m] = False
                words_of[m] = words
            if empties:
                empty_of[m] = empties
            word_start[m] = words[0] if words else self.empty_nodes[empties[0]].after
            word_end[m] = words[-1] + 1 if words else word_start[m]
            head_words[m] = head
            zero[m] = is_zero
        bad = (heads < 1) | (heads > nodes)
        if bad.any():
            m = int(np.argmax(bad))
            raise CorefInputError(
                f"{self.source}:{lines[m]}: entity {entity_ids[self.entity[m]]}: head index {heads[m]} outside the "
                f"mention's {nodes[m]} node(s) (document {self.name!r})"
            )
        return dict(
            entities=entity_ids,
            mention_entity=np.array(self.entity, dtype=np.int64),
            mention_start=word_start,
            mention_end=word_end,
            mention_head=head_words,
            mention_zero=zero,
            mention_contiguous=contiguous,
            mention_line=lines,
            mention_etype=etypes,
            mention_words=words_of,
            mention_empty=empty_of,
        )

    def _head_numbers(self) -> np.ndarray:
        """The head field of every mention (of its last subspan's opening),
        1 where there is none."""
        if all(header.head is None for _, header in self.bodies):
            return np.ones(len(self.bodies), dtype=np.int64)
        numbers = []
        for m, (parts, header) in enumerate(self.bodies):
            if m in self.last_part:
                parts, header = self.last_part[m]
            value = _field(parts, header.head)
            if value is None:
                numbers.append(1)
                continue
            where = f"{self.source}:{self.line_of(self.start[m])}: entity {tuple(self.entities)[self.entity[m]]}"
            try:
                number = int(value)
            except ValueError:
                raise CorefInputError(f"{where}: head index {value!r} is not a number") from None
            if abs(number) >= _HEAD_LIMIT:
                raise CorefInputError(f"{where}: head index {value} outside the mention's nodes (document {self.name!r})")
            numbers.append(number)
        return np.array(numbers, dtype=np.int64)

    def _with_empty_nodes(self, starts: np.ndarray, ends: np.ndarray) -> list[int]:
        if not self.row_empty:
            return []
        empty_rows = np.array(sorted(self.row_empty), dtype=np.int64)
        inside = np.searchsorted(empty_rows, ends, "right") - np.searchsorted(empty_rows, starts, "left")
        return np.flatnonzero(inside > 0).tolist()

    def _node_sets(self, m: int, head: int) -> tuple[tuple[int, ...], tuple[int, ...], int, bool, int]:
        """Words, empty nodes, head (word or empty node), whether the head
        is an empty node, and the number of nodes of mention ``m``."""
        spans = self.spans.get(m, [[self.start[m], self.end[m]]])
        rows = [r for a, b in spans for r in range(a, b + 1)]
        if self.words_before is None:
            if not 1 <= head <= len(rows):
                return tuple(rows), (), -1, False, len(rows)
            return tuple(rows), (), rows[head - 1], False, len(rows)
        before = self.words_before
        empty = self.row_empty
        nodes = [(r in empty, empty[r] if r in empty else int(before[r])) for r in rows if r not in self.multiword]
        words = tuple(index for is_empty, index in nodes if not is_empty)
        empties = tuple(index for is_empty, index in nodes if is_empty)
        if not 1 <= head <= len(nodes):
            return words, empties, -1, False, len(nodes)
        is_zero, head_index = nodes[head - 1]
        return words, empties, head_index, is_zero, len(nodes)
