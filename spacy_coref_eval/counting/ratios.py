"""Recall, precision and F1 from numerators and denominators, elementwise,
with the package's one 0/0 rule (docs/metrics.md §1): 0/0 = 0."""
from typing import Dict

import numpy as np

Scores = Dict[str, np.ndarray]


def ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den elementwise, with 0/0 = 0."""
    num, den = np.broadcast_arrays(np.asarray(num, dtype=np.float64), np.asarray(den, dtype=np.float64))
    return np.divide(num, den, out=np.zeros(num.shape), where=den != 0)


def f1(precision: np.ndarray, recall: np.ndarray) -> np.ndarray:
    """Harmonic mean elementwise, 0 where both are 0."""
    return ratio(2 * precision * recall, precision + recall)


def prf_arrays(block: np.ndarray) -> Scores:
    """Recall, precision and F1 of count blocks, shape ``(..., 4)`` with the
    fields ``(recall_num, recall_den, precision_num, precision_den)``."""
    recall = ratio(block[..., 0], block[..., 1])
    precision = ratio(block[..., 2], block[..., 3])
    return {"recall": recall, "precision": precision, "f1": f1(precision, recall)}
