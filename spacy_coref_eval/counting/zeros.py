"""The zero score of the CorefUD scorer (``als_zeros``): the
anaphor-decomposable score of Žabokrtský et al. (2022, CRAC 2022
Findings) restricted to zero anaphors; docs/corefud.md §10.

Each key mention after the first of its entity (in mention order) that is
a zero is an anaphor: found (tp) when the response mention it is looked up
as is no response entity's first mention and lies in a response entity of
one of the mentions before it, a wrong link (wl) when it lies elsewhere,
missed (fn) otherwise. Response zeros that are neither an entity's first
mention nor the lookup of a key anaphor are spurious (fp). Recall is
tp / (tp + fn + wl), precision tp / (tp + fp + wl).
"""

import numpy as np

from ..model.clusters import Clusters
from ..twinning.twinned import TwinnedCorpus

Quad = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def zero_counts(twinned: TwinnedCorpus) -> tuple[Quad]:
    """The zero score's counts per document: with the CorefUD preset's
    :class:`~.twinning.twinned.Memberships`, mentions are looked up as the
    scorer does (by class: its own, else its twin's); otherwise a key
    mention is looked up as its twin."""
    key, response, n_docs = twinned.key, twinned.response, twinned.n_docs
    if twinned.memberships is not None:
        codes, looked = twinned.memberships.response_codes, twinned.memberships.key_looked
    else:
        codes = np.arange(len(response))
        looked = np.full(len(key), -1, dtype=np.int64)
        paired = np.flatnonzero(twinned.twins >= 0)
        looked[twinned.twins[paired]] = paired
    tp, fn, wl, fp = (np.zeros(n_docs) for _ in range(4))
    key_zeros, response_zeros = key.zeros(), response.zeros()
    if not (key_zeros.any() or response_zeros.any()):
        return ((tp, tp.copy(), tp.copy(), tp.copy()),)
    n_codes = int(max(codes.max(initial=-1), looked.max(initial=-1))) + 1
    last = np.full(n_codes, -1, dtype=np.int64)
    np.maximum.at(last, codes, response.entity)
    first = np.zeros(n_codes, dtype=bool)
    first[codes[_first_of_entities(response)]] = True
    covered = np.zeros(n_codes, dtype=bool)
    order = _first_of_entities(key, every=True)
    entity, zero, found = key.entity[order], key_zeros[order], looked[order]
    starts = np.flatnonzero(np.r_[True, entity[1:] != entity[:-1]]) if len(order) else np.zeros(0, dtype=np.int64)
    with_anaphor = np.unique(entity[zero & ~np.isin(np.arange(len(order)), starts)])
    bounds = dict(zip(entity[starts].tolist(), zip(starts.tolist(), np.r_[starts[1:], len(order)].tolist())))
    for e in with_anaphor.tolist():
        lo, hi = bounds[e]
        doc = int(twinned.key_doc[order[lo]])
        earlier = set()
        for i in range(lo, hi):
            s = int(found[i])
            target = int(last[s]) if s >= 0 else -1
            if i > lo and zero[i]:
                if s < 0 or first[s]:
                    fn[doc] += 1
                elif target not in earlier:
                    wl[doc] += 1
                else:
                    tp[doc] += 1
                if s >= 0:
                    covered[s] = True
            if target >= 0:
                earlier.add(target)
    spurious = response_zeros & ~first[codes] & ~covered[codes]
    fp += np.bincount(twinned.response_doc[spurious], minlength=n_docs)
    return ((tp, tp + fn + wl, tp.copy(), tp + fp + wl),)


def _first_of_entities(clusters: Clusters, every: bool = False) -> np.ndarray:
    """The mentions in entity order, each entity's in mention order (first
    node, last node, size); the first of each entity, or all with ``every``."""
    order = np.lexsort((clusters.sizes, clusters.ends, clusters.starts, clusters.entity))
    if every or len(order) == 0:
        return order
    entity = clusters.entity[order]
    return order[np.r_[True, entity[1:] != entity[:-1]]]
