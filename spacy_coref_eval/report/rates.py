"""From counts to recall, precision and F1 (SPEC §1–2)."""
from typing import Dict, Tuple

from ..counting.counts import FIELDS, Counts


def ratio(num: float, den: float) -> float:
    """num / den, with 0/0 = 0."""
    return num / den if den else 0.0


def f1(precision: float, recall: float) -> float:
    """Harmonic mean, 0 when both are 0."""
    total = precision + recall
    return 2 * precision * recall / total if total else 0.0


def prf(block: Tuple[float, float, float, float]) -> Dict[str, float]:
    """Recall, precision, F1 and the four counts of one block."""
    recall = ratio(block[0], block[1])
    precision = ratio(block[2], block[3])
    return {"recall": recall, "precision": precision, "f1": f1(precision, recall), **dict(zip(FIELDS, block))}


def blanc_rates(coref: Dict[str, float], noncoref: Dict[str, float]) -> Dict[str, float]:
    """BLANC from its two link kinds (Recasens & Hovy 2011; Luo et al. 2014):
    the mean of the two, or the one kind whose key has links, as the
    reference scorer does (0 when the key has links of neither kind)."""
    has_coref = coref["recall_den"] > 0
    has_noncoref = noncoref["recall_den"] > 0
    if has_coref and has_noncoref:
        return {k: (coref[k] + noncoref[k]) / 2 for k in ("recall", "precision", "f1")}
    part = coref if has_coref else noncoref if has_noncoref else None
    if part is None:
        return {"recall": 0.0, "precision": 0.0, "f1": 0.0}
    return {k: part[k] for k in ("recall", "precision", "f1")}


def rates(counts: Counts) -> Dict[str, Dict]:
    """The ``metrics`` block of the JSON output for ``counts``: every metric
    computed, mention identification, BLANC with its link kinds, and the
    CoNLL score (mean of MUC, B³ and CEAFe F1; Pradhan et al. 2014) when
    those three were computed."""
    out: Dict[str, Dict] = {}
    for metric in ("muc", "bcub", "ceafm", "ceafe", "lea"):
        if metric in counts.metrics:
            out[metric] = prf(counts.block(metric))
    out["mentions"] = prf(counts.block("mentions"))
    if "blanc" in counts.metrics:
        coref = prf(counts.block("blanc_coref"))
        noncoref = prf(counts.block("blanc_noncoref"))
        out["blanc"] = {**blanc_rates(coref, noncoref), "coref_links": coref, "noncoref_links": noncoref}
    if {"muc", "bcub", "ceafe"} <= set(counts.metrics):
        out["conll"] = {"f1": (out["muc"]["f1"] + out["bcub"]["f1"] + out["ceafe"]["f1"]) / 3}
    return out
