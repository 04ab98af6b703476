"""Parse CoNLL-UA text (docs/ua.md, Reading): ``# newdoc id`` documents,
columns named by ``# global.columns`` (else at the UA scorer's positions),
separated by tabs or spaces; in a markable cell closings ``)`` come before
openings ``(EntityID=…|MarkableID=…)``. Every error names the file, the
line and the markable or entity."""

from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Optional

from ...errors import CorefInputError
from ...model.ua.layer import EMPTY, Layer, Markables, build_layer

IDENTITY, BRIDGING, DISCOURSE_DEIXIS = "IDENTITY", "BRIDGING", "DISCOURSE_DEIXIS"
DEFAULT_COLUMNS = {"FORM": 1, IDENTITY: 10, BRIDGING: 11, DISCOURSE_DEIXIS: 12}
"""Column positions when no ``# global.columns`` header names them (the
UA scorer's fixed positions)."""


@dataclass
class UADocument:
    """One document: its name, number of tokens, sentence starts, its
    IDENTITY and DISCOURSE_DEIXIS layers, the position of its FORM column
    and its token lines (``read_lines`` gives them when first asked)."""

    name: str
    n_tokens: int
    sentence_starts: list[int]
    identity: Layer
    deixis: Layer
    form: int = 1
    read_lines: Callable[[], list[str]] = field(default=list, compare=False, repr=False)

    @cached_property
    def lines(self) -> list[str]:
        return self.read_lines()

    @cached_property
    def words(self) -> list[str]:
        """The FORM of every token (``_`` where the line has none)."""
        out = []
        for line in self.lines:
            cells = line.split(None, self.form + 1)
            out.append(cells[self.form] if len(cells) > self.form else "_")
        return out


@dataclass
class UAFile:
    documents: list[UADocument]
    warnings: list[str] = field(default_factory=list)


def parse_ua(text: str, source: str = "<string>") -> UAFile:
    """The documents of CoNLL-UA ``text``; ``source`` names it in errors."""
    columns = dict(DEFAULT_COLUMNS)
    documents: list[UADocument] = []
    warnings: list[str] = []
    name: Optional[str] = None
    rows: list[tuple[int, str]] = []
    sentence_starts: list[int] = []
    new_sentence = True

    def close() -> None:
        if name is None and not rows:
            return
        if name is None:
            raise CorefInputError(f"{source}:{rows[0][0]}: token line before the first '# newdoc id = ...'")
        documents.append(_document(name, rows, sentence_starts, columns=columns, source=source, warnings=warnings))

    for number, line in enumerate(text.splitlines(), 1):
        first = line[:1]
        if not first or first.isspace():
            line = line.strip()
            first = line[:1]
            if not first:
                new_sentence = True
                continue
        if first != "#":
            if new_sentence:
                sentence_starts.append(len(rows))
                new_sentence = False
            rows.append((number, line))
            continue
        key, _, value = line[1:].partition("=")
        key = key.strip()
        if key == "global.columns":
            names = value.split()
            columns = {c: names.index(c) for c in DEFAULT_COLUMNS if c in names}
            if IDENTITY not in columns:
                raise CorefInputError(f"{source}:{number}: '# global.columns' names no IDENTITY column")
        elif key == "newdoc id" or key == "newdoc":
            close()
            name = value.strip()
            if not name:
                raise CorefInputError(f"{source}:{number}: document without a name ('# newdoc id = NAME')")
            rows, sentence_starts, new_sentence = [], [], True
        elif key == "sent_id":
            new_sentence = True
    close()
    names = [d.name for d in documents]
    if len(set(names)) != len(names):
        repeated = next(n for n in names if names.count(n) > 1)
        raise CorefInputError(f"{source}: document {repeated!r} is given twice")
    return UAFile(documents, warnings)


def _document(
    name: str, rows: list[tuple[int, str]], starts: list[int], *, columns: dict[str, int], source: str, warnings: list[str]
) -> UADocument:
    """A document from its token lines; only lines with a parenthesis can
    hold markables or bridging, so only those are split into cells."""
    where = f"{source}: document {name!r}"
    marked = [(position, number, line.split()) for position, (number, line) in enumerate(rows) if "(" in line or ")" in line]
    identity = _layer(marked, columns[IDENTITY], columns.get(BRIDGING), where=where, warnings=warnings)
    deixis_column = columns.get(DISCOURSE_DEIXIS)
    deixis = _layer(marked, deixis_column, None, where=where, warnings=warnings, required=False) if deixis_column is not None else EMPTY
    lines = [line for _, line in rows]
    return UADocument(name, len(lines), starts or [0], identity, deixis=deixis, form=columns.get("FORM", 1), read_lines=lambda: lines)


def fields(text: str, line: int, where: str) -> dict[str, str]:
    """``KEY=VALUE|KEY=VALUE`` as a dict (a later key wins)."""
    try:
        return dict(part.split("=", 1) for part in text.split("|"))
    except ValueError:
        pass
    out = {}
    for part in text.split("|"):
        key, equals, value = part.partition("=")
        if not equals:
            raise CorefInputError(f"{where}, line {line}: {part!r} in {text!r} is not KEY=VALUE")
        out[key] = value
    return out


def _layer(
    rows: list[tuple[int, int, list[str]]],
    column: int,
    bridging_column: Optional[int],
    *,
    where: str,
    warnings: list[str],
    required: bool = True,
) -> Layer:
    opened: list[tuple[str, int, dict[str, str], int]] = []
    spans: dict[str, tuple[int, int, dict[str, str], int]] = {}
    seen: dict[str, None] = {}
    bridges: list[tuple[str, str, int]] = []
    for position, line, cells in rows:
        if len(cells) <= column:
            if not required:
                continue
            raise CorefInputError(f"{where}, line {line}: {len(cells)} columns, no column {column + 1} for the markables")
        cell = cells[column]
        if cell != "_":
            closings, *openings = cell.split("(")
            if closings.strip(")"):
                raise CorefInputError(f"{where}, line {line}: {closings!r} before the first '(' of {cell!r}; only ')' may close")
            for _ in closings:
                if not opened:
                    raise CorefInputError(f"{where}, line {line}: ')' closes a markable but none is open")
                closed_id, start, values, start_line = opened.pop()
                spans[closed_id] = (start, position + 1, values, start_line)
            for piece in openings:
                single = piece.endswith(")")
                values = fields(piece[:-1] if single else piece, line, where)
                markable_id = values.get("MarkableID")
                if not markable_id or not values.get("EntityID"):
                    missing = "EntityID" if markable_id else "MarkableID"
                    raise CorefInputError(f"{where}, line {line}: markable {piece!r} has no {missing}=")
                if markable_id in seen:
                    raise CorefInputError(f"{where}, line {line}: MarkableID={markable_id} is given twice")
                seen[markable_id] = None
                if single:
                    spans[markable_id] = (position, position + 1, values, line)
                else:
                    opened.append((markable_id, position, values, line))
        if bridging_column is not None and len(cells) > bridging_column and cells[bridging_column] != "_":
            bridges.extend(bridging_pairs(cells[bridging_column], line, where, warnings=warnings))
    if opened:
        markable_id, _, _, line = opened[-1]
        raise CorefInputError(f"{where}, line {line}: markable {markable_id} is never closed")
    order = list(seen)
    entity_index: dict[str, int] = {}
    entity = [entity_index.setdefault(spans[mid][2]["EntityID"], len(entity_index)) for mid in order]
    listed = [spans[mid] for mid in order]
    return build_layer(
        Markables.of_lists(
            [start for start, _, _, _ in listed],
            [end for _, end, _, _ in listed],
            entity,
            list(entity_index),
            order,
            [line for _, _, _, line in listed],
            {i: values["Min"] for i, (_, _, values, _) in enumerate(listed) if "Min" in values},
            {i: values["ElementOf"] for i, (_, _, values, _) in enumerate(listed) if "ElementOf" in values},
        ),
        bridges,
        where,
        warnings=warnings,
    )


def bridging_pairs(cell: str, line: int, where: str, *, warnings: list[str]) -> list[tuple[str, str, int]]:
    """The ``(anaphor id, anchor id, line)`` pairs of a BRIDGING cell."""
    out = []
    head, *pieces = cell.split("(")
    if head.strip(")"):
        warnings.append(f"{where}, line {line}: bridging text {head!r} outside parentheses ignored, as the UA scorer does")
    for piece in pieces:
        values = fields(piece[:-1] if piece.endswith(")") else piece, line, where)
        if not values.get("MarkableID") or not values.get("MentionAnchor"):
            raise CorefInputError(f"{where}, line {line}: bridging {piece!r} needs MarkableID= and MentionAnchor=")
        if values["MarkableID"] == values["MentionAnchor"]:
            raise CorefInputError(f"{where}, line {line}: markable {values['MarkableID']} bridges to itself")
        out.append((values["MarkableID"], values["MentionAnchor"], line))
    return out
