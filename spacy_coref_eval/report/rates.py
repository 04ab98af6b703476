"""From counts to recall, precision and F1 (SPEC §1–2).

:func:`score_arrays` is the one implementation of the rules: it works
elementwise on stacks of count arrays, so the statistics of
:mod:`~spacy_coref_eval.analysis` score thousands of resampled corpora in
one call; :func:`rates` applies it to one :class:`Counts`.
"""
from typing import Dict, List, Sequence, Tuple

import numpy as np

from ..counting.counts import BLANC_PARTS, BLOCK_INDEX, BLOCKS, FIELDS, Counts

RATES: Tuple[str, ...] = ("recall", "precision", "f1")
CONLL_PARTS: Tuple[str, ...] = ("muc", "bcub", "ceafe")

Scores = Dict[str, np.ndarray]


def ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den elementwise, with 0/0 = 0."""
    num, den = np.broadcast_arrays(np.asarray(num, dtype=np.float64), np.asarray(den, dtype=np.float64))
    return np.divide(num, den, out=np.zeros(num.shape), where=den != 0)


def f1(precision: np.ndarray, recall: np.ndarray) -> np.ndarray:
    """Harmonic mean elementwise, 0 where both are 0."""
    return ratio(2 * precision * recall, precision + recall)


def prf_arrays(block: np.ndarray) -> Scores:
    """Recall, precision and F1 of count blocks, shape ``(..., len(FIELDS))``."""
    recall = ratio(block[..., 0], block[..., 1])
    precision = ratio(block[..., 2], block[..., 3])
    return {"recall": recall, "precision": precision, "f1": f1(precision, recall)}


def blanc_rates(coref: np.ndarray, noncoref: np.ndarray) -> Scores:
    """BLANC from the count blocks of its two link kinds (Recasens & Hovy
    2011; Luo et al. 2014): the mean of the two, or the one kind whose key
    has links, as the reference scorer does (0 when the key has links of
    neither kind)."""
    has_coref, has_noncoref = coref[..., 1] > 0, noncoref[..., 1] > 0
    coref_rates, noncoref_rates = prf_arrays(coref), prf_arrays(noncoref)
    out: Scores = {}
    for name in RATES:
        c, n = coref_rates[name], noncoref_rates[name]
        alone = np.where(has_coref, c, np.where(has_noncoref, n, 0.0))
        out[name] = np.where(has_coref & has_noncoref, (c + n) / 2, alone)
    return out


def score_arrays(array: np.ndarray, metrics: Sequence[str]) -> Dict[str, Scores]:
    """Recall, precision and F1 of every metric computed, of mention
    identification, of BLANC and the CoNLL F1 (mean of MUC, B³ and CEAFe F1;
    Pradhan et al. 2014) when those three were computed (CoNLL has F1
    only), in report order. ``array`` holds counts of shape
    ``(..., len(BLOCKS), len(FIELDS))`` (a :attr:`Counts.array`, or a stack
    of them); every score has the leading shape."""
    block = {name: array[..., i, :] for i, name in enumerate(BLOCKS)}
    out: Dict[str, Scores] = {}
    for name in ("muc", "bcub", "ceafm", "ceafe", "lea", "mentions"):
        if name == "mentions" or name in metrics:
            out[name] = prf_arrays(block[name])
    if "blanc" in metrics:
        out["blanc"] = blanc_rates(block["blanc_coref"], block["blanc_noncoref"])
    if set(CONLL_PARTS) <= set(metrics):
        out["conll"] = {"f1": sum(out[name]["f1"] for name in CONLL_PARTS) / 3}
    return out


def rates(counts: Counts) -> Dict[str, Dict]:
    """The ``metrics`` block of the JSON output for ``counts``: every metric
    computed, mention identification, BLANC with its link kinds, and the
    CoNLL score when MUC, B³ and CEAFe were computed (:func:`score_arrays`)
    with the counts behind each."""
    return stack_rates(counts.array[None], counts.metrics)[0]


def stack_rates(array: np.ndarray, metrics: Sequence[str]) -> List[Dict[str, Dict]]:
    """:func:`rates` of every count array of a stack ``(n, len(BLOCKS),
    len(FIELDS))``, computed for all of them at once."""
    columns = {name: _lists(scores) for name, scores in score_arrays(array, metrics).items()}
    links = {}
    if "blanc" in columns:
        links = {part: _lists(prf_arrays(array[:, BLOCK_INDEX[block]])) for part, block in BLANC_PARTS}
    out = []
    for index, doc_counts in enumerate(array.tolist()):
        doc: Dict[str, Dict] = {}
        for name, scores in columns.items():
            doc[name] = {rate: values[index] for rate, values in scores.items()}
            if name in BLOCK_INDEX:
                doc[name].update(zip(FIELDS, doc_counts[BLOCK_INDEX[name]]))
        for part, block in BLANC_PARTS if links else ():
            doc["blanc"][part] = {rate: values[index] for rate, values in links[part].items()}
            doc["blanc"][part].update(zip(FIELDS, doc_counts[BLOCK_INDEX[block]]))
        out.append(doc)
    return out


def _lists(scores: Scores) -> Dict[str, List[float]]:
    return {name: values.tolist() for name, values in scores.items()}
