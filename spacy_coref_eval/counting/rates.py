"""From counts to recall, precision and F1 (docs/metrics.md §1–2), with
the package's one 0/0 rule (:func:`ratio`: 0/0 = 0).

:func:`score_arrays` is the one implementation of the rules: it works
elementwise on stacks of count arrays, so the statistics of
:mod:`~spacy_coref_eval.analysis` score thousands of resampled corpora in
one call; :func:`rates` applies it to one :class:`Counts` and
:func:`stack_rates` to every document at once.
"""

from collections.abc import Sequence
from typing import Union, cast

import numpy as np

from .counts import BLOCK_INDEX, FIELDS, Counts, reported
from .metrics import CONLL_PARTS, METRIC_INFO, RATES, Conventions, Scores

__all__ = ["CONLL_PARTS", "RATES", "f1", "prf_arrays", "rates", "ratio", "score_arrays", "stack_rates"]


def ratio(num: Union[np.ndarray, float], den: Union[np.ndarray, float]) -> np.ndarray:
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


def score_arrays(array: np.ndarray, metrics: Sequence[str], conventions: Conventions = Conventions()) -> dict[str, Scores]:
    """Recall, precision and F1 of every metric reported (in report order)
    and the CoNLL F1, the mean of the MUC, B³ and CEAFe F1 (Pradhan et al.
    2014), when those three were computed. ``array`` holds counts of shape
    ``(..., len(BLOCKS), len(FIELDS))``; every score has the leading shape.
    ``conventions`` are the scorer's rules (``Settings.conventions``)."""
    out: dict[str, Scores] = {}
    for name in reported(metrics):
        metric = METRIC_INFO[name]
        blocks = [array[..., BLOCK_INDEX[block], :] for block in metric.count_blocks]
        parts = [prf_arrays(block) for block in blocks]
        out[name] = parts[0] if metric.combine is None else metric.combine(blocks, parts, conventions)
    if set(CONLL_PARTS) <= set(metrics):
        out["conll"] = {"f1": cast(np.ndarray, sum(out[name]["f1"] for name in CONLL_PARTS) / len(CONLL_PARTS))}
    return out


def rates(counts: Counts, conventions: Conventions = Conventions()) -> dict[str, dict]:
    """The ``metrics`` block of the JSON output for ``counts``
    (:func:`stack_rates` of one document)."""
    return stack_rates(counts.array[None], counts.metrics, conventions)[0]


def stack_rates(array: np.ndarray, metrics: Sequence[str], conventions: Conventions = Conventions()) -> list[dict[str, dict]]:
    """For every count array of a stack ``(n, len(BLOCKS), len(FIELDS))``:
    per metric reported its recall, precision and F1 with the counts behind
    them (a metric of several blocks, BLANC, lists each block's rates and
    counts under its part name), and the CoNLL F1; computed for all at once."""
    columns = {name: _lists(scores) for name, scores in score_arrays(array, metrics, conventions).items()}
    parts = {
        block: _lists(prf_arrays(array[:, BLOCK_INDEX[block]]))
        for name in columns
        if name in METRIC_INFO
        for block in METRIC_INFO[name].blocks
    }
    out = []
    for index, doc_counts in enumerate(array.tolist()):
        doc: dict[str, dict] = {}
        for name, scores in columns.items():
            doc[name] = {rate: values[index] for rate, values in scores.items()}
            metric = METRIC_INFO.get(name)
            if metric is None:
                continue
            if not metric.parts:
                doc[name].update(zip(FIELDS, doc_counts[BLOCK_INDEX[name]]))
            for part, block in zip(metric.parts, metric.blocks):
                doc[name][part] = {rate: values[index] for rate, values in parts[block].items()}
                doc[name][part].update(zip(FIELDS, doc_counts[BLOCK_INDEX[block]]))
        out.append(doc)
    return out


def _lists(scores: Scores) -> dict[str, list[float]]:
    return {name: values.tolist() for name, values in scores.items()}
