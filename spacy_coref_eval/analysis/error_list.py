"""Every error of a scoring run, listed per document (docs/analyses.md §2):
each missing and extra mention, each span error with its twin, each
missing, extra, divided and conflated entity with its members, read off
the run's own twinning in a fixed order, for grepping and diffing."""

from collections.abc import Mapping, Sequence
from typing import Any, Optional

import numpy as np

from ..errors import CorefInputError
from ..model.clusters import Clusters
from ..scoring import CorpusResult
from .document_errors import DocumentErrors, entity_members
from .error_types import ERROR_KINDS

Entry = dict[str, Any]


def error_list(
    result: CorpusResult,
    words: Optional[Mapping[str, Sequence[str]]] = None,
    *,
    key_documents: Optional[Sequence[Any]] = None,
    response_documents: Optional[Sequence[Any]] = None,
) -> dict[str, dict[str, list[Entry]]]:
    """Per document name, in corpus order, per error kind
    (:data:`~.error_types.ERROR_KINDS`, the kinds ``--errors`` counts),
    the errors themselves; with the key's ``words`` by document name, each
    mention's text too; with the run's key and response documents (in
    result order), every entity's id as its file writes it, where the
    format has ids (:meth:`~..formats.document.SideDocument.mention_ids`)."""
    twinned = result.twinned
    if twinned is None:
        raise CorefInputError("the error list needs the twinned mentions; results merged from saved counts have none")
    out = {}
    for index, name in enumerate(result.names):
        ids = (document_ids(key_documents, index), document_ids(response_documents, index))
        out[name] = document_error_list(DocumentErrors.of(twinned, index), (words or {}).get(name), ids)
    return out


def document_ids(documents: Optional[Sequence[Any]], index: int) -> Optional[dict[tuple[int, int], str]]:
    """The entity id of every mention span of document ``index``, where it has ids."""
    document = documents[index] if documents is not None and index < len(documents) else None
    given = document.mention_ids() if document is not None else None
    if given is None:
        return None
    starts, ends, ids = given
    return dict(zip(zip(starts.tolist(), ends.tolist()), ids.tolist()))


def document_error_list(
    doc: DocumentErrors,
    words: Optional[Sequence[str]] = None,
    ids: tuple[Optional[Mapping[tuple[int, int], str]], Optional[Mapping[tuple[int, int], str]]] = (None, None),
) -> dict[str, list[Entry]]:
    """The errors of one document (docs/analyses.md §2). Mentions are
    ``{"span": [start, end], "entity": n}`` (tokens from 0, end exclusive;
    entities numbered from 1 in the order of the scored mentions of their
    side) with ``"text"`` when ``words`` are given and ``"entity_id"``, the
    id its file writes, where ``ids`` (by mention span, of the key and of the
    response) give one; mentions by position, entities by number."""
    key, response = doc.key, doc.response
    key_view, response_view = _Side(key, words, ids[0]), _Side(response, words, ids[1])
    missing_whole = ~doc.found_key_entities
    extra_whole = ~doc.found_response_entities
    out: dict[str, list[Entry]] = {kind: [] for kind in ERROR_KINDS}
    for r in _by_position(key, doc.twins[doc.span_errors], doc.span_errors):
        out["span_errors"].append({"key": key_view.mention(int(doc.twins[r])), "response": response_view.mention(r)})
    for k in _by_position(key, doc.twinless_key):
        out["missing_mentions"].append({**key_view.mention(k), "entity_missing": bool(missing_whole[key.entity[k]])})
    for r in _by_position(response, doc.twinless_response):
        out["extra_mentions"].append({**response_view.mention(r), "entity_extra": bool(extra_whole[response.entity[r]])})
    key_members, response_members = entity_members(key), entity_members(response)
    for g in doc.missing_entities.tolist():
        out["missing_entities"].append({**key_view.entity(g), "mentions": key_view.members(key_members[g])})
    for e in doc.extra_entities.tolist():
        out["extra_entities"].append({**response_view.entity(e), "mentions": response_view.members(response_members[e])})
    key_twin = doc.key_twin
    for g in doc.divided_entities.tolist():
        members = key_members[g][key_twin[key_members[g]] >= 0]
        parts = _parts(response.entity[key_twin[members]], members)
        out["divided_entities"].append(
            {
                **key_view.entity(g),
                "parts": [{**response_view.entity(e, "response_"), "mentions": key_view.members(part)} for e, part in parts],
            }
        )
    for e in doc.conflated_entities.tolist():
        members = response_members[e][doc.twins[response_members[e]] >= 0]
        parts = _parts(key.entity[doc.twins[members]], members)
        out["conflated_entities"].append(
            {
                **response_view.entity(e),
                "parts": [{**key_view.entity(g, "key_"), "mentions": response_view.members(part)} for g, part in parts],
            }
        )
    return out


class _Side:
    """How the mentions of one side are written in the list."""

    def __init__(self, clusters: Clusters, words: Optional[Sequence[str]], ids: Optional[Mapping[tuple[int, int], str]] = None) -> None:
        self.clusters = clusters
        self.words = words
        self.sets = clusters.node_sets() if clusters.nodes is not None else None
        self.ids = entity_ids(clusters, ids)

    def entity(self, e: int, prefix: str = "") -> Entry:
        """Entity ``e`` by number and, where its file has one, by id."""
        out: Entry = {f"{prefix}entity": e + 1}
        if e < len(self.ids) and self.ids[e] is not None:
            out[f"{prefix}entity_id"] = self.ids[e]
        return out

    def span(self, m: int) -> Entry:
        out: Entry = {"span": [int(self.clusters.starts[m]), int(self.clusters.ends[m])]}
        if self.sets is not None and self.clusters.scattered()[m]:
            out["tokens"] = self.sets.of(m).tolist()
        if self.words is not None:
            tokens = self.sets.of(m).tolist() if self.sets is not None else range(out["span"][0], out["span"][1])
            out["text"] = " ".join(self.words[t] for t in tokens if t < len(self.words))
        return out

    def mention(self, m: int) -> Entry:
        return {**self.span(m), **self.entity(int(self.clusters.entity[m]))}

    def members(self, mentions: np.ndarray) -> list[Entry]:
        return [self.span(m) for m in _by_position(self.clusters, mentions)]


def entity_ids(clusters: Clusters, ids: Optional[Mapping[tuple[int, int], str]]) -> list[Optional[str]]:
    """Every entity's id as its file writes it: that of its first mention's
    span in ``ids`` (:func:`document_ids`; ``None`` where it has none)."""
    if not ids:
        return []
    starts, ends = clusters.starts.tolist(), clusters.ends.tolist()
    return [ids.get((starts[members[0]], ends[members[0]])) if len(members) else None for members in entity_members(clusters)]


def _by_position(clusters: Clusters, mentions: np.ndarray, carried: Optional[np.ndarray] = None) -> list[int]:
    """``carried`` (default ``mentions``) ordered by the position of
    ``mentions`` of ``clusters``: start, then end."""
    carried = mentions if carried is None else carried
    order = np.lexsort((clusters.ends[mentions], clusters.starts[mentions]))
    return carried[order].tolist()


def _parts(entities: np.ndarray, members: np.ndarray) -> list[tuple]:
    """``members`` grouped by their entity on the other side, by entity number."""
    return [(int(e), members[entities == e]) for e in np.unique(entities).tolist()]
