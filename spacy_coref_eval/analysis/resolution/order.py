"""Mention order shared by the classifier and MUC-RC: the (start, end)
position order and which mentions are anaphoric (not first in their
entity)."""

import numpy as np


def position_order(starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The mentions in (start, end) order, and the rank of each in it."""
    order = np.lexsort((ends, starts))
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return order, rank


def anaphoric(entity: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Mask of the mentions that are not the first of their entity, the
    mentions being in ``order``."""
    out = np.ones(len(entity), dtype=bool)
    _, first = np.unique(entity[order], return_index=True)
    out[order[first]] = False
    return out
