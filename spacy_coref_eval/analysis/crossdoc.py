"""Links within and across documents (docs/crossdoc.md §3): the counts of
MUC, BLANC and LEA, whose counts are links, taken apart into the links
between mentions of one document of a topic and the links between
mentions of two documents (Upadhyay et al. 2016 score the two apart).

BLANC's and LEA's within and across counts add up to the topic's counts;
MUC's within part is MUC on every document alone and its across part MUC
on the documents' pieces of every entity, which do not add up (MUC counts
a spanning tree of each entity, not its links)."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..assignment.blocks import components
from ..counting.contingency import Contingency
from ..counting.counts import BLOCK_INDEX, BLOCKS, FIELDS
from ..counting.importance import SIZE, LeaImportance
from ..counting.metrics import Quad, blanc, lea, muc
from ..counting.rates import stack_rates
from ..errors import CorefInputError
from ..scoring import CorpusResult, order_free_sum
from ..twinning.policies import apply_policy
from ..twinning.twinned import Twinned, TwinnedCorpus

LINK_METRICS = ("muc", "blanc", "lea")
PARTS = ("within", "across")


@dataclass(frozen=True)
class CrossDocument:
    """Counts of the link metrics within and across documents: ``counts``
    of shape ``(topics, 2, len(BLOCKS), len(FIELDS))`` (``PARTS`` order),
    the topics' ``names`` and the ``metrics`` computed."""

    names: tuple[str, ...]
    counts: np.ndarray
    metrics: tuple[str, ...]
    conventions: Any

    def rates(self, index: Any = None) -> dict[str, dict[str, dict]]:
        """``{"within": metrics block, "across": ...}`` of the corpus, or of
        topic ``index``."""
        counts = order_free_sum(self.counts) if index is None else self.counts[index]
        stacked = stack_rates(counts, self.metrics, self.conventions)
        return {part: {m: block[m] for m in self.metrics} for part, block in zip(PARTS, stacked)}

    def to_dict(self, per_doc: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = dict(self.rates())
        if per_doc:
            out["documents"] = {name: self.rates(index) for index, name in enumerate(self.names)}
        return out


def cross_document(result: CorpusResult, documents: Sequence[Any]) -> CrossDocument:
    """The within/across counts of a run scored with ``--cross-document``,
    ``documents`` its key topic documents (whose ``offsets`` give the
    documents of every topic)."""
    twinned = result.twinned
    if twinned is None:
        raise ValueError("links within and across documents need the run's twinning")
    part, topic_of_part = mention_parts(twinned, documents)
    importance = result.settings.lea_importance
    if importance.needs_types and "lea" in result.settings.metrics:
        raise CorefInputError("LEA's links within and across documents weigh entities by size or uniformly, not by type")
    recall, precision = apply_policy(result.settings.twinless, twinned.partitions())
    metrics = tuple(m for m in LINK_METRICS if m in result.settings.metrics)
    counts = np.zeros((twinned.n_docs, len(PARTS), len(BLOCKS), len(FIELDS)))
    recall_quads = link_quads(recall, part, topic_of_part, metrics=metrics, importance=importance)
    precision_quads = (
        recall_quads if precision is recall else link_quads(precision, part, topic_of_part, metrics=metrics, importance=importance)
    )
    for fields, quads in (((0, 1), recall_quads), ((2, 3), precision_quads)):
        for block, (within, total, across) in quads.items():
            for f in fields:
                counts[:, 0, BLOCK_INDEX[block], f] = within[f]
                counts[:, 1, BLOCK_INDEX[block], f] = total[f] - within[f] if across is None else across[f]
    return CrossDocument(tuple(result.names), counts, metrics, result.settings.conventions)


def mention_parts(twinned: TwinnedCorpus, documents: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """The document (numbered over the corpus) of every mention id of
    :meth:`~..twinning.twinned.TwinnedCorpus.partitions`, and the topic of
    every document."""
    starts = np.concatenate(
        [int(twinned.offsets[index]) + np.asarray(document.offsets[:-1], dtype=np.int64) for index, document in enumerate(documents)]
    )
    topic_of_part = np.repeat(np.arange(len(documents)), [len(d.offsets) - 1 for d in documents])
    n_key = len(twinned.key)
    twinless = twinned.twins < 0
    ids = twinned.twins.copy()
    ids[twinless] = n_key + np.arange(int(twinless.sum()))
    part = np.empty(n_key + int(twinless.sum()), dtype=np.int64)
    part[:n_key] = np.searchsorted(starts, twinned.key.starts, side="right") - 1
    part[ids] = np.searchsorted(starts, twinned.response.starts, side="right") - 1
    return part, topic_of_part


def link_quads(
    pair: Twinned, part: np.ndarray, topic_of_part: np.ndarray, *, metrics: Sequence[str], importance: LeaImportance = SIZE
) -> dict[str, tuple[Quad, Quad, Any]]:
    """For every count block of ``metrics``: the within quad, the total
    quad and the across quad where it is not the difference (MUC), each
    an array over topics; LEA weighs entities by ``importance``."""
    n_topics = pair.n_docs
    whole = Contingency.from_twinned(pair)
    within = Contingency.from_twinned(Twinned(_refined(pair.key, part), _refined(pair.response, part), part, len(topic_of_part)))

    def by_topic(quad: Quad) -> Quad:
        return tuple(np.bincount(topic_of_part, weights=q, minlength=n_topics) for q in quad)  # type: ignore[return-value]

    out: dict[str, tuple[Quad, Quad, Any]] = {}
    if "muc" in metrics:
        across = _muc_across(pair, part) + _muc_across(_swapped(pair), part)
        out["muc"] = (by_topic(muc(within)), muc(whole), across)
    if "blanc" in metrics:
        (coref, noncoref), (coref_all, noncoref_all) = blanc(within), blanc(whole)
        out["blanc_coref"] = (by_topic(coref), coref_all, None)
        out["blanc_noncoref"] = (by_topic(noncoref), noncoref_all, None)
    if "lea" in metrics:
        out["lea"] = (_lea_within(pair, part, importance) + _lea_within(_swapped(pair), part, importance), lea(whole, importance), None)
    return out


def _swapped(pair: Twinned) -> Twinned:
    return Twinned(pair.response, pair.key, pair.doc, pair.n_docs)


def _refined(labels: np.ndarray, part: np.ndarray) -> np.ndarray:
    """Every entity cut into its pieces in each document (-1 stays -1)."""
    out = np.full(len(labels), -1, dtype=np.int64)
    present = labels >= 0
    if present.any():
        out[present] = _groups(labels[present], part[present])[0]
    return out


def _groups(*columns: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct rows of nonnegative integer ``columns``: every row's
    group, one row of each group and the group sizes. The columns are
    coded as one integer (made dense first where it would overflow), then
    sorted once."""
    code = np.zeros(len(columns[0]), dtype=np.int64)
    for column in columns:
        width = int(column.max(initial=0)) + 1
        if (int(code.max(initial=0)) + 1) * width >= 2**62:
            code = np.unique(code, return_inverse=True)[1].reshape(-1)
        code = code * width + column
    order = np.argsort(code)
    ordered = code[order]
    new = np.r_[True, ordered[1:] != ordered[:-1]] if len(code) else np.zeros(0, dtype=bool)
    group = np.empty(len(code), dtype=np.int64)
    group[order] = np.cumsum(new) - 1
    starts = np.flatnonzero(new)
    return group, order[starts], np.diff(np.r_[starts, len(code)])


def _pairs(n: np.ndarray) -> np.ndarray:
    n = np.asarray(n, dtype=np.float64)
    return n * (n - 1) / 2


def _entities(labels: np.ndarray, doc: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The present mentions, their dense entity, every entity's size and
    topic."""
    present = np.flatnonzero(labels >= 0)
    entity, first, sizes = _groups(labels[present])
    return present, entity, sizes, doc[present][first]


def _muc_across(pair: Twinned, part: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """MUC recall counts over the documents' pieces of every key entity:
    Σ_i (pieces(k_i) − |pieces(k_i) joined by the response|) ÷
    Σ_i (pieces(k_i) − 1), joined where one response entity holds mentions
    of both."""
    present, entity, _, entity_doc = _entities(pair.key, pair.doc)
    n_topics = pair.n_docs
    if len(present) == 0:
        zero = np.zeros(n_topics)
        return zero, zero
    piece, first, _ = _groups(entity, part[present])
    piece_entity = entity[first]
    n_pieces = len(first)
    per_entity = np.bincount(piece_entity, minlength=len(entity_doc))
    linked = pair.response[present] >= 0
    cell, cell_first, _ = _groups(entity[linked], pair.response[present][linked])
    component = components(n_pieces + len(cell_first), piece[linked], n_pieces + cell)
    joined = np.unique(component[:n_pieces])
    joined_per_topic = np.bincount(entity_doc[piece_entity[joined]], minlength=n_topics)
    total_pieces = np.bincount(entity_doc, weights=per_entity, minlength=n_topics)
    den = np.bincount(entity_doc, weights=per_entity - 1, minlength=n_topics)
    return total_pieces - joined_per_topic, den


def _lea_within(pair: Twinned, part: np.ndarray, importance: LeaImportance = SIZE) -> tuple[np.ndarray, np.ndarray]:
    """LEA recall counts of the links within documents: Σ_i w(k_i) ·
    Σ_jd link(k_id ∩ r_j) / link(k_i) ÷ Σ_i w(k_i) · Σ_d link(k_id) /
    link(k_i) (d the documents; a singleton's self-link within; w the
    importance, |k_i| by default)."""
    present, entity, sizes, entity_doc = _entities(pair.key, pair.doc)
    n_topics = pair.n_docs
    if len(present) == 0:
        zero = np.zeros(n_topics)
        return zero, zero
    response = pair.response[present]
    response_sizes = np.bincount(pair.response[pair.response >= 0]) if (pair.response >= 0).any() else np.zeros(0)
    links = np.where(sizes > 1, _pairs(sizes), 1.0)
    _, first, piece_sizes = _groups(entity, part[present])
    own = np.bincount(entity[first], weights=_pairs(piece_sizes), minlength=len(sizes))
    own[sizes == 1] = 1.0
    linked = np.flatnonzero(response >= 0)
    _, first, counts = _groups(entity[linked], response[linked], part[present][linked])
    cell_entity, cell_response = entity[linked][first], response[linked][first]
    common = np.bincount(cell_entity, weights=_pairs(counts), minlength=len(sizes))
    alone = (sizes[cell_entity] == 1) & (response_sizes[cell_response] == 1)
    common[cell_entity[alone]] = 1.0
    weight = importance(sizes) / links
    return (
        np.bincount(entity_doc, weights=weight * common, minlength=n_topics),
        np.bincount(entity_doc, weights=weight * own, minlength=n_topics),
    )


def topic_documents(corpus: Any) -> list[Any]:
    """The key topic documents of a corpus paired with ``--cross-document``."""
    documents = list(getattr(corpus, "key_documents", ()))
    if not documents or not all(hasattr(d, "offsets") for d in documents):
        raise ValueError("links within and across documents need a corpus paired with --cross-document")
    return documents
