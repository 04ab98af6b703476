"""Stage 4: count. One contingency table per (rewritten) pair of partitions
feeds all six metrics; the result is an additive :class:`Counts` per
document. A whole corpus is counted in one pass (:func:`count_batch`)."""
from typing import List, Sequence

import numpy as np

from ..twinning.policies import Twinned
from .contingency import Contingency
from .counts import BLOCK_INDEX, BLOCKS, FIELDS, METRICS, Counts, check_metrics
from .metrics import metric_counts

__all__ = ["BLOCK_INDEX", "BLOCKS", "FIELDS", "METRICS", "Contingency", "Counts", "check_metrics", "count_batch"]


def count_batch(
    twinned: Twinned, recall_pair: Twinned, precision_pair: Twinned, metrics: Sequence[str]
) -> List[Counts]:
    """Counts of every document in ``twinned``: recall fields from
    ``recall_pair``, precision fields from ``precision_pair`` (the twinless
    policy's rewrites), mention identification from the twinned pair."""
    metrics = check_metrics(metrics)
    recall = metric_counts(Contingency.from_twinned(recall_pair), metrics)
    if precision_pair is recall_pair:
        precision = recall
    else:
        precision = metric_counts(Contingency.from_twinned(precision_pair), metrics)
    array = np.zeros((twinned.n_docs, len(BLOCKS), len(FIELDS)))
    for name, quad in recall.items():
        array[:, BLOCK_INDEX[name], 0], array[:, BLOCK_INDEX[name], 1] = quad[0], quad[1]
    for name, quad in precision.items():
        array[:, BLOCK_INDEX[name], 2], array[:, BLOCK_INDEX[name], 3] = quad[2], quad[3]
    array[:, BLOCK_INDEX["mentions"]] = mention_counts(twinned)
    return [Counts(metrics, row) for row in array]


def mention_counts(twinned: Twinned) -> np.ndarray:
    """Mention identification per document: twin pairs against key and
    response mentions, as rows ``(found, key, found, response)``."""
    doc, n_docs = twinned.documents, twinned.n_docs
    in_key = twinned.key >= 0
    in_response = twinned.response >= 0
    found = np.bincount(doc, weights=in_key & in_response, minlength=n_docs)
    keys = np.bincount(doc, weights=in_key, minlength=n_docs)
    responses = np.bincount(doc, weights=in_response, minlength=n_docs)
    return np.stack([found, keys, found, responses], axis=1)
