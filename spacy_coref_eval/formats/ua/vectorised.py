"""The common case of CoNLL-UA, read with numpy over the bytes (docs/ua.md,
Reading): exactly the documents :func:`~.parse.parse_ua` gives, or ``None``
for anything else, so that it reads them or explains what is wrong. The
common case: tab-separated token lines with the same number of cells and
no other white space, ``# global.columns`` before the first document, and
markable cells of ``)`` closings and ``(KEY=VALUE|...)`` openings, each
with one ``MarkableID`` and one ``EntityID``."""
from typing import Dict, List, Optional, Tuple

import numpy as np

from ...errors import CorefInputError
from ...arrays import pair_brackets, range_values
from ..conll.vectorised import _narrow_utf8
from .layer import Layer
from .parse import (
    BRIDGING, DEFAULT_COLUMNS, DISCOURSE_DEIXIS, EMPTY, IDENTITY, Markables, UADocument, UAFile, _bridges, build_layer,
)

_NL, _TAB, _SPACE, _HASH, _UNDERSCORE = 10, 9, 32, 35, 95
_OPEN, _CLOSE, _PIPE, _EQUALS = 40, 41, 124, 61
_SENT_ID = np.frombuffer(b"# sent_id = ", dtype=np.uint8)
_KEYS = ("MarkableID", "EntityID", "Min", "ElementOf")
_OPEN_KIND, _CLOSE_KIND, _PIPE_KIND, _EQUALS_KIND = 1, 2, 3, 4
_WIDEST = 256
"""The longest markable or entity id the numpy reader takes."""
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

    def text(self, lines: np.ndarray) -> List[str]:
        """The decoded text of ``lines``."""
        spans = zip(self.starts[lines].tolist(), self.ends[lines].tolist())
        return b"\n".join([self.data[start:end] for start, end in spans]).decode("utf8").split("\n")


def parse_simple(data: bytes, source: str) -> Optional[UAFile]:
    """The documents of CoNLL-UA ``data`` (UTF-8 without a byte-order
    mark) in the common case, or ``None``."""
    if b"\r" in data:
        return None
    buf = np.frombuffer(data, dtype=np.uint8)
    tabs = np.flatnonzero(buf == _TAB)
    newlines = np.flatnonzero(buf == _NL)
    if np.count_nonzero(buf < _SPACE) != len(tabs) + len(newlines) or not _narrow_utf8(buf):
        return None
    lines = _Lines(data, buf, newlines)
    first = lines.first
    if np.any((first == _TAB) | (first == _SPACE)):
        return None
    token = (first != _NL) & (first != _HASH)
    token_lines = np.flatnonzero(token)
    if len(token_lines) == 0:
        return None
    if b" " in data:
        comments = np.flatnonzero(first == _HASH)
        spans = zip(lines.starts[comments].tolist(), lines.ends[comments].tolist())
        if b"".join([data[start:end] for start, end in spans]).count(b" ") != data.count(b" "):
            return None
    n_tabs = len(tabs) // len(token_lines)
    if len(tabs) != n_tabs * len(token_lines):
        return None
    row = tabs.reshape(len(token_lines), n_tabs)
    if n_tabs and (
        np.any(row[:, 0] <= lines.starts[token_lines]) or np.any(row[:, -1] >= lines.ends[token_lines] - 1)
        or np.any(tabs[1:] - tabs[:-1] == 1)
    ):
        return None
    structure = _structure(lines, token_lines)
    if structure is None:
        return None
    columns, names, doc_lines, breaker = structure
    if any(columns.get(c, -1) > n_tabs for c in (IDENTITY, BRIDGING, DISCOURSE_DEIXIS)) or columns[IDENTITY] > n_tabs:
        return None
    doc = np.searchsorted(doc_lines, token_lines, side="right") - 1
    if len(doc) and doc[0] < 0:
        return None
    crossed = np.cumsum(breaker)[token_lines]
    sentence = np.r_[True, crossed[1:] != crossed[:-1]]
    doc_first = np.searchsorted(doc, np.arange(len(names) + 1))
    token_index = np.arange(len(token_lines)) - doc_first[doc]

    def cells(column: str) -> Tuple[np.ndarray, np.ndarray]:
        c = columns[column]
        lo = row[:, c - 1] + 1 if c else lines.starts[token_lines]
        hi = row[:, c] if c < n_tabs else lines.ends[token_lines]
        return lo, hi

    where = [f"{source}: document {name!r}" for name in names]
    try:
        layers, warnings = _document_layers(lines, buf, columns, cells, doc, token_index, token_lines, where)
    except CorefInputError:
        return None
    if layers is None:
        return None
    data_starts, data_ends = lines.starts[doc_lines].tolist(), np.r_[doc_lines[1:] - 1, len(first) - 1]
    data_ends = lines.ends[data_ends].tolist()
    documents = []
    for d, name in enumerate(names):
        lo, hi = int(doc_first[d]), int(doc_first[d + 1])
        starts = np.flatnonzero(sentence[lo:hi]).tolist() or [0]
        documents.append(UADocument(
            name, hi - lo, starts, layers[0][d], layers[1][d], columns.get("FORM", 1),
            _token_lines(data, data_starts[d], data_ends[d]),
        ))
    return UAFile(documents, [w for ws in warnings for w in ws])


def _document_layers(
    lines: _Lines, buf: np.ndarray, columns: Dict[str, int], cells, doc: np.ndarray, token_index: np.ndarray,
    token_lines: np.ndarray, where: List[str],
) -> Tuple[Optional[Tuple[List[Layer], List[Layer]]], List[List[str]]]:
    """The IDENTITY and DISCOURSE_DEIXIS layers of every document and the
    warnings of each, in the order :func:`~.parse.parse_ua` gives them."""
    n_docs = len(where)
    warnings: List[List[str]] = [[] for _ in where]
    bridges: List[List[Tuple[str, str, int]]] = [[] for _ in where]
    if BRIDGING in columns:
        lo, hi = cells(BRIDGING)
        marked = _marked(buf, lo, hi)
        if len(marked):
            paren = np.zeros(len(lines.first), dtype=bool)
            paren[np.searchsorted(lines.starts, np.flatnonzero((buf == _OPEN) | (buf == _CLOSE)), side="right") - 1] = True
            marked = marked[paren[token_lines[marked]]]
        for t, text in zip(marked.tolist(), lines.text(token_lines[marked]) if len(marked) else []):
            d = int(doc[t])
            bridges[d].extend(_bridges(text.split("\t")[columns[BRIDGING]], int(token_lines[t]) + 1, where[d], warnings[d]))
    layers = []
    for column in (IDENTITY, DISCOURSE_DEIXIS):
        if column not in columns:
            layers.append([EMPTY] * n_docs)
            continue
        lo, hi = cells(column)
        read = _layers(buf, lo, hi, doc, token_index, token_lines + 1, n_docs)
        if read is None:
            return None, warnings
        layers.append([
            build_layer(markables, bridges[d] if column == IDENTITY else [], where[d], warnings[d])
            for d, markables in enumerate(read)
        ])
    return (layers[0], layers[1]), warnings


def _token_lines(data: bytes, start: int, end: int):
    def read() -> List[str]:
        return [line for line in data[start:end].decode("utf8").split("\n") if line and line[0] != "#"]
    return read


def _structure(lines: _Lines, token_lines: np.ndarray) -> Optional[Tuple[Dict[str, int], List[str], np.ndarray, np.ndarray]]:
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
    names: List[str] = []
    doc_lines: List[int] = []
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
    buf: np.ndarray, lo: np.ndarray, hi: np.ndarray, doc: np.ndarray, token_index: np.ndarray, line_number: np.ndarray,
    n_docs: int,
) -> Optional[List[Markables]]:
    """The markables of one column, document by document, or ``None``
    unless every cell other than ``_`` is ``)`` closings then openings
    ``(KEY=VALUE|...)`` with one non-empty ``MarkableID`` and ``EntityID``
    each and at most one ``Min`` and ``ElementOf``, whose brackets balance
    in every document, with markable ids unique within each."""
    marked = _marked(buf, lo, hi)
    if len(marked) == 0:
        return [EMPTY.table] * n_docs
    cell_lo = lo[marked]
    size = hi[marked] - cell_lo
    cell_end = np.cumsum(size)
    cell_first = cell_end - size
    chars = buf[range_values(cell_lo, hi[marked])]
    kind = _KIND[chars]
    at = np.flatnonzero(kind)
    kind = kind[at]
    cell = np.searchsorted(cell_end, at, side="right")
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
    found: Dict[str, Tuple[np.ndarray, np.ndarray]] = {}
    for key in _KEYS:
        width = len(key)
        candidates = np.flatnonzero(value_start - key_start - 1 == width)
        window = key_start[candidates, None] + np.arange(width)
        hits = candidates[np.all(chars[window] == np.frombuffer(key.encode(), dtype=np.uint8), axis=1)]
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
    offset = (cell_lo - cell_first)[cell]
    value_lo = {key: value_start[hits] + offset[equals[hits]] for key, (_, hits) in found.items()}
    value_hi = {key: part_end[hits] + offset[equals[hits]] for key, (_, hits) in found.items()}
    piece_doc = doc[piece_cell]
    marked_ids = _codes(buf, value_lo["MarkableID"], value_hi["MarkableID"], piece_doc)
    entities = _codes(buf, value_lo["EntityID"], value_hi["EntityID"], piece_doc)
    if marked_ids is None or entities is None or len(marked_ids[1]) != len(piece_doc):
        return None
    entity, entity_first = entities
    entity_doc = piece_doc[entity_first]
    entity_ids = _values(buf, value_lo["EntityID"][entity_first], value_hi["EntityID"][entity_first])
    markable_ids = _values(buf, value_lo["MarkableID"], value_hi["MarkableID"])
    bounds = np.searchsorted(piece_doc, np.arange(n_docs + 1)).tolist()
    entity_bounds = np.searchsorted(entity_doc, np.arange(n_docs + 1))
    entity = entity - entity_bounds[piece_doc]
    entity_bounds = entity_bounds.tolist()
    lines = line_number[piece_cell]
    extra = {key: (found[key][0], _values(buf, value_lo[key], value_hi[key])) for key in _KEYS[2:]}
    out = []
    for d in range(n_docs):
        a, b = bounds[d], bounds[d + 1]
        out.append(Markables(
            starts[a:b], ends_[a:b], entity[a:b], entity_ids[entity_bounds[d]:entity_bounds[d + 1]], markable_ids[a:b],
            lines[a:b], *(_within(*extra[key], a, b) for key in _KEYS[2:]),
        ))
    return out


def _codes(buf: np.ndarray, lo: np.ndarray, hi: np.ndarray, doc: np.ndarray) -> Optional[Tuple[np.ndarray, np.ndarray]]:
    """Number the distinct pairs (``doc[i]``, text ``buf[lo[i]:hi[i]]``) in
    order of first appearance: the number of every pair and the first
    index of each number; ``None`` for texts over :data:`_WIDEST` bytes."""
    if len(lo) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    width = hi - lo
    widest = int(width.max())
    if widest > _WIDEST:
        return None
    words = (4 + widest + 7) // 8
    table = np.zeros((len(lo), 8 * words), dtype=np.uint8)
    table[:, :4] = ((doc[:, None] >> np.array([21, 14, 7, 0])) & 127) | 128
    rows, at = np.repeat(np.arange(len(lo)), width), range_values(lo, hi)
    table[rows, 4 + at - np.repeat(lo, width)] = buf[at]
    keys = table.view(np.uint64)
    order = np.lexsort(keys.T[::-1]) if words > 1 else np.argsort(keys[:, 0], kind="stable")
    ordered = keys[order]
    new = np.r_[True, np.any(ordered[1:] != ordered[:-1], axis=1)]
    group = np.empty(len(order), dtype=np.int64)
    group[order] = np.cumsum(new) - 1
    first = order[new]
    by_first = np.argsort(first, kind="stable")
    rank = np.empty(len(first), dtype=np.int64)
    rank[by_first] = np.arange(len(first))
    return rank[group], first[by_first]


def _within(pieces: np.ndarray, values: List[str], a: int, b: int) -> Dict[int, str]:
    """``values`` of the ``pieces`` (ascending) in ``[a, b)``, by piece from ``a``."""
    lo, hi = np.searchsorted(pieces, (a, b)).tolist()
    return dict(zip((pieces[lo:hi] - a).tolist(), values[lo:hi]))


def _values(buf: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> List[str]:
    """The text of every ``buf[lo[i]:hi[i]]`` (no tab among them), decoded
    in one piece."""
    if len(lo) == 0:
        return []
    taken = buf[np.minimum(range_values(lo, hi + 1), len(buf) - 1)]
    taken[np.cumsum(hi - lo + 1) - 1] = _TAB
    return taken.tobytes().decode("utf8").split("\t")[:-1]
