"""Cross-document topics of CorefUD CoNLL-U files (docs/crossdoc.md §1):
mentions whose ``Entity=`` ids are equal form one entity across the
``# newdoc`` documents of a topic, scored as the concatenation of the
topic's documents read as one document."""

from collections.abc import Sequence
from typing import Any, Optional

import numpy as np

from ..model.clusters import Clusters, NodeSets
from .conllu.document import CorefUDDocument, check_aligned
from .conllu.nodes import empty_keys, node_forms, node_mentions, node_order, node_sentence_starts
from .conllu.side import ConlluSideDocument
from .document import Side
from .topic_document import TopicDocument

Part = tuple[CorefUDDocument, np.ndarray]


def is_conllu(side: Side) -> bool:
    """Whether every document of ``side`` is a CoNLL-U one (and there is one)."""
    return bool(side.documents) and all(isinstance(d, ConlluSideDocument) for d in side.documents)


def conllu_topic(topic: str, members: Sequence[tuple[str, Any, Optional[Any]]]) -> tuple[Clusters, Clusters, Any]:
    """One topic's key and response clusters and its key document: every
    paired document on the union of both sides' nodes (as a pair alone is,
    :meth:`~.conllu.side.ConlluSideDocument.paired_with`; a missing
    response document is empty), one after the other."""
    orders = []
    for _, key, response in members:
        if response is not None:
            check_aligned(key.document, response.document)
        extra = empty_keys(response.document) if response is not None else np.zeros(0, dtype=np.int64)
        orders.append(node_order(key.document, extra))
    offsets = np.cumsum([0] + [len(order) for order in orders]).astype(np.int64)
    sentences = np.cumsum([0] + [k.document.n_sentences for _, k, _ in members]).astype(np.int64)
    key = stack_nodes([(k.document, order) for (_, k, _), order in zip(members, orders)], offsets, sentences)
    response = stack_nodes(
        [(r.document, order) if r is not None else None for (_, _, r), order in zip(members, orders)], offsets, sentences
    )
    words: list[str] = []
    starts: list[int] = []
    for (_, k, r), order, offset in zip(members, orders, offsets):
        words.extend(node_forms(k.document, order, r.document if r is not None else None))
        starts.extend((node_sentence_starts(k.document, order) + offset).tolist())
    first = members[0][1].document
    document = TopicDocument(
        topic,
        key,
        int(offsets[-1]),
        first.source,
        line=first.line,
        words=words,
        sentence_starts=starts or [0],
        pos=None,
        parts=tuple(k.name for _, k, _ in members),
        offsets=offsets,
    )
    return key, response, document


def stack_nodes(parts: Sequence[Optional[Part]], offsets: np.ndarray, sentences: np.ndarray) -> Clusters:
    """The clusters of documents ``parts`` (each with its node order)
    placed at ``offsets``: mentions in document order, then as each
    document orders them; one entity per ``Entity=`` id, entities in order
    of first mention, each typed by the first ``etype`` its mentions state;
    zero mentions' heads numbered in the topic's sentences (document
    ``i``'s first being ``sentences[i]``)."""
    given = [(index, part) for index, part in enumerate(parts) if part is not None and len(part[0])]
    if not given:
        return Clusters()
    columns = [node_mentions(document, order) for _, (document, order) in given]
    sizes = [len(column[0]) for column in columns]
    shift = np.repeat(offsets[[index for index, _ in given]], sizes)
    starts = np.concatenate([column[0] for column in columns]).astype(np.int64) + shift
    ends = np.concatenate([column[1] for column in columns]).astype(np.int64) + shift
    heads = np.concatenate([column[2] for column in columns]).astype(np.int64)
    heads = np.where(heads >= 0, heads + shift, -1)
    nodes = None
    if any(column[3] is not None for column in columns):
        nodes = NodeSets.concat(
            [
                _renumbered(column[3], int(sentences[index])) if column[3] is not None else NodeSets.of_ranges(column[0], column[1])
                for (index, _), column in zip(given, columns)
            ]
        ).shifted(shift)
    ids = np.concatenate([np.asarray(document.entities, dtype=object)[document.mention_entity] for _, (document, _) in given])
    _, first, inverse = np.unique(ids.astype(str), return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    labels = rank[inverse.reshape(-1)]
    return Clusters.from_arrays(starts, ends, labels, heads=heads, nodes=nodes, etypes=_first_types(given, labels, len(first)))


def _renumbered(nodes: NodeSets, sentences: int) -> NodeSets:
    """``nodes`` with its zero mentions' head sentences moved ``sentences`` on."""
    if nodes.zero_deps is None or not sentences:
        return nodes
    deps = np.array([None if dep is None else (dep[0] + sentences, dep[1]) for dep in nodes.zero_deps], dtype=object)
    return NodeSets(nodes.indptr, nodes.tokens, nodes.zero, deps)


def _first_types(given: Sequence[tuple[int, Part]], labels: np.ndarray, n_entities: int) -> Optional[np.ndarray]:
    etypes = np.array([etype for _, (document, _) in given for etype in document.mention_etype], dtype=object)
    stated = np.flatnonzero((etypes != None) & (etypes != ""))  # noqa: E711 (elementwise)
    if not len(stated):
        return None
    out = np.full(n_entities, None, dtype=object)
    entities, first = np.unique(labels[stated], return_index=True)
    out[entities] = etypes[stated[first]]
    return out
