"""Names and number formats shared by the text tables and the HTML report."""
from typing import Dict, Tuple

SCORE_ORDER: Tuple[str, ...] = ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
"""Report order of everything with recall and precision."""
METRIC_ORDER: Tuple[str, ...] = SCORE_ORDER + ("conll",)
METRIC_NAMES: Dict[str, str] = {
    "mentions": "Mentions", "muc": "MUC", "bcub": "B³", "ceafm": "CEAFm",
    "ceafe": "CEAFe", "blanc": "BLANC", "lea": "LEA", "conll": "CoNLL",
}
RATE_NAMES: Tuple[Tuple[str, str], ...] = (("recall", "Recall"), ("precision", "Precision"), ("f1", "F1"))


def pct(value: float) -> str:
    """A fraction as a percentage with two decimals."""
    return f"{100 * value:.2f}"


def number(value: float) -> str:
    """A count with at most four decimals, trailing zeros dropped."""
    return f"{value:.4f}".rstrip("0").rstrip(".")


def fraction(num: float, den: float) -> str:
    return f"{number(num)} / {number(den)}"
