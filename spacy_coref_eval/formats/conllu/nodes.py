"""CorefUD documents as :class:`~spacy_coref_eval.model.clusters.Clusters` over
nodes (docs/corefud.md §1, §8).

A CorefUD mention is a set of nodes: words and empty nodes (``8.1``), the
union of its subspans when it is discontinuous. The tokens of a document
are therefore its nodes in file order, and a mention's tokens are the
positions of its nodes. Key and response must have the same words but may
have different empty nodes, so a pair is numbered on the union of both
files' nodes (``extra`` in :func:`node_order`): an empty node only one file has
then lies outside every mention of the other, and node ``5.1`` of the key
is node ``5.1`` of the response whatever its form, as in the CorefUD
scorer. A document without empty nodes or discontinuous mentions keeps
plain ranges over its words.
"""

from typing import Optional

import numpy as np

from ...model.clusters import Clusters, NodeSets
from ...model.tokens import Tokens
from .document import CorefUDDocument, node_key

EMPTY_FORM = "_"
"""The form of an empty node the file lacks (it has no form there)."""


def empty_keys(document: CorefUDDocument) -> np.ndarray:
    """The identities (:func:`~.conllu.node_key`) of the document's empty nodes."""
    return np.array([node.key for node in document.empty_nodes], dtype=np.int64)


def node_order(document: CorefUDDocument, extra: np.ndarray = np.zeros(0, dtype=np.int64)) -> np.ndarray:  # noqa: B008 (empty, never written)
    """The sorted identities of the document's nodes, with the empty nodes
    ``extra`` (another file's) added: position ``p`` is token ``p``."""
    keys = document.word_keys()
    if not document.empty_nodes and not len(extra):
        return keys
    keys = np.sort(np.concatenate([keys, empty_keys(document), extra]))
    return keys[np.append(True, keys[1:] != keys[:-1])] if len(keys) else keys


def node_clusters(document: CorefUDDocument, order: np.ndarray) -> Clusters:
    """The document's clusters with node positions in ``order`` as tokens:
    plain ranges when every mention is a range of nodes and none is a
    zero, else with every mention's node set (:class:`NodeSets`)."""
    starts, ends, heads, nodes = node_mentions(document, order)
    return Clusters.from_arrays(starts, ends, document.mention_entity, heads=heads, nodes=nodes, etypes=entity_types(document))


def node_mentions(document: CorefUDDocument, order: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, Optional[NodeSets]]:
    """Every mention's ``(start, end)``, head and node set (``None`` when
    all are plain ranges) over the node positions ``order``, in the
    document's mention order (for :func:`node_clusters`, and to stack the
    documents of a cross-document topic)."""
    words_only = len(order) == document.n_words
    if words_only and document.mention_contiguous.all():
        return document.mention_start, document.mention_end, document.mention_head, None
    word_position = np.searchsorted(order, document.word_keys())
    empty_position = np.searchsorted(order, empty_keys(document))
    sizes = (document.mention_end - document.mention_start).astype(np.int64)
    odd = sorted(set(document.mention_words) | set(document.mention_empty))
    odd_sets = {}
    for m in odd:
        positions = word_position[list(document.words_of(m))]
        empties = document.mention_empty.get(m)
        if empties:
            positions = np.sort(np.concatenate([positions, empty_position[list(empties)]]))
        odd_sets[m] = positions
        sizes[m] = len(positions)
    indptr = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    plain = np.ones(len(document), dtype=bool)
    plain[odd] = False
    offsets = np.repeat(document.mention_start[plain] - indptr[:-1][plain], sizes[plain])
    slots = np.flatnonzero(np.repeat(plain, sizes))
    tokens = np.empty(int(indptr[-1]), dtype=np.int64)
    tokens[slots] = word_position[slots + offsets]
    for m, positions in odd_sets.items():
        tokens[indptr[m] : indptr[m + 1]] = positions
    zero = document.mention_zero.astype(bool)
    heads = np.empty(len(document), dtype=np.int64)
    heads[~zero] = word_position[document.mention_head[~zero]]
    heads[zero] = empty_position[document.mention_head[zero]]
    starts = tokens[indptr[:-1]] if len(document) else tokens
    ends = tokens[indptr[1:] - 1] + 1 if len(document) else tokens
    nodes = None
    if zero.any() or np.any(ends - starts != sizes):
        nodes = NodeSets(indptr, tokens, zero, _zero_deps(document, zero))
    return starts, ends, heads, nodes


def entity_types(document: CorefUDDocument) -> Optional[np.ndarray]:
    """Every entity's ``etype``: that of its first mention giving one (as
    udapi keeps it); ``None`` when no mention gives one."""
    if not any(document.mention_etype):
        return None
    types: list[Optional[str]] = [None] * len(document.entities)
    for entity, etype in zip(document.mention_entity.tolist(), document.mention_etype):
        if etype and types[entity] is None:
            types[entity] = etype
    out = np.empty(len(types), dtype=object)
    out[:] = types
    return out


def _zero_deps(document: CorefUDDocument, zero: np.ndarray) -> Optional[np.ndarray]:
    """What dependent zero matching reads of each zero mention: its head's
    sentence and enhanced dependencies (``None`` for other mentions)."""
    if not zero.any():
        return None
    deps = np.full(len(document), None, dtype=object)
    for m in np.flatnonzero(zero).tolist():
        head = document.empty_nodes[int(document.mention_head[m])]
        deps[m] = (head.sentence, head.deps)
    return deps


def node_forms(document: CorefUDDocument, order: np.ndarray, other: Optional[CorefUDDocument] = None) -> list[str]:
    """The form of every node in ``order``: words, then empty nodes of this
    file or of ``other``, :data:`EMPTY_FORM` for those neither has."""
    if len(order) == document.n_words:
        return list(document.words)
    forms = [EMPTY_FORM] * len(order)
    for position, word in zip(np.searchsorted(order, document.word_keys()).tolist(), document.words):
        forms[position] = word
    for source in (other, document):
        if source is not None:
            for node in source.empty_nodes:
                position = int(np.searchsorted(order, node.key))
                if position < len(order) and order[position] == node.key:
                    forms[position] = node.form
    return forms


def node_sentence_starts(document: CorefUDDocument, order: np.ndarray) -> np.ndarray:
    """The first node position of every sentence."""
    if len(order) == document.n_words:
        return document.sentence_starts[:-1]
    first_keys = np.array([node_key(s, 0) for s in range(document.n_sentences)], dtype=np.int64)
    return np.searchsorted(order, first_keys)


def node_tokens(document: CorefUDDocument, order: np.ndarray) -> Tokens:
    """Token information over nodes: the word columns, ``_`` for empty nodes."""
    starts = node_sentence_starts(document, order)
    if len(order) == document.n_words:
        return Tokens.from_columns(document.words, starts, document.upos, xpos=document.xpos, feats=document.feats)
    positions = np.searchsorted(order, document.word_keys()).tolist()
    columns = []
    for values in (document.upos, document.xpos, document.feats):
        column = [EMPTY_FORM] * len(order)
        for position, value in zip(positions, values):
            column[position] = value
        columns.append(column)
    upos, xpos, feats = columns
    return Tokens.from_columns(node_forms(document, order), starts, upos, xpos=xpos, feats=feats)
