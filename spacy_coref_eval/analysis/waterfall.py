"""The error-impact waterfall: the response fixed one error kind at a time
(Kummerfeld & Klein 2013's transformations, as docs/analyses.md §1 defines
them on the run's twinning) and rescored after every step, cumulatively
and each kind alone. The response after a set of fixes depends on the set
only, not on the order they were applied in, and the response with every
kind fixed is the key."""
from dataclasses import dataclass, replace
from typing import Any, Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from ..clusters import Clusters, NodeSets, Pair
from ..counting.rates import score_arrays
from ..errors import CorefInputError
from ..scoring import CorpusResult, Settings, score_pairs
from .document_errors import DocumentErrors

WATERFALL_ORDER: Tuple[str, ...] = (
    "span_errors", "missing_mentions", "extra_mentions", "conflated_entities", "divided_entities",
    "missing_entities", "extra_entities",
)
"""The kinds in the order the waterfall fixes them (docs/analyses.md §1):
conflated entities are split before divided ones are merged, as in
Kummerfeld & Klein's repair, so that a merge never joins two key entities."""
Group = Tuple[int, ...]


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
    split, merge = "conflated_entities" in kinds, "divided_entities" in kinds
    components = doc.components if merge and not split else None

    def group(g: int, e: int) -> Group:
        if split and merge:
            return (0, g)
        if split:
            return (1, e, g)
        if merge:
            return (2, int(components[e]))
        return (3, e)

    key_part: List[int] = []
    key_groups: List[Group] = []
    response_part: List[int] = []
    response_groups: List[Group] = []
    respan = set(doc.span_errors.tolist()) if "span_errors" in kinds else set()
    for r in doc.twinned.tolist():
        k = int(twins[r])
        label = group(int(key.entity[k]), int(response.entity[r]))
        if r in respan:
            key_part.append(k)
            key_groups.append(label)
        else:
            response_part.append(r)
            response_groups.append(label)
    if "missing_mentions" in kinds:
        for k in doc.missing_mentions.tolist():
            g = int(key.entity[k])
            key_part.append(k)
            key_groups.append(group(g, int(doc.main_response_entity[g])))
    if "missing_entities" in kinds:
        for k in doc.twinless_key.tolist():
            g = int(key.entity[k])
            if not doc.found_key_entities[g]:
                key_part.append(k)
                key_groups.append((0, g))
    if "extra_mentions" not in kinds:
        for r in doc.extra_mentions.tolist():
            e = int(response.entity[r])
            response_part.append(r)
            response_groups.append(group(int(doc.main_key_entity[e]), e))
    if "extra_entities" not in kinds:
        for r in doc.twinless_response.tolist():
            e = int(response.entity[r])
            if not doc.found_response_entities[e]:
                response_part.append(r)
                response_groups.append((3, e))
    return _gathered(key, response, np.array(key_part, dtype=np.int64), np.array(response_part, dtype=np.int64),
                     key_groups + response_groups)


def _gathered(key: Clusters, response: Clusters, from_key: np.ndarray, from_response: np.ndarray,
              groups: Sequence[Group]) -> Clusters:
    """Clusters of the key mentions ``from_key`` and the response mentions
    ``from_response``, entity ``groups[i]`` for the i-th of them; entities
    in order of first appearance by position, mentions by position inside
    them. Heads as the response has them (the key's for key mentions),
    token sets where either side has them."""
    starts = np.concatenate([key.starts[from_key], response.starts[from_response]])
    ends = np.concatenate([key.ends[from_key], response.ends[from_response]])
    by_position = np.lexsort((ends, starts))
    ids: Dict[Group, int] = {}
    labels = np.array([ids.setdefault(groups[i], len(ids)) for i in by_position.tolist()], dtype=np.int64)
    order = by_position[np.argsort(labels, kind="stable")]
    entity = np.sort(labels, kind="stable")
    heads = None
    if response.heads is not None:
        key_heads = key.heads[from_key] if key.heads is not None else np.full(len(from_key), -1, dtype=np.int64)
        heads = np.concatenate([key_heads, response.heads[from_response]])[order]
    nodes = None
    if key.nodes is not None or response.nodes is not None:
        nodes = NodeSets.concat([key.node_sets().take(from_key), response.node_sets().take(from_response)]).take(order)
    return Clusters(starts[order], ends[order], entity, len(ids), heads, 0, nodes)


@dataclass(frozen=True)
class Waterfall:
    """Counts of every document after each step: ``cumulative[0]`` the
    response as scored, ``cumulative[i + 1]`` after fixing ``order[: i +
    1]``, ``alone[i]`` after fixing ``order[i]`` only (arrays of ``(n_docs,
    blocks, fields)``), and ``fixed[d, i]``, the errors step i fixes in
    document d."""

    settings: Settings
    names: Tuple[str, ...]
    order: Tuple[str, ...]
    fixed: np.ndarray
    cumulative: np.ndarray
    alone: np.ndarray

    def to_dict(self, index: Optional[int] = None) -> Dict[str, Any]:
        """The ``waterfall`` block of the JSON (docs/analyses.md §1), of
        the corpus or of document ``index``: the scores of the response,
        then per step the kind, the errors it fixes, the scores after it and
        their ``gain`` over the step before, and the same for the kind fixed
        ``alone``."""
        pick = slice(None) if index is None else slice(index, index + 1)
        states = np.concatenate([self.cumulative[:, pick].sum(axis=1), self.alone[:, pick].sum(axis=1)])
        scores = score_arrays(states, self.settings.metrics, self.settings.conventions)
        n = len(self.order)
        fixed = self.fixed[pick].sum(axis=0).tolist()

        def at(state: int) -> Dict[str, Dict[str, float]]:
            return {name: {rate: float(values[state]) for rate, values in block.items()} for name, block in scores.items()}

        def gain(after: int, before: int) -> Dict[str, Dict[str, float]]:
            return {
                name: {rate: float(values[after] - values[before]) for rate, values in block.items()}
                for name, block in scores.items()
            }

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
    cache: Dict[FrozenSet[str], np.ndarray] = {}

    def counts(kinds: Iterable[str]) -> np.ndarray:
        effective = frozenset(kinds) & present
        if effective not in cache:
            cache[effective] = rescore(result, documents, effective).counts
        return cache[effective]

    cumulative = np.stack([counts(order[:i]) for i in range(len(order) + 1)])
    alone = np.stack([counts((kind,)) for kind in order])
    return Waterfall(result.settings, result.names, order, fixed, cumulative, alone)


def rescore(result: CorpusResult, documents: Sequence[DocumentErrors], kinds: Iterable[str]) -> CorpusResult:
    """Every document's response with ``kinds`` fixed, scored against its
    key with the run's settings in one :func:`score_pairs` call. The
    mentions are those the run scored, so singletons and zero mentions
    are not removed a second time."""
    twinned = result.twinned
    assert twinned is not None
    kinds = frozenset(kinds)
    extents = np.diff(np.append(twinned.offsets, twinned.size)) - 1
    pairs = [
        Pair(name, doc.key, fixed_response(doc, kinds), int(extent))
        for name, doc, extent in zip(result.names, documents, extents.tolist())
    ]
    return score_pairs(pairs, rescoring_settings(result.settings), keep_twinned=False)


def rescoring_settings(settings: Settings) -> Settings:
    """The run's settings for mentions already filtered by them."""
    return replace(settings, singletons="keep", zeros="keep")
