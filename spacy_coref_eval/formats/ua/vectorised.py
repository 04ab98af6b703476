"""The common case of CoNLL-UA, read with numpy over the bytes (docs/ua.md,
Reading): exactly the documents :func:`~.parse.parse_ua` gives, or ``None``
for anything else, so that it reads them or explains what is wrong. The
common case: tab-separated token lines with the same number of cells and
no other white space, ``# global.columns`` before the first document, and
markable cells of ``)`` closings and ``(KEY=VALUE|...)`` openings, each
with one ``MarkableID`` and one ``EntityID``."""

from typing import Optional

import numpy as np

from ...arrays import pair_brackets, range_values
from ...errors import CorefInputError
from ...model.ua.layer import EMPTY, Layer, build_layer
from ..conll.vectorised import narrow_utf8
from .parse import BRIDGING, DEFAULT_COLUMNS, DISCOURSE_DEIXIS, IDENTITY, Markables, UADocument, UAFile, bridging_pairs

_NL, _TAB, _SPACE, _HASH, _UNDERSCORE = 10, 9, 32, 35, 95
_OPEN, _CLOSE, _PIPE, _EQUALS = 40, 41, 124, 61
_SENT_ID = np.frombuffer(b"# sent_id = ", dtype=np.uint8)
_KEYS = ("MarkableID", "EntityID", "Min", "ElementOf")
_OPEN_KIND, _CLOSE_KIND, _PIPE_KIND, _EQUALS_KIND = 1, 2, 3, 4
_KIND = np.zeros(256, dtype=np.uint8)
_KIND[[_OPEN, _CLOSE, _PIPE, _EQUALS]] = _OPEN_KIND, _CLOSE_KIND, _PIPE_KIND, _EQUALS_KIND
"""The class of every byte in a markable cell: a bracket, ``|``, ``=`` or other."""


class _Lines:
    """Where the lines, token lines and tabs of a file are."""

    def __init__(self, data: bytes, buf: np.ndarray, newlines: np.ndarray) -> None:
        self.data, self.buf = data, buf
        self.starts = np.r_[0, newlines + 1]
        self.ends = np.r_[newlines, len(buf)]
        self.first = np.full(len(self.starts), _NL, dtype=np.uint8)
        nonempty = self.ends > self.starts
        self.first[nonempty] = buf[self.starts[nonempty]]

    def text(self, lines: np.ndarray) -> list[str]:
        """The decoded text of ``lines``."""
        spans = zip(self.starts[lines].tolist(), self.ends[lines].tolist())
        return b"\n".join([self.data[start:end] for start, end in spans]).decode("utf8").split("\n")


def parse_simple(data: bytes, source: str) -> Optional[UAFile]:
    """The documents of CoNLL-UA ``data`` (UTF-8 without a byte-order
    mark) in the common case, or ``None``. As the line reader, it looks
    into the token lines with a parenthesis only: the others give the
    document's tokens and sentences."""
    if b"\r" in data:
        return None
    buf = np.frombuffer(data, dtype=np.uint8)
    newlines = np.flatnonzero(buf == _NL)
    tabs = np.flatnonzero(buf == _TAB)
    if np.count_nonzero(buf < _SPACE) != len(tabs) + len(newlines) or not narrow_utf8(buf):
        return None
    lines = _Lines(data, buf, newlines)
    first = lines.first
    if np.any((first == _TAB) | (first == _SPACE)):
        return None
    token = (first != _NL) & (first != _HASH)
    structure = _structure(lines) if token.any() else None
    if structure is None:
        return None
    columns, names, doc_lines, breaker = structure
    counted = np.cumsum(token)
    if counted[doc_lines[0]]:
        return None
    marked, special = _bracketed(lines, token)
    cells = _cells(lines, tabs, token, counted=counted, marked=marked, columns=columns)
    if cells is None:
        return None
    doc_first = np.r_[counted[doc_lines], counted[-1]]
    doc = np.searchsorted(doc_lines, marked, side="right") - 1
    token_index = counted[marked] - 1 - doc_first[doc]
    crossed = np.cumsum(breaker)[token]
    sentence = np.flatnonzero(np.r_[True, crossed[1:] != crossed[:-1]])
    sentence_bounds = np.searchsorted(sentence, doc_first).tolist()
    where = [f"{source}: document {name!r}" for name in names]
    try:
        layers, warnings = _document_layers(
            lines, special, columns, cells=cells, doc=doc, token_index=token_index, token_lines=marked, where=where
        )
    except CorefInputError:
        return None
    if layers is None:
        return None
    data_starts, data_ends = lines.starts[doc_lines].tolist(), np.r_[doc_lines[1:] - 1, len(first) - 1]
    data_ends = lines.ends[data_ends].tolist()
    doc_first = doc_first.tolist()
    documents = []
    for d, name in enumerate(names):
        lo, hi = doc_first[d], doc_first[d + 1]
        starts = (sentence[sentence_bounds[d] : sentence_bounds[d + 1]] - lo).tolist() or [0]
        documents.append(
            UADocument(
                name,
                hi - lo,
                starts,
                layers[0][d],
                deixis=layers[1][d],
                form=columns.get("FORM", 1),
                read_lines=_token_lines(data, data_starts[d], data_ends[d]),
            )
        )
    return UAFile(documents, [w for ws in warnings for w in ws])


def _bracketed(lines: _Lines, token: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The token lines with a parenthesis (the only ones that can hold
    markables or bridging), and where the file's parentheses, ``|`` and
    ``=`` are."""
    buf = lines.buf
    special = np.flatnonzero(((buf | 1) == _CLOSE) | (buf == _PIPE) | (buf == _EQUALS))
    at = special[(buf[special] | 1) == _CLOSE]
    line = np.searchsorted(lines.starts, at, side="right") - 1
    line = line[np.r_[True, line[1:] != line[:-1]]] if len(line) else line
    return line[token[line]], special


def _cells(lines: _Lines, tabs: np.ndarray, token: np.ndarray, *, counted: np.ndarray, marked: np.ndarray, columns: dict[str, int]):
    """Where the cells of ``marked`` lines are, as a function of a column
    name, when those lines have the same number of tab-separated cells,
    none empty, enough for every markable column, and no space."""
    buf, starts, ends = lines.buf, lines.starts[marked], lines.ends[marked]
    if len(marked) == 0:
        return lambda column: (starts, ends)
    spaces = np.flatnonzero(buf == _SPACE)
    if len(spaces):
        is_marked = np.zeros(len(lines.starts), dtype=bool)
        is_marked[marked] = True
        if np.any(is_marked[np.searchsorted(lines.starts, spaces, side="right") - 1]):
            return None
    row = _rows(lines, tabs, token, counted=counted, marked=marked)
    if row is None:
        return None
    width = row.shape[1]
    if (
        any(columns.get(c, -1) > width for c in (IDENTITY, BRIDGING, DISCOURSE_DEIXIS))
        or width
        and (np.any(row[:, -1] >= ends - 1) or np.any(row[:, 1:] - row[:, :-1] == 1))
    ):
        return None

    def cells(column: str) -> tuple[np.ndarray, np.ndarray]:
        c = columns[column]
        lo = row[:, c - 1] + 1 if c else starts
        hi = row[:, c] if c < width else ends
        return lo, hi

    return cells


def _rows(lines: _Lines, tabs: np.ndarray, token: np.ndarray, *, counted: np.ndarray, marked: np.ndarray) -> Optional[np.ndarray]:
    """The tabs of every ``marked`` line, one row each, or ``None`` unless
    they have the same number. When every token line has that number and
    no other line has a tab, row ``i`` of the tabs is token line ``i``'s;
    otherwise the marked lines' tabs are looked up."""
    n_token = int(counted[-1])
    width = len(tabs) // n_token
    if width * n_token == len(tabs):
        every = tabs.reshape(n_token, width)
        token_lines = np.flatnonzero(token)
        if width == 0 or (np.all(every[:, 0] > lines.starts[token_lines]) and np.all(every[:, -1] < lines.ends[token_lines])):
            return every[counted[marked] - 1]
    first_tab = np.searchsorted(tabs, lines.starts[marked])
    n_tabs = np.searchsorted(tabs, lines.ends[marked]) - first_tab
    width = int(n_tabs[0])
    if np.any(n_tabs != width):
        return None
    return tabs[first_tab[:, None] + np.arange(width)]


def _document_layers(
    lines: _Lines,
    special: np.ndarray,
    columns: dict[str, int],
    *,
    cells,
    doc: np.ndarray,
    token_index: np.ndarray,
    token_lines: np.ndarray,
    where: list[str],
) -> tuple[Optional[tuple[list[Layer], list[Layer]]], list[list[str]]]:
    """The IDENTITY and DISCOURSE_DEIXIS layers of every document and the
    warnings of each, in the order :func:`~.parse.parse_ua` gives them,
    from the cells of ``token_lines`` (those with a parenthesis)."""
    buf, n_docs = lines.buf, len(where)
    warnings: list[list[str]] = [[] for _ in where]
    bridges: list[list[tuple[str, str, int]]] = [[] for _ in where]
    if BRIDGING in columns:
        lo, hi = cells(BRIDGING)
        marked = _marked(buf, lo, hi)
        for t, text in zip(marked.tolist(), lines.text(token_lines[marked]) if len(marked) else []):
            d = int(doc[t])
            bridges[d].extend(bridging_pairs(text.split("\t")[columns[BRIDGING]], int(token_lines[t]) + 1, where[d], warnings=warnings[d]))
    layers = []
    for column in (IDENTITY, DISCOURSE_DEIXIS):
        if column not in columns:
            layers.append([EMPTY] * n_docs)
            continue
        lo, hi = cells(column)
        read = _layers(buf, special, lo=lo, hi=hi, doc=doc, token_index=token_index, line_number=token_lines + 1, n_docs=n_docs)
        if read is None:
            return None, warnings
        layers.append(
            [
                build_layer(markables, bridges[d] if column == IDENTITY else [], where[d], warnings=warnings[d])
                for d, markables in enumerate(read)
            ]
        )
    return (layers[0], layers[1]), warnings


def _token_lines(data: bytes, start: int, end: int):
    def read() -> list[str]:
        return [line for line in data[start:end].decode("utf8").split("\n") if line and line[0] != "#"]

    return read


def _structure(lines: _Lines) -> Optional[tuple[dict[str, int], list[str], np.ndarray, np.ndarray]]:
    """The columns, document names and ``# newdoc`` lines, and the lines
    after which a sentence starts (blank, ``# sent_id``, ``# newdoc``), when
    ``# global.columns`` comes before the first document and names are
    unique."""
    comments = np.flatnonzero(lines.first == _HASH)
    long = comments[lines.ends[comments] - lines.starts[comments] > len(_SENT_ID)]
    at = lines.starts[long, None] + np.arange(len(_SENT_ID))
    sent = long[np.all(lines.buf[at] == _SENT_ID, axis=1)]
    others = np.setdiff1d(comments, sent, assume_unique=True)
    columns = dict(DEFAULT_COLUMNS)
    names: list[str] = []
    doc_lines: list[int] = []
    for index, line in zip(others.tolist(), lines.text(others) if len(others) else []):
        key, _, value = line[1:].partition("=")
        key = key.strip()
        if key == "global.columns":
            names_ = value.split()
            columns = {c: names_.index(c) for c in DEFAULT_COLUMNS if c in names_}
            if doc_lines or IDENTITY not in columns:
                return None
        elif key == "newdoc id" or key == "newdoc":
            name = value.strip()
            if not name:
                return None
            names.append(name)
            doc_lines.append(index)
        elif key == "sent_id":
            sent = np.r_[sent, index]
    if not names or len(set(names)) != len(names):
        return None
    breaker = lines.first == _NL
    breaker[sent] = True
    breaker[doc_lines] = True
    return columns, names, np.array(doc_lines, dtype=np.int64), breaker


def _marked(buf: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The cells other than ``_``."""
    return np.flatnonzero((hi - lo != 1) | (buf[lo] != _UNDERSCORE))


def _layers(
    buf: np.ndarray,
    special: np.ndarray,
    *,
    lo: np.ndarray,
    hi: np.ndarray,
    doc: np.ndarray,
    token_index: np.ndarray,
    line_number: np.ndarray,
    n_docs: int,
) -> Optional[list[Markables]]:
    """The markables of one column, document by document, or ``None``
    unless every cell other than ``_`` is ``)`` closings then openings
    ``(KEY=VALUE|...)`` with one non-empty ``MarkableID`` and ``EntityID``
    each and at most one ``Min`` and ``ElementOf``, whose brackets balance
    in every document, with markable ids unique within each."""
    marked = _marked(buf, lo, hi)
    if len(marked) == 0:
        return [EMPTY.table] * n_docs
    cell_first, cell_end = lo[marked], hi[marked]
    cell = np.searchsorted(cell_end, special, side="right")
    inside = cell < len(marked)
    inside[inside] = special[inside] >= cell_first[cell[inside]]
    at, cell = special[inside], cell[inside]
    kind = _KIND[buf[at]]
    cell_at = np.searchsorted(at, cell_first)
    opening = kind == _OPEN_KIND
    opened = np.cumsum(opening)
    closing = opened == np.r_[0, opened][cell_at][cell]
    shut = np.flatnonzero(closing)
    if np.any(kind[shut] != _CLOSE_KIND) or np.any(at[shut] - cell_first[cell[shut]] != shut - cell_at[cell[shut]]):
        return None
    n_closing = np.bincount(cell[shut], minlength=len(marked))
    rest = cell_first + n_closing < cell_end
    following = (cell_at + n_closing)[rest]
    if np.any(following >= len(at)):
        return None
    if np.any(at[following] != (cell_first + n_closing)[rest]) or np.any(kind[following] != _OPEN_KIND):
        return None
    end = cell_end[cell]
    adjacent_next = np.r_[at[1:] == at[:-1] + 1, False]
    next_kind = np.r_[kind[1:], 0]
    adjacent_prev = np.r_[False, adjacent_next[:-1]]
    prev_kind = np.r_[0, kind[:-1]]
    bracketing = (next_kind > 0) & (next_kind < _EQUALS_KIND)
    starting = opening | (kind == _PIPE_KIND)
    if np.any(starting & ((at + 1 >= end) | (adjacent_next & bracketing))):
        return None
    shutting = (kind == _CLOSE_KIND) & ~closing
    if np.any(shutting & ~((at + 1 == end) | (adjacent_next & (next_kind == _OPEN_KIND)))) or np.any(
        shutting & adjacent_prev & (prev_kind > 0) & (prev_kind < _EQUALS_KIND)
    ):
        return None
    part = np.flatnonzero(starting)
    stops = np.flatnonzero(kind != _EQUALS_KIND)
    stop = np.r_[stops, len(at)][np.searchsorted(stops, part, side="right")]
    in_cell = stop < len(at)
    in_cell[in_cell] = cell[stop[in_cell]] == cell[part[in_cell]]
    part_end = np.where(in_cell, at[np.minimum(stop, len(at) - 1)], end[part])
    equals = part + 1
    if np.any(equals >= len(at)) or np.any(kind[np.minimum(equals, len(at) - 1)] != _EQUALS_KIND):
        return None
    if np.any(cell[equals] != cell[part]):
        return None
    key_start, value_start = at[part] + 1, at[equals] + 1
    piece = opened[part] - 1
    n_pieces = int(opened[-1])
    found: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for key in _KEYS:
        width = len(key)
        candidates = np.flatnonzero(value_start - key_start - 1 == width)
        window = key_start[candidates, None] + np.arange(width)
        hits = candidates[_equal_rows(buf[window], key.encode())]
        counts = np.bincount(piece[hits], minlength=n_pieces)
        if np.any(counts > 1) or (key in _KEYS[:2] and np.any(counts == 0)):
            return None
        found[key] = (piece[hits], hits)
    for key in _KEYS[:2]:
        if np.any(part_end[found[key][1]] == value_start[found[key][1]]):
            return None
    opens = np.flatnonzero(opening)
    next_open = np.r_[opens[1:], len(at)]
    same = next_open < len(at)
    same[same] = cell[next_open[same]] == cell[opens[same]]
    last = np.where(same, next_open - 1, np.r_[cell_at[1:], len(at)][cell[opens]] - 1)
    single = kind[last] == _CLOSE_KIND
    piece_cell = marked[cell[opens]]
    close_cell = marked[cell[shut]]
    events = np.r_[np.flatnonzero(~single), len(single) + np.arange(len(close_cell))]
    event_cell = np.r_[piece_cell[~single], close_cell]
    event_rank = np.r_[at[opens[~single]], at[shut]]
    starts = token_index[piece_cell]
    ends_ = starts + 1
    if len(events):
        paired_opens, paired_closes, balanced = pair_brackets(doc[event_cell], event_rank, events < len(single))
        if not balanced.all():
            return None
        ends_[events[paired_opens]] = token_index[event_cell[paired_closes]] + 1
    value_lo = {key: value_start[hits] for key, (_, hits) in found.items()}
    value_hi = {key: part_end[hits] for key, (_, hits) in found.items()}
    piece_doc = doc[piece_cell]
    both = _values(buf, np.r_[value_lo["MarkableID"], value_lo["EntityID"]], np.r_[value_hi["MarkableID"], value_hi["EntityID"]])
    markable_ids, entity_texts = both[: len(piece_doc)], both[len(piece_doc) :]
    bounds = np.searchsorted(piece_doc, np.arange(n_docs + 1)).tolist()
    numbered = _numbered(markable_ids, entity_texts, bounds)
    if numbered is None:
        return None
    entity, entity_ids = numbered
    lines = line_number[piece_cell]
    extra = {key: (found[key][0], _values(buf, value_lo[key], value_hi[key])) for key in _KEYS[2:]}
    out = []
    for d in range(n_docs):
        a, b = bounds[d], bounds[d + 1]
        out.append(
            Markables(
                starts[a:b],
                ends_[a:b],
                entity[a:b],
                entity_ids[d],
                markable_ids=markable_ids[a:b],
                lines=lines[a:b],
                mins=_within(*extra["Min"], a=a, b=b),
                element_of=_within(*extra["ElementOf"], a=a, b=b),
            )
        )
    return out


def _numbered(markable_ids: list[str], entity_texts: list[str], bounds: list[int]) -> Optional[tuple[np.ndarray, list[list[str]]]]:
    """Every markable's entity, numbered within its document in order of
    first appearance, and each document's entity ids; ``None`` when a
    markable id is given twice in a document."""
    entity: list[int] = []
    entity_ids = []
    for a, b in zip(bounds, bounds[1:]):
        if len(set(markable_ids[a:b])) != b - a:
            return None
        index: dict[str, int] = {}
        entity += [index.setdefault(e, len(index)) for e in entity_texts[a:b]]
        entity_ids.append(list(index))
    return np.array(entity, dtype=np.int64), entity_ids


def _equal_rows(rows: np.ndarray, text: bytes) -> np.ndarray:
    """Which rows of bytes are ``text``, compared eight bytes at a time."""
    width = -(-len(text) // 8) * 8
    padded = np.zeros((len(rows), width), dtype=np.uint8)
    padded[:, : len(text)] = rows
    return np.all(padded.view(np.uint64) == np.frombuffer(text.ljust(width, b"\0"), dtype=np.uint64), axis=1)


def _within(pieces: np.ndarray, values: list[str], *, a: int, b: int) -> dict[int, str]:
    """``values`` of the ``pieces`` (ascending) in ``[a, b)``, by piece from ``a``."""
    if len(pieces) == 0:
        return {}
    lo, hi = np.searchsorted(pieces, (a, b)).tolist()
    return dict(zip((pieces[lo:hi] - a).tolist(), values[lo:hi]))


def _values(buf: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> list[str]:
    """The text of every ``buf[lo[i]:hi[i]]`` (no tab among them), decoded
    in one piece."""
    if len(lo) == 0:
        return []
    taken = buf[np.minimum(range_values(lo, hi + 1), len(buf) - 1)]
    taken[np.cumsum(hi - lo + 1) - 1] = _TAB
    return taken.tobytes().decode("utf8").split("\t")[:-1]
