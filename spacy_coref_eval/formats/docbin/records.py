"""Read ``.spacy`` (DocBin) files for scoring without building ``Doc`` objects.

A DocBin (``spacy/tokens/_serialize.py``; unchanged from spaCy 3.0 to 3.8)
is zlib-compressed msgpack: one ``uint64`` token table (one column per
attribute in ``attrs``, strings as 64-bit hashes), the spaces, the document
lengths, the table of every string used, and per document its flags, user
data and span groups (msgpack of ``{group bytes: [keys]}`` since spaCy
3.3.1, a list of group bytes before; each span is 40 big-endian bytes
``>QQQllll``: id, kb_id, label, start, end, start_char, end_char). :func:`read_docbin_records` decodes this
directly and gives, per document, only what scoring needs as a
:class:`DocRecord`, with the same results as ``DocBin.get_docs`` with a fresh
``Vocab`` followed by :func:`~.spans.doc_clusters`:

- the registered layouts (:class:`~.spans.PrefixedSpanGroups`,
  :class:`~.spans.LabeledSpanGroup`) are read from the raw spans; any other
  cluster reader is given real ``Doc`` objects (``DocBin.get_docs``);
- a span's head is spaCy's ``Span.root``: the first token of the span whose
  head is itself, else the first of the tokens whose head lies outside the
  span with the fewest steps to a root, else the span's first token. (A bare
  ``Vocab`` sets no ``IS_SPACE``/``IS_PUNCT`` flags, so spaCy's demotion of
  childless space and punctuation tokens never applies);
- spans grouped by ``id_``/``label_``/``kb_id_`` are grouped by the stored
  hash, which is the string's (0 being the empty string), so files from spaCy
  3.5.0-3.5.1, whose string table lacks span ids, read too.

A damaged file (bad compression or msgpack, missing fields, lengths that do
not add up, a span outside its document or reversed, a hash missing from the
string table, a dependency head outside the document or in a cycle, user
data that is not a map) raises a :class:`CorefInputError` naming the file
and, where the fault lies in one document, its index.
"""
import zlib
from dataclasses import dataclass, field, replace
from functools import cached_property, partial
from itertools import chain
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import srsly
from srsly.msgpack._unpacker import unpackb
from srsly.msgpack.exceptions import UnpackException

from ...arrays import range_values
from ...clusters import Clusters
from ...errors import CorefInputError
from ..inputs import MAX_INPUT_BYTES, read_input
from .docs import NAME_KEY
from .spans import ClusterReader, LabeledSpanGroup, PrefixedSpanGroups, doc_clusters

PathLike = Union[str, Path]

_SPAN = np.dtype(
    [("id", ">u8"), ("kb_id", ">u8"), ("label", ">u8"), ("start", ">i4"), ("end", ">i4"),
     ("start_char", ">i4"), ("end_char", ">i4")]
)
_ATTR_FIELDS = {"id_": "id", "label_": "label", "kb_id_": "kb_id"}
_EMPTY_GROUPS = srsly.msgpack_dumps([])
_DECODE_ERRORS = (ValueError, TypeError, KeyError, IndexError, OverflowError, UnpackException)
_EMPTY = np.zeros(0, dtype=np.int64)


@dataclass(frozen=True, eq=False)
class DocRecord:
    """What scoring needs of one document of a ``.spacy`` file.

    ``name`` is ``user_data["coref_doc_name"]`` when it is a string (else
    ``None``); ``orth`` the tokens' ORTH hashes and ``words`` their texts;
    ``span_groups`` the keys of ``doc.spans`` in spaCy's order;
    ``pos``/``tags``/``morphs`` the tokens' ``pos_``/``tag_``/``str(morph)``
    when asked for; ``sentence_starts`` the first token of every sentence
    of ``doc.sents`` where the doc has sentence boundaries, else ``[0]``.
    """

    index: int
    name: Optional[str]
    orth: np.ndarray
    spaces: np.ndarray
    span_groups: Tuple[str, ...]
    clusters: Clusters
    pos: Optional[List[str]] = None
    tags: Optional[List[str]] = None
    morphs: Optional[List[str]] = None
    strings: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=object), repr=False)
    word_ids: np.ndarray = field(default_factory=lambda: _EMPTY, repr=False)
    sentence_starts: List[int] = field(default_factory=lambda: [0])

    def __len__(self) -> int:
        return len(self.orth)

    @cached_property
    def words(self) -> List[str]:
        """The token texts."""
        return self.strings[self.word_ids].tolist()

    @cached_property
    def text(self) -> str:
        """``doc.text``: every word followed by a space where it has one."""
        gaps = np.where(self.spaces, " ", "").tolist()
        return "".join(chain.from_iterable(zip(self.words, gaps)))

    def same_tokens(self, other: "DocRecord") -> bool:
        """Whether both docs have the same tokens and spaces (so the same
        text and token offsets)."""
        return bool(np.array_equal(self.orth, other.orth) and np.array_equal(self.spaces, other.spaces))

    def same_text(self, other: "DocRecord") -> bool:
        """Whether both docs have the same text, without building it when
        they have the same tokens."""
        return self.same_tokens(other) or self.text == other.text

    def token_offsets(self) -> Tuple[np.ndarray, np.ndarray]:
        """Character start (``token.idx``) and end of every token."""
        lengths = np.fromiter(map(len, self.words), dtype=np.int64, count=len(self))
        ends = np.cumsum(lengths + self.spaces) - self.spaces
        return ends - lengths, ends


def read_docbin_records(
    path: PathLike,
    reader: Optional[ClusterReader] = None,
    *,
    heads: Optional[bool] = None,
    token_attrs: bool = False,
) -> List[DocRecord]:
    """Every document of a ``.spacy`` file, numbered from 0. ``reader`` and
    ``heads`` as in :func:`~.spans.doc_clusters` (default reader: span groups
    ``coref_clusters_N``); ``token_attrs`` adds each token's POS, tag and
    morphology strings. A ``.gz`` file is read decompressed, within the
    bounds of :func:`~.inputs.read_input`."""
    path = Path(path)
    if path.suffix == ".gz":
        data = bytes(read_input(path, MAX_INPUT_BYTES))
    else:
        try:
            data = path.read_bytes()
        except OSError as err:
            raise CorefInputError(f"{path}: cannot read file: {err.strerror or err}") from None
    return decode_docbin_records(data, str(path), reader, heads=heads, token_attrs=token_attrs)


def decode_docbin_records(
    data: bytes,
    source: str,
    reader: Optional[ClusterReader] = None,
    *,
    heads: Optional[bool] = None,
    token_attrs: bool = False,
) -> List[DocRecord]:
    """:func:`read_docbin_records` on the bytes of a ``.spacy`` file;
    ``source`` names it in errors."""
    reader = reader if reader is not None else PrefixedSpanGroups()
    unpack = _Unpacker()
    table = _TokenTable(_unpack_file(unpack, data, source), source)
    fast = type(reader) in (PrefixedSpanGroups, LabeledSpanGroup)
    records = []
    for index in range(table.n_docs):
        try:
            groups = _decode_groups(unpack, table.span_groups[index], int(table.lengths[index]))
            name = _doc_name(unpack, table.user_data[index] if index < len(table.user_data) else None)
            clusters = _doc_clusters(table, index, groups, reader, heads) if fast else None
            attrs = table.token_attrs(index) if token_attrs else (None, None, None)
        except CorefInputError as err:
            raise CorefInputError(f"{source}: document index {index}: {err}") from None
        at = table.doc_slice(index)
        records.append(DocRecord(
            index, name, table.orth[at], table.doc_spaces(index), tuple(groups.names), clusters, *attrs,
            strings=table.strings.strings, word_ids=table.word_ids[at], sentence_starts=table.sentence_starts(index),
        ))
    if not fast:
        records = _with_spacy_clusters(records, data, source, reader, heads)
    return records


class _Unpacker:
    """``srsly.msgpack_loads`` with srsly's registered decoders (numpy
    arrays) looked up once: srsly looks them up on every call, which costs
    more than decoding a span group."""

    def __init__(self) -> None:
        from srsly.msgpack import msgpack_decoders

        hook = None
        for decoder in msgpack_decoders.get_all().values():
            hook = partial(decoder, chain=hook)
        self.hook = hook

    def __call__(self, data: Any, use_list: bool = True) -> Any:
        return unpackb(data, raw=False, use_list=use_list, object_hook=self.hook)


def _unpack_file(unpack: _Unpacker, data: bytes, source: str) -> Dict[str, Any]:
    try:
        msg = unpack(zlib.decompress(data))
    except zlib.error:
        raise CorefInputError(f"{source}: not a spaCy DocBin (.spacy) file (not zlib-compressed)") from None
    except _DECODE_ERRORS as err:
        raise CorefInputError(f"{source}: not a spaCy DocBin (.spacy) file (damaged msgpack: {err})") from None
    if not isinstance(msg, dict):
        raise CorefInputError(f"{source}: not a spaCy DocBin (.spacy) file (no field table)")
    return msg


class _Strings:
    """The file's string table by hash; spaCy's symbols (e.g. POS names),
    which resolve without being in the table, are added when met."""

    def __init__(self, strings: Any, source: str) -> None:
        from spacy.strings import get_string_id

        if not isinstance(strings, list) or not set(map(type, strings)) <= {str}:
            raise CorefInputError(f"{source}: damaged DocBin: the string table is not a list of strings")
        self.hashes = np.fromiter(map(get_string_id, strings), dtype=np.uint64, count=len(strings))
        self.strings = np.array(strings, dtype=object)
        self.slots, self.probes = _hash_slots(self.hashes)

    def index(self, values: np.ndarray) -> np.ndarray:
        """Where the string of every value is in ``self.strings``; -1 for
        values found neither in the table nor among spaCy's symbols."""
        at = np.full(len(values), -1, dtype=np.int64)
        mask = len(self.slots) - 1
        todo = np.arange(len(values))
        slot = (values & np.uint64(mask)).astype(np.int64)
        wanted = values
        for _ in range(self.probes):
            found = self.slots[slot]
            used = found >= 0
            hit = used & (self.hashes[np.maximum(found, 0)] == wanted)
            at[todo[hit]] = found[hit]
            more = used & ~hit
            todo, slot, wanted = todo[more], (slot[more] + 1) & mask, wanted[more]
            if len(todo) == 0:
                break
        missing = at < 0
        if missing.any():
            for value in np.unique(values[missing]).tolist():
                symbol = _symbol(value)
                if symbol is not None:
                    at[values == value] = len(self.strings)
                    self.strings = np.append(self.strings, np.array([symbol], dtype=object))
        return at

    def lookup(self, values: np.ndarray, what: str) -> List[str]:
        """The strings of ``values``; a value without one is an error."""
        at = self.index(values)
        if np.any(at < 0):
            token = int(np.argmax(at < 0))
            raise CorefInputError(f"token {token}: {what} hash {values[token]} is missing from the string table")
        return self.strings[at].tolist()


def _hash_slots(hashes: np.ndarray) -> Tuple[np.ndarray, int]:
    """An open-addressing table (linear probing, at most half full) of the
    positions of ``hashes``, and its longest probe sequence: a vectorised
    lookup of every token's hash, several times faster than a binary
    search."""
    size = 1 << (2 * len(hashes)).bit_length()
    slots = np.full(size, -1, dtype=np.int64)
    slot = (hashes & np.uint64(size - 1)).astype(np.int64)
    pending = np.arange(len(hashes))
    probes = 0
    while len(pending):
        probes += 1
        _, first = np.unique(slot[pending], return_index=True)
        claim = pending[first]
        claim = claim[slots[slot[claim]] < 0]
        slots[slot[claim]] = claim
        pending = np.setdiff1d(pending, claim, assume_unique=True)
        slot[pending] = (slot[pending] + 1) & (size - 1)
    return slots, probes


def _symbol(value: int) -> Optional[str]:
    """The name of one of spaCy's symbols (``StringStore`` resolves them
    without storing them), or ``None``."""
    from spacy.strings import StringStore

    try:
        return StringStore()[value]
    except KeyError:
        return None


class _TokenTable:
    """The file-level fields of a DocBin, checked and split by document."""

    def __init__(self, msg: Dict[str, Any], source: str) -> None:
        from spacy.attrs import DEP, HEAD, MORPH, ORTH, POS, SENT_START, TAG

        self.source = source
        attrs = msg.get("attrs")
        if not isinstance(attrs, list) or not attrs or not all(isinstance(a, int) for a in attrs):
            raise self._damaged("'attrs' is not a list of attribute ids")
        if len(set(attrs)) != len(attrs) or ORTH not in attrs:
            raise self._damaged("'attrs' repeats an attribute or lacks ORTH")
        for key in ("tokens", "spaces", "lengths"):
            if not isinstance(msg.get(key), bytes):
                raise self._damaged(f"{key!r} is missing or not bytes")
        if len(msg["lengths"]) % 4:
            raise self._damaged("'lengths' is not a whole number of int32 values")
        self.lengths = np.frombuffer(msg["lengths"], dtype="int32").astype(np.int64)
        if np.any(self.lengths < 0):
            raise self._damaged(f"document index {int(np.argmax(self.lengths < 0))} has a negative length")
        self.n_docs = len(self.lengths)
        self.starts = np.concatenate([[0], np.cumsum(self.lengths)]).astype(np.int64)
        n_tokens = int(self.starts[-1])
        if len(msg["tokens"]) != 8 * len(attrs) * n_tokens:
            raise self._damaged(
                f"the token table holds {len(msg['tokens'])} bytes, not {len(attrs)} attributes x "
                f"{n_tokens} tokens (the sum of the document lengths) x 8"
            )
        if len(msg["spaces"]) != n_tokens:
            raise self._damaged(f"{len(msg['spaces'])} spaces for {n_tokens} tokens")
        self.tokens = np.frombuffer(msg["tokens"], dtype="uint64").reshape(n_tokens, len(attrs))
        self.spaces = np.frombuffer(msg["spaces"], dtype=np.uint8) != 0
        self.columns = {attr: col for col, attr in enumerate(attrs)}
        self.ids = {"ORTH": ORTH, "HEAD": HEAD, "DEP": DEP, "POS": POS, "TAG": TAG, "MORPH": MORPH,
                    "SENT_START": SENT_START}
        self.span_groups = self._per_doc(msg, "span_groups", b"", (bytes,))
        self.flags = self._per_doc(msg, "flags", {}, (dict,))
        user_data = msg.get("user_data", [])
        if not isinstance(user_data, list):
            raise self._damaged("'user_data' is not a list")
        self.user_data = user_data
        self.strings = _Strings(msg.get("strings"), source)
        self.orth = np.ascontiguousarray(self.column("ORTH"))
        self.word_ids = self._word_ids()
        self.rel_heads = self._heads()

    def _damaged(self, detail: str) -> CorefInputError:
        return CorefInputError(f"{self.source}: damaged DocBin: {detail}")

    def _per_doc(self, msg: Dict[str, Any], key: str, default: Any, types: Tuple[type, ...]) -> List[Any]:
        if key not in msg:
            return [default] * self.n_docs
        values = msg[key]
        if not isinstance(values, list) or len(values) != self.n_docs:
            found = len(values) if isinstance(values, list) else type(values).__name__
            raise self._damaged(f"{key!r} should hold one entry per document ({self.n_docs}), found {found}")
        for index, value in enumerate(values):
            if not isinstance(value, types):
                raise CorefInputError(
                    f"{self.source}: document index {index}: damaged DocBin: {key!r} entry is a {type(value).__name__}"
                )
        return values

    def _where(self, token: int) -> Tuple[int, int]:
        """Document index and token index within it of a file-level token."""
        index = int(np.searchsorted(self.starts, token, side="right")) - 1
        return index, token - int(self.starts[index])

    def column(self, name: str) -> Optional[np.ndarray]:
        col = self.columns.get(self.ids[name])
        return None if col is None else self.tokens[:, col]

    def _word_ids(self) -> np.ndarray:
        """Where every token's text is in the string table; a token without
        one (ORTH 0, or a hash missing from the table) is spaCy's error
        E031 or E018."""
        at = self.strings.index(self.orth)
        bad = (at < 0) | (self.orth == 0)
        if bad.any():
            token = int(np.argmax(bad))
            index, within = self._where(token)
            value = self.orth[token]
            detail = "has no text (ORTH 0)" if value == 0 else f"text hash {value} is missing from the string table"
            raise CorefInputError(f"{self.source}: document index {index}: token {within}: {detail}")
        return at

    def _heads(self) -> np.ndarray:
        """Relative dependency heads (spaCy stores them as int32 offsets in
        uint64 cells); an absolute head outside its document is spaCy's
        error E190."""
        heads = self.column("HEAD")
        if heads is None:
            return np.zeros(len(self.tokens), dtype=np.int64)
        if not heads.any():
            return np.zeros(len(self.tokens), dtype=np.int64)
        rel = heads.astype(np.uint32).view(np.int32).astype(np.int64)
        doc_of = np.repeat(np.arange(self.n_docs), self.lengths)
        local = np.arange(len(rel)) - self.starts[doc_of]
        target = local + rel
        bad = (target < 0) | (target >= self.lengths[doc_of])
        if bad.any():
            token = int(np.argmax(bad))
            index, at = self._where(token)
            raise CorefInputError(
                f"{self.source}: document index {index}: token {at}: dependency head {int(target[token])} "
                f"is outside the document ({int(self.lengths[index])} tokens)"
            )
        return rel

    def doc_slice(self, index: int) -> slice:
        return slice(int(self.starts[index]), int(self.starts[index + 1]))

    def doc_spaces(self, index: int) -> np.ndarray:
        """Whether each token is followed by a space; all are when the doc's
        spaces are unknown (``Doc(words=...)`` without spaces)."""
        spaces = self.spaces[self.doc_slice(index)]
        if self.flags[index].get("has_unknown_spaces"):
            return np.ones(len(spaces), dtype=bool)
        return spaces

    def has_dep(self, index: int) -> bool:
        """``doc.has_annotation("DEP")``: some token has a DEP label (an
        empty doc counts as annotated, as in spaCy)."""
        if self.lengths[index] == 0:
            return True
        dep = self.column("DEP")
        return dep is not None and bool(np.any(dep[self.doc_slice(index)]))

    def sentence_starts(self, index: int) -> List[int]:
        """The starts of ``doc.sents``: the tokens whose SENT_START is 1
        (spaCy stores 1, -1 or 0 for unknown, and a parse's sentences
        too), where some token after the first has a known value
        (``doc.has_annotation("SENT_START")``); else ``[0]``."""
        column = self.column("SENT_START")
        if column is None or self.lengths[index] < 2:
            return [0]
        values = column[self.doc_slice(index)].astype(np.int64)
        if not values[1:].any():
            return [0]
        return sorted({0, *np.flatnonzero(values == 1).tolist()})

    def token_attrs(self, index: int) -> Tuple[List[str], List[str], List[str]]:
        """``pos_``, ``tag_`` and ``str(morph)`` of every token."""
        at = self.doc_slice(index)
        out = []
        for name in ("POS", "TAG", "MORPH"):
            column = self.column(name)
            if column is None:
                out.append([""] * int(self.lengths[index]))
            else:
                out.append(self.strings.lookup(np.ascontiguousarray(column[at]), name))
        return out[0], out[1], out[2]


@dataclass
class _Groups:
    """The span groups of one doc: keys in ``doc.spans`` order, each key's
    rows in ``spans``."""

    names: List[str]
    rows: Dict[str, Tuple[int, int]]
    spans: np.ndarray


def _decode_groups(unpack: _Unpacker, data: bytes, n_tokens: int) -> _Groups:
    """Decode ``doc.spans`` as ``SpanGroups.from_bytes`` does: a map
    ``{group bytes: [keys]}`` (every key gets the group), or a list of group
    bytes keyed by their names; a key seen again keeps its first place and
    takes the later group. Groups are decoded without srsly's numpy hook,
    which only their ``attrs``, unused here, could need."""
    if not data or data == _EMPTY_GROUPS:
        return _Groups([], {}, np.zeros(0, dtype=_SPAN))
    rows: Dict[str, Tuple[int, int]] = {}
    chunks: List[bytes] = []
    try:
        msg = unpack(data)
        if isinstance(msg, dict):
            entries = msg.items()
        elif isinstance(msg, list):
            entries = [(value, None) for value in msg]
        else:
            raise CorefInputError("damaged span groups (neither a map nor a list)")
        for value, keys in entries:
            group = unpackb(value, raw=False)
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
    except _DECODE_ERRORS as err:
        raise CorefInputError(f"damaged span groups ({type(err).__name__}: {err})") from None
    if not set(map(type, rows)) <= {str}:
        raise CorefInputError("damaged span groups (a key is not a string)")
    if not set(map(len, chunks)) <= {_SPAN.itemsize}:
        raise CorefInputError(f"damaged span groups (spans are not {_SPAN.itemsize}-byte records)")
    table = np.frombuffer(packed, dtype=_SPAN)
    starts, ends = table["start"].astype(np.int64), table["end"].astype(np.int64)
    bad = (starts < 0) | (starts > ends) | (ends > n_tokens)
    if bad.any():
        row = int(np.argmax(bad))
        key = next(key for key, (a, b) in rows.items() if a <= row < b)
        raise CorefInputError(
            f"span group {key!r}: span ({starts[row]}, {ends[row]}) is "
            f"{'reversed' if starts[row] > ends[row] else 'outside the document'} ({n_tokens} tokens)"
        )
    return _Groups(list(rows), rows, table)


def _doc_name(unpack: _Unpacker, user_data: Any) -> Optional[str]:
    if user_data is None:
        return None
    try:
        data = unpack(user_data, use_list=False)
    except _DECODE_ERRORS as err:
        raise CorefInputError(f"damaged user data ({err})") from None
    if not isinstance(data, dict):
        raise CorefInputError(f"damaged user data (a {type(data).__name__}, not a map)")
    name = data.get(NAME_KEY)
    return name if isinstance(name, str) else None


def _doc_clusters(
    table: _TokenTable, index: int, groups: _Groups, reader: ClusterReader, heads: Optional[bool]
) -> Clusters:
    """:func:`~.spans.doc_clusters` on the decoded groups."""
    n_tokens = int(table.lengths[index])
    explicit_rows = None
    if isinstance(reader, PrefixedSpanGroups):
        numbered = reader.numbered(groups.names)
        rows, labels = _group_rows(groups, [name for _, name in numbered])
        if heads is not False and reader.head_prefix is not None:
            explicit_rows = _head_rows(groups, numbered, reader.head_prefix)
    else:
        rows, labels = _labeled_rows(groups, reader)
    if heads is None:
        heads = explicit_rows is not None or table.has_dep(index)
    if len(rows) == 0:
        return Clusters(heads=_EMPTY if heads else None)
    starts = groups.spans["start"][rows].astype(np.int64)
    ends = groups.spans["end"][rows].astype(np.int64)
    if np.any(ends == starts):
        at = int(np.argmax(ends == starts))
        raise CorefInputError(f"mention ({starts[at]}, {ends[at]}) is empty")
    head_array = None
    if explicit_rows is not None:
        head_starts = groups.spans["start"][explicit_rows].astype(np.int64)
        head_ends = groups.spans["end"][explicit_rows].astype(np.int64)
        head_array = span_roots(table.rel_heads[table.doc_slice(index)], head_starts, head_ends)
    elif heads:
        head_array = span_roots(table.rel_heads[table.doc_slice(index)], starts, ends)
    if head_array is not None and np.any(head_array >= n_tokens):
        raise CorefInputError(f"an empty span at the end of the document ({n_tokens} tokens) has no head token")
    return Clusters.from_arrays(starts, ends, labels, head_array)


def _group_rows(groups: _Groups, names: Sequence[str]) -> Tuple[np.ndarray, np.ndarray]:
    """Rows of the spans of ``names`` in order, and each row's position in
    ``names`` (its entity)."""
    flat = chain.from_iterable(map(groups.rows.__getitem__, names))
    bounds = np.fromiter(flat, dtype=np.int64, count=2 * len(names)).reshape(-1, 2)
    sizes = bounds[:, 1] - bounds[:, 0]
    return range_values(bounds[:, 0], bounds[:, 1]), np.repeat(np.arange(len(names), dtype=np.int64), sizes)


def _head_rows(groups: _Groups, numbered: Sequence[Tuple[int, str]], head_prefix: str) -> np.ndarray:
    """``PrefixedSpanGroups.heads``: rows of the head span of every mention."""
    head_names = []
    for number, name in numbered:
        head_name = f"{head_prefix}_{number}"
        size = groups.rows[name][1] - groups.rows[name][0]
        found = groups.rows.get(head_name)
        if found is None or found[1] - found[0] != size:
            found_text = "missing" if found is None else f"{found[1] - found[0]} spans for {size} mentions"
            raise CorefInputError(
                f"span group {head_name!r} must give one head per mention of {name!r} ({found_text})"
            )
        head_names.append(head_name)
    return _group_rows(groups, head_names)[0]


def _labeled_rows(groups: _Groups, reader: LabeledSpanGroup) -> Tuple[np.ndarray, np.ndarray]:
    """``LabeledSpanGroup``: the rows of group ``key``, labelled by the first
    row with the same attribute hash (0, the empty string, is a row's own)."""
    if reader.key not in groups.rows:
        return _EMPTY, _EMPTY
    a, b = groups.rows[reader.key]
    values = groups.spans[_ATTR_FIELDS[reader.attr]][a:b].astype(np.uint64)
    rows = np.arange(a, b, dtype=np.int64)
    labels = np.arange(b - a, dtype=np.int64)
    named = values != 0
    if named.any():
        _, first, inverse = np.unique(values[named], return_index=True, return_inverse=True)
        labels[named] = labels[named][first][inverse.ravel()]
    return rows, labels


def span_roots(rel_heads: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """spaCy's ``Span.root`` token of every span ``[start, end)`` of a doc
    with relative heads ``rel_heads`` (see the module docstring); an empty
    span gives its start. A head chain that never reaches a root (a cycle)
    is an error, as in spaCy (E039), when a span needs it."""
    n = len(rel_heads)
    positions = np.arange(n, dtype=np.int64)
    is_root = rel_heads == 0
    next_root = np.append(np.minimum.accumulate(np.where(is_root, positions, n)[::-1])[::-1], n)
    first_root = next_root[starts]
    roots = np.where(first_root < ends, first_root, starts)
    todo = np.flatnonzero((first_root >= ends) & (ends > starts))
    if len(todo) == 0:
        return roots
    parent = positions + rel_heads
    depth = _depths(parent, is_root)
    s, e = starts[todo], ends[todo]
    sizes = e - s
    first = np.cumsum(sizes) - sizes
    segment = np.repeat(np.arange(len(todo)), sizes)
    local = np.arange(int(sizes.sum())) - first[segment]
    tokens = s[segment] + local
    candidate = (parent[tokens] < s[segment]) | (parent[tokens] >= e[segment])
    if np.any(candidate & (depth[tokens] < 0)):
        token = int(tokens[np.argmax(candidate & (depth[tokens] < 0))])
        raise CorefInputError(f"the dependency heads from token {token} form a cycle and reach no root")
    width = int(sizes.max()) + 1
    key = np.where(candidate, depth[tokens], n) * width + local
    best = np.minimum.reduceat(key, first)
    best_depth, best_local = np.divmod(best, width)
    roots[todo] = np.where(best_depth < n, s + best_local, s)
    return roots


def _depths(parent: np.ndarray, is_root: np.ndarray) -> np.ndarray:
    """Steps from every token to its root by pointer doubling; -1 where the
    chain of heads never reaches a root."""
    n = len(parent)
    jump = np.where(is_root, np.arange(n), parent)
    steps = (~is_root).astype(np.int64)
    for _ in range(max(1, n.bit_length())):
        steps = steps + steps[jump]
        jump = jump[jump]
    return np.where(is_root[jump], steps, -1)


def _with_spacy_clusters(
    records: List[DocRecord], data: bytes, source: str, reader: ClusterReader, heads: Optional[bool]
) -> List[DocRecord]:
    """Clusters from a reader of its own, on the docs of ``DocBin.get_docs``."""
    from spacy.tokens import DocBin
    from spacy.vocab import Vocab

    try:
        docs = DocBin(store_user_data=True).from_bytes(data).get_docs(Vocab())
    except _DECODE_ERRORS as err:
        raise CorefInputError(f"{source}: spaCy cannot load this DocBin: {err}") from None
    out = []
    for record in records:
        try:
            doc = next(docs)
        except _DECODE_ERRORS as err:
            raise CorefInputError(f"{source}: document index {record.index}: spaCy cannot load it: {err}") from None
        try:
            clusters = doc_clusters(doc, reader, heads)
        except CorefInputError as err:
            raise CorefInputError(f"{source}: document index {record.index}: {err}") from None
        out.append(replace(record, clusters=clusters))
    return out
