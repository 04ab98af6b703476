"""Scores as a solver sees them: exact integers when every score is a
small fraction p/q, so that ties are decided exactly, else floats with a
tolerance (docs/metrics.md §7)."""

import math
from dataclasses import dataclass
from typing import Optional

import numpy as np

MAX_DENOMINATOR = 1 << 16
"""Scores are read as fractions p/q with q up to this (token counts are far
smaller)."""


QUICK_DENOMINATOR = 256
"""Denominators up to this are found for all scores at once; larger ones
one score at a time."""


REDUCED_COST_TOLERANCE = 1e-9
"""When scores are not such fractions, a reduced cost up to this (relative
to the largest score) counts as zero. Float noise stays near 1e-15; the
answer is the exact one when distinct totals of a block of n mentions lie
more than n times this apart."""


Ratios = tuple[np.ndarray, np.ndarray]


def as_ratios(scores: np.ndarray) -> Optional[Ratios]:
    """Integer numerators and denominators ``(p, q)`` with every score the
    correctly rounded float of p/q and q ≤ :data:`MAX_DENOMINATOR`, or None
    if a score is no such fraction.

    The fraction is unique: two with denominators up to 2^16 differ by at
    least 2^-32, far more than the rounding of a score up to 2^16, so the
    smallest q for which p = round(score · q) gives back the score is the
    score's own.
    """
    values, inverse = np.unique(scores, return_inverse=True)
    if len(values) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if values[0] <= 0 or values[-1] > MAX_DENOMINATOR:
        return None
    denominators = np.zeros(len(values), dtype=np.int64)
    quick = np.arange(1, QUICK_DENOMINATOR + 1)
    for chunk in range(0, len(values), 1024):
        part = values[chunk : chunk + 1024, None]
        hit = np.rint(part * quick) / quick == part
        found = hit.any(axis=1)
        denominators[chunk : chunk + 1024][found] = quick[hit.argmax(axis=1)[found]]
    slow = np.flatnonzero(denominators == 0).tolist()
    if slow:
        from fractions import Fraction
    for index in slow:
        fraction = Fraction(float(values[index])).limit_denominator(MAX_DENOMINATOR)
        if float(fraction) != values[index]:
            return None
        denominators[index] = fraction.denominator
    numerators = np.rint(values * denominators).astype(np.int64)
    inverse = inverse.ravel()
    return numerators[inverse], denominators[inverse]


@dataclass(frozen=True)
class Gains:
    """Scores as the solver sees them: ``values`` (float64), reduced costs
    up to ``tolerance`` count as zero, and shortest paths ignore
    improvements up to ``slack``."""

    values: np.ndarray
    tolerance: float
    slack: float

    @property
    def exact(self) -> bool:
        """Whether the values are exact integers (ratios made whole)."""
        return self.slack == 0.0

    @classmethod
    def of(cls, scores: np.ndarray, ratios: Optional[Ratios], n_nodes: int) -> "Gains":
        """Integers (as float64) proportional to the scores, small enough
        that every sum a solver forms on ``n_nodes`` nodes is exact: each
        p/q times the least common multiple L of the denominators. Equal
        totals are then equal as rationals, exactly, and a reduced cost is
        0 or at least 1. Without ``ratios``, or if L is too large, the
        scores themselves (scaled to at most 1) with
        :data:`REDUCED_COST_TOLERANCE`."""
        budget = 2.0**50 / (4 * (n_nodes + 1))
        if ratios is not None:
            numerators, denominators = ratios
            common = 1
            for q in np.unique(denominators).tolist():
                common = math.lcm(common, q)
            if common <= budget and float(scores.max()) * common + 1 <= budget:
                return cls((numerators * (common // denominators)).astype(np.float64), 0.5, 0.0)
        slack = REDUCED_COST_TOLERANCE / (4 * (n_nodes + 1))
        return cls(scores / scores.max(), REDUCED_COST_TOLERANCE, slack)
