"""Stage 4: count. One contingency table per (rewritten) pair of partitions
feeds all six metrics; the result is an additive :class:`Counts`."""
from typing import Sequence

import numpy as np

from ..twinning.policies import Twinned
from .contingency import Contingency
from .counts import BLOCKS, FIELDS, METRICS, Counts, check_metrics
from .metrics import metric_counts

__all__ = ["BLOCKS", "FIELDS", "METRICS", "Contingency", "Counts", "check_metrics", "count"]


def count(twinned: Twinned, recall_pair: Twinned, precision_pair: Twinned, metrics: Sequence[str]) -> Counts:
    """Counts of one document: recall fields from ``recall_pair``, precision
    fields from ``precision_pair`` (the twinless policy's rewrites), mention
    identification from the twinned pair itself."""
    recall = metric_counts(Contingency.from_twinned(recall_pair), tuple(metrics))
    if precision_pair is recall_pair:
        precision = recall
    else:
        precision = metric_counts(Contingency.from_twinned(precision_pair), tuple(metrics))
    blocks = {name: recall[name][:2] + precision[name][2:] for name in recall}
    blocks["mentions"] = mention_counts(twinned)
    return Counts.from_blocks(metrics, blocks)


def mention_counts(twinned: Twinned) -> tuple:
    """Mention identification: twin pairs against key and response mentions."""
    in_key = twinned.key >= 0
    in_response = twinned.response >= 0
    found = float(np.count_nonzero(in_key & in_response))
    return (found, float(in_key.sum()), found, float(in_response.sum()))
