"""Cross-document scoring of spaCy examples (docs/crossdoc.md §6): the
docs of one scoring call share entity ids through a labelled span group,
spans with the same attribute (``kb_id_``, ``id_`` or ``label_``) being
one entity in whichever doc they lie, and the call's docs form one topic."""

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import numpy as np

from ..errors import CorefInputError
from ..formats.docbin.examples import DocSideDocument, docs_side
from ..formats.docbin.spans import LabeledSpanGroup
from ..formats.document import RawMentions, Side
from ..report.spacy_scores import prf_keys

SINGLE = "\x00"
"""Starts the id of a span whose attribute is empty: an entity of its own."""


def check_readers(readers: Sequence[Any]) -> None:
    """Cross-document scoring needs entity ids: a labelled span group on both sides."""
    if not all(isinstance(reader, LabeledSpanGroup) for reader in readers):
        raise ValueError(
            "cross_document needs entity ids shared across docs: read both sides with "
            "spacy_coref_eval.labeled_span_group.v1 (spans with the same kb_id_, id_ or label_ are one entity)"
        )


def ids_side(docs: Iterable[Any], reader: LabeledSpanGroup, role: str) -> Side:
    """The docs as a side whose documents keep every mention's entity id."""
    side = docs_side(docs, reader, role)
    for index, document in enumerate(side.documents):
        document.mentions = doc_mentions(cast(DocSideDocument, document).doc, reader, index)  # docs_side builds them
    return side


def doc_mentions(doc: Any, reader: LabeledSpanGroup, index: int) -> RawMentions:
    """One doc's mentions in reading order, their entities numbered by
    first appearance in the group, each with its entity id (the reader's
    attribute; a span without one alone in its entity)."""
    rows: list[tuple] = []
    ids: list[str] = []
    for label, entity in enumerate(reader(doc)):
        value = getattr(entity[0], reader.attr)
        ids.append(value if value else f"{SINGLE}{index}.{label}")
        rows.extend((span.start, span.end, label) for span in entity)
    rows.sort()
    columns = np.array(rows, dtype=np.int64).reshape(-1, 3)
    labels = columns[:, 2]
    return RawMentions(columns[:, 0], columns[:, 1], labels, np.array(ids, dtype=str)[labels] if ids else np.zeros(0, dtype=str))


def check_tokens(examples: Sequence[Any]) -> None:
    """Predicted docs on the reference's tokens: their spans are placed at
    the reference's offsets in the topic."""
    for index, example in enumerate(examples):
        reference, predicted = example.reference, example.predicted
        if len(reference) != len(predicted) or [t.text for t in reference] != [t.text for t in predicted]:
            raise CorefInputError(f"example {index}: cross-document scoring needs the predicted doc on the reference's tokens")


def link_keys(block: Mapping[str, Mapping[str, Mapping[str, float]]]) -> dict[str, float]:
    """``coref_<metric>_within_{p,r,f}`` and ``coref_<metric>_across_{p,r,f}``
    of the link metrics (MUC, BLANC, LEA) of a ``cross_document`` block."""
    out: dict[str, float] = {}
    for part in ("within", "across"):
        for metric, scores in block[part].items():
            out.update(prf_keys(f"coref_{metric}_{part}", scores))
    return out
