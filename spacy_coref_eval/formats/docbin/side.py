"""``.spacy`` documents as sides: two of them pair through their text, so
that their tokenisations may differ (:mod:`..alignment`)."""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Any, Optional, Union

from ...errors import CorefInputError
from ...model.clusters import Clusters
from ...model.tokens import Tokens
from ..alignment import align_clusters
from ..base import ReadOptions
from ..document import Paired, Side, SideDocument, WordMismatch, difference, document_names
from . import FORMAT
from .names import CLUSTER_PREFIX
from .records import decode_docbin_records
from .spans import PrefixedSpanGroups, missing_groups


@dataclass
class DocBinSideDocument(SideDocument):
    """One doc of a ``.spacy`` file, read as a
    :class:`~.records.DocRecord` (words and text built when asked for)."""

    record: Any

    @property
    def name(self) -> Optional[str]:
        return self.record.name

    @property
    def clusters(self) -> Clusters:
        return self.record.clusters

    @property
    def n_tokens(self) -> int:
        return len(self.record)

    @property
    def sentence_starts(self) -> Sequence[int]:
        return self.record.sentence_starts

    @property
    def words(self) -> list[str]:
        return self.record.words

    def tokens(self) -> Tokens:
        record = self.record
        return Tokens.from_columns(record.words, record.sentence_starts, record.pos, xpos=record.tags, feats=record.morphs)

    def paired_with(self, response: SideDocument) -> Paired:
        """Two docs with the same tokens pair as they are; others through
        the non-white-space characters of their texts, which must agree
        (:func:`~..alignment.align_clusters`)."""
        if not isinstance(response, DocBinSideDocument):
            return super().paired_with(response)
        key, other = self.record, response.record
        if key.same_tokens(other):
            return Paired(self, other.clusters)
        if "".join(key.text.split()) != "".join(other.text.split()):
            raise WordMismatch(f"different text: {difference(key.text, other.text, 'character', joiner='', width=30)}")
        clusters, unmapped = align_clusters(
            self.name or "", other.clusters, (key.text, key.token_offsets()), predicted=(other.text, other.token_offsets())
        )
        return Paired(self, clusters, unmapped)


def parse_side(data: Union[bytes, bytearray], path: Path, options: ReadOptions) -> Side:
    """A ``.spacy`` file's bytes as a :class:`Side` (the format's reader). A
    file none of whose docs holds a span group the cluster reader reads is
    an error for the key and a warning for the response: it would score 0
    without a word."""
    reader = options.spans or PrefixedSpanGroups()
    records = decode_docbin_records(bytes(data), str(path), reader, token_attrs=options.tokens)
    groups = {group for record in records for group in record.span_groups}
    missing = missing_groups(reader, groups) if records else None
    warnings = []
    if missing is not None:
        message = f"{path}: no coreference span group in any doc ({missing}); choose the span groups with --spans or --{options.role}-spans"
        if options.role == "key":
            raise CorefInputError(message)
        warnings.append(message + "; every response entity is missing")
    return Side(path, FORMAT, [DocBinSideDocument(record) for record in records], warnings)


WRITTEN_ATTRS = ("SENT_START",)
"""The token attributes :func:`~.docs.words_to_doc` sets besides the words
and spaces, and so all that :func:`write_side` stores."""


def write_side(path: Path, documents: Sequence[SideDocument], inputs: Sequence[Path]) -> list[str]:
    """The documents as a ``.spacy`` file (the format's writer;
    :func:`~.docs.words_to_doc` says what each doc keeps). A corpus
    without any mention gets one empty group ``coref_clusters_1`` in its
    first doc (no entity), so that :func:`parse_side` reads it back as
    coreference data without mentions."""
    from spacy.vocab import Vocab

    from .docs import words_to_doc, write_docbin

    vocab = Vocab()
    names = document_names(documents)
    docs: Iterator[Any] = (
        words_to_doc(n, d.words, d.clusters, sentence_starts=d.sentence_starts, vocab=vocab) for n, d in zip(names, documents)
    )
    if not any(d.clusters.n_entities for d in documents):
        first = next(docs, None)
        if first is not None:
            first.spans[f"{CLUSTER_PREFIX}_1"] = []
            docs = iter(chain((first,), docs))
    write_docbin(path, docs, inputs, attrs=WRITTEN_ATTRS)
    return []
