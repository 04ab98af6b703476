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
from ...arrays import expand_ranges, pair_brackets, range_values
from ..conll.vectorised import _narrow_utf8
from .layer import Layer
from .parse import (
    BRIDGING, DEFAULT_COLUMNS, DISCOURSE_DEIXIS, EMPTY, IDENTITY, Markables, UADocument, UAFile, _bridges, build_layer,
)

_NL, _TAB, _SPACE, _HASH, _UNDERSCORE = 10, 9, 32, 35, 95
_OPEN, _CLOSE, _PIPE, _EQUALS = 40, 41, 124, 61
_SENT_ID = np.frombuffer(b"# sent_id = ", dtype=np.uint8)
_KEYS = ("MarkableID", "EntityID", "Min", "ElementOf")


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
    if b"\r" in data or not data.strip():
        return None
    buf = np.frombuffer(data, dtype=np.uint8)
    blanks = np.flatnonzero(buf <= _SPACE)
    blank = buf[blanks]
    if np.any((blank != _NL) & (blank != _TAB) & (blank != _SPACE)) or not _narrow_utf8(buf):
        return None
    lines = _Lines(data, buf, blanks[blank == _NL])
    first = lines.first
    if np.any((first == _TAB) | (first == _SPACE)):
        return None
    token = (first != _NL) & (first != _HASH)
    tabs, spaces = blanks[blank == _TAB], blanks[blank == _SPACE]
    spaced = np.searchsorted(lines.starts, spaces, side="right") - 1
    token_lines = np.flatnonzero(token)
    if len(token_lines) == 0 or token[spaced].any():
        return None
    n_tabs = len(tabs) // len(token_lines)
    if len(tabs) != n_tabs * len(token_lines):
        return None
    row = tabs.reshape(len(token_lines), n_tabs)
    if n_tabs and (
        np.any(row[:, 0] <= lines.starts[token_lines]) or np.any(row[:, -1] >= lines.ends[token_lines] - 1)
        or np.any(buf[tabs + 1] == _TAB)
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
        return [Markables([], [], [], [], [], [], {}, {}) for _ in range(n_docs)]
    cell_lo, cell_hi = lo[marked], hi[marked]
    owner, position = expand_ranges(cell_lo, cell_hi)
    chars = buf[position]
    n = len(chars)
    cell_first = np.r_[0, np.cumsum(cell_hi - cell_lo)[:-1]].astype(np.int64)
    is_open, is_close, is_pipe = chars == _OPEN, chars == _CLOSE, chars == _PIPE
    opened = np.cumsum(is_open)
    inside = opened - (opened - is_open)[cell_first][owner] if n else opened
    closing = inside == 0
    if np.any(closing & ~is_close):
        return None
    last = np.zeros(n, dtype=bool)
    last[cell_first[1:] - 1] = True
    if n:
        last[-1] = True
    delimiter = is_open | is_close | is_pipe
    after = np.r_[chars[1:], 0]
    before = np.r_[0, chars[:-1]]
    ordinary_next = ~last & (after != _OPEN) & (after != _CLOSE) & (after != _PIPE)
    if np.any((is_open | is_pipe) & ~ordinary_next):
        return None
    body_close = is_close & ~closing
    if np.any(body_close & ~(last | (after == _OPEN))) or np.any(
        body_close & ((before == _OPEN) | (before == _CLOSE) | (before == _PIPE))
    ):
        return None
    part_start = np.flatnonzero(is_open | is_pipe)
    ends = np.flatnonzero(delimiter & ~closing)
    stop = np.r_[ends * 2, (cell_first[1:] if len(cell_first) else cell_first) * 2 - 1, 2 * n - 1]
    stop.sort()
    part_end = (stop[np.searchsorted(stop, part_start * 2, side="right")] + 1) // 2
    part = np.cumsum(is_open | is_pipe) - 1
    equals = np.flatnonzero((chars == _EQUALS) & ~closing)
    first_equals = equals[np.r_[True, part[equals][1:] != part[equals][:-1]]] if len(equals) else equals
    if len(first_equals) != len(part_start):
        return None
    piece = opened[part_start] - 1
    n_pieces = int(is_open.sum())
    found: Dict[str, Tuple[np.ndarray, np.ndarray]] = {}
    for key in _KEYS:
        size = len(key)
        candidates = np.flatnonzero(first_equals - part_start - 1 == size)
        at = part_start[candidates, None] + 1 + np.arange(size)
        hits = candidates[np.all(chars[at] == np.frombuffer(key.encode(), dtype=np.uint8), axis=1)]
        counts = np.bincount(piece[hits], minlength=n_pieces)
        if np.any(counts > 1) or (key in _KEYS[:2] and np.any(counts == 0)):
            return None
        found[key] = (piece[hits], hits)
    value_start = first_equals + 1
    for key in _KEYS[:2]:
        if np.any(part_end[found[key][1]] == value_start[found[key][1]]):
            return None
    piece_at = np.flatnonzero(is_open)
    piece_stop = np.r_[piece_at * 2, (cell_first[1:] if len(cell_first) else cell_first) * 2 - 1, 2 * n - 1]
    piece_stop.sort()
    piece_end = (piece_stop[np.searchsorted(piece_stop, piece_at * 2, side="right")] + 1) // 2
    single = is_close[piece_end - 1]
    piece_cell = marked[owner[piece_at]]
    close_cell = marked[owner[np.flatnonzero(closing)]]
    events = np.r_[np.flatnonzero(~single), len(single) + np.arange(len(close_cell))]
    event_cell = np.r_[piece_cell[~single], close_cell]
    event_rank = np.r_[piece_at[~single], np.flatnonzero(closing)]
    starts = token_index[piece_cell]
    ends_ = starts + 1
    if len(events):
        opens, closes, balanced = pair_brackets(doc[event_cell], event_rank, events < len(single))
        if not balanced.all():
            return None
        ends_[events[opens]] = token_index[event_cell[closes]] + 1
    texts = {key: _values(buf, position, value_start[hits], part_end[hits]) for key, (_, hits) in found.items()}
    piece_doc = doc[piece_cell]
    doc_list = piece_doc.tolist()
    markable_ids, entity_texts = texts["MarkableID"], texts["EntityID"]
    if len(set(zip(doc_list, markable_ids))) != len(markable_ids):
        return None
    index: Dict[Tuple[int, str], int] = {}
    entity = np.array([index.setdefault(k, len(index)) for k in zip(doc_list, entity_texts)], dtype=np.int64)
    entity_doc = np.array([d for d, _ in index], dtype=np.int64)
    entity_ids = [e for _, e in index]
    bounds = np.searchsorted(piece_doc, np.arange(n_docs + 1)).tolist()
    entity_bounds = np.searchsorted(entity_doc, np.arange(n_docs + 1)).tolist()
    entity = entity - np.array(entity_bounds[:-1], dtype=np.int64)[piece_doc] if len(entity) else entity
    lines = line_number[piece_cell]
    extra = {key: (found[key][0], texts[key]) for key in _KEYS[2:]}
    out = []
    for d in range(n_docs):
        a, b = bounds[d], bounds[d + 1]
        out.append(Markables(
            starts[a:b].tolist(), ends_[a:b].tolist(), entity[a:b].tolist(), entity_ids[entity_bounds[d]:entity_bounds[d + 1]],
            markable_ids[a:b], lines[a:b].tolist(),
            *(_within(*extra[key], a, b) for key in _KEYS[2:]),
            arrays=(starts[a:b], ends_[a:b], entity[a:b]),
        ))
    return out


def _within(pieces: np.ndarray, values: List[str], a: int, b: int) -> Dict[int, str]:
    """``values`` of the ``pieces`` (ascending) in ``[a, b)``, by piece from ``a``."""
    lo, hi = np.searchsorted(pieces, (a, b)).tolist()
    return dict(zip((pieces[lo:hi] - a).tolist(), values[lo:hi]))


def _values(buf: np.ndarray, position: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> List[str]:
    """The text of the cell characters ``[starts[i], ends[i])`` (no tab
    among them), decoded in one piece."""
    if len(starts) == 0:
        return []
    lo = position[starts]
    hi = lo + (ends - starts)
    taken = buf[np.minimum(range_values(lo, hi + 1), len(buf) - 1)]
    taken[np.cumsum(hi - lo + 1) - 1] = _TAB
    return taken.tobytes().decode("utf8").split("\t")[:-1]
