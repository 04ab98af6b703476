"""Non-referring markables (docs/ua.md, Non-referring): the UA scorer's
identification score of the entities whose id ends in ``-Pseudo``, each
represented by its first markable."""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

if TYPE_CHECKING:
    from ..model.ua.layer import Layer, Span

Quad = tuple[float, float, float, float]
QuadArrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def first_markables(layer: Optional["Layer"], use_min: bool = False) -> list[tuple["Span", Optional["Span"]]]:
    """The first markable of every non-referring entity, with its minimum
    span where ``use_min``."""
    if layer is None:
        return []
    out = []
    for entity, markables in enumerate(layer.entity_markables()):
        if not layer.referring[entity] and markables:
            m = markables[0]
            out.append(((m.start, m.end), m.min_span if use_min else None))
    return out


def same_markable(key: "Span", least: Optional["Span"], response: "Span") -> bool:
    """Whether a response span matches a key span: the same span, or with
    a minimum span one that holds it and lies within the key span."""
    if least is None:
        return key == response
    return key[0] <= response[0] <= least[0] and least[1] <= response[1] <= key[1]


def non_referring_quad(key: Optional["Layer"], response: Optional["Layer"], use_min: bool) -> Quad:
    """``(tp, tp + fn, tp, tp + fp)``: key items found among the response
    items, and response items matching no key item (a key item found twice
    counts twice, as in the UA scorer)."""
    keys = first_markables(key, use_min)
    responses = [span for span, _ in first_markables(response)]
    found = sum(any(same_markable(span, least, r) for r in responses) for span, least in keys)
    missed = len(keys) - found
    extra = sum(not any(same_markable(span, least, r) for span, least in keys) for r in responses)
    return float(found), float(found + missed), float(found), float(found + extra)


def non_referring_counts(documents: Sequence[tuple[Any, Any]], use_min: bool = False, remove_singletons: bool = False) -> tuple[QuadArrays]:
    """:func:`non_referring_quad` of every document (``(key, response)``
    clusters; those not read from CoNLL-UA have no layer), as count arrays."""
    quads = [non_referring_quad(getattr(k, "layer", None), getattr(r, "layer", None), use_min) for k, r in documents]
    return (quad_arrays(quads),)


def quad_arrays(quads: Sequence[Quad]) -> QuadArrays:
    """Per-document quads as four arrays (recall and precision num, den)."""
    array = np.array(quads, dtype=np.float64).reshape(len(quads), 4)
    return array[:, 0], array[:, 1], array[:, 2], array[:, 3]
