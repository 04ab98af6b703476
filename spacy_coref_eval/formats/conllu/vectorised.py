"""The ``Entity=`` brackets of every document of a file paired at once with
array operations, for documents in the common form; the others are left to
the state machine (:mod:`.entities`), which reads them or explains what is
wrong (docs/formats.md, CorefUD CoNLL-U: Reading fast). Also the byte
routines the line parser shares."""
from bisect import bisect_left
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from ...arrays import pair_brackets
from .entities import EntityHeader

_NL, _OPEN, _CLOSE, _DASH = 10, 40, 41, 45
_ODD = (0, 32, 61, 91, 93)
"""NUL, space, ``=``, ``[`` and ``]``: a document whose ``Entity=`` values hold
one is read by the state machine (errors, discontinuous mentions)."""
_BOUNDARY = (_NL, _OPEN, _CLOSE, _DASH, *_ODD)
_MASKS = np.array([(1 << (8 * n)) - 1 for n in range(9)], dtype=np.uint64)
"""The low ``n`` bytes of a word."""
_ZEROS, _NINES = np.uint64(0x3030303030303030), np.uint64(0x4646464646464646)
_TOP_BITS, _LOW_NIBBLES = np.uint64(0x8080808080808080), np.uint64(0x0F0F0F0F0F0F0F0F)

Columns = Dict[str, object]


def byte_words(data: Union[bytes, bytearray]) -> np.ndarray:
    """The eight bytes before every offset of ``data`` (zero bytes outside
    it) as little-endian integers: ``words[i]`` holds ``data[i - 8:i]``,
    ``words[i + 8]`` the eight bytes from ``i``. One gather reads them."""
    padded = b"".join((bytes(8), data, bytes(8)))
    return np.ndarray((len(data) + 9,), dtype="<u8", buffer=padded, strides=(1,))


def starts_with(words: np.ndarray, positions: np.ndarray, prefix: bytes) -> np.ndarray:
    """Whether the bytes at each of ``positions`` start with ``prefix``
    (``words`` from :func:`byte_words`)."""
    found = begins(words[positions + 8], prefix[:8])
    if len(prefix) > 8:
        found[found] = starts_with(words, positions[found] + 8, prefix[8:])
    return found


def begins(first_words: np.ndarray, prefix: bytes) -> np.ndarray:
    """Whether each of ``first_words`` (eight bytes read as one) starts with
    ``prefix`` (at most eight bytes)."""
    return (first_words & _MASKS[len(prefix)]) == np.uint64(int.from_bytes(prefix, "little"))


def numbers(words: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """The number written in each byte range ``[starts, ends)`` and whether
    it is one: 1 to 8 ASCII digits (``words`` from :func:`byte_words`).
    The eight bytes before each end are read as one word, the bytes before
    the range made ``0``, and the digits checked and summed in the word
    (SWAR: a byte below ``0`` borrows, one above ``9`` carries into its top
    bit)."""
    lengths = np.clip(ends - starts, 0, 8)
    kept = ~_MASKS[8 - lengths]
    word = (words[ends] & kept) | (_ZEROS & ~kept)
    plain = (((word - _ZEROS) | (word + _NINES)) & _TOP_BITS) == 0
    plain &= (ends - starts >= 1) & (ends - starts <= 8)
    value = (word & _LOW_NIBBLES) * np.uint64(2561) >> np.uint64(8)
    value = (value & np.uint64(0x00FF00FF00FF00FF)) * np.uint64(6553601) >> np.uint64(16)
    value = (value & np.uint64(0x0000FFFF0000FFFF)) * np.uint64(42949672960001) >> np.uint64(32)
    return value.astype(np.int64), plain


def any_of(data: np.ndarray, values: Sequence[int]) -> np.ndarray:
    """Whether each byte of ``data`` is one of ``values``: one comparison
    each, faster than a table lookup, which widens every byte to an index."""
    found = data == values[0]
    for value in values[1:]:
        found |= data == value
    return found


def gather_lines(buffer: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> bytes:
    """The byte ranges ``[starts, ends)`` of ``buffer``, each followed by a
    newline, as one bytes object (each range must be followed in
    ``buffer`` by one byte)."""
    if not len(starts):
        return b""
    sizes = ends + 1 - starts
    line_starts = np.cumsum(sizes) - sizes
    step = np.ones(int(line_starts[-1] + sizes[-1]), dtype=np.int64)
    step[line_starts[1:]] = starts[1:] - ends[:-1]
    step[0] = starts[0]
    out = buffer[np.cumsum(step, out=step)]
    out[line_starts + sizes - 1] = _NL
    return out.tobytes()


def strings(buffer: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> List[str]:
    """The UTF-8 strings ``buffer[starts[i]:ends[i]]`` (as :func:`gather_lines`)."""
    return gather_lines(buffer, starts, ends).decode("utf8").split("\n")[:-1]


class FileRows(NamedTuple):
    """What the line parser found of a file's rows (token lines): the line
    number of each, whether it is a word, whether it is a well-formed
    multiword range (``3-4``; some long ones are not marked), whether its
    ID looks like an empty node's (``8.1``), its sentence and document; the
    words before each row (one more entry: all), and the first row of
    every document."""

    row_line: np.ndarray
    row_plain: np.ndarray
    row_multiword: np.ndarray
    row_empty: np.ndarray
    row_sentence: np.ndarray
    row_document: np.ndarray
    words_before: np.ndarray
    document_rows: np.ndarray


class _Chunks(NamedTuple):
    """The chunks of ``Entity=`` values: each one's value, where its body
    starts and ends, whether it opens, whether it is a one-node mention,
    and the indices (in ``dashes``, where every dash of the text is) of its
    first dash and of the dash after its last."""

    value: np.ndarray
    start: np.ndarray
    end: np.ndarray
    opening: np.ndarray
    single: np.ndarray
    first_dash: np.ndarray
    stop_dash: np.ndarray
    dashes: np.ndarray


def pair_documents(text: np.ndarray, value_rows: np.ndarray, headers: Sequence[Tuple[int, EntityHeader]],
                   rows: FileRows) -> List[Optional[Columns]]:
    """The mention columns (as :meth:`.entities.MentionReader.columns`
    gives them) of every document whose ``Entity=`` values ``text`` (the
    values of the file, each followed by a newline, in file order, on
    ``value_rows``) are in the common form: well-formed chunks with plain
    numbers for heads, none of :data:`_ODD`, every value under a header and
    on a word or an empty node, every mention closed in its sentence, every
    row a word, a multiword range or an empty node. ``None`` for any other
    document."""
    n_documents = len(rows.document_rows)
    raw = text.tobytes()
    try:
        raw.decode("utf8")
    except UnicodeDecodeError:
        return [None] * n_documents
    odd = np.zeros(n_documents, dtype=bool)
    value_document = rows.row_document[value_rows]
    header_of = np.searchsorted([position for position, _ in headers], value_rows, "right") - 1
    node_row = rows.row_plain | rows.row_empty
    odd[rows.row_document[~(node_row | rows.row_multiword)]] = True
    odd[value_document[(header_of < 0) | ~node_row[value_rows]]] = True
    chunks = _chunks(text, value_document, odd)
    opening, document = chunks.opening, value_document[chunks.value]
    words = byte_words(raw)
    fields = _Fields(headers, np.maximum(header_of[chunks.value], 0), chunks, words)
    odd[document[~opening & (chunks.stop_dash > chunks.first_dash)]] = True
    eid_start, eid_end, has_eid = fields.field("eid")
    eid_start, eid_end = np.where(opening, eid_start, chunks.start), np.where(opening, eid_end, chunks.end)
    odd[document[(opening & ~has_eid) | (eid_end <= eid_start)]] = True
    eid = _codes(words, text, eid_start, eid_end)
    group = document * (int(eid.max(initial=0)) + 1) + eid
    paired = np.flatnonzero(~chunks.single)
    opens, closes, balanced = pair_brackets(group[paired], paired, opening[paired])
    odd[document[paired[~balanced]]] = True
    opens, closes = paired[opens], paired[closes]
    mention = np.sort(np.r_[np.flatnonzero(chunks.single), opens])
    close_of = np.arange(len(opening))
    close_of[opens] = closes
    mention_row = value_rows[chunks.value[mention]]
    close_row = value_rows[chunks.value[close_of[mention]]]
    mention_document = document[mention]
    odd[mention_document[rows.row_sentence[mention_row] != rows.row_sentence[close_row]]] = True
    empty_before = np.zeros(len(rows.row_plain) + 1, dtype=np.int64)
    np.cumsum(rows.row_empty, out=empty_before[1:])
    n_empty = empty_before[close_row + 1] - empty_before[mention_row]
    heads = fields.heads(mention)
    base = rows.words_before[rows.document_rows]
    word_start = rows.words_before[mention_row] - base[mention_document]
    word_end = rows.words_before[close_row + 1] - base[mention_document]
    odd[mention_document[(heads < 1) | (heads > word_end - word_start + n_empty)]] = True
    kept = ~odd[mention_document]
    mentions = _Mentions(
        mention[kept], mention_document[kept], word_start[kept], word_end[kept], word_start[kept] + heads[kept] - 1,
        np.zeros(int(kept.sum()), dtype=bool), rows.row_line[mention_row[kept]],
    )
    with_empty = _with_empty_nodes(mentions, np.flatnonzero(n_empty[kept] > 0), mention_row[kept], close_row[kept],
                                   heads[kept], empty_before, node_row, rows)
    return _documents(text, odd, group, eid_start, eid_end, mentions, with_empty, fields.field("etype", mentions.chunk))


def _with_empty_nodes(mentions: "_Mentions", special: np.ndarray, first_row: np.ndarray, last_row: np.ndarray,
                      heads: np.ndarray, empty_before: np.ndarray, node_row: np.ndarray,
                      rows: FileRows) -> Dict[int, Tuple[int, ...]]:
    """The empty nodes (indices in their document) of each mention of
    ``special`` (those that cover some), by mention; sets the head of
    each to its ``heads``-th node: a word, or an empty node (``zero``)."""
    out: Dict[int, Tuple[int, ...]] = {}
    empty_base = empty_before[rows.document_rows]
    word_base = rows.words_before[rows.document_rows]
    for m, first, last, head in zip(special.tolist(), first_row[special].tolist(), last_row[special].tolist(),
                                    heads[special].tolist()):
        document = int(mentions.document[m])
        head_row = first + int(np.flatnonzero(node_row[first:last + 1])[head - 1])
        if rows.row_empty[head_row]:
            mentions.zero[m] = True
            mentions.head[m] = empty_before[head_row] - empty_base[document]
        else:
            mentions.head[m] = rows.words_before[head_row] - word_base[document]
        out[m] = tuple(range(int(empty_before[first] - empty_base[document]),
                             int(empty_before[last + 1] - empty_base[document])))
    return out


def _chunks(text: np.ndarray, value_document: np.ndarray, odd: np.ndarray) -> _Chunks:
    """The chunks of ``text``. The documents where a bracket opens nothing
    or closes nothing, text lies outside brackets or a byte of
    :data:`_ODD` appears are marked ``odd``."""
    positions = np.flatnonzero(any_of(text, _BOUNDARY))
    kinds = text[positions]
    newline, dash = kinds == _NL, kinds == _DASH
    is_mark = newline | (kinds == _OPEN) | (kinds == _CLOSE)
    marks = np.flatnonzero(is_mark)
    unusual = np.flatnonzero(~(is_mark | dash))
    if len(unusual):
        value_of = np.cumsum(newline) - newline
        odd[value_document[value_of[unusual]]] = True
        dashes_before = (np.cumsum(dash) - dash)[marks]
    else:
        dashes_before = marks - np.arange(len(marks))
    bounds = np.r_[-1, positions[marks]]
    bound_kinds = np.r_[_NL, kinds[marks]]
    bound_dashes = np.r_[0, dashes_before]
    lengths = np.diff(bounds) - 1
    before, after = bound_kinds[:-1], bound_kinds[1:]
    mark_newline = newline[marks]
    segment_value = np.cumsum(mark_newline) - mark_newline
    bare = (lengths == 0) & ((before == _OPEN) | (after == _CLOSE))
    loose = (lengths > 0) & (before != _OPEN) & (after != _CLOSE)
    odd[value_document[segment_value[bare | loose]]] = True
    chunk = np.flatnonzero(lengths > 0)
    opening = before[chunk] == _OPEN
    return _Chunks(
        segment_value[chunk], bounds[chunk] + 1, bounds[chunk + 1], opening, opening & (after[chunk] == _CLOSE),
        bound_dashes[chunk], bound_dashes[chunk + 1], positions[dash],
    )


class _Fields:
    """The dash-separated fields of chunk bodies, as their headers name them."""

    def __init__(self, headers: Sequence[Tuple[int, EntityHeader]], header_of: np.ndarray, chunks: _Chunks,
                 words: np.ndarray) -> None:
        self.headers = [header for _, header in headers]
        self.header_of = header_of
        self.chunks = chunks
        self.words = words
        self.dashes = np.r_[chunks.dashes, 0]

    def field(self, name: str, chunks: Optional[np.ndarray] = None) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Where field ``name`` of each of ``chunks`` (default: all) starts
        and ends, and whether the chunk has it."""
        which = slice(None) if chunks is None else chunks
        index = np.array([-1 if getattr(h, name) is None else getattr(h, name) for h in self.headers] or [-1])
        k = index[self.header_of[which]]
        first = self.chunks.first_dash[which]
        count = self.chunks.stop_dash[which] - first
        present = (k >= 0) & (k <= count)
        last = len(self.dashes) - 1
        start = np.where(k <= 0, self.chunks.start[which], self.dashes[np.clip(first + k - 1, 0, last)] + 1)
        end = np.where(k < count, self.dashes[np.clip(first + k, 0, last)], self.chunks.end[which])
        return np.where(present, start, 0), np.where(present, end, 0), present

    def heads(self, chunks: np.ndarray) -> np.ndarray:
        """The head number of each of ``chunks``, 1 without one, -1 where
        it is not a plain number."""
        start, end, present = self.field("head", chunks)
        if not present.any():
            return np.ones(len(chunks), dtype=np.int64)
        value, plain = numbers(self.words, start, end)
        return np.where(present, np.where(plain, value, -1), 1)


def _codes(words: np.ndarray, text: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """A number for every byte string ``text[starts[i]:ends[i]]`` (which
    holds no NUL byte): equal for equal strings, from 0 up."""
    lengths = ends - starts
    if lengths.max(initial=0) <= 8:
        keys = words[starts + 8] & _MASKS[np.clip(lengths, 0, 8)]
    else:
        width = 8 * -(-int(lengths.max()) // 8)
        offsets = np.arange(width)
        inside = offsets < lengths[:, None]
        padded = np.where(inside, text[np.minimum(starts[:, None] + offsets, len(text) - 1)], 0).astype(np.uint8)
        keys = padded.view(f"V{width}").ravel()
    return np.unique(keys, return_inverse=True)[1].ravel().astype(np.int64)


class _Mentions(NamedTuple):
    """The mentions of the documents read, in order: the chunk that opens
    each, its document, first word and one past its last (in its
    document), head (a word, or an empty node where ``zero``) and line."""

    chunk: np.ndarray
    document: np.ndarray
    start: np.ndarray
    end: np.ndarray
    head: np.ndarray
    zero: np.ndarray
    line: np.ndarray


def _documents(text: np.ndarray, odd: np.ndarray, group: np.ndarray, eid_start: np.ndarray, eid_end: np.ndarray,
               mentions: _Mentions, with_empty: Dict[int, Tuple[int, ...]],
               etype: Tuple[np.ndarray, np.ndarray, np.ndarray]) -> List[Optional[Columns]]:
    """The columns of every document not ``odd``, its entities numbered in
    order of first opening; ``with_empty`` the empty nodes of the mentions
    that cover some."""
    groups, first, inverse = np.unique(group[mentions.chunk], return_index=True, return_inverse=True)
    by_opening = np.argsort(first, kind="stable")
    entity_rank = np.empty(len(groups), dtype=np.int64)
    entity_rank[by_opening] = np.arange(len(groups))
    entity_document = mentions.document[first[by_opening]]
    documents = np.arange(len(odd) + 1)
    entity_bounds = np.searchsorted(entity_document, documents)
    entity = entity_rank[inverse.ravel()] - entity_bounds[mentions.document]
    first_chunks = mentions.chunk[first[by_opening]]
    names = strings(text, eid_start[first_chunks], eid_end[first_chunks])
    etype_start, etype_end, has_etype = etype
    present = np.flatnonzero(has_etype)
    etype_values = strings(text, etype_start[present], etype_end[present])
    if len(present) == len(has_etype):
        etypes: List[Optional[str]] = etype_values
    else:
        spread = np.full(len(has_etype), None, dtype=object)
        spread[present] = etype_values
        etypes = spread.tolist()
    mention_bounds = np.searchsorted(mentions.document, documents).tolist()
    contiguous = np.ones(len(mentions.start), dtype=bool)
    special = list(with_empty)
    entity_bounds = entity_bounds.tolist()
    out: List[Optional[Columns]] = []
    for d in range(len(odd)):
        if odd[d]:
            out.append(None)
            continue
        lo, hi = mention_bounds[d], mention_bounds[d + 1]
        out.append(dict(
            entities=tuple(names[entity_bounds[d]:entity_bounds[d + 1]]),
            mention_entity=entity[lo:hi],
            mention_start=mentions.start[lo:hi],
            mention_end=mentions.end[lo:hi],
            mention_head=mentions.head[lo:hi],
            mention_zero=mentions.zero[lo:hi],
            mention_contiguous=contiguous[lo:hi],
            mention_line=mentions.line[lo:hi],
            mention_etype=etypes[lo:hi],
            mention_words={},
            mention_empty={m - lo: with_empty[m] for m in special[bisect_left(special, lo):bisect_left(special, hi)]},
        ))
    return out
