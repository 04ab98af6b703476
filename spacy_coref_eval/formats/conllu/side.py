"""CoNLL-U documents as sides: their tokens are their nodes (:mod:`.nodes`),
and two CoNLL-U documents pair on the union of their nodes."""
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional

import numpy as np

from ...clusters import Clusters
from ..base import ReadOptions
from ..document import Paired, Side, SideDocument
from ..tokens import Tokens
from .nodes import empty_keys, node_clusters, node_forms, node_order, node_sentence_starts, node_tokens
from .read import CorefUDDocument, check_aligned, read_conllu


@dataclass
class ConlluSideDocument(SideDocument):
    """A CoNLL-U document whose tokens are its nodes in ``order``
    (:func:`~.nodes.node_order`: its own, or the union with those of the
    file it is paired with): discontinuous and zero mentions are sets of
    nodes."""

    document: CorefUDDocument
    order: np.ndarray
    words: List[str]
    clusters: Clusters
    sentence_starts: np.ndarray

    @classmethod
    def of(cls, document: CorefUDDocument, order: np.ndarray, other: Optional[CorefUDDocument] = None) -> "ConlluSideDocument":
        return cls(
            document, order, node_forms(document, order, other), with_split_antecedents(document, order),
            node_sentence_starts(document, order),
        )

    @property
    def name(self) -> str:
        return self.document.name

    @property
    def n_tokens(self) -> int:
        return len(self.order)

    def tokens(self) -> Tokens:
        return node_tokens(self.document, self.order)

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
        return Paired(
            ConlluSideDocument.of(self.document, order, response.document), with_split_antecedents(response.document, order)
        )


def with_split_antecedents(document: CorefUDDocument, order: np.ndarray) -> Clusters:
    """:func:`~.nodes.node_clusters`, with the document's ``SplitAnte=``
    links where it has some (scored under ``--preset ua``; docs/corefud.md §2)."""
    clusters = node_clusters(document, order)
    if not document.split_antecedents:
        return clusters
    from ..ua.splitante import SplitClusters

    where = f"{document.source}: document {document.name!r}"
    return SplitClusters.wrap(clusters, document.entities, document.split_antecedents, where)


def read_side(path: Path, options: ReadOptions) -> Side:
    """A CoNLL-U file as a :class:`Side` (the format's reader)."""
    from . import FORMAT

    read = read_conllu(path)
    documents = [ConlluSideDocument.of(document, node_order(document)) for document in read.documents.values()]
    return Side(path, FORMAT, documents, read.warnings())
