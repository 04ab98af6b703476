"""Documents given in memory as Python lists, checked at the edge and made
:class:`~spacy_coref_eval.model.clusters.Pair` s: a document is a list of
clusters, a cluster a list of ``(start, end)`` token spans or of mention
ids, or a row of the coref-data collection (``coref_chains``,
:mod:`~spacy_coref_eval.formats.indiscrim`; docs/python.md)."""

from collections.abc import Hashable, Mapping, Sequence
from operator import index
from os import PathLike
from typing import Any

from ..errors import CorefInputError
from ..formats.corpus import pair_documents
from ..formats.indiscrim.read import row_document
from ..model.clusters import Clusters, Pair

SPAN_ENDS = ("exclusive", "inclusive")
"""How the end of a ``(start, end)`` span counts: one past the last token
(spaCy, CoNLL readers of this package) or the last token (e2e-coref,
maverick, the coref-data collection)."""


def is_path(value: Any) -> bool:
    return isinstance(value, (str, bytes, PathLike))


def is_spacy(value: Any) -> bool:
    """Whether ``value`` is a list of spaCy ``Doc`` or ``Example`` objects
    (told apart without importing spaCy)."""
    return isinstance(value, (list, tuple)) and bool(value) and type(value[0]).__module__.split(".")[0] == "spacy"


def paired_lists(key: Any, response: Any, span_end: str = "exclusive") -> tuple[list[Pair], list[str]]:
    """The documents of ``key`` and ``response`` paired, with warnings:
    two dicts by name (key order; a missing response scores as empty, as
    in files), two lists by position (of the same length; named ``"0"``,
    ``"1"``, …)."""
    if span_end not in SPAN_ENDS:
        raise ValueError(f"span_end must be one of {SPAN_ENDS}, not {span_end!r}")
    key, response = _rows_by_id(key), _rows_by_id(response)
    if isinstance(key, Mapping) and isinstance(response, Mapping):
        _check_names(key, "key")
        _check_names(response, "response")
        triples, notes = pair_documents(dict(key), dict(response), [])
    elif _is_list(key) and _is_list(response):
        if len(key) != len(response):
            raise CorefInputError(
                f"the key has {len(key)} document(s) and the response {len(response)}: lists pair by position "
                "(give dicts {name: document} to pair by name)"
            )
        triples, notes = [(str(i), k, r) for i, (k, r) in enumerate(zip(key, response))], []
    else:
        raise CorefInputError(
            f"key and response must both be lists of documents or both dicts {{name: document}}, "
            f"not {type(key).__name__} and {type(response).__name__}"
        )
    return [document_pair(name, k, r, span_end=span_end) for name, k, r in triples], notes


def document_pair(name: str, key: Any, response: Any, *, span_end: str = "exclusive") -> Pair:
    """One document's key and response as a :class:`Pair`; mention ids are
    numbered over both sides, first appearance first, one token each."""
    sides = [_mentions(name, role, document) for role, document in (("key", key), ("response", response))]
    kinds = {kind for kind, _ in sides if kind is not None}
    if len(kinds) > 1:
        raise CorefInputError(f"document {name!r}: one side gives (start, end) spans and the other mention ids")
    if kinds == {"ids"}:
        numbers: dict[Hashable, int] = {}
        for _, entities in sides:
            for entity in entities:
                for mention in entity:
                    numbers.setdefault(mention, len(numbers))
        clusters = [Clusters.from_entities([[(numbers[m], numbers[m] + 1) for m in e] for e in entities]) for _, entities in sides]
        return Pair(name, clusters[0], clusters[1], len(numbers))
    shift = 1 if span_end == "inclusive" else 0
    built = []
    for role, (_, entities) in zip(("key", "response"), sides):
        if isinstance(entities, Clusters):
            built.append(entities)
            continue
        for number, entity in enumerate(entities):
            for start, end in entity:
                if start < 0 or end + shift <= start:
                    what = (
                        "before the first token"
                        if start < 0
                        else ("ends before it starts" if end < start else "is empty (end is exclusive: pass span_end='inclusive')")
                    )
                    raise CorefInputError(f"document {name!r}, {role} cluster {number}: span ({start}, {end}) {what}")
        built.append(Clusters.from_entities([[(s, e + shift) for s, e in entity] for entity in entities]))
    return Pair(name, built[0], built[1])


def _mentions(name: str, role: str, document: Any) -> tuple[Any, Any]:
    """``("spans", entities)``, ``("ids", entities)`` or ``(None, ...)`` for
    a document with no mention or given as :class:`Clusters`."""
    if isinstance(document, Clusters):
        return None, document
    if is_row(document):
        return None, row_document(document, f"the {role}").clusters
    if not _is_list(document):
        raise CorefInputError(f"document {name!r}: the {role} must be a list of clusters, not {type(document).__name__}")
    kind, entities = None, []
    for number, cluster in enumerate(document):
        where = f"document {name!r}, {role} cluster {number}"
        if is_path(cluster) or isinstance(cluster, Mapping) or not hasattr(cluster, "__iter__"):
            raise CorefInputError(f"{where}: a cluster is a list of mentions, not {type(cluster).__name__} {cluster!r}")
        mentions = []
        for mention in cluster:
            this, value = _mention(mention, where)
            if kind is not None and this != kind:
                raise CorefInputError(f"{where}: mixes (start, end) spans and mention ids")
            kind = this
            mentions.append(value)
        entities.append(mentions)
    return kind, entities


def _mention(mention: Any, where: str) -> tuple[str, Any]:
    if isinstance(mention, (str, int)) and not isinstance(mention, bool):
        return "ids", mention
    if _is_list(mention):
        if len(mention) != 2:
            raise CorefInputError(f"{where}: a span is (start, end), not {list(mention)!r}")
        try:
            return "spans", (index(mention[0]), index(mention[1]))
        except TypeError:
            raise CorefInputError(f"{where}: span {tuple(mention)!r} must hold two integers") from None
    try:
        return "ids", index(mention)
    except TypeError:
        raise CorefInputError(
            f"{where}: a mention is a (start, end) span or an id (int or str), not {type(mention).__name__} {mention!r}"
        ) from None


def is_row(value: Any) -> bool:
    """Whether ``value`` is a coref-data indiscrim row."""
    return isinstance(value, Mapping) and "coref_chains" in value


def _rows_by_id(documents: Any) -> Any:
    """A list of indiscrim rows as a dict by their ``id`` (else by
    position), so that two lists of rows pair by name; anything else as it is."""
    if not (_is_list(documents) and documents and all(is_row(row) for row in documents)):
        return documents
    named = {str(row.get("id", index)): row for index, row in enumerate(documents)}
    if len(named) < len(documents):
        raise CorefInputError("indiscrim rows with the same 'id' given twice on one side")
    return named


def _check_names(documents: Mapping[Any, Any], role: str) -> None:
    bad = next((name for name in documents if not isinstance(name, str)), None)
    if bad is not None:
        raise CorefInputError(f"the {role}'s document names must be strings, not {type(bad).__name__} {bad!r}")


def _is_list(value: Any) -> bool:
    """A list, tuple or array (anything sized and indexable but a string or mapping)."""
    return (isinstance(value, Sequence) or (hasattr(value, "__len__") and hasattr(value, "__getitem__"))) and not isinstance(
        value, (str, bytes, Mapping)
    )
