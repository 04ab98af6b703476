"""The span groups of one DocBin document (``doc.spans``) decoded as one
table of spans, and the clusters the registered readers
(:class:`~.spans.PrefixedSpanGroups`, :class:`~.spans.LabeledSpanGroup`)
read from it, as :func:`~.spans.doc_clusters` does on a ``Doc``."""

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, Optional, Union

import numpy as np

from ...arrays import NO_INTEGERS, range_values
from ...errors import CorefInputError
from ...model.clusters import Clusters
from .roots import span_roots
from .spans import LabeledSpanGroup, PrefixedSpanGroups
from .table import DECODE_ERRORS, MsgpackDecoder, TokenTable

SPAN = np.dtype(
    [("id", ">u8"), ("kb_id", ">u8"), ("label", ">u8"), ("start", ">i4"), ("end", ">i4"), ("start_char", ">i4"), ("end_char", ">i4")]
)
"""A span as ``Span.to_bytes`` packs it (``>QQQllll``)."""
_ATTR_FIELDS = {"id_": "id", "label_": "label", "kb_id_": "kb_id"}
EMPTY_GROUPS = b"\x90"
"""An empty list in msgpack, as spaCy writes a doc without span groups."""

FastReader = Union[PrefixedSpanGroups, LabeledSpanGroup]


@dataclass
class SpanGroupTable:
    """The span groups of one doc: keys in ``doc.spans`` order, each key's
    rows in ``spans``, whose token bounds are ``starts`` and ``ends``."""

    names: list[str]
    rows: dict[str, tuple[int, int]]
    spans: np.ndarray
    starts: np.ndarray
    ends: np.ndarray

    @classmethod
    def empty(cls) -> "SpanGroupTable":
        """The table of a doc without span groups."""
        return cls([], {}, np.zeros(0, dtype=SPAN), NO_INTEGERS, ends=NO_INTEGERS)

    def size(self, name: str) -> Optional[int]:
        """The number of spans of group ``name`` (``None`` if absent)."""
        bounds = self.rows.get(name)
        return None if bounds is None else bounds[1] - bounds[0]


def decode_groups(unpack: MsgpackDecoder, data: bytes, n_tokens: int) -> SpanGroupTable:
    """Decode ``doc.spans`` as ``SpanGroups.from_bytes`` does: a map
    ``{group bytes: [keys]}`` (every key gets the group), or a list of group
    bytes keyed by their names; a key seen again keeps its first place and
    takes the later group. Groups are decoded without srsly's numpy hook,
    which only their ``attrs``, unused here, could need."""
    if not data or data == EMPTY_GROUPS:
        return SpanGroupTable.empty()
    rows: dict[str, tuple[int, int]] = {}
    chunks: list[bytes] = []
    plain = unpack.plain
    try:
        msg = unpack(data)
        entries: Iterable[tuple[Any, Any]]
        if isinstance(msg, dict):
            entries = msg.items()
        elif isinstance(msg, list):
            entries = [(value, None) for value in msg]
        else:
            raise CorefInputError("damaged span groups (neither a map nor a list)")
        for value, keys in entries:
            group = plain(value)
            spans = group["spans"]
            if keys is None:
                keys = [group["name"]]
            if type(keys) is not list or not keys or type(spans) is not list:
                raise CorefInputError(f"damaged span groups (group keys {keys!r} or spans not a list)")
            for key in keys:
                rows[key] = (len(chunks), len(chunks) + len(spans))
            chunks += spans
        packed = b"".join(chunks)
    except CorefInputError:
        raise
    except DECODE_ERRORS as err:
        raise CorefInputError(f"damaged span groups ({type(err).__name__}: {err})") from None
    if not set(map(type, rows)) <= {str}:
        raise CorefInputError("damaged span groups (a key is not a string)")
    if not set(map(len, chunks)) <= {SPAN.itemsize}:
        raise CorefInputError(f"damaged span groups (spans are not {SPAN.itemsize}-byte records)")
    table = np.frombuffer(packed, dtype=SPAN)
    starts, ends = table["start"].astype(np.int64), table["end"].astype(np.int64)
    bad = (starts < 0) | (starts > ends) | (ends > n_tokens)
    if bad.any():
        row = int(np.argmax(bad))
        key = next((repr(key) for key, (a, b) in rows.items() if a <= row < b), "replaced by a later one under its key")
        raise CorefInputError(
            f"span group {key}: span ({starts[row]}, {ends[row]}) is "
            f"{'reversed' if starts[row] > ends[row] else 'outside the document'} ({n_tokens} tokens)"
        )
    return SpanGroupTable(list(rows), rows, table, starts, ends=ends)


Mentions = tuple[np.ndarray, np.ndarray, np.ndarray, Optional[np.ndarray]]
"""Starts, ends, entity labels and, where the clusters have heads, the head
tokens of a doc's mentions."""


def doc_mentions(table: TokenTable, index: int, groups: SpanGroupTable, *, reader: FastReader, heads: Optional[bool]) -> Mentions:
    """The mentions :func:`~.spans.doc_clusters` reads from doc ``index``
    with ``reader``, on its decoded groups."""
    n_tokens = int(table.lengths[index])
    explicit_rows = None
    if isinstance(reader, PrefixedSpanGroups):
        numbered = reader.numbered(groups.names)
        rows, labels = _group_rows(groups, [name for _, name in numbered])
        if heads is not False:
            head_names = reader.head_groups(numbered, groups.size)
            if head_names is not None:
                explicit_rows = _group_rows(groups, head_names)[0]
    else:
        rows, labels = _labeled_rows(groups, reader)
    if heads is None:
        heads = explicit_rows is not None or table.has_dep(index)
    if len(rows) == 0:
        return NO_INTEGERS, NO_INTEGERS, NO_INTEGERS, NO_INTEGERS if heads else None
    starts, ends = groups.starts[rows], groups.ends[rows]
    if np.any(ends == starts):
        at = int(np.argmax(ends == starts))
        raise CorefInputError(f"mention ({starts[at]}, {ends[at]}) is empty")
    head_array = None
    if explicit_rows is not None:
        head_array = span_roots(table.rel_heads[table.doc_slice(index)], groups.starts[explicit_rows], groups.ends[explicit_rows])
    elif heads:
        head_array = span_roots(table.rel_heads[table.doc_slice(index)], starts, ends)
    if head_array is not None and np.any(head_array >= n_tokens):
        raise CorefInputError(f"an empty span at the end of the document ({n_tokens} tokens) has no head token")
    return starts, ends, labels, head_array


def mention_clusters(mentions: Sequence[Mentions]) -> list[Clusters]:
    """The clusters of every doc's mentions: those without heads built at
    once (:meth:`Clusters.per_document`), the others one by one."""
    out: list[Clusters] = []
    plain = [m for m in mentions if m[3] is None]
    built: Iterator[Clusters] = iter(())
    if plain:
        doc = np.repeat(np.arange(len(plain)), [len(m[0]) for m in plain])
        starts, ends, labels = (np.concatenate([m[field] for m in plain]) for field in range(3))
        built = iter(Clusters.per_document(doc, starts, ends, labels=labels, n_docs=len(plain)))
    for starts, ends, labels, heads in mentions:
        if heads is None:
            out.append(next(built))
        elif len(starts):
            out.append(Clusters.from_arrays(starts, ends, labels, heads=heads))
        else:
            out.append(Clusters(heads=NO_INTEGERS))
    return out


def _group_rows(groups: SpanGroupTable, names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Rows of the spans of ``names`` in order, and each row's position in
    ``names`` (its entity)."""
    flat = chain.from_iterable(map(groups.rows.__getitem__, names))
    bounds = np.fromiter(flat, dtype=np.int64, count=2 * len(names)).reshape(-1, 2)
    sizes = bounds[:, 1] - bounds[:, 0]
    return range_values(bounds[:, 0], bounds[:, 1]), np.repeat(np.arange(len(names), dtype=np.int64), sizes)


def _labeled_rows(groups: SpanGroupTable, reader: LabeledSpanGroup) -> tuple[np.ndarray, np.ndarray]:
    """``LabeledSpanGroup``: the rows of group ``key``, labelled by the first
    row with the same attribute hash (0, the empty string, is a row's own)."""
    if reader.key not in groups.rows:
        return NO_INTEGERS, NO_INTEGERS
    a, b = groups.rows[reader.key]
    values = groups.spans[_ATTR_FIELDS[reader.attr]][a:b].astype(np.uint64)
    rows = np.arange(a, b, dtype=np.int64)
    labels = np.arange(b - a, dtype=np.int64)
    named = values != 0
    if named.any():
        _, first, inverse = np.unique(values[named], return_index=True, return_inverse=True)
        labels[named] = labels[named][first][inverse.ravel()]
    return rows, labels
