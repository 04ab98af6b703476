"""Stage 4: count. The twinless policy's partitions go into one contingency
table each (recall and precision), and every metric of
:data:`~.metrics.REGISTRY` reads its counts off them, for all documents of a
corpus in one pass: an array of ``(documents, blocks, fields)``
(:mod:`.counts`). :mod:`.rates` turns counts into recall, precision and F1."""
from typing import Any, Mapping, Optional, Sequence

import numpy as np

from ..twinning.twinned import Twinned, TwinnedCorpus
from .contingency import Contingency, Tables, membership_tables
from .counts import BLOCK_INDEX, BLOCKS, FIELDS, Counts, empty_counts, reported
from .metrics import CONLL_PARTS, DEFAULT_METRICS, METRIC_INFO, METRICS, REGISTRY, Conventions, Metric, check_metrics

__all__ = [
    "BLOCK_INDEX", "BLOCKS", "CONLL_PARTS", "DEFAULT_METRICS", "FIELDS", "METRICS", "METRIC_INFO", "REGISTRY",
    "Contingency", "Conventions", "Counts", "Metric", "check_metrics", "count_corpus", "empty_counts", "reported",
]


def count_corpus(
    twinned: TwinnedCorpus, recall_pair: Twinned, precision_pair: Twinned, metrics: Sequence[str],
    memberships: bool = False,
    options: Mapping[str, Any] = {},
) -> np.ndarray:
    """Counts of every document of ``twinned``, shape ``(n_docs,
    len(BLOCKS), len(FIELDS))``: recall fields from ``recall_pair``,
    precision fields from ``precision_pair`` (the twinless policy's
    rewrites), metrics of kind ``"mentions"`` from the twinning itself
    (those of kind ``"anaphora"``: :mod:`.anaphora`). With
    ``memberships`` and a twinning that counts every copy of a mention
    (:attr:`TwinnedCorpus.memberships`), the tables are those
    (:func:`~.contingency.membership_tables`) and the pairs unused.
    ``options`` are settings a metric's count takes (``Metric.options``)."""
    array = empty_counts(twinned.n_docs)
    tables: Optional[Tables] = None
    for name in reported(check_metrics(metrics)):
        metric = METRIC_INFO[name]
        rows = [BLOCK_INDEX[block] for block in metric.count_blocks]
        if metric.kind == "anaphora":
            continue
        if metric.kind == "mentions":
            for row, quad in zip(rows, metric.count(twinned)):
                array[:, row] = np.stack(quad, axis=1)
            continue
        if tables is None:
            tables = _tables(twinned, recall_pair, precision_pair, memberships)
        recall_table, precision_table = tables.get(name, tables[""])
        given = {name: options[name] for name in metric.options if name in options}
        recall_quads = metric.count(recall_table, **given)
        precision_quads = recall_quads if precision_table is recall_table else metric.count(precision_table, **given)
        for row, recall, precision in zip(rows, recall_quads, precision_quads):
            array[:, row] = np.stack([recall[0], recall[1], precision[2], precision[3]], axis=1)
    return array


def _tables(twinned: TwinnedCorpus, recall_pair: Twinned, precision_pair: Twinned, memberships: bool) -> Tables:
    if memberships and twinned.memberships is not None:
        return membership_tables(twinned.memberships)
    recall = Contingency.from_twinned(recall_pair)
    return {"": (recall, recall if precision_pair is recall_pair else Contingency.from_twinned(precision_pair))}
