"""Partial gold (docs/long-documents.md §4): when the key annotates only
some entities (BookCoref annotates characters only), a response entity
none of whose mentions twins a key mention is set aside — counted and
listed, not scored as precision errors — and the run rescored without
it; everything else as usual. With ``--key-types``, only such entities
whose type is not one the key annotates are set aside (where the input
carries entity types)."""

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Optional

import numpy as np

from ..errors import CorefInputError
from ..model.clusters import Pair
from ..scoring import CorpusResult, score_pairs
from .builtin import words
from .document_errors import DocumentErrors
from .error_list import document_error_list
from .registry import Context
from .waterfall import rescoring_settings


def key_types(values: Mapping[str, Any]) -> Optional[list[str]]:
    """The entity types of ``--key-types``, or ``None``."""
    given = values.get("key_types")
    if not given:
        return None
    return [part.strip() for part in given.split(",") if part.strip()]


def set_aside(doc: DocumentErrors, types: Optional[Sequence[str]]) -> np.ndarray:
    """The response entities of ``doc`` set aside: no mention twinned, and
    with ``types`` a type not among them (``None`` when unknown is kept
    out of the set when types are given only if stated)."""
    extra = np.asarray(doc.extra_entities, dtype=np.int64)
    if types is None or not len(extra):
        return extra
    etypes = doc.response.etypes
    if etypes is None:
        raise CorefInputError("--key-types needs entity types in the response (CorefUD CoNLL-U etype)")
    return np.array([e for e in extra.tolist() if etypes[e] not in types], dtype=np.int64)


def adjust(context: Context) -> CorpusResult:
    """The run rescored with every set-aside response entity removed (the
    run's settings and warnings kept)."""
    result = context.result
    twinned = result.twinned
    if twinned is None:
        raise CorefInputError("--partial-gold needs the twinned mentions; results merged from saved counts have none")
    types = key_types(context.values)
    extents = np.diff(np.append(twinned.offsets, twinned.size)) - 1
    pairs = []
    for d, (name, extent) in enumerate(zip(result.names, extents.tolist())):
        doc = DocumentErrors.of(twinned, d)
        keep = ~np.isin(doc.response.entity, set_aside(doc, types))
        pairs.append(Pair(name, doc.key, doc.response.subset(keep), int(extent)))
    rescored = score_pairs(pairs, rescoring_settings(result.settings), keep_twinned=True)
    return replace(rescored, settings=result.settings, warnings=list(result.warnings))


def compute(context: Context) -> dict[str, Any]:
    """The ``partial_gold`` block, read off the run as scored before
    (``context.result`` is the original run): how many response entities
    and mentions were set aside, and per document the entities with their
    mentions (as the error list writes them)."""
    twinned = context.result.twinned
    assert twinned is not None
    types = key_types(context.values)
    every = words(context.corpus) or {}
    documents: dict[str, list[dict[str, Any]]] = {}
    n_entities = n_mentions = 0
    for d, name in enumerate(context.result.names):
        doc = DocumentErrors.of(twinned, d)
        aside = set(set_aside(doc, types).tolist())
        if not aside:
            continue
        listed = document_error_list(doc, every.get(name))["extra_entities"]
        entries = [entry for entry in listed if entry["entity"] - 1 in aside]
        documents[name] = entries
        n_entities += len(entries)
        n_mentions += sum(len(entry["mentions"]) for entry in entries)
    return {"key_types": types, "entities": n_entities, "mentions": n_mentions, "documents": documents}
