"""spaCy ``Doc`` objects in memory as a side (the spaCy scorers, the
``evaluate`` command): a predicted doc may be tokenised otherwise than
its reference, and its clusters are put on the reference's tokens through
the text (:func:`~..alignment.align_clusters`)."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from ...model.clusters import Clusters
from ...model.tokens import Tokens
from ..alignment import align_clusters
from ..base import Format
from ..document import Paired, Side, SideDocument
from .docs import stored_name
from .spans import PrefixedSpanGroups, doc_clusters, missing_groups

if TYPE_CHECKING:
    from spacy.tokens import Doc

# nothing reads this format: its reader is never called
DOCS = Format("docs", "spaCy docs", (), lambda path, options: None)  # type: ignore[arg-type,return-value]
"""The format of a side of ``Doc`` objects in memory; nothing reads it from
a file, so it is not in the registry."""


@dataclass
class DocSideDocument(SideDocument):
    """One ``Doc`` and its clusters (read by a cluster reader)."""

    doc: Any
    clusters: Clusters
    name: Optional[str] = None

    @property
    def n_tokens(self) -> int:
        return len(self.doc)

    @property
    def words(self) -> list[str]:
        return [token.text for token in self.doc]

    @property
    def sentence_starts(self) -> list[int]:
        return [sentence.start for sentence in self.doc.sents] if self.doc.has_annotation("SENT_START") else [0]

    def tokens(self) -> Tokens:
        return Tokens.from_spacy(self.doc)

    def paired_with(self, response: SideDocument) -> Paired:
        """The predicted doc's clusters on this doc's tokens: as they are
        when both have the same tokens and spaces, else through the text."""
        if not isinstance(response, DocSideDocument):
            return super().paired_with(response)
        if _same_tokens(self.doc, response.doc):
            return Paired(self, response.clusters)
        clusters, unmapped = align_clusters(
            self.name or "",
            response.clusters,
            (self.doc.text, token_offsets(self.doc)),
            predicted=(response.doc.text, token_offsets(response.doc)),
        )
        return Paired(self, clusters, unmapped)


def example_names(docs: Sequence["Doc"]) -> list[str]:
    """The names of docs scored as examples: the names ``convert`` stored
    on them (``doc.user_data["coref_doc_name"]``) where every doc has a
    distinct one, else ``example i`` (i counted from 0)."""
    stored = [stored_name(doc) for doc in docs]
    if all(stored) and len(set(stored)) == len(stored):
        return [str(name) for name in stored]
    return [f"example {index}" for index in range(len(docs))]


def docs_side(docs: Iterable["Doc"], reader: Any = None, role: str = "key", *, names: Optional[Sequence[str]] = None) -> Side:
    """``Doc`` objects as a side, clusters read by ``reader`` (default: span
    groups ``coref_clusters_N``), named ``names[i]`` (default
    :func:`example_names`). A side none of whose docs holds a span group
    the reader reads is scored with a warning (every entity of that side
    missing)."""
    reader = reader or PrefixedSpanGroups()
    docs = list(docs)
    names = list(names) if names is not None else example_names(docs)
    documents = [DocSideDocument(doc, doc_clusters(doc, reader), name) for doc, name in zip(docs, names)]
    found = {group for doc in docs for group in doc.spans}
    missing = missing_groups(reader, found) if docs else None
    warnings = []
    if missing:
        side = "reference" if role == "key" else "predicted"
        warnings.append(
            f"the {side} docs hold no coreference span group ({missing}), so every {side} entity is "
            f"missing; choose the span groups with the scorer's {side}_reader (or reader)"
        )
    return Side(Path(f"<{role} docs>"), DOCS, documents, warnings)


def token_offsets(doc: "Doc") -> Any:
    """Character start and end of every token of ``doc``."""
    from spacy.attrs import IDX, LENGTH

    if len(doc) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    array = doc.to_array([IDX, LENGTH]).astype(np.int64)
    return array[:, 0], array[:, 0] + array[:, 1]


def _same_tokens(reference: "Doc", predicted: "Doc") -> bool:
    """Whether two docs have the same tokens and spaces (so the same text),
    found without building either text."""
    from spacy.attrs import ORTH, SPACY

    if len(reference) != len(predicted):
        return False
    return bool(np.array_equal(reference.to_array([ORTH, SPACY]), predicted.to_array([ORTH, SPACY])))
