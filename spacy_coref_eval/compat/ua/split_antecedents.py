"""Split-antecedent scoring (Paun, Yu, Moosavi & Poesio 2023, "Scoring
Coreference Chains with Split-Antecedent Anaphors"), as the UA scorer
computes it (docs/ua.md, Split antecedents).

A plural entity holds one extra element, its split-antecedent element
(the set of its antecedent entities). Per document and per metric, key and
response elements are aligned one-to-one by an optimal assignment on that
metric's F between their antecedent partitions; an aligned element then
counts as a mention of weight v in the cell of its partner's entity: v is
the pair's recall (recall side) or precision (precision side) for MUC,
B³ and LEA, its F for CEAF and BLANC. A coreference link involving a
split element scores v, every other link 1. The counts are those of the
contingency table with these weighted cells.
"""

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from typing import Optional

import numpy as np

from ...assignment.lsap import shortest_path_assignment
from ...counting.non_referring import same_markable
from ...model.clusters import Clusters
from ...model.ua.layer import Span, Split
from ...model.ua.view import UAClusters

Quad = tuple[float, float, float, float]
"""``(recall_num, recall_den, precision_num, precision_den)``."""
KINDS = ("muc", "bcub", "ceafm", "ceafe", "lea", "blanc_coref", "blanc_noncoref")
"""The count blocks, each aligned on its own F."""
_BY_F = ("ceafm", "ceafe", "blanc_coref", "blanc_noncoref")
"""The blocks whose aligned elements earn the pair's F on both sides."""


class Side:
    """One side of a document as the UA scorer lists it: entities as
    lists of spans (with their minimum spans), each plural entity's split
    element, and the entity every span is looked up in (the last that
    lists it)."""

    def __init__(self, clusters: Clusters, remove_singletons: bool = False, use_min: bool = False) -> None:
        ua = clusters if isinstance(clusters, UAClusters) else None
        listed = ua.entity_spans if ua is not None else clusters.entities()
        splits = ua.splits if ua is not None else {}
        with_min = ua if use_min else None
        kept = [e for e, spans in enumerate(listed) if not remove_singletons or len(spans) + (e in splits) > 1]
        self.entities: list[list[Span]] = [list(listed[e]) for e in kept]
        self.mins: list[tuple[Optional[Span], ...]] = [
            with_min.entity_mins[e] if with_min is not None else (None,) * len(listed[e]) for e in kept
        ]
        self.min_of: dict[Span, Span] = {}
        if with_min is not None and with_min.layer is not None:
            self.min_of = {(m.start, m.end): m.min_span for m in with_min.layer.markables if m.min_span is not None}
        renumber = {e: i for i, e in enumerate(kept)}
        self.splits: dict[int, Split] = {renumber[e]: split for e, split in splits.items() if e in renumber}
        self.index = {span: e for e, spans in enumerate(self.entities) for span in spans}

    def size(self, entity: int) -> int:
        return len(self.entities[entity]) + (entity in self.splits)

    def plural_order(self) -> list[int]:
        return sorted(self.splits)


def document_counts(
    key: Clusters, response: Clusters, remove_singletons: bool = False, *, use_min: bool = False
) -> tuple[dict[str, Quad], dict[str, Quad]]:
    """The counts of every block with split elements scored (first), and
    the counts of the split elements alone (``only`` mode, second); the
    key's minimum spans with ``use_min``."""
    k, r = Side(key, remove_singletons, use_min), Side(response, remove_singletons)
    counts, alone = {}, {}
    for kind in KINDS:
        recall_map, precision_map, alone[kind] = align(kind, k, r)
        counts[kind] = _COUNT[kind](k, r, recall_map=recall_map, precision_map=precision_map)
    return counts, alone


Aligned = dict[int, tuple[int, float]]
"""Plural entity of one side → (the partner's entity on the other side, v)."""


def align(kind: str, key: Side, response: Side) -> tuple[Aligned, Aligned, Quad]:
    """The alignment of the split elements for one block: the maps of
    the recall and precision sides, and the counts of the aligned pairs
    alone (docs/ua.md: an absent side is one empty element)."""
    ks, rs = key.plural_order(), response.plural_order()
    if not ks and not rs:
        return {}, {}, (0.0, 0.0, 0.0, 0.0)
    key_parts = [_partition(key.splits[e]) for e in ks] or [[]]
    response_parts = [_partition(response.splits[e]) for e in rs] or [[]]
    if kind in ("ceafm", "ceafe"):
        count = partial(_ceaf_partition, entities=kind == "ceafe", min_of=key.min_of)
    else:
        count = _PARTITION[kind]
    quads = np.array([[count(a, b) for b in response_parts] for a in key_parts]).reshape(len(key_parts), len(response_parts), 4)
    recall = _ratio(quads[..., 0], quads[..., 1])
    precision = _ratio(quads[..., 2], quads[..., 3])
    f = _ratio(2 * recall * precision, recall + precision)
    rows, cols = shortest_path_assignment(-f)
    chosen = quads[rows, cols]
    alone = (float(chosen[:, 0].sum()), float(quads[:, 0, 1].sum()), float(chosen[:, 2].sum()), float(quads[0, :, 3].sum()))
    recall_map: Aligned = {}
    precision_map: Aligned = {}
    by_f = kind in _BY_F
    for i, j in zip(rows.tolist(), cols.tolist()):
        if i >= len(ks) or j >= len(rs):
            continue
        rv, pv = (f[i, j], f[i, j]) if by_f else (recall[i, j], precision[i, j])
        if rv > 0:
            recall_map[ks[i]] = (rs[j], float(rv))
        if pv > 0:
            precision_map[rs[j]] = (ks[i], float(pv))
    return recall_map, precision_map, alone


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    return np.divide(num, den, out=np.zeros(np.shape(num)), where=num != 0)


def _partition(split: Split) -> list[list[Span]]:
    return [list(entity) for entity in split]


def _index(partition: Sequence[Sequence[Span]]) -> dict[Span, int]:
    return {span: i for i, spans in enumerate(partition) for span in spans}


def _pairs(n: float) -> float:
    return n * (n - 1) / 2


def _muc_partition_side(a: Sequence[Sequence[Span]], b: Sequence[Sequence[Span]]) -> tuple[float, float]:
    """MUC of one side of two antecedent partitions, a singleton counting
    one (found in a singleton of the other side), as in the alignment."""
    index = _index(b)
    num = den = 0.0
    for entity in a:
        if len(entity) == 1:
            den += 1
            num += entity[0] in index and len(b[index[entity[0]]]) == 1
            continue
        den += len(entity) - 1
        found = [index[m] for m in entity if m in index]
        num += len(found) - len(set(found))
    return num, den


def _bcub_partition_side(a, b) -> tuple[float, float]:
    index = _index(b)
    num = den = 0.0
    for entity in a:
        weights = Counter(index[m] for m in entity if m in index)
        num += sum(w * w for w in weights.values()) / len(entity)
        den += len(entity)
    return num, den


def _lea_partition_side(a, b) -> tuple[float, float]:
    index = _index(b)
    num = den = 0.0
    for entity in a:
        n = len(entity)
        den += n
        if n == 1:
            num += entity[0] in index and len(b[index[entity[0]]]) == 1
            continue
        weights = Counter(index[m] for m in entity if m in index)
        num += n * sum(_pairs(w) for w in weights.values()) / _pairs(n)
    return num, den


def _ceaf_partition(a, b, entities: bool, *, min_of: dict[Span, Span]) -> Quad:
    overlap = np.array(
        [[sum(any(same_markable(m, min_of.get(m), r) for r in s) for m in k) for s in b] for k in a], dtype=np.float64
    ).reshape(len(a), len(b))
    if entities:
        sizes = np.add.outer([len(k) for k in a], [len(s) for s in b]).astype(np.float64)
        overlap = _ratio(2 * overlap, sizes)
    total = float(overlap[shortest_path_assignment(-overlap)].sum()) if overlap.size else 0.0
    if entities:
        return total, float(len(a)), total, float(len(b))
    return total, float(sum(map(len, a))), total, float(sum(map(len, b)))


def _blanc_partition(a, b, coref: bool) -> Quad:
    index = _index(b)
    if coref:
        num = sum(_pairs(w) for k in a for w in Counter(index[m] for m in k if m in index).values())
        return num, sum(_pairs(len(k)) for k in a), num, sum(_pairs(len(s)) for s in b)
    cells = Counter((i, index[m]) for i, k in enumerate(a) for m in k if m in index)
    num = _split_pairs(cells)
    return (num, _pairs(sum(map(len, a))) - sum(_pairs(len(k)) for k in a), num, _pairs(sum(map(len, b))) - sum(_pairs(len(s)) for s in b))


def _split_pairs(cells: Mapping[tuple[int, int], float]) -> float:
    """Σ w_x w_y over pairs of elements in different entities on both sides,
    from the (weighted) cells of a contingency table."""
    rows: dict[int, float] = {}
    cols: dict[int, float] = {}
    for (i, j), w in cells.items():
        rows[i] = rows.get(i, 0) + w
        cols[j] = cols.get(j, 0) + w
    total = sum(cells.values())
    return (total * total - sum(v * v for v in rows.values()) - sum(v * v for v in cols.values()) + sum(w * w for w in cells.values())) / 2


def _sided(side):
    def quad(a, b) -> Quad:
        return side(a, b) + side(b, a)

    return quad


_PARTITION = {
    "muc": _sided(_muc_partition_side),
    "bcub": _sided(_bcub_partition_side),
    "lea": _sided(_lea_partition_side),
    "blanc_coref": lambda a, b: _blanc_partition(a, b, True),
    "blanc_noncoref": lambda a, b: _blanc_partition(a, b, False),
}


def cells(a: Side, b: Side, aligned: Aligned) -> list[tuple[Counter, Optional[tuple[int, float]]]]:
    """For every entity of ``a``: its ordinary mentions per entity of ``b``
    and where its split element lands (``(entity of b, v)``), if aligned."""
    out = []
    for e, spans in enumerate(a.entities):
        ordinary = Counter(b.index[m] for m in spans if m in b.index)
        out.append((ordinary, aligned.get(e)))
    return out


def _muc_side(a: Side, b: Side, aligned: Aligned) -> tuple[float, float]:
    num = den = 0.0
    for e, (ordinary, landed) in enumerate(cells(a, b, aligned)):
        n = a.size(e)
        if n == 1:
            continue
        den += n - 1
        num += sum(c - 1 for c in ordinary.values())
        if landed is not None and ordinary.get(landed[0], 0) > 0:
            num += landed[1]
    return num, den


def _weights(ordinary: Counter, landed) -> Counter:
    weights = Counter({j: float(c) for j, c in ordinary.items()})
    if landed is not None:
        weights[landed[0]] += landed[1]
    return weights


def _bcub_side(a: Side, b: Side, aligned: Aligned) -> tuple[float, float]:
    num = den = 0.0
    for e, (ordinary, landed) in enumerate(cells(a, b, aligned)):
        n = a.size(e)
        num += sum(w * w for w in _weights(ordinary, landed).values()) / n
        den += n
    return num, den


def _links(ordinary: Counter, landed) -> float:
    """Coreference links kept within cells: 1 each, v for a link with the
    split element."""
    common = sum(_pairs(c) for c in ordinary.values())
    if landed is not None:
        common += ordinary.get(landed[0], 0) * landed[1]
    return common


def _lea_side(a: Side, b: Side, aligned: Aligned) -> tuple[float, float]:
    num = den = 0.0
    for e, (ordinary, landed) in enumerate(cells(a, b, aligned)):
        n = a.size(e)
        den += n
        if n == 1:
            num += any(b.size(j) == 1 for j in ordinary)
            continue
        num += n * _links(ordinary, landed) / _pairs(n)
    return num, den


def _by_sides(side):
    def quad(k: Side, r: Side, *, recall_map: Aligned, precision_map: Aligned) -> Quad:
        return side(k, r, recall_map) + side(r, k, precision_map)

    return quad


def _ceaf(entities: bool):
    def quad(k: Side, r: Side, *, recall_map: Aligned, precision_map: Aligned) -> Quad:
        overlap = _overlap(k, r)
        for i, (j, v) in recall_map.items():
            overlap[i, j] += v
        if entities:
            sizes = np.add.outer([k.size(i) for i in range(len(k.entities))], [r.size(j) for j in range(len(r.entities))])
            overlap = _ratio(2 * overlap, sizes.astype(np.float64))
        total = float(overlap[shortest_path_assignment(-overlap)].sum()) if overlap.size else 0.0
        if entities:
            return total, float(len(k.entities)), total, float(len(r.entities))
        key_size = float(sum(k.size(i) for i in range(len(k.entities))))
        return total, key_size, total, float(sum(r.size(j) for j in range(len(r.entities))))

    return quad


def _overlap(k: Side, r: Side) -> np.ndarray:
    """|k_i ∩ r_j| counting every key span found in r_j (a span may be in
    several response entities); a key span with a minimum span is found
    by any response span that holds the minimum span and lies within it
    (docs/ua.md, Minimum spans)."""
    overlap = np.zeros((len(k.entities), len(r.entities)))
    holders: dict[Span, list[int]] = {}
    for j, spans in enumerate(r.entities):
        for span in dict.fromkeys(spans):
            holders.setdefault(span, []).append(j)
    for i, (spans, mins) in enumerate(zip(k.entities, k.mins)):
        for span, least in zip(spans, mins):
            found: Iterable[int]
            if least is None:
                found = holders.get(span, ())
            else:
                found = {
                    j for (start, end), js in holders.items() if span[0] <= start <= least[0] and least[1] <= end <= span[1] for j in js
                }
            for j in found:
                overlap[i, j] += 1
    return overlap


def _blanc(coref: bool):
    def quad(k: Side, r: Side, *, recall_map: Aligned, precision_map: Aligned) -> Quad:
        rows = cells(k, r, recall_map)
        key_sizes = [k.size(i) for i in range(len(k.entities))]
        response_sizes = [r.size(j) for j in range(len(r.entities))]
        if coref:
            num = sum(_links(ordinary, landed) for ordinary, landed in rows)
            return num, sum(map(_pairs, key_sizes)), num, sum(map(_pairs, response_sizes))
        weighted = {(i, j): w for i, (ordinary, landed) in enumerate(rows) for j, w in _weights(ordinary, landed).items()}
        num = _split_pairs(weighted)
        return (
            num,
            _pairs(sum(key_sizes)) - sum(map(_pairs, key_sizes)),
            num,
            _pairs(sum(response_sizes)) - sum(map(_pairs, response_sizes)),
        )

    return quad


_COUNT = {
    "muc": _by_sides(_muc_side),
    "bcub": _by_sides(_bcub_side),
    "lea": _by_sides(_lea_side),
    "ceafm": _ceaf(False),
    "ceafe": _ceaf(True),
    "blanc_coref": _blanc(True),
    "blanc_noncoref": _blanc(False),
}
