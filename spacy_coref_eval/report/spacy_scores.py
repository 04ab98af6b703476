"""Stage 6 for spaCy: the ``metrics`` block as flat spaCy score keys.

Scores are fractions, as spaCy reports them: ``coref_{metric}_{p,r,f}`` for
every metric computed and for mention identification (``mentions``),
``coref_conll_f`` when MUC, B³ and CEAFe were computed, and ``coref_p``,
``coref_r``, ``coref_f`` for the *headline* metric, the keys of spaCy's
experimental coreference scorer (which reports LEA).

With ``headline="conll"``, ``coref_f`` is the CoNLL score and ``coref_p`` /
``coref_r`` are the unweighted means of the MUC, B³ and CEAFe precisions /
recalls (the averages papers print next to the CoNLL F1); ``coref_f`` is then
not the harmonic mean of ``coref_p`` and ``coref_r``.
"""

from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any

from ..counting import CONLL_PARTS, METRICS, REGISTRY

HEADLINES: tuple[str, ...] = METRICS + ("conll",)
_RATES = (("p", "precision"), ("r", "recall"), ("f", "f1"))

Metrics = Mapping[str, Mapping[str, float]]


def check_headline(headline: str, metrics: Sequence[str]) -> str:
    """``headline`` if it is one of ``metrics`` or ``"conll"`` with MUC,
    B³ and CEAFe among them; else :class:`ValueError`."""
    if headline not in HEADLINES:
        raise ValueError(f"unknown headline metric {headline!r}; choose from {list(HEADLINES)}")
    needed = CONLL_PARTS if headline == "conll" else (headline,)
    missing = [name for name in needed if name not in metrics]
    if missing:
        raise ValueError(f"headline {headline!r} needs metric(s) {missing}, not computed (metrics: {list(metrics)})")
    return headline


def prf_keys(prefix: str, block: Mapping[str, float]) -> dict[str, float]:
    """``{prefix}_p``, ``{prefix}_r`` and ``{prefix}_f`` of one metric."""
    return {f"{prefix}_{short}": float(block[name]) for short, name in _RATES}


def headline_keys(metrics: Metrics, headline: str) -> dict[str, float]:
    """``coref_p``, ``coref_r`` and ``coref_f`` of the headline metric."""
    if headline != "conll":
        return prf_keys("coref", metrics[headline])
    parts = [metrics[name] for name in CONLL_PARTS]
    return {
        "coref_p": fmean(part["precision"] for part in parts),
        "coref_r": fmean(part["recall"] for part in parts),
        "coref_f": float(metrics["conll"]["f1"]),
    }


def spacy_scores(metrics: Metrics, headline: str = "lea") -> dict[str, float]:
    """spaCy score keys of a ``metrics`` block (:func:`~.rates.rates`)."""
    out: dict[str, float] = {}
    for name in (metric.name for metric in REGISTRY):
        if name in metrics:
            out.update(prf_keys(f"coref_{name}", metrics[name]))
    if "conll" in metrics:
        out["coref_conll_f"] = float(metrics["conll"]["f1"])
    out.update(headline_keys(metrics, check_headline(headline, list(metrics))))
    return out


def strata_keys(strata: Mapping[str, Mapping[str, Mapping]]) -> dict[str, float]:
    """``coref_<metric>_<stratum>_f`` of every metric (and the CoNLL score)
    in every stratum of the ``strata`` block (docs/analyses.md §3); two
    attributes with a stratum of the same name are an error."""
    out: dict[str, float] = {}
    for attribute, block in strata.items():
        for stratum, entry in block.items():
            for name, scores in entry["metrics"].items():
                key = f"coref_{name}_{stratum}_f"
                if key in out:
                    raise ValueError(f"stratum {stratum!r} of {attribute!r} gives score key {key!r} twice")
                out[key] = float(scores["f1"])
    return out


def links_keys(links: Mapping[str, Mapping[str, float]]) -> dict[str, float]:
    """``coref_links_<class>_{p,r,f}`` of every link class of the ``links``
    block (docs/long-documents.md §5)."""
    out: dict[str, float] = {}
    for name, entry in links.items():
        out.update(prf_keys(f"coref_links_{name}", entry))
    return out


def windows_keys(windows: Mapping[str, Any]) -> dict[str, float]:
    """``coref_<metric>_windows_{p,r,f}`` (``coref_conll_windows_f``) of the
    windowed scores of the ``windows`` block (docs/long-documents.md §3)."""
    out: dict[str, float] = {}
    for name, block in windows["metrics"].items():
        if name == "conll":
            out["coref_conll_windows_f"] = float(block["f1"])
        else:
            out.update(prf_keys(f"coref_{name}_windows", block))
    return out
