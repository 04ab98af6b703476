"""coval's metric counts (ns-moosavi/coval, ``eval/evaluator.py``) on
entities of :class:`~.mentions.CovalMention`, for ``--preset coval``
(docs/coval.md §6).

coval compares mentions by identity (the minimum span under MINA) and
does not make the two sides partitions of one mention set: a mention
repeated in an entity counts each time, and a mention in several entities
of the other side maps to the last one. Key and response then need their
own tables, so these counts stand beside the one contingency table the
other presets use; without repeats and collisions they are equal to it.
"""

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from ...counting.counts import BLOCK_INDEX, empty_counts
from ...errors import CorefInputError
from ...files import PathLike
from .mentions import CovalMention, coval_entities, np_only, remove_nested
from .read import CovalDocument, read_coval

Entity = Sequence[CovalMention]
Quad = tuple[float, float, float, float]
COVAL_METRICS = ("mentions", "muc", "bcub", "ceafe", "lea", "ceafm")


@dataclass(frozen=True)
class CovalOptions:
    """coval's options: ``min_spans`` (MINA), ``np_only``,
    ``remove_nested`` and ``keep_singletons``."""

    min_spans: bool = False
    np_only: bool = False
    remove_nested: bool = False
    keep_singletons: bool = True

    @property
    def needs_parse(self) -> bool:
        return self.min_spans or self.np_only


def coval_sides(key: CovalDocument, response: CovalDocument, options: CovalOptions) -> tuple[list[list[CovalMention]], ...]:
    """Key and response entities after coval's options, in its order:
    singletons, trees / MINA / NP_only (both from the key), remove_nested."""
    sides = []
    for doc in (key, response):
        spans = doc.entities()
        if not options.keep_singletons:
            spans = [entity for entity in spans if len(entity) != 1]
        sides.append((doc, spans))
    if options.needs_parse and any(spans for _, spans in sides) and not key.has_parse():
        raise CorefInputError(
            f"key document {key.name!r} has no parse column (the 6th field of a CoNLL-2012 token line): "
            "minimum spans and NP_only need the key's parse (coval stops on such files)"
        )
    out = []
    for doc, spans in sides:
        entities = coval_entities(spans, key, doc, min_spans=options.min_spans)
        if options.np_only:
            entities = np_only(entities)
        if options.remove_nested:
            entities = remove_nested(entities, options.keep_singletons)
        out.append(entities)
    return tuple(out)


def _owners(entities: Sequence[Entity]) -> dict[Hashable, int]:
    return {m.identity: i for i, entity in enumerate(entities) for m in entity}


def _mentions(entities: Sequence[Entity], other: dict[Hashable, int]) -> tuple[int, int]:
    seen = {m.identity for entity in entities for m in entity}
    return len(seen & other.keys()), len(seen)


def _muc(entities: Sequence[Entity], other: dict[Hashable, int]) -> tuple[int, int]:
    num = den = 0
    for entity in entities:
        parts = {other[m.identity] for m in entity if m.identity in other}
        missing = sum(1 for m in entity if m.identity not in other)
        num += len(entity) - missing - len(parts)
        den += len(entity) - 1
    return num, den


def _groups(entity: Entity, other: dict[Hashable, int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for m in entity:
        if m.identity in other:
            counts[other[m.identity]] = counts.get(other[m.identity], 0) + 1
    return counts


def _bcub(entities: Sequence[Entity], other: dict[Hashable, int]) -> tuple[float, int]:
    num = sum(sum(n * n for n in _groups(e, other).values()) / len(e) for e in entities)
    return num, sum(len(e) for e in entities)


def _lea(entities: Sequence[Entity], others: Sequence[Entity], other: dict[Hashable, int]) -> tuple[float, int]:
    """LEA (Moosavi & Strube 2016) as coval counts it: pairs of list
    positions (repeats included), a singleton resolved when it maps to a
    singleton."""
    num = 0.0
    for e in entities:
        if len(e) == 1:
            j = other.get(e[0].identity)
            num += float(j is not None and len(others[j]) == 1)
        else:
            common = sum(n * (n - 1) // 2 for n in _groups(e, other).values())
            num += len(e) * common / (len(e) * (len(e) - 1) / 2)
    return num, sum(len(e) for e in entities)


def _ceaf(key: Sequence[Entity], response: Sequence[Entity]) -> tuple[float, float]:
    """The optimal CEAFe and CEAFm similarities (Luo 2005) with coval's φ:
    mentions of the key entity (repeats included) found in the response
    entity; cells are filled only for entities that share a mention."""
    if not key or not response:
        return 0.0, 0.0
    from scipy.optimize import linear_sum_assignment

    holders: dict[Hashable, set] = {}
    for j, r in enumerate(response):
        for m in r:
            holders.setdefault(m.identity, set()).add(j)
    common = np.zeros((len(key), len(response)))
    for i, k in enumerate(key):
        for m in k:
            for j in holders.get(m.identity, ()):
                common[i, j] += 1
    sizes = np.array([len(k) for k in key], dtype=np.float64)[:, None] + [len(r) for r in response]
    out = []
    for sim in (2 * common / sizes, common):
        rows, cols = linear_sum_assignment(sim, maximize=True)
        out.append(float(sim[rows, cols].sum()))
    return out[0], out[1]


def coval_counts(key: Sequence[Entity], response: Sequence[Entity]) -> dict[str, Quad]:
    """``(recall_num, recall_den, precision_num, precision_den)`` of every
    metric coval has, as coval counts them; CEAFm's denominators are the
    mention counts (coval divides by the numbers of entities, a bug: its
    CEAFm can exceed 1)."""
    to_response, to_key = _owners(response), _owners(key)
    out: dict[str, Quad] = {}
    for name, count in (("mentions", _mentions), ("muc", _muc), ("bcub", _bcub)):
        recall_num, recall_den = count(key, to_response)
        precision_num, precision_den = count(response, to_key)
        out[name] = (recall_num, recall_den, precision_num, precision_den)
    out["lea"] = _lea(key, response, to_response) + _lea(response, key, to_key)
    ceafe, ceafm = _ceaf(key, response)
    out["ceafe"] = (ceafe, len(key), ceafe, len(response))
    out["ceafm"] = (ceafm, sum(len(e) for e in key), ceafm, sum(len(e) for e in response))
    return out


def coval_corpus_counts(key_path: PathLike, response_path: PathLike, options: CovalOptions) -> tuple[list[str], np.ndarray]:
    """The key's document names (in its order) and their counts array
    (:func:`~.counts.empty_counts` layout), as coval scores ``response_path``
    against ``key_path``; a key document missing from the response is a
    :class:`CorefInputError` (coval stops with ``KeyError``)."""
    keys, responses = read_coval(key_path), read_coval(response_path)
    counts = empty_counts(len(keys))
    for d, (name, key) in enumerate(keys.items()):
        if name not in responses:
            raise CorefInputError(f"{response_path}: no document {name!r} of the key {key_path} (coval needs every one)")
        for metric, quad in coval_counts(*coval_sides(key, responses[name], options)).items():
            counts[d, BLOCK_INDEX[metric]] = quad
    return list(keys), counts
