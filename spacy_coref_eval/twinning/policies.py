"""Twinless policies (SPEC §4): each rewrites the twinned (key, response)
pair into one pair for recall and one for precision, so that every metric
works under every policy with no special case of its own."""
from dataclasses import dataclass, replace
from typing import Callable, Dict, Optional, Tuple

import numpy as np

from ..clusters import Clusters
from .matchers import Matcher


@dataclass(frozen=True)
class Twinned:
    """Key and response as partitions of one mention id space.

    ``key[m]`` / ``response[m]`` is the entity of mention id ``m`` on that
    side, or -1 where the mention is absent. Key mentions take ids
    ``0 .. len(key) - 1`` in key order; a twinned response mention shares its
    twin's id and twinless response mentions follow. Entity labels need not
    be dense (a rewrite may empty an entity).

    Several documents can share one ``Twinned`` (see :func:`twin`):
    ``doc[m]`` is then the document of mention id ``m`` and entity labels
    are unique across documents, so that one pass counts a whole corpus.
    """

    key: np.ndarray
    response: np.ndarray
    doc: Optional[np.ndarray] = None
    n_docs: int = 1

    @property
    def documents(self) -> np.ndarray:
        """Document index of every mention id."""
        return self.doc if self.doc is not None else np.zeros(len(self.key), dtype=np.int64)

    def with_sides(self, key: np.ndarray, response: np.ndarray) -> "Twinned":
        """The same mention ids and documents with rewritten partitions."""
        return replace(self, key=key, response=response)

    @property
    def twinless_key(self) -> np.ndarray:
        return (self.key >= 0) & (self.response < 0)

    @property
    def twinless_response(self) -> np.ndarray:
        return (self.response >= 0) & (self.key < 0)


def twin(
    key: Clusters,
    response: Clusters,
    matcher: Matcher,
    documents: Optional[Tuple[np.ndarray, np.ndarray, int]] = None,
) -> Twinned:
    """Put key and response on one mention id space through ``matcher``.
    ``documents`` gives, for stacked documents (:meth:`Clusters.stack`), the
    document of every key and response mention and their number."""
    twins = matcher(key, response)
    twinless = twins < 0
    n_key = len(key)
    ids = twins.copy()
    ids[twinless] = n_key + np.arange(int(twinless.sum()))
    size = n_key + int(twinless.sum())
    key_labels = np.full(size, -1, dtype=np.int64)
    key_labels[:n_key] = key.entity
    response_labels = np.full(size, -1, dtype=np.int64)
    response_labels[ids] = response.entity
    if documents is None:
        return Twinned(key_labels, response_labels)
    key_doc, response_doc, n_docs = documents
    doc = np.empty(size, dtype=np.int64)
    doc[:n_key] = key_doc
    doc[ids] = response_doc
    return Twinned(key_labels, response_labels, doc, n_docs)


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


Rewrite = Tuple[Twinned, Twinned]


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
    precision = t.with_sides(
        _as_singletons(t.key, t_response & ~t_response_1),
        _as_singletons(_without(t.response, t_response_1), t_key),
    )
    return recall, precision


POLICIES: Dict[str, Callable[[Twinned], Rewrite]] = {
    "conll": conll,
    "b3all": b3all,
    "b30": b30,
    "sys": sys_,
}


def get_policy(name: str) -> Callable[[Twinned], Rewrite]:
    """The policy named ``name``; :class:`ValueError` for an unknown name."""
    try:
        return POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown twinless policy {name!r}; choose from {list(POLICIES)}") from None


def apply_policy(name: str, twinned: Twinned) -> Rewrite:
    """The (recall, precision) pair of partitions under policy ``name``."""
    return get_policy(name)(twinned)
