"""Counts of error kinds, in the spirit of Kummerfeld & Klein (2013), read
off the twinning of the scoring run itself (:attr:`CorpusResult.twinned`:
same matcher, same singleton handling; the twinless policy plays no part).

The kinds (:data:`ERROR_KIND_INFO`, the one table the text tables and the
HTML report read) overlap where the definitions do: the mentions of a
missing entity are missing mentions too. Every count takes linear time
(bincounts over the twinned label arrays), all documents at once.
"""

from dataclasses import dataclass

import numpy as np

from ..errors import CorefInputError
from ..model.clusters import ClustersLike
from ..scoring import CorpusResult, Settings, score_pairs
from ..twinning import TwinnedCorpus


@dataclass(frozen=True)
class ErrorKind:
    """One error kind: its key in the JSON, a short column label, a title
    and what it counts."""

    name: str
    short: str
    title: str
    description: str


ERROR_KIND_INFO: tuple[ErrorKind, ...] = (
    ErrorKind("span_errors", "Span", "Span errors", "twinned mentions whose spans differ (non-exact matching only)"),
    ErrorKind("missing_mentions", "Missing m.", "Missing mentions", "gold mentions with no predicted twin"),
    ErrorKind("extra_mentions", "Extra m.", "Extra mentions", "predicted mentions with no gold twin"),
    ErrorKind("missing_entities", "Missing e.", "Missing entities", "gold entities none of whose mentions is predicted"),
    ErrorKind("extra_entities", "Extra e.", "Extra entities", "predicted entities none of whose mentions is in the gold"),
    ErrorKind("divided_entities", "Divided e.", "Divided entities", "gold entities split over two or more predicted entities"),
    ErrorKind("conflated_entities", "Conflated e.", "Conflated entities", "predicted entities joining two or more gold entities"),
)
ERROR_KINDS: tuple[str, ...] = tuple(kind.name for kind in ERROR_KIND_INFO)
TOTAL = "total"


def error_counts(key: ClustersLike, response: ClustersLike, settings: Settings) -> dict[str, int]:
    """The count of every error kind (:data:`ERROR_KINDS`) in one document."""
    return corpus_error_counts(score_pairs([("document", key, response)], settings))["document"]


def corpus_error_counts(result: CorpusResult) -> dict[str, dict[str, int]]:
    """Error counts of every document of a scoring run, by name, and their
    sums under ``"total"`` (so no document may be named so)."""
    if TOTAL in result.names:
        raise CorefInputError(f"a document named {TOTAL!r} clashes with the corpus total of the error counts")
    if result.twinned is None:
        raise CorefInputError(
            "error kinds need the twinned mentions; results merged from saved counts, or scored in several "
            "processes without keep_twinned, have none"
        )
    table = count_errors(result.twinned)
    out = {name: dict(zip(ERROR_KINDS, row)) for name, row in zip(result.names, table.tolist())}
    out[TOTAL] = dict(zip(ERROR_KINDS, table.sum(axis=0).tolist()))
    return out


def count_errors(twinned: TwinnedCorpus) -> np.ndarray:
    """Every error kind per document: shape ``(n_docs, len(ERROR_KINDS))``."""
    n_docs = twinned.n_docs
    partitions = twinned.partitions()
    doc, key, response = partitions.doc, partitions.key, partitions.response
    found = (key >= 0) & (response >= 0)
    twinned_span = twinned.twinned & ~twinned.same_span
    columns = {
        "span_errors": _per_doc(twinned.response_doc[twinned_span], n_docs),
        "missing_mentions": _per_doc(doc[partitions.twinless_key], n_docs),
        "extra_mentions": _per_doc(doc[partitions.twinless_response], n_docs),
        "missing_entities": _unfound_entities(key, found, doc, n_docs=n_docs),
        "extra_entities": _unfound_entities(response, found, doc, n_docs=n_docs),
        "divided_entities": _spread_entities(key, response, found, doc=doc, n_docs=n_docs),
        "conflated_entities": _spread_entities(response, key, found, doc=doc, n_docs=n_docs),
    }
    return np.stack([columns[kind] for kind in ERROR_KINDS], axis=1).astype(np.int64)


def _per_doc(doc: np.ndarray, n_docs: int) -> np.ndarray:
    return np.bincount(doc, minlength=n_docs)


def _entity_docs(labels: np.ndarray, doc: np.ndarray) -> np.ndarray:
    """The document of every entity label of one side (labels are unique
    across the documents of a :class:`~spacy_coref_eval.twinning.Twinned`)."""
    present = labels >= 0
    out = np.zeros(int(labels.max()) + 1 if present.any() else 0, dtype=np.int64)
    out[labels[present]] = doc[present]
    return out


def _unfound_entities(labels: np.ndarray, found: np.ndarray, doc: np.ndarray, *, n_docs: int) -> np.ndarray:
    """Per document, entities of one side none of whose mentions has a twin."""
    entity_doc = _entity_docs(labels, doc)
    present = labels >= 0
    sizes = np.bincount(labels[present], minlength=len(entity_doc))
    twinned = np.bincount(labels[found], minlength=len(entity_doc))
    return _per_doc(entity_doc[(sizes > 0) & (twinned == 0)], n_docs)


def _spread_entities(labels: np.ndarray, other: np.ndarray, found: np.ndarray, *, doc: np.ndarray, n_docs: int) -> np.ndarray:
    """Per document, entities of one side whose twinned mentions lie in two
    or more entities of the other side: some twinned mention's entity on the
    other side differs from the one recorded for its entity."""
    entity_doc = _entity_docs(labels, doc)
    mine, theirs = labels[found], other[found]
    recorded = np.zeros(len(entity_doc), dtype=np.int64)
    recorded[mine] = theirs
    spread = np.zeros(len(entity_doc), dtype=bool)
    spread[mine[theirs != recorded[mine]]] = True
    return _per_doc(entity_doc[spread], n_docs)
