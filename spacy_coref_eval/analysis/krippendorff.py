"""Krippendorff's alpha of set-valued annotations with the MASI distance
(Passonneau 2006), in the coincidence-matrix formulation of Krippendorff
(2004, *Content Analysis*, 2nd ed., §11.3)."""

from collections.abc import Hashable, Iterable, Mapping, Sequence, Set

import numpy as np

Value = Set[Hashable]


def masi_distance(a: Value, b: Value) -> float:
    """1 − Jaccard(a, b) · M (Passonneau 2006): M is 1 for equal sets, 2/3
    when one holds the other, 1/3 when they overlap otherwise, 0 else.

    Parameters
    ----------
    a, b : the two sets (non-empty).
    """
    shared = len(a & b)
    if shared == len(a) == len(b):
        return 0.0
    if shared == min(len(a), len(b)):
        monotonicity = 2 / 3
    elif shared:
        monotonicity = 1 / 3
    else:
        return 1.0
    return 1 - shared / len(a | b) * monotonicity


def alpha(units: Iterable[Sequence[Value]]) -> float:
    """Krippendorff's alpha with the MASI distance: 1 − (n − 1) Σ o_ck δ_ck
    / Σ n_c n_k δ_ck, where unit u with m_u ≥ 2 values adds 1/(m_u − 1) to
    the coincidence o_ck of every ordered pair of its values from different
    coders, n_c = Σ_k o_ck and n = Σ_c n_c (Krippendorff 2004, §11.3.3).
    Units with fewer than two values are not pairable and left out; a
    corpus whose pairable values are all one value has alpha 1 (as NLTK's
    ``AnnotationTask.alpha`` says), one with no pairable value ``nan``.

    Parameters
    ----------
    units : every unit's values, one per coder who coded it.
    """
    index: dict[Value, int] = {}
    rows: list[int] = []
    cols: list[int] = []
    weights: list[float] = []
    for values in units:
        if len(values) < 2:
            continue
        codes = [index.setdefault(frozenset(value), len(index)) for value in values]
        weight = 1.0 / (len(codes) - 1)
        for i, c in enumerate(codes):
            for j, k in enumerate(codes):
                if i != j:
                    rows.append(c)
                    cols.append(k)
                    weights.append(weight)
    if not index:
        return float("nan")
    if len(index) == 1:
        return 1.0
    values = list(index)
    coincidences = np.zeros((len(values), len(values)))
    np.add.at(coincidences, (np.array(rows), np.array(cols)), np.array(weights))
    totals = coincidences.sum(axis=1)
    n = totals.sum()
    observed = _weighted(coincidences, values)
    expected = _expected(totals, values)
    return float(1.0 - (n - 1) * observed / expected)


def _weighted(coincidences: np.ndarray, values: Sequence[Value]) -> float:
    """Σ o_ck δ_ck over the cells of the coincidence matrix that are not 0."""
    rows, cols = np.nonzero(coincidences)
    return float(sum(coincidences[c, k] * masi_distance(values[c], values[k]) for c, k in zip(rows.tolist(), cols.tolist())))


def _expected(totals: np.ndarray, values: Sequence[Value]) -> float:
    """Σ_{c,k} n_c n_k δ_ck: every pair at distance 1 less what the pairs of
    values sharing an element save (only they are nearer than 1), so that
    values of different documents are never compared one by one."""
    everything = float(totals.sum() ** 2 - (totals**2).sum())
    holders: dict[Hashable, list[int]] = {}
    for c, value in enumerate(values):
        for element in value:
            holders.setdefault(element, []).append(c)
    near: dict[tuple[int, int], None] = {}
    for codes in holders.values():
        for c in codes:
            for k in codes:
                if c != k:
                    near[c, k] = None
    saved = sum(totals[c] * totals[k] * (1.0 - masi_distance(values[c], values[k])) for c, k in near)
    return everything - float(saved)


def triples(units: Mapping[str, Mapping[str, Value]]) -> list[tuple[str, str, Value]]:
    """``(coder, unit, value)`` triples of ``units`` (unit id → coder →
    value), as NLTK's ``AnnotationTask`` takes them.

    Parameters
    ----------
    units : every unit's value by coder.
    """
    return [(coder, unit, frozenset(value)) for unit, by_coder in units.items() for coder, value in by_coder.items()]
