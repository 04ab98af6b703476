"""The error-impact waterfall: the response fixed one error kind at a time
(Kummerfeld & Klein 2013's transformations, as docs/analyses.md §1 defines
them on the run's twinning) and rescored after every step, cumulatively
and each kind alone. The response after a set of fixes depends on the set
only, not on the order they were applied in, and the response with every
kind fixed is the key."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Optional

import numpy as np

from ..counting.rates import score_arrays
from ..errors import CorefInputError
from ..model.clusters import Clusters, NodeSets, Pair
from ..scoring import CorpusResult, Settings, order_free_sum, score_pairs
from .document_errors import DocumentErrors

WATERFALL_ORDER: tuple[str, ...] = (
    "span_errors",
    "missing_mentions",
    "extra_mentions",
    "conflated_entities",
    "divided_entities",
    "missing_entities",
    "extra_entities",
)
"""The kinds in the order the waterfall fixes them (docs/analyses.md §1):
conflated entities are split before divided ones are merged, as in
Kummerfeld & Klein's repair, so that a merge never joins two key entities."""


def fixed_response(doc: DocumentErrors, kinds: Iterable[str]) -> Clusters:
    """The response of ``doc`` with every error of ``kinds`` fixed
    (docs/analyses.md §1): span errors take their twin's tokens; missing
    mentions join the part of the response holding most of their entity;
    extra mentions, extra entities go; divided entities are merged,
    conflated entities split; missing entities come in whole."""
    kinds = frozenset(kinds)
    unknown = kinds - set(WATERFALL_ORDER)
    if unknown:
        raise ValueError(f"unknown error kind(s) {sorted(unknown)}; choose from {list(WATERFALL_ORDER)}")
    key, response, twins = doc.key, doc.response, doc.twins
    group = _Groups(doc, "conflated_entities" in kinds, "divided_entities" in kinds)
    found = doc.twinned
    respan = np.zeros(len(response), dtype=bool)
    if "span_errors" in kinds:
        respan[doc.span_errors] = True
    cells = group.cell(key.entity[twins[found]], response.entity[found])
    key_parts = [twins[found[respan[found]]]]
    key_codes = [cells[respan[found]]]
    response_parts = [found[~respan[found]]]
    response_codes = [cells[~respan[found]]]
    if "missing_mentions" in kinds:
        missing = doc.missing_mentions
        g = key.entity[missing]
        key_parts.append(missing)
        key_codes.append(group.cell(g, doc.main_response_entity[g]))
    if "missing_entities" in kinds:
        whole = doc.twinless_key[~doc.found_key_entities[key.entity[doc.twinless_key]]]
        key_parts.append(whole)
        key_codes.append(group.key_entity(key.entity[whole]))
    if "extra_mentions" not in kinds:
        extra = doc.extra_mentions
        e = response.entity[extra]
        response_parts.append(extra)
        response_codes.append(group.cell(doc.main_key_entity[e], e))
    if "extra_entities" not in kinds:
        whole = doc.twinless_response[~doc.found_response_entities[response.entity[doc.twinless_response]]]
        response_parts.append(whole)
        response_codes.append(group.response_entity(response.entity[whole]))
    return _gathered(
        key,
        response,
        from_key=np.concatenate(key_parts),
        from_response=np.concatenate(response_parts),
        codes=np.concatenate(key_codes + response_codes),
    )


class _Groups:
    """The entity code of a cell (key entity g, response entity e) in a
    state: g when conflated and divided entities are both fixed, (e, g)
    when only conflated ones, e's component when only divided ones, else
    e; each kind of code in a range of its own, so that they never meet."""

    def __init__(self, doc: DocumentErrors, split: bool, merge: bool) -> None:
        self.doc, self.split, self.merge = doc, split, merge
        self.n_key = max(doc.key.n_entities, 1)
        self.width = self.n_key * (doc.response.n_entities + 1)

    def key_entity(self, g: np.ndarray) -> np.ndarray:
        return g.astype(np.int64)

    def response_entity(self, e: np.ndarray) -> np.ndarray:
        return 3 * self.width + e.astype(np.int64)

    def cell(self, g: np.ndarray, e: np.ndarray) -> np.ndarray:
        if self.split and self.merge:
            return self.key_entity(g)
        if self.split:
            return self.width + e.astype(np.int64) * self.n_key + g
        if self.merge:
            return 2 * self.width + self.doc.components[e]
        return self.response_entity(e)


def _gathered(key: Clusters, response: Clusters, *, from_key: np.ndarray, from_response: np.ndarray, codes: np.ndarray) -> Clusters:
    """Clusters of the key mentions ``from_key`` and the response mentions
    ``from_response``, entity code ``codes[i]`` for the i-th of them;
    entities in order of first appearance by position, mentions by
    position inside them. Heads as the response has them (the key's for
    key mentions), token sets where either side has them."""
    from_key, from_response = from_key.astype(np.int64), from_response.astype(np.int64)
    starts = np.concatenate([key.starts[from_key], response.starts[from_response]])
    ends = np.concatenate([key.ends[from_key], response.ends[from_response]])
    by_position = np.lexsort((ends, starts))
    distinct, first, inverse = np.unique(codes[by_position], return_index=True, return_inverse=True)
    rank = np.empty(len(distinct), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(distinct))
    labels = rank[inverse.ravel()]
    within = np.argsort(labels, kind="stable")
    order = by_position[within]
    entity = labels[within]
    heads = None
    if response.heads is not None:
        key_heads = key.heads[from_key] if key.heads is not None else np.full(len(from_key), -1, dtype=np.int64)
        heads = np.concatenate([key_heads, response.heads[from_response]])[order]
    nodes = None
    if key.nodes is not None or response.nodes is not None:
        nodes = NodeSets.concat([key.node_sets().take(from_key), response.node_sets().take(from_response)]).take(order)
    return Clusters(starts[order], ends[order], entity, len(distinct), heads=heads, repeated=0, nodes=nodes)


@dataclass(frozen=True)
class Waterfall:
    """Counts of every document after each step: ``cumulative[0]`` the
    response as scored, ``cumulative[i + 1]`` after fixing ``order[: i +
    1]``, ``alone[i]`` after fixing ``order[i]`` only (arrays of ``(n_docs,
    blocks, fields)``), and ``fixed[d, i]``, the errors step i fixes in
    document d. Steps that fix the same errors share one array of
    ``states`` (``cumulative_states``, ``alone_states`` index it), so that
    memory grows with the distinct states, not the steps."""

    settings: Settings
    names: tuple[str, ...]
    order: tuple[str, ...]
    fixed: np.ndarray
    states: tuple[np.ndarray, ...]
    cumulative_states: tuple[int, ...]
    alone_states: tuple[int, ...]

    @property
    def cumulative(self) -> np.ndarray:
        return np.stack([self.states[i] for i in self.cumulative_states])

    @property
    def alone(self) -> np.ndarray:
        return np.stack([self.states[i] for i in self.alone_states])

    def to_dict(self, index: Optional[int] = None) -> dict[str, Any]:
        """The ``waterfall`` block of the JSON (docs/analyses.md §1), of
        the corpus or of document ``index``: the scores of the response,
        then per step the kind, the errors it fixes, the scores after it and
        their ``gain`` over the step before, and the same for the kind fixed
        ``alone``."""
        totals = [order_free_sum(state) if index is None else state[index] for state in self.states]
        pick = slice(None) if index is None else slice(index, index + 1)
        states = np.stack([totals[i] for i in self.cumulative_states + self.alone_states])
        scores = score_arrays(states, self.settings.metrics, self.settings.conventions)
        n = len(self.order)
        fixed = self.fixed[pick].sum(axis=0).tolist()

        def at(state: int) -> dict[str, dict[str, float]]:
            return {name: {rate: float(values[state]) for rate, values in block.items()} for name, block in scores.items()}

        def gain(after: int, before: int) -> dict[str, dict[str, float]]:
            return {name: {rate: float(values[after] - values[before]) for rate, values in block.items()} for name, block in scores.items()}

        steps = [
            {
                "kind": kind,
                "fixed": int(fixed[i]),
                "metrics": at(i + 1),
                "gain": gain(i + 1, i),
                "alone": {"metrics": at(n + 1 + i), "gain": gain(n + 1 + i, 0)},
            }
            for i, kind in enumerate(self.order)
        ]
        return {"order": list(self.order), "original": at(0), "steps": steps}


def waterfall(result: CorpusResult, order: Sequence[str] = WATERFALL_ORDER) -> Waterfall:
    """The waterfall of a scoring run (docs/analyses.md §1), read off its
    twinning: each response fixed as :func:`fixed_response` says, every
    document of a step rescored at once with the run's settings
    (:func:`rescore`)."""
    twinned = result.twinned
    if twinned is None:
        raise CorefInputError("the waterfall needs the twinned mentions; results merged from saved counts have none")
    order = tuple(order)
    if sorted(order) != sorted(WATERFALL_ORDER):
        raise ValueError(f"the waterfall's order must hold every error kind once: {list(WATERFALL_ORDER)}")
    documents = [DocumentErrors.of(twinned, d) for d in range(twinned.n_docs)]
    fixed = np.array([[doc.counts()[kind] for kind in order] for doc in documents], dtype=np.int64).reshape(-1, len(order))
    present = {kind for kind, total in zip(order, fixed.sum(axis=0).tolist()) if total}
    in_document = [frozenset(kind for kind, n in zip(order, row) if n) for row in fixed.tolist()]
    responses: list[dict[frozenset[str], Clusters]] = [{} for _ in documents]
    states: list[np.ndarray] = []
    cache: dict[frozenset[str], int] = {}

    def state(kinds: Iterable[str]) -> int:
        effective = frozenset(kinds) & present
        if effective not in cache:
            cache[effective] = len(states)
            states.append(rescore(result, documents, effective, in_document=in_document, responses=responses).counts)
        return cache[effective]

    cumulative = tuple(state(order[:i]) for i in range(len(order) + 1))
    alone = tuple(state((kind,)) for kind in order)
    return Waterfall(result.settings, result.names, order, fixed, states=tuple(states), cumulative_states=cumulative, alone_states=alone)


def rescore(
    result: CorpusResult,
    documents: Sequence[DocumentErrors],
    kinds: Iterable[str],
    *,
    in_document: Optional[Sequence[frozenset[str]]] = None,
    responses: Optional[Sequence[dict[frozenset[str], Clusters]]] = None,
) -> CorpusResult:
    """Every document's response with ``kinds`` fixed, scored against its
    key with the run's settings in one :func:`score_pairs` call. The
    mentions are those the run scored, so singletons and zero mentions
    are not removed a second time. ``in_document`` (the kinds each
    document has errors of) and ``responses`` (a cache per document) let
    a document's fixed response be built once for every set of kinds that
    fixes the same errors of it: the response depends on those alone."""
    twinned = result.twinned
    assert twinned is not None
    kinds = frozenset(kinds)
    extents = np.diff(np.append(twinned.offsets, twinned.size)) - 1

    def fixed(d: int, doc: DocumentErrors) -> Clusters:
        if in_document is None or responses is None:
            return fixed_response(doc, kinds)
        effective = kinds & in_document[d]
        if effective not in responses[d]:
            responses[d][effective] = fixed_response(doc, effective)
        return responses[d][effective]

    pairs = [
        Pair(name, doc.key, fixed(d, doc), int(extent))
        for d, (name, doc, extent) in enumerate(zip(result.names, documents, extents.tolist()))
    ]
    return score_pairs(pairs, rescoring_settings(result.settings), keep_twinned=False)


def rescoring_settings(settings: Settings) -> Settings:
    """The run's settings for mentions already filtered by them."""
    return replace(settings, singletons="keep", zeros="keep")
