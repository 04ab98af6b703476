"""Every metric by stratum (docs/analyses.md §3): the key and the response
of every document cut into the mentions of each value of one attribute
(chain length, mention type, entity type, a mention attribute), twins
carrying their key mention's value, and each stratum scored as a corpus
of its own from the run's twinning (recall over the key's stratum,
precision over the response's)."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from ..counting import count_corpus
from ..errors import CorefInputError
from ..model.clusters import Clusters
from ..scoring import CorpusResult, Settings
from ..twinning import TwinnedCorpus, apply_policy
from .statistics import defined_where


@dataclass(frozen=True)
class StratumValues:
    """One attribute's strata (``names``, in report order) and the stratum
    (an index into ``names``) of every mention of a run's twinning: of
    each stacked key mention (``key``) and, by its own attribute, of each
    stacked response mention (``response``; a twinned one is scored in
    its twin's stratum whatever it holds here)."""

    attribute: str
    names: tuple[str, ...]
    key: np.ndarray
    response: np.ndarray


@dataclass(frozen=True)
class Strata:
    """The counts of every document in every stratum, ``counts[d, s]``
    (blocks × fields), and the key and response mentions of each."""

    attribute: str
    names: tuple[str, ...]
    settings: Settings
    documents: tuple[str, ...]
    counts: np.ndarray
    key_mentions: np.ndarray
    response_mentions: np.ndarray

    def result(self, stratum: int) -> CorpusResult:
        """Stratum ``stratum`` as a result of its own (its documents' counts),
        for :meth:`CorpusResult.metrics` and the bootstrap."""
        return CorpusResult(self.settings, self.documents, self.counts[:, stratum], [])

    def to_dict(self, intervals: Optional[Mapping[str, Any]] = None) -> dict[str, Any]:
        """The block of one attribute in the JSON ``strata``: per stratum its
        key and response mentions, its ``metrics``, the metrics
        ``undefined`` on it (its key gives them nothing to find, as under
        ``--macro``: MUC and CoNLL on singletons; their numbers are 0 and
        mean nothing) and, when given, its ``intervals`` (keyed by stratum
        name)."""
        out: dict[str, Any] = {}
        for s, name in enumerate(self.names):
            metrics = self.result(s).metrics()
            total = self.counts[:, s].sum(axis=0)[None]
            entry: dict[str, Any] = {
                "key_mentions": int(self.key_mentions[:, s].sum()),
                "response_mentions": int(self.response_mentions[:, s].sum()),
                "metrics": metrics,
                "undefined": [metric for metric in metrics if not defined_where(total, metric)[0]],
            }
            if intervals is not None:
                entry["intervals"] = intervals[name]
            out[name] = entry
        return out


def score_strata(result: CorpusResult, values: StratumValues) -> Strata:
    """Every document of a run cut into the strata of ``values`` and
    scored with the run's settings (docs/analyses.md §3): the strata are
    documents of their own, twinned as the run twinned them, through the
    run's twinless policy and the counting of every metric, all at once."""
    twinned = result.twinned
    if twinned is None:
        raise CorefInputError("strata need the twinned mentions; results merged from saved counts have none")
    if len(values.key) != len(twinned.key) or len(values.response) != len(twinned.response):
        raise ValueError("stratum values must give one value per mention of the run's twinning")
    n_strata = len(values.names)
    response_stratum = np.asarray(values.response, dtype=np.int64).copy()
    found = twinned.twins >= 0
    response_stratum[found] = values.key[twinned.twins[found]]
    split = split_by_stratum(twinned, values.key, response_stratum, n_strata=n_strata)
    recall, precision = apply_policy(result.settings.twinless, split.partitions())
    shape = (twinned.n_docs, n_strata)
    counts = count_corpus(split, recall, precision, metrics=result.settings.metrics, options=result.settings.count_options)
    return Strata(
        values.attribute,
        values.names,
        result.settings,
        result.names,
        counts=counts.reshape(shape + counts.shape[1:]),
        key_mentions=np.bincount(split.key_doc, minlength=shape[0] * shape[1]).reshape(shape),
        response_mentions=np.bincount(split.response_doc, minlength=shape[0] * shape[1]).reshape(shape),
    )


def split_by_stratum(twinned: TwinnedCorpus, key_stratum: np.ndarray, response_stratum: np.ndarray, *, n_strata: int) -> TwinnedCorpus:
    """The twinning with document ``d``'s mentions of stratum ``s`` as
    document ``d * n_strata + s`` (on a token range of its own, entities
    cut at the stratum's edge), twins kept."""
    extents = np.diff(np.append(twinned.offsets, twinned.size)).astype(np.int64)
    starts = np.cumsum(np.concatenate([[0], np.repeat(extents, n_strata)[:-1]])).astype(np.int64)
    if not len(extents):
        starts = np.zeros(0, dtype=np.int64)
    key_doc = twinned.key_doc * n_strata + key_stratum
    response_doc = twinned.response_doc * n_strata + response_stratum
    key_order = np.argsort(key_doc, kind="stable")
    response_order = np.argsort(response_doc, kind="stable")
    key = _moved(twinned.key, key_order, key_stratum, shift=starts[key_doc] - twinned.offsets[twinned.key_doc], n_strata=n_strata)
    response = _moved(
        twinned.response,
        response_order,
        response_stratum,
        shift=starts[response_doc] - twinned.offsets[twinned.response_doc],
        n_strata=n_strata,
    )
    position = np.empty(len(key_order), dtype=np.int64)
    position[key_order] = np.arange(len(key_order))
    twins = twinned.twins[response_order].copy()
    twins[twins >= 0] = position[twins[twins >= 0]]
    return TwinnedCorpus(
        key,
        response,
        key_doc[key_order],
        response_doc[response_order],
        offsets=starts,
        twins=twins,
        n_docs=twinned.n_docs * n_strata,
        size=int(extents.sum()) * n_strata,
    )


def _moved(clusters: Clusters, order: np.ndarray, stratum: np.ndarray, *, shift: np.ndarray, n_strata: int) -> Clusters:
    """The mentions ``order`` of stacked clusters, each moved by its
    ``shift`` and its entity cut by ``stratum``."""
    shift = shift[order]
    heads = None
    if clusters.heads is not None:
        heads = clusters.heads[order]
        heads = np.where(heads >= 0, heads + shift, -1)
    nodes = None if clusters.nodes is None else clusters.nodes.take(order).shifted(shift)
    parts, entity = np.unique(clusters.entity[order] * n_strata + stratum[order], return_inverse=True)
    etypes = None if clusters.etypes is None else clusters.etypes[parts // n_strata]
    return Clusters(
        clusters.starts[order] + shift,
        clusters.ends[order] + shift,
        entity.ravel().astype(np.int64),
        len(parts),
        heads=heads,
        repeated=0,
        nodes=nodes,
        etypes=etypes,
    )
