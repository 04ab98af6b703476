"""Counts of error kinds, in the spirit of Kummerfeld & Klein (2013), read
off the twinned key and response of the scoring run itself (same matcher,
same singleton handling; the twinless policy plays no part).

With a twin pair being a key mention and its response twin (SPEC §3):

- ``span_errors``: twin pairs whose spans differ (only under a non-exact
  matcher);
- ``missing_mentions``: key mentions without a twin;
- ``extra_mentions``: response mentions without a twin;
- ``missing_entities``: key entities none of whose mentions has a twin;
- ``extra_entities``: response entities none of whose mentions has a twin;
- ``divided_entities``: key entities whose twinned mentions lie in two or
  more response entities (one gold entity split by the system);
- ``conflated_entities``: response entities whose twinned mentions lie in
  two or more key entities (gold entities joined by the system).

The kinds overlap where the definitions do: the mentions of a missing
entity are missing mentions too. Every count takes linear time (bincounts
over the twinned label arrays), all documents at once.
"""
from dataclasses import replace
from typing import Dict, Iterable, List, Tuple

import numpy as np

from ..clusters import Clusters
from ..errors import CorefInputError
from ..scoring import Pair, Settings, as_clusters, twin_documents
from ..twinning import ExactMatcher

ERROR_KINDS: Tuple[str, ...] = (
    "span_errors", "missing_mentions", "extra_mentions", "missing_entities",
    "extra_entities", "divided_entities", "conflated_entities",
)
TOTAL = "total"


def error_counts(key: Clusters, response: Clusters, settings: Settings) -> Dict[str, int]:
    """The count of every error kind (:data:`ERROR_KINDS`) in one document."""
    return _count([(key, response)], settings)[0]


def corpus_error_counts(pairs: Iterable[Pair], settings: Settings) -> Dict[str, Dict[str, int]]:
    """Error counts of every ``(name, key, response)`` document, by name,
    and their sums under ``"total"`` (so no document may be named so)."""
    pairs = list(pairs)
    names = [name for name, _, _ in pairs]
    if TOTAL in names:
        raise CorefInputError(f"a document named {TOTAL!r} clashes with the corpus total of the error counts")
    per_doc = _count([(as_clusters(k), as_clusters(r)) for _, k, r in pairs], settings)
    out = dict(zip(names, per_doc))
    out[TOTAL] = {kind: sum(doc[kind] for doc in per_doc) for kind in ERROR_KINDS}
    return out


def _count(pairs: List[Tuple[Clusters, Clusters]], settings: Settings) -> List[Dict[str, int]]:
    if not pairs:
        return []
    twinned = twin_documents(pairs, settings)
    doc, n_docs = twinned.documents, len(pairs)
    found = (twinned.key >= 0) & (twinned.response >= 0)
    columns = {
        "span_errors": _span_errors(pairs, settings, found, doc),
        "missing_mentions": _per_doc(doc[twinned.twinless_key], n_docs),
        "extra_mentions": _per_doc(doc[twinned.twinless_response], n_docs),
        "missing_entities": _unfound_entities(twinned.key, found, doc, n_docs),
        "extra_entities": _unfound_entities(twinned.response, found, doc, n_docs),
        "divided_entities": _spread_entities(twinned.key, twinned.response, found, doc, n_docs),
        "conflated_entities": _spread_entities(twinned.response, twinned.key, found, doc, n_docs),
    }
    return [{kind: int(columns[kind][d]) for kind in ERROR_KINDS} for d in range(n_docs)]


def _span_errors(
    pairs: List[Tuple[Clusters, Clusters]], settings: Settings, found: np.ndarray, doc: np.ndarray
) -> np.ndarray:
    """Twin pairs less those of identical spans: every matcher twins
    identical spans first (SPEC §3), so the rest are the pairs whose spans
    differ."""
    if isinstance(settings.matcher, ExactMatcher):
        return np.zeros(len(pairs), dtype=np.int64)
    exact = twin_documents(pairs, replace(settings, matcher="exact"))
    same_span = (exact.key >= 0) & (exact.response >= 0)
    return _per_doc(doc[found], len(pairs)) - _per_doc(exact.documents[same_span], len(pairs))


def _per_doc(doc: np.ndarray, n_docs: int) -> np.ndarray:
    return np.bincount(doc, minlength=n_docs)


def _entity_docs(labels: np.ndarray, doc: np.ndarray) -> np.ndarray:
    """The document of every entity label of one side (labels are unique
    across the documents of a :class:`~spacy_coref_eval.twinning.Twinned`)."""
    present = labels >= 0
    out = np.zeros(int(labels.max()) + 1 if present.any() else 0, dtype=np.int64)
    out[labels[present]] = doc[present]
    return out


def _unfound_entities(labels: np.ndarray, found: np.ndarray, doc: np.ndarray, n_docs: int) -> np.ndarray:
    """Per document, entities of one side none of whose mentions has a twin."""
    entity_doc = _entity_docs(labels, doc)
    present = labels >= 0
    sizes = np.bincount(labels[present], minlength=len(entity_doc))
    twinned = np.bincount(labels[found], minlength=len(entity_doc))
    return _per_doc(entity_doc[(sizes > 0) & (twinned == 0)], n_docs)


def _spread_entities(
    labels: np.ndarray, other: np.ndarray, found: np.ndarray, doc: np.ndarray, n_docs: int
) -> np.ndarray:
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

