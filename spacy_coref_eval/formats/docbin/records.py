"""Read ``.spacy`` (DocBin) files for scoring without building ``Doc``
objects or importing spaCy: per document a :class:`DocRecord`, the same as
``DocBin.get_docs`` then :func:`~.spans.doc_clusters` give. The layout, the
rules followed and the damage detected are in docs/formats.md."""

from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import chain
from pathlib import Path
from typing import Optional, Union

import numpy as np

from ...errors import CorefInputError
from ...model.clusters import Clusters
from ..inputs import InputLimits, read_input
from .batch import batch_groups
from .groups import decode_groups, doc_mentions, mention_clusters
from .spans import ClusterReader, LabeledSpanGroup, PrefixedSpanGroups, doc_clusters
from .strings import StringTable
from .table import DECODE_ERRORS, MsgpackDecoder, TokenTable, unpack_file

PathLike = Union[str, Path]


@dataclass(frozen=True, eq=False)
class DocRecord:
    """What scoring needs of one document of a ``.spacy`` file.

    ``name`` is ``user_data["coref_doc_name"]`` when it is a string (else
    ``None``); ``orth`` the tokens' ORTH hashes and ``words`` their texts,
    looked up in ``strings`` when first asked for; ``span_groups`` the keys
    of ``doc.spans`` in spaCy's order; ``pos``/``tags``/``morphs`` the
    tokens' ``pos_``/``tag_``/``str(morph)`` when asked for;
    ``sentence_starts`` the first token of every sentence of ``doc.sents``
    where the doc has sentence boundaries, else ``[0]``.
    """

    index: int
    name: Optional[str]
    orth: np.ndarray
    spaces: np.ndarray
    span_groups: tuple[str, ...]
    clusters: Clusters
    strings: StringTable = field(repr=False)
    pos: Optional[list[str]] = None
    tags: Optional[list[str]] = None
    morphs: Optional[list[str]] = None
    sentence_starts: list[int] = field(default_factory=lambda: [0])

    def __len__(self) -> int:
        return len(self.orth)

    @cached_property
    def words(self) -> list[str]:
        """The token texts; a text hash missing from the string table is
        an error naming the file and the doc."""
        return self.strings.words(self.orth, self.index)

    @cached_property
    def text(self) -> str:
        """``doc.text``: every word followed by a space where it has one."""
        gaps = np.where(self.spaces, " ", "").tolist()
        return "".join(chain.from_iterable(zip(self.words, gaps)))

    def same_tokens(self, other: "DocRecord") -> bool:
        """Whether both docs have the same tokens and spaces (so the same
        text and token offsets): their hashes compared, no string looked up."""
        return bool(np.array_equal(self.orth, other.orth) and np.array_equal(self.spaces, other.spaces))

    def same_text(self, other: "DocRecord") -> bool:
        """Whether both docs have the same text, without building it when
        they have the same tokens."""
        return self.same_tokens(other) or self.text == other.text

    def token_offsets(self) -> tuple[np.ndarray, np.ndarray]:
        """Character start (``token.idx``) and end of every token."""
        lengths = np.fromiter(map(len, self.words), dtype=np.int64, count=len(self))
        ends = np.cumsum(lengths + self.spaces) - self.spaces
        return ends - lengths, ends


def read_docbin_bytes(path: PathLike, limits: Optional[InputLimits] = None) -> bytes:
    """The bytes of a ``.spacy`` file (a ``.gz`` file decompressed) within
    ``limits`` (:func:`~.inputs.read_input`, no line limit)."""
    return bytes(read_input(Path(path), limits, long_lines=True))


def read_docbin_records(
    path: PathLike,
    reader: Optional[ClusterReader] = None,
    *,
    heads: Optional[bool] = None,
    token_attrs: bool = False,
    limits: Optional[InputLimits] = None,
) -> list[DocRecord]:
    """Every document of a ``.spacy`` file, numbered from 0. ``reader`` and
    ``heads`` as in :func:`~.spans.doc_clusters` (default reader: span groups
    ``coref_clusters_N``); ``token_attrs`` adds each token's POS, tag and
    morphology strings; ``limits`` bound a ``.gz`` file's decompression."""
    data = read_docbin_bytes(path, limits)
    return decode_docbin_records(data, str(path), reader, heads=heads, token_attrs=token_attrs)


def decode_docbin_records(
    data: bytes, source: str, reader: Optional[ClusterReader] = None, *, heads: Optional[bool] = None, token_attrs: bool = False
) -> list[DocRecord]:
    """:func:`read_docbin_records` on the bytes of a ``.spacy`` file;
    ``source`` names it in errors. Readers other than the registered ones
    are given ``DocBin.get_docs``'s docs."""
    reader = reader if reader is not None else PrefixedSpanGroups()
    fast = type(reader) in (PrefixedSpanGroups, LabeledSpanGroup)
    records = _records(data, source, reader if fast else None, heads=heads, token_attrs=token_attrs)
    if not fast:
        _look_up_words(records)
        records = _with_spacy_clusters(records, data, source, reader=reader, heads=heads)
    return records


def check_docbin(path: PathLike, reader: Optional[ClusterReader] = None) -> int:
    """The number of docs of a ``.spacy`` file, once checked by
    :func:`check_docbin_data`: call it before handing the file to spaCy
    (``DocBin``, ``spacy.training.Corpus``)."""
    return check_docbin_data(read_docbin_bytes(path), str(path), reader)


def check_docbin_data(data: bytes, source: str, reader: Optional[ClusterReader] = None) -> int:
    """The number of docs of a ``.spacy`` file's bytes, once checked as
    :func:`decode_docbin_records` checks them, words included, so that
    whatever reads it next (``DocBin.get_docs``, spaCy's ``Corpus``) meets
    no damaged doc: a :class:`CorefInputError` names ``source`` and the
    doc. With ``reader``, its clusters are checked too (heads aside)."""
    if reader is not None:
        records = decode_docbin_records(data, source, reader, heads=False)
    else:
        records = _records(data, source, None, heads=False, token_attrs=False)
    _look_up_words(records)
    return len(records)


def _look_up_words(records: list[DocRecord]) -> None:
    """Look up the words of every record: a text hash missing from the
    string table, which spaCy cannot load, is an error here."""
    for record in records:
        record.strings.words(record.orth, record.index)


def _records(data: bytes, source: str, reader: Optional[ClusterReader], *, heads: Optional[bool], token_attrs: bool) -> list[DocRecord]:
    """The records of a file, with clusters read by ``reader`` (a
    registered one), empty without one."""
    unpack = MsgpackDecoder()
    table = TokenTable(unpack_file(unpack, data, source), source)
    batched = batch_groups(table.span_groups, table.lengths)
    decoded = []
    for index in range(table.n_docs):
        try:
            groups = batched[index]
            if groups is None:
                groups = decode_groups(unpack, table.span_groups[index], int(table.lengths[index]))
            name = table.doc_name(unpack, index)
            mentions = None if reader is None else doc_mentions(table, index, groups, reader=reader, heads=heads)
            attrs = table.token_attrs(index) if token_attrs else (None, None, None)
        except CorefInputError as err:
            raise CorefInputError(f"{source}: document index {index}: {err}") from None
        decoded.append((name, tuple(groups.names), mentions, attrs))
    if reader is None:
        clusters = [Clusters() for _ in decoded]
    else:
        clusters = mention_clusters([mentions for _, _, mentions, _ in decoded])
    return [
        DocRecord(
            index,
            name,
            table.orth[table.doc_slice(index)],
            table.doc_spaces(index),
            span_groups=names,
            clusters=found,
            strings=table.strings,
            pos=pos,
            tags=tags,
            morphs=morphs,
            sentence_starts=table.sentence_starts(index),
        )
        for index, ((name, names, _, (pos, tags, morphs)), found) in enumerate(zip(decoded, clusters))
    ]


def _with_spacy_clusters(
    records: list[DocRecord], data: bytes, source: str, *, reader: ClusterReader, heads: Optional[bool]
) -> list[DocRecord]:
    """Clusters from a reader of its own, on the docs of ``DocBin.get_docs``."""
    from spacy.tokens import DocBin
    from spacy.vocab import Vocab

    try:
        docs = DocBin(store_user_data=True).from_bytes(data).get_docs(Vocab())
    except DECODE_ERRORS as err:
        raise CorefInputError(f"{source}: spaCy cannot load this DocBin: {err}") from None
    out = []
    for record in records:
        try:
            doc = next(docs)
        except DECODE_ERRORS as err:
            raise CorefInputError(f"{source}: document index {record.index}: spaCy cannot load it: {err}") from None
        try:
            clusters = doc_clusters(doc, reader, heads)
        except CorefInputError as err:
            raise CorefInputError(f"{source}: document index {record.index}: {err}") from None
        out.append(replace(record, clusters=clusters))
    return out
