"""The span groups of every document of a DocBin read at once with numpy,
without a msgpack call, when they are laid out as spaCy writes them
(docs/formats.md, Span groups): each document a map of group bytes to one
key (or a list of group bytes), each group ``{"name", "attrs": {}, "spans"}``
with its spans as 40-byte records. Where a group may start is found by its
first bytes; the groups found must then tile the document's bytes exactly,
entry after entry, so that decoding them one by one could not give
anything else. A document laid out otherwise gets ``None``, for
:func:`~.groups.decode_groups` to read or explain."""

from collections.abc import Sequence
from typing import Any, Optional, cast

import numpy as np

from ...arrays import range_values
from .groups import EMPTY_GROUPS, SPAN, SpanGroupTable

_HEAD = b"\x83\xa4name"
"""A map of three entries, then the key ``name``."""
_MIDDLE = np.frombuffer(b"\xa5attrs\x80\xa5spans", dtype=np.uint8)
"""The key ``attrs``, an empty map, then the key ``spans``."""
_SPAN_NAMES = cast(tuple[str, ...], SPAN.names)  # SPAN is a structured dtype: it has names and fields
_RECORD = np.dtype([("tag", "u1"), ("size", "u1"), *((name, cast(Any, SPAN.fields)[name][0]) for name in _SPAN_NAMES)])
"""A span in a group: msgpack bin 8 of ``SPAN.itemsize`` bytes."""
_BIN8, _BIN16 = 0xC4, 0xC5
_FIXSTR, _STR8 = 0xA0, 0xD9
_FIXARRAY, _ARRAY16, _ARRAY32 = 0x90, 0xDC, 0xDD
_FIXMAP, _MAP16, _MAP32 = 0x80, 0xDE, 0xDF
_ONE_KEY = 0x91


def batch_groups(span_groups: Sequence[bytes], lengths: np.ndarray) -> list[Optional[SpanGroupTable]]:
    """Every document's :class:`~.groups.SpanGroupTable`, the same as
    :func:`~.groups.decode_groups` gives, or ``None`` where it must decode
    the document itself."""
    empty = [not data or data == EMPTY_GROUPS for data in span_groups]
    out: list[Optional[SpanGroupTable]] = [SpanGroupTable.empty() if e else None for e in empty]
    docs = [index for index, e in enumerate(empty) if not e]
    if not docs:
        return out
    sizes = np.array([len(span_groups[index]) for index in docs], dtype=np.int64)
    joined = b"".join([span_groups[index] for index in docs])
    buf = np.frombuffer(joined, dtype=np.uint8)
    read = _groups(buf, np.cumsum(sizes) - sizes, np.cumsum(sizes))
    if read is None:
        return out
    doc, keys, values, spans, n_spans, ok, is_map = read
    texts = _texts(joined, keys)
    if texts is None:
        return out
    n_groups = len(doc)
    starts, ends = spans["start"].astype(np.int64), spans["end"].astype(np.int64)
    bounds = np.r_[0, np.cumsum(n_spans)]
    group_bounds = np.searchsorted(doc, np.arange(len(docs) + 1))
    row_bounds = bounds[group_bounds]
    base = np.repeat(row_bounds[:-1], np.diff(group_bounds))
    lo, hi = (bounds[:-1] - base).tolist(), (bounds[1:] - base).tolist()
    n_tokens = np.repeat(lengths[docs], np.diff(row_bounds))
    outside = (starts < 0) | (starts > ends) | (ends > n_tokens)
    bad = np.bincount(np.repeat(np.arange(len(docs)), np.diff(row_bounds))[outside], minlength=len(docs)) > 0
    group_bounds, row_bounds = group_bounds.tolist(), row_bounds.tolist()
    for d, index in enumerate(docs):
        g0, g1, a, b = group_bounds[d], group_bounds[d + 1], row_bounds[d], row_bounds[d + 1]
        if not ok[d]:
            continue
        if bad[d]:
            continue
        if is_map[d] and _repeated(joined, texts[n_groups + g0 : n_groups + g1], values[g0:g1]):
            continue
        rows = dict(zip(texts[g0:g1], zip(lo[g0:g1], hi[g0:g1])))
        out[index] = SpanGroupTable(list(rows), rows, spans[a:b], starts[a:b], ends=ends[a:b])
    return out


def _groups(buf: np.ndarray, doc_starts: np.ndarray, doc_ends: np.ndarray):
    """The groups of every document: each group's document, the byte
    bounds of its key (its name in the list layout), the spans of all
    groups, each group's number of spans, and per document whether its
    groups tile it; ``None`` when no document's do."""
    last = len(buf) - 1

    def at(index: np.ndarray) -> np.ndarray:
        return buf[np.clip(index, 0, last)].astype(np.int64)

    def number(index: np.ndarray, width: int) -> np.ndarray:
        value = np.zeros(len(index), dtype=np.int64)
        for k in range(width):
            value = (value << 8) | at(index + k)
        return value

    head = np.flatnonzero(buf == _HEAD[0])
    head = head[np.all(at(head[:, None] + np.arange(1, len(_HEAD))) == np.frombuffer(_HEAD[1:], dtype=np.uint8), axis=1)]
    if len(head) == 0:
        return None
    doc = np.searchsorted(doc_ends, head, side="right")
    doc_end = doc_ends[np.minimum(doc, len(doc_ends) - 1)]
    name_header = at(head + len(_HEAD))
    fixed = (name_header & 0xE0) == _FIXSTR
    good = fixed | (name_header == _STR8)
    name_start = head + len(_HEAD) + np.where(fixed, 1, 2)
    name_end = name_start + np.where(fixed, name_header & 0x1F, at(head + len(_HEAD) + 1))
    good &= np.all(at(name_end[:, None] + np.arange(len(_MIDDLE))) == _MIDDLE, axis=1)
    array_at = name_end + len(_MIDDLE)
    kind = at(array_at)
    small = (kind & 0xF0) == _FIXARRAY
    n_spans = np.select([small, kind == _ARRAY16, kind == _ARRAY32], [kind & 0x0F, number(array_at + 1, 2), number(array_at + 1, 4)], -1)
    first = array_at + np.select([small, kind == _ARRAY16], [1, 3], 5)
    good &= n_spans >= 0
    group_end = first + np.maximum(n_spans, 0) * _RECORD.itemsize
    size = group_end - head
    bin8 = (at(head - 2) == _BIN8) & (at(head - 1) == size) & (size < 256)
    bin16 = (at(head - 3) == _BIN16) & (number(head - 2, 2) == size) & (size >= 256)
    good &= bin8 | bin16
    entry_start = head - np.where(bin8, 2, 3)
    map_layout = _is_map(at(doc_starts))
    with_key = map_layout[np.minimum(doc, len(doc_starts) - 1)]
    key_header = at(group_end + 1)
    key_fixed = (key_header & 0xE0) == _FIXSTR
    key_start = group_end + 1 + np.where(key_fixed, 1, 2)
    key_end = key_start + np.where(key_fixed, key_header & 0x1F, at(group_end + 2))
    good &= ~with_key | ((at(group_end) == _ONE_KEY) & (key_fixed | (key_header == _STR8)))
    entry_end = np.where(with_key, key_end, group_end)
    good &= (entry_start >= doc_starts[np.minimum(doc, len(doc_starts) - 1)]) & (entry_end <= doc_end) & (doc < len(doc_ends))
    tiles = _tiles(buf, doc_starts, doc_ends, doc=doc, entry_start=entry_start, entry_end=entry_end, good=good, at=at, number=number)
    keep = tiles[np.minimum(doc, len(doc_starts) - 1)] & good
    if not keep.any():
        return None
    doc, head, first, group_end, n_spans = doc[keep], head[keep], first[keep], group_end[keep], n_spans[keep]
    names = np.stack([name_start[keep], name_end[keep]], axis=1)
    keys = np.where(with_key[keep, None], np.stack([key_start[keep], key_end[keep]], axis=1), names)
    spans = _spans(buf, first, n_spans)
    if spans is None:
        return None
    return doc, np.concatenate([keys, names]), np.stack([head, group_end], axis=1), spans, n_spans, tiles, map_layout


def _is_map(header: np.ndarray) -> np.ndarray:
    """Whether each document's first byte starts a map (a key after each
    group) rather than a list."""
    return ((header & 0xF0) == _FIXMAP) | (header == _MAP16) | (header == _MAP32)


def _tiles(buf, doc_starts, doc_ends, *, doc, entry_start, entry_end, good, at, number) -> np.ndarray:
    """Per document whether its entries, as many as its header counts,
    follow one another from the header to the last byte."""
    header = at(doc_starts)
    small = ((header & 0xF0) == _FIXMAP) | ((header & 0xF0) == _FIXARRAY)
    mid = (header == _MAP16) | (header == _ARRAY16)
    wide = (header == _MAP32) | (header == _ARRAY32)
    count = np.select([small, mid, wide], [header & 0x0F, number(doc_starts + 1, 2), number(doc_starts + 1, 4)], -1)
    body = doc_starts + np.select([small, mid], [1, 3], 5)
    n_docs = len(doc_starts)
    inside = doc < n_docs
    doc, entry_start, entry_end, good = doc[inside], entry_start[inside], entry_end[inside], good[inside]
    found = np.bincount(doc, minlength=n_docs)
    tiles = (count >= 0) & (found == count) & (np.bincount(doc, weights=~good, minlength=n_docs) == 0)
    first = np.searchsorted(doc, np.arange(n_docs))
    has = found > 0
    tiles &= ~has | (entry_start[np.minimum(first, len(doc) - 1)] == body)
    later = np.r_[False, doc[1:] == doc[:-1]]
    chained = np.ones(len(doc), dtype=bool)
    chained[later] = entry_start[later] == entry_end[np.flatnonzero(later) - 1]
    tiles &= np.bincount(doc, weights=~chained, minlength=n_docs) == 0
    last = np.searchsorted(doc, np.arange(n_docs), side="right") - 1
    tiles &= np.where(has, entry_end[np.maximum(last, 0)] == doc_ends, body == doc_ends)
    return tiles


def _spans(buf: np.ndarray, first: np.ndarray, n_spans: np.ndarray) -> Optional[np.ndarray]:
    """The ``SPAN`` records of every group, or ``None`` if one is not a
    bin 8 of 40 bytes."""
    at = np.repeat(first - _RECORD.itemsize * (np.cumsum(n_spans) - n_spans), n_spans)
    at += _RECORD.itemsize * np.arange(len(at))
    if len(at) == 0:
        return np.zeros(0, dtype=SPAN)
    windows = np.lib.stride_tricks.sliding_window_view(buf, _RECORD.itemsize)
    records = np.ascontiguousarray(windows[at]).view(_RECORD).ravel()
    if np.any(records["tag"] != _BIN8) or np.any(records["size"] != SPAN.itemsize):
        return None
    spans = np.empty(len(records), dtype=SPAN)
    for name in _SPAN_NAMES:
        spans[name] = records[name]
    return spans


def _repeated(joined: bytes, names: list[str], bounds: np.ndarray) -> bool:
    """Whether two groups of one map are the same bytes (a map given a key
    twice keeps one entry, in the place of the first): compared where two
    have one name."""
    if len(set(names)) == len(names):
        return False
    values = [joined[a:b] for a, b in bounds.tolist()]
    return len(set(values)) != len(values)


def _texts(joined: bytes, bounds: np.ndarray) -> Optional[list[str]]:
    """The text of every ``joined[a:b]``, or ``None`` if one is not UTF-8:
    decoded in one piece, a line break after each (a piece cut inside a
    character stays invalid); pieces holding a line break one by one."""
    if len(bounds) == 0:
        return []
    buf = np.frombuffer(joined, dtype=np.uint8)
    lo, hi = bounds[:, 0], bounds[:, 1] + 1
    taken = buf[np.minimum(range_values(lo, hi), len(buf) - 1)]
    breaks = np.cumsum(hi - lo) - 1
    try:
        if np.count_nonzero(taken == 10) != np.count_nonzero(taken[breaks] == 10):
            return [joined[a:b].decode("utf8") for a, b in bounds.tolist()]
        taken[breaks] = 10
        return taken.tobytes().decode("utf8").split("\n")[:-1]
    except UnicodeDecodeError:
        return None
