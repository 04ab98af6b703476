"""Stage 3, twinless policies (docs/metrics.md §4): each rewrites the twinned (key, response)
pair into one pair for recall and one for precision, so that every metric
works under every policy with no special case of its own."""

from typing import Callable

import numpy as np

from .twinned import Twinned


def _as_singletons(labels: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``labels`` with every masked mention put in a new entity of its own."""
    out = labels.copy()
    first = int(labels.max()) + 1 if len(labels) else 0
    out[mask] = first + np.arange(int(mask.sum()))
    return out


def _without(labels: np.ndarray, mask: np.ndarray) -> np.ndarray:
    out = labels.copy()
    out[mask] = -1
    return out


def _singleton_members(labels: np.ndarray) -> np.ndarray:
    """Mentions whose entity on this side has exactly one mention."""
    present = labels >= 0
    sizes = np.bincount(labels[present]) if present.any() else np.zeros(0, dtype=np.int64)
    out = np.zeros(len(labels), dtype=bool)
    out[present] = sizes[labels[present]] == 1
    return out


Rewrite = tuple[Twinned, Twinned]


def conll(t: Twinned) -> Rewrite:
    """No rewrite: twinless mentions count where they are (Pradhan et al. 2014)."""
    return t, t


def b3all(t: Twinned) -> Rewrite:
    """B³all (Stoyanov et al. 2009): recall on (K, R + T_K as singletons),
    precision on (K + T_R as singletons, R)."""
    recall = t.with_sides(t.key, _as_singletons(t.response, t.twinless_key))
    precision = t.with_sides(_as_singletons(t.key, t.twinless_response), t.response)
    return recall, precision


def b30(t: Twinned) -> Rewrite:
    """B³0 (Stoyanov et al. 2009): both on (K, R − T_R)."""
    pair = t.with_sides(t.key, _without(t.response, t.twinless_response))
    return pair, pair


def sys_(t: Twinned) -> Rewrite:
    """B³sys / CEAFsys (Cai & Strube 2010): recall on (K, R − T_R + T_K as
    singletons); precision on (K + (T_R − T_R¹) as singletons,
    R − T_R¹ + T_K as singletons), T_R¹ being twinless response singletons."""
    t_key, t_response = t.twinless_key, t.twinless_response
    t_response_1 = t_response & _singleton_members(t.response)
    recall = t.with_sides(t.key, _as_singletons(_without(t.response, t_response), t_key))
    precision = t.with_sides(_as_singletons(t.key, t_response & ~t_response_1), _as_singletons(_without(t.response, t_response_1), t_key))
    return recall, precision


POLICIES: dict[str, Callable[[Twinned], Rewrite]] = {"conll": conll, "b3all": b3all, "b30": b30, "sys": sys_}


def get_policy(name: str) -> Callable[[Twinned], Rewrite]:
    """The policy named ``name``; :class:`ValueError` for an unknown name."""
    try:
        return POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown twinless policy {name!r}; choose from {list(POLICIES)}") from None


def apply_policy(name: str, twinned: Twinned) -> Rewrite:
    """The (recall, precision) pair of partitions under policy ``name``."""
    return get_policy(name)(twinned)
