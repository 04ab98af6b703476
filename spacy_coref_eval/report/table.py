"""Plain-text tables of scores (wasabi, as spaCy's own command line)."""
from typing import Dict, List, Mapping

from wasabi import table

_ORDER = ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
_NAMES = {
    "mentions": "Mentions", "muc": "MUC", "bcub": "B³", "ceafm": "CEAFm",
    "ceafe": "CEAFe", "blanc": "BLANC", "lea": "LEA", "conll": "CoNLL",
}


def _pct(value: float) -> str:
    return f"{100 * value:.2f}"


def _num(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".")


def _fraction(num: float, den: float) -> str:
    return f"{_num(num)} / {_num(den)}"


def metrics_table(metrics: Mapping[str, Dict]) -> str:
    """One row per metric: recall, precision, F1 (percent) and the counts
    behind them, like the reference scorer's report in one table."""
    rows: List[List[str]] = []
    for name in _ORDER:
        if name not in metrics:
            continue
        scores = metrics[name]
        if name == "blanc":
            for part, label in (("coref_links", "  coref links"), ("noncoref_links", "  non-coref links")):
                rows.append(_row(label, scores[part], counts=True))
            rows.insert(len(rows) - 2, _row(_NAMES[name], scores, counts=False))
        else:
            rows.append(_row(_NAMES[name], scores, counts=True))
    if "conll" in metrics:
        rows.append([_NAMES["conll"], "", "", _pct(metrics["conll"]["f1"]), "", ""])
    header = ("Metric", "Recall", "Precision", "F1", "Recall num / den", "Precision num / den")
    return table(rows, header=header, divider=True, aligns=("l", "r", "r", "r", "r", "r"))


def _row(label: str, scores: Mapping[str, float], counts: bool) -> List[str]:
    row = [label, _pct(scores["recall"]), _pct(scores["precision"]), _pct(scores["f1"])]
    if counts:
        row += [
            _fraction(scores["recall_num"], scores["recall_den"]),
            _fraction(scores["precision_num"], scores["precision_den"]),
        ]
    else:
        row += ["", ""]
    return row


def documents_table(documents: Mapping[str, Mapping[str, Dict]]) -> str:
    """F1 (percent) of every metric, one row per document."""
    names = [m for m in (*_ORDER, "conll") if any(m in d for d in documents.values())]
    rows = [[doc] + [_pct(d[m]["f1"]) if m in d else "" for m in names] for doc, d in documents.items()]
    header = ["Document"] + [f"{_NAMES[m]} F1" for m in names]
    return table(rows, header=header, divider=True, aligns=["l"] + ["r"] * len(names))
