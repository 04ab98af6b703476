"""Bridging (docs/ua.md, Bridging): the UA scorer's three scores of the
anaphor → anchor pairs of the BRIDGING column: anaphora recognition (the
anaphor found), markable level (also the same anchor) and entity level
(an anchor in the anchor's key entity)."""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Optional

from .non_referring import QuadArrays, quad_arrays, same_markable

if TYPE_CHECKING:
    from ..model.ua.layer import Layer, Markable, Span

Quad = tuple[float, float, float, float]
PARTS = ("anaphora_recognition", "markable_level", "entity_level")


def _pairs(layer: Optional["Layer"]) -> dict["Span", "Markable"]:
    """Anaphor span → anchor markable (a later pair of the same anaphor
    span wins)."""
    if layer is None:
        return {}
    markables = layer.markables
    return {(markables[a].start, markables[a].end): markables[b] for a, b in layer.bridging}


def bridging_quads(key: Optional["Layer"], response: Optional["Layer"], key_entity: dict["Span", int], *, use_min: bool) -> Sequence[Quad]:
    """``(tp, tp + fn, tp, tp + fp)`` of each of :data:`PARTS`;
    ``key_entity`` maps the key's scored spans to their entities."""
    gold, found = _pairs(key), _pairs(response)
    tp, fn, fp = [0] * 3, [0] * 3, [0] * 3

    def same_anchor(anaphor: "Span") -> bool:
        k = gold[anaphor]
        return same_markable((k.start, k.end), k.min_span if use_min else None, (found[anaphor].start, found[anaphor].end))

    def same_entity(anaphor: "Span") -> bool:
        a = (found[anaphor].start, found[anaphor].end)
        b = (gold[anaphor].start, gold[anaphor].end)
        return a in key_entity and b in key_entity and key_entity[a] == key_entity[b]

    for anaphor in gold:
        if anaphor not in found:
            for part in range(3):
                fn[part] += 1
            continue
        tp[0] += 1
        if same_anchor(anaphor):
            tp[1] += 1
            tp[2] += 1
        else:
            fn[1] += 1
            if same_entity(anaphor):
                tp[2] += 1
            else:
                fn[2] += 1
    for anaphor in found:
        if anaphor not in gold:
            for part in range(3):
                fp[part] += 1
        elif not same_anchor(anaphor):
            fp[1] += 1
            fp[2] += not same_entity(anaphor)
    return [(float(t), float(t + n), float(t), float(t + p)) for t, n, p in zip(tp, fn, fp)]


def bridging_counts(documents: Sequence[tuple[Any, Any]], use_min: bool = False, remove_singletons: bool = False) -> tuple[QuadArrays, ...]:
    """:func:`bridging_quads` of every document (``(key, response)``
    clusters), as count arrays, one per part; the key's entities are
    those scored (``entity_spans`` after singletons were removed)."""
    per_doc = []
    for key, response in documents:
        spans = key.scored_spans(remove_singletons) if hasattr(key, "scored_spans") else ()
        index = {span: entity for entity, entity_spans in enumerate(spans) for span in entity_spans}
        per_doc.append(bridging_quads(getattr(key, "layer", None), getattr(response, "layer", None), index, use_min=use_min))
    return tuple(quad_arrays([quads[part] for quads in per_doc]) for part in range(len(PARTS)))
