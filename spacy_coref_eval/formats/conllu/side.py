"""CoNLL-U documents as sides: their tokens are their nodes (:mod:`.nodes`),
and two CoNLL-U documents pair on the union of their nodes."""

from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Union

import numpy as np

from ...model.clusters import Clusters
from ...model.tokens import Tokens
from ...model.ua.splitante import SplitClusters
from ..base import Format, ReadOptions
from ..document import Paired, Side, SideDocument
from . import FORMAT
from .nodes import empty_keys, node_clusters, node_forms, node_mentions, node_order, node_sentence_starts, node_tokens
from .read import ConlluFile, CorefUDDocument, bytes_parser, check_aligned, read_conllu_bytes


@dataclass
class ConlluSideDocument(SideDocument):
    """A CoNLL-U document whose tokens are its nodes in ``order``
    (:func:`~.nodes.node_order`: its own, or the union with those of the
    file it is paired with): discontinuous and zero mentions are sets of
    nodes."""

    document: CorefUDDocument
    order: np.ndarray
    words: list[str]
    clusters: Clusters
    sentence_starts: np.ndarray

    @classmethod
    def of(cls, document: CorefUDDocument, order: np.ndarray, other: Optional[CorefUDDocument] = None) -> "ConlluSideDocument":
        return cls(
            document,
            order,
            node_forms(document, order, other),
            with_split_antecedents(document, order),
            sentence_starts=node_sentence_starts(document, order),
        )

    @property
    def name(self) -> str:
        return self.document.name

    @property
    def n_tokens(self) -> int:
        return len(self.order)

    def tokens(self) -> Tokens:
        return node_tokens(self.document, self.order)

    def sentence_ids(self) -> list[Optional[str]]:
        return list(self.document.sentence_ids)

    def mention_ids(self) -> Optional[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Every mention's node range and its ``eid`` as written."""
        starts, ends, _, _ = node_mentions(self.document, self.order)
        ids = np.array(self.document.entities, dtype=str) if len(self.document.entities) else np.zeros(0, dtype=str)
        return starts, ends, ids[self.document.mention_entity] if len(starts) else np.zeros(0, dtype=str)

    def changed_in(self, target: Format) -> Optional[str]:
        """Empty nodes, which every written format holds as words (so the
        file written no longer has this document's words), and sentence
        ids, which only CoNLL-U holds."""
        empty = len(self.document.empty_nodes)
        changes = [
            f"{empty} empty node(s) written as words (its words are then no longer this file's)" if empty else "",
            "" if target is FORMAT or not any(self.document.sentence_ids) else "its sent_ids not kept",
        ]
        return "; ".join(c for c in changes if c) or None

    def paired_with(self, response: SideDocument) -> Paired:
        """Two CoNLL-U documents must have the same sentences
        (:func:`~.read.check_aligned`); when their empty nodes differ both
        are numbered on the union of their nodes."""
        if not isinstance(response, ConlluSideDocument):
            return super().paired_with(response)
        check_aligned(self.document, response.document)
        if np.array_equal(empty_keys(self.document), empty_keys(response.document)):
            return Paired(self, response.clusters)
        order = node_order(self.document, empty_keys(response.document))
        return Paired(ConlluSideDocument.of(self.document, order, response.document), with_split_antecedents(response.document, order))


def with_split_antecedents(document: CorefUDDocument, order: np.ndarray) -> Clusters:
    """:func:`~.nodes.node_clusters`, with the document's ``SplitAnte=``
    links where it has some (scored under ``--preset ua``; docs/corefud.md §2)."""
    clusters = node_clusters(document, order)
    if not document.split_antecedents:
        return clusters
    where = f"{document.source}: document {document.name!r}"
    return SplitClusters.wrap(clusters, document.entities, document.split_antecedents, where=where)


def parse_side(data: Union[bytes, bytearray], path: Path, options: ReadOptions) -> Side:
    """The bytes of a CoNLL-U file as a :class:`Side`, ``path`` naming it."""
    read = read_conllu_bytes(data, path)
    documents = [ConlluSideDocument.of(document, node_order(document)) for document in read.documents.values()]
    return Side(path, FORMAT, documents, read.warnings())


def read_batch(data: bytes, path: Path, seen: Optional[dict[str, int]]) -> tuple[Side, tuple[int, int]]:
    """Some consecutive documents of a CoNLL-U file (``data``, their bytes)
    read as the whole file reads them:
    ``seen`` ranks the eids of every document before them in udapi's
    order and is extended with theirs (docs/streaming.md §3); ``None``
    for ``GRP`` ids, which need none. Returns the side without its
    warning and the counts ``(Bridge=, SplitAnte=)`` that the whole
    file's warning adds up (:func:`batch_warnings`). :class:`ValueError`
    where the file's ids are not what ``seen`` says."""
    parser = bytes_parser(data, path, seen)
    read = parser.parse()
    if parser.per_document != (seen is None):
        raise ValueError(f"{path}: entity ids {'are' if parser.per_document else 'are not'} GRP")
    documents = []
    for document in read.documents.values():
        if seen is not None:
            for eid in document.entities:
                seen.setdefault(eid, len(seen))
        documents.append(ConlluSideDocument.of(document, node_order(document)))
    return Side(path, FORMAT, documents, []), (read.bridges, read.split_antecedents)


def batch_warnings(path: Path, counts: tuple[int, int]) -> list[str]:
    """The whole file's warning from the counts its batches add up to."""
    return ConlluFile(str(path), {}, *counts).warnings()
