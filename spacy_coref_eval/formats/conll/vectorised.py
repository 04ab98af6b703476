"""The common case of CoNLL-2012 coreference, read with numpy over the
bytes (docs/formats.md §5): exactly what the line reader gives, or
``None`` for anything else, so that the line reader reads it or explains
what is wrong."""

import re
from typing import NamedTuple, Optional, Union

import numpy as np

from ...arrays import expand_ranges, pair_brackets, range_values
from ...model.clusters import Clusters, ClustersBatch
from ..document import RawMentions

BEGIN = re.compile(r"#\s*begin document(?: (.*)|\s*)")
"""A ``#begin document NAME`` line (``fullmatch``)."""
END = re.compile(r"#\s*end document")
"""The start of an ``#end document`` line (``match``)."""
_SHORT_WINDOW = 10
_WINDOW = 48
_MAX_DIGITS = 15
_NL, _TAB, _SPACE, _HASH, _DASH, _UNDERSCORE = 10, 9, 32, 35, 45, 95
_OPEN, _CLOSE, _PIPE, _ZERO, _NINE = 40, 41, 124, 48, 57
_SINGLE_KIND, _OPEN_KIND, _CLOSE_KIND = 0, 1, 2

Document = tuple[str, int, Clusters, int]
Columns = tuple[list[str], list[int], Optional[list[str]]]
"""A document's words, sentence starts and part-of-speech column (or ``None``)."""
_WORD_FIELD, _POS_FIELD, _POS_FIELDS = 3, 4, 12
_WIDE_SPACE = re.compile("[\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
"""The characters beyond ASCII at which :meth:`str.split` splits."""


class SimpleFile(NamedTuple):
    """The documents of a file in the simple form, as columns: their
    names, begin lines (1-based), token counts and clusters."""

    names: list[str]
    lines: np.ndarray
    n_tokens: np.ndarray
    clusters: ClustersBatch

    def documents(self) -> list[Document]:
        """``(name, begin line, clusters, n_tokens)`` of every document."""
        return list(zip(self.names, self.lines.tolist(), self.clusters.split(), self.n_tokens.tolist()))


def parse_simple(data: bytes, raw: Optional[list[RawMentions]] = None) -> Optional[list[Document]]:
    """``(name, begin line, clusters, n_tokens)`` of every document, or
    ``None`` when the input is not in the simple form; every document's
    mentions with their ids are appended to ``raw`` when given
    (cross-document scoring)."""
    simple = parse_columns(data, raw)
    return None if simple is None else simple.documents()


def parse_columns(data: Union[bytes, bytearray], raw: Optional[list[RawMentions]] = None) -> Optional[SimpleFile]:
    """:func:`parse_simple`'s documents as columns (:class:`SimpleFile`)."""
    if b"\r" in data:
        return None
    buf = np.frombuffer(data, dtype=np.uint8)
    newlines = np.flatnonzero(buf == _NL)
    line_starts = np.r_[0, newlines + 1]
    line_ends = np.r_[newlines, len(buf)]
    nonempty = line_ends > line_starts
    first = np.zeros(len(line_starts), dtype=np.uint8)
    last = np.zeros(len(line_starts), dtype=np.uint8)
    first[nonempty] = buf[line_starts[nonempty]]
    last[nonempty] = buf[line_ends[nonempty] - 1]
    structure = _structure(data, np.flatnonzero(first == _HASH), line_starts=line_starts, line_ends=line_ends)
    if structure is None:
        return None
    names, begins, ends = structure
    token = nonempty & (first != _HASH)
    if len(begins) == 0:
        if token.any():
            return None
        empty = np.zeros(0, dtype=np.int64)
        return _documents([], empty, empty, mentions=(empty,) * 6)
    line_doc = np.searchsorted(begins, np.arange(len(line_starts)), side="right") - 1
    inside = (line_doc >= 0) & (np.arange(len(line_starts)) < ends[np.maximum(line_doc, 0)])
    if np.any(token & ~inside) or np.any((last == _TAB) | (last == _SPACE)):
        return None
    token_number = np.cumsum(token) - 1
    doc_first_token = token_number[begins] + 1
    n_tokens = token_number[ends] + 1 - doc_first_token
    marked = np.flatnonzero(token & (last != _DASH))
    plain = np.flatnonzero(token & (last == _DASH))
    plain_ends = line_ends[plain]
    if np.any(plain_ends - line_starts[plain] < 2):
        return None
    before = buf[plain_ends - 2]
    if np.any((before != _TAB) & (before != _SPACE)):
        return None
    events = _events(buf, marked, line_starts=line_starts, line_ends=line_ends)
    if events is None:
        return None
    line, kind, position, ident, spaced = events
    spaced = np.r_[plain[before == _SPACE], spaced]
    if len(spaced) and _has_tab(buf, line_starts, spaced):
        return None
    doc = line_doc[line]
    tokens = token_number[line] - doc_first_token[doc]
    mentions = _mentions(doc, tokens, kind, position=position, ident=ident, line=line)
    if mentions is None:
        return None
    return _documents(names, begins, n_tokens, mentions=mentions, raw=raw)


def _structure(
    data: Union[bytes, bytearray], hash_lines: np.ndarray, *, line_starts: np.ndarray, line_ends: np.ndarray
) -> Optional[tuple[list[str], np.ndarray, np.ndarray]]:
    """Names, begin lines and end lines of the documents, if they nest
    properly with unique names and no other ``#`` lines."""
    plain = _plain_structure(data, hash_lines, line_starts=line_starts, line_ends=line_ends)
    if plain is not None:
        return plain
    indices = hash_lines.tolist()
    spans = zip(line_starts[hash_lines].tolist(), line_ends[hash_lines].tolist())
    try:
        lines = b"\n".join([data[start:end] for start, end in spans]).decode("utf8").split("\n")
    except UnicodeDecodeError:
        return None
    names: list[str] = []
    begins: list[int] = []
    ends: list[int] = []
    for index, line in zip(indices, lines):
        begin = BEGIN.fullmatch(line)
        if begin and not (begin.group(1) or "").strip():
            return None
        if begin and len(begins) == len(ends):
            names.append(begin.group(1).rstrip())
            begins.append(index)
        elif END.match(line) and len(begins) == len(ends) + 1:
            ends.append(index)
        else:
            return None
    if len(begins) != len(ends) or len(set(names)) != len(names):
        return None
    return names, np.array(begins, dtype=np.int64), np.array(ends, dtype=np.int64)


_BEGIN_BYTES = np.frombuffer(b"#begin document ", dtype=np.uint8)
_END_BYTES = np.frombuffer(b"#end document", dtype=np.uint8)


def _plain_structure(
    data: Union[bytes, bytearray], hash_lines: np.ndarray, *, line_starts: np.ndarray, line_ends: np.ndarray
) -> Optional[tuple[list[str], np.ndarray, np.ndarray]]:
    """:func:`_structure` at once for the usual spelling, ``#begin document
    NAME`` and ``#end document`` lines in turn, or ``None`` (for the
    general loop to decide)."""
    if len(hash_lines) % 2:
        return None
    begins, ends = hash_lines[0::2], hash_lines[1::2]
    buf = np.frombuffer(data, dtype=np.uint8)
    for lines, prefix, shortest in ((begins, _BEGIN_BYTES, len(_BEGIN_BYTES) + 1), (ends, _END_BYTES, len(_END_BYTES))):
        if np.any(line_ends[lines] - line_starts[lines] < shortest):
            return None
        at = line_starts[lines, None] + np.arange(len(prefix))
        if not np.array_equal(buf[at], np.broadcast_to(prefix, at.shape)):
            return None
    try:
        text = buf[range_values(line_starts[begins] + len(_BEGIN_BYTES), line_ends[begins] + 1)].tobytes().decode("utf8")
    except UnicodeDecodeError:
        return None
    names = [name.rstrip() for name in text.split("\n")[:-1]]
    if len(names) != len(begins) or not all(names) or len(set(names)) != len(names):
        return None
    return names, begins.astype(np.int64), ends.astype(np.int64)


def _last_field_starts(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> Optional[np.ndarray]:
    """Where the last field of each line begins: after the last tab or
    space, looked for in a short window first and in a wider one for the
    few lines that need it (``None`` past :data:`_WINDOW` bytes)."""
    out = np.empty(len(ends), dtype=np.int64)
    todo = np.arange(len(ends))
    for window in (_SHORT_WINDOW, _WINDOW):
        back = ends[todo, None] - 1 - np.arange(window)[None, :]
        back_bytes = np.where(back >= starts[todo, None], buf[np.maximum(back, 0)], _TAB)
        is_sep = (back_bytes == _TAB) | (back_bytes == _SPACE)
        found = is_sep.any(axis=1)
        out[todo[found]] = ends[todo[found]] - np.argmax(is_sep[found], axis=1)
        todo = todo[~found]
        if len(todo) == 0:
            return out
    return None


def _has_tab(buf: np.ndarray, line_starts: np.ndarray, lines: np.ndarray) -> bool:
    """Whether any of ``lines`` holds a tab."""
    tabs = np.flatnonzero(buf == _TAB)
    if len(tabs) == 0:
        return False
    return bool(np.isin(lines, np.searchsorted(line_starts, tabs, side="right") - 1).any())


def _events(buf: np.ndarray, marked: np.ndarray, *, line_starts: np.ndarray, line_ends: np.ndarray) -> Optional[tuple[np.ndarray, ...]]:
    """``(line, kind, position, id)`` of every mark on the marked lines, and
    the marked lines whose last field follows a space."""
    ends = line_ends[marked]
    field_starts = _last_field_starts(buf, line_starts[marked], ends)
    if field_starts is None:
        return None
    spaced = marked[(field_starts > line_starts[marked]) & (buf[np.maximum(field_starts - 1, 0)] == _SPACE)]
    single_char = ends - field_starts == 1
    underscore = single_char & (buf[field_starts] == _UNDERSCORE)
    keep = ~underscore
    marked, field_starts, ends = marked[keep], field_starts[keep], ends[keep]
    owner, positions = expand_ranges(field_starts, ends)
    chars = buf[positions]
    digit = (chars >= _ZERO) & (chars <= _NINE)
    if np.any(~digit & (chars != _OPEN) & (chars != _CLOSE) & (chars != _PIPE)):
        return None
    if np.any(np.bincount(owner[digit], minlength=len(marked)) == 0):
        return None
    same_prev = np.r_[False, owner[1:] == owner[:-1]]
    same_next = np.r_[owner[1:] == owner[:-1], False]
    prev_digit = same_prev & np.r_[False, digit[:-1]]
    next_digit = same_next & np.r_[digit[1:], False]
    run_start = np.flatnonzero(digit & ~prev_digit)
    run_end = np.flatnonzero(digit & ~next_digit)
    opened = same_prev[run_start] & (np.r_[0, chars[:-1]][run_start] == _OPEN)
    closed = same_next[run_end] & (np.r_[chars[1:], 0][run_end] == _CLOSE)
    if (
        not np.all(opened | closed)
        or int(opened.sum()) != int(np.count_nonzero(chars == _OPEN))
        or int(closed.sum()) != int(np.count_nonzero(chars == _CLOSE))
    ):
        return None
    length = run_end - run_start + 1
    if np.any(length > _MAX_DIGITS) or np.any((length > 1) & (chars[run_start] == _ZERO)):
        return None
    run_of = np.cumsum(digit & ~prev_digit) - 1
    exponent = np.repeat(run_end, length) - np.flatnonzero(digit)
    values = (chars[digit] - _ZERO).astype(np.float64) * 10.0**exponent
    ident = np.bincount(run_of[digit], weights=values, minlength=len(run_start)).astype(np.int64)
    kind = np.where(opened & closed, _SINGLE_KIND, np.where(opened, _OPEN_KIND, _CLOSE_KIND))
    return marked[owner[run_start]], kind, run_start, ident, spaced


def _mentions(
    doc: np.ndarray, tokens: np.ndarray, kind: np.ndarray, *, position: np.ndarray, ident: np.ndarray, line: np.ndarray
) -> Optional[tuple[np.ndarray, ...]]:
    """Mentions ``(doc, start, end, entity order, creation order, id)`` from
    the mark events, or ``None`` when brackets do not balance."""
    if len(doc) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, empty, empty, empty
    order = np.lexsort((position, kind, line))
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    by_group = np.lexsort((rank, ident, doc))
    new_group = np.r_[True, (doc[by_group][1:] != doc[by_group][:-1]) | (ident[by_group][1:] != ident[by_group][:-1])]
    group = np.empty(len(order), dtype=np.int64)
    group[by_group] = np.cumsum(new_group) - 1
    first_event = np.full(int(group.max()) + 1, len(order), dtype=np.int64)
    np.minimum.at(first_event, group, rank)

    single = kind == _SINGLE_KIND
    paired = np.flatnonzero(~single)
    if len(paired) == 0:
        opens = closes = paired
    else:
        opens, closes, balanced = pair_brackets(group[paired], rank[paired], kind[paired] == _OPEN_KIND)
        if not balanced.all():
            return None
        opens, closes = paired[opens], paired[closes]

    singles = np.flatnonzero(single)
    mention_doc = np.r_[doc[singles], doc[closes]]
    starts = np.r_[tokens[singles], tokens[opens]]
    ends = np.r_[tokens[singles], tokens[closes]] + 1
    entity = np.r_[first_event[group[singles]], first_event[group[closes]]]
    created = np.r_[rank[singles], rank[closes]]
    return mention_doc, starts, ends, entity, created, np.r_[ident[singles], ident[closes]]


def _documents(
    names: list[str], begins: np.ndarray, n_tokens: np.ndarray, *, mentions: tuple[np.ndarray, ...], raw: Optional[list[RawMentions]] = None
) -> SimpleFile:
    """``mentions`` as :func:`_mentions` gives them."""
    doc, starts, ends, entity, created, ident = mentions
    order = np.lexsort((created, doc))
    clusters = ClustersBatch.build(doc[order], starts[order], ends[order], labels=entity[order], n_docs=len(names))
    if raw is not None:
        bounds = np.searchsorted(doc[order], np.arange(len(names) + 1)).tolist()
        columns = [array[order] for array in (starts, ends, entity, ident)]
        raw.extend(RawMentions(*(c[lo:hi] for c in columns)) for lo, hi in zip(bounds[:-1], bounds[1:]))
    return SimpleFile(names, begins + 1, n_tokens, clusters)


def tabbed_columns(data: Union[bytes, bytearray], documents: list[Document]) -> Optional[list[Columns]]:
    """The words, sentence starts and part-of-speech column of each of
    :func:`parse_simple`'s ``documents`` of ``data``, as the line reader
    gives them, when every token line holds five fields or more separated
    by single tabs, the same number on every line, and no other white space
    (as systems and :func:`~.conll.write_conll` write them): the tabs of
    line ``i`` are then the ``i``-th row of the file's tabs, and the words
    lie between its 3rd and 4th. ``None`` for any other file."""
    buf = np.frombuffer(data, dtype=np.uint8)
    blanks = np.flatnonzero(buf <= _SPACE)
    blank = buf[blanks]
    if np.any((blank != _NL) & (blank != _TAB) & (blank != _SPACE)):
        return None
    newlines, tabs, spaces = blanks[blank == _NL], blanks[blank == _TAB], blanks[blank == _SPACE]
    line_starts = np.r_[0, newlines + 1]
    line_ends = np.r_[newlines, len(buf)]
    first = np.full(len(line_starts), _NL, dtype=np.uint8)
    nonempty = line_ends > line_starts
    first[nonempty] = buf[line_starts[nonempty]]
    token = (first != _NL) & (first != _HASH)
    lines = np.flatnonzero(token)
    if len(lines) == 0 or len(tabs) % len(lines) or len(tabs) // len(lines) <= _WORD_FIELD or not narrow_utf8(buf):
        return None
    row = tabs.reshape(len(lines), -1)
    if (
        np.any(row[:, 0] <= line_starts[lines])
        or np.any(row[:, -1] >= line_ends[lines] - 1)
        or np.any(np.diff(row, axis=1) == 1)
        or token[np.searchsorted(line_starts, spaces, side="right") - 1].any()
    ):
        return None
    words = _text_of(buf, row[:, _WORD_FIELD - 1] + 1, row[:, _WORD_FIELD])
    pos = None
    if row.shape[1] >= _POS_FIELDS - 1:
        pos = _text_of(buf, row[:, _POS_FIELD - 1] + 1, row[:, _POS_FIELD])
    sentence = ~np.r_[False, token[:-1]][lines]
    out: list[Columns] = []
    start = 0
    for _, _, _, n_tokens in documents:
        end = start + n_tokens
        starts = np.flatnonzero(sentence[start:end]).tolist()
        out.append((words[start:end], starts, pos[start:end] if pos is not None and n_tokens else None))
        start = end
    return out


def _text_of(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> list[str]:
    """The UTF-8 text of every field ``buf[starts[i]:ends[i]]``, each
    followed by a tab, taken out with its tab and decoded in one piece."""
    return buf[range_values(starts, ends + 1)].tobytes().decode("utf8").split("\t")[:-1]


def narrow_utf8(buf: np.ndarray) -> bool:
    """Whether ``buf`` is UTF-8 text whose only white space is ASCII. Only
    its runs of bytes beyond ASCII are decoded: a character beyond ASCII
    never holds an ASCII byte."""
    high = np.flatnonzero(buf >= 0x80)
    if len(high) == 0:
        return True
    runs = np.insert(buf[high], np.flatnonzero(np.diff(high) > 1) + 1, _NL)
    try:
        text = runs.tobytes().decode("utf8")
    except UnicodeDecodeError:
        return False
    return _WIDE_SPACE.search(text) is None
