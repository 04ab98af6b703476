"""Names and number formats shared by the text tables and the HTML report;
metric names come from the metric registry."""

from collections.abc import Mapping
from typing import Any

from ..about import __version__
from ..counting import REGISTRY

SCORE_ORDER: tuple[str, ...] = tuple(metric.name for metric in REGISTRY)
"""Report order of everything with recall and precision."""
METRIC_ORDER: tuple[str, ...] = SCORE_ORDER + ("conll",)
METRIC_NAMES: dict[str, str] = {**{metric.name: metric.label for metric in REGISTRY}, "conll": "CoNLL"}
RATE_NAMES: tuple[tuple[str, str], ...] = (("recall", "Recall"), ("precision", "Precision"), ("f1", "F1"))


def pct(value: float) -> str:
    """A fraction as a percentage with two decimals."""
    return f"{100 * value:.2f}"


def number(value: float) -> str:
    """A count with at most four decimals, trailing zeros dropped."""
    return f"{value:.4f}".rstrip("0").rstrip(".")


def fraction(num: float, den: float) -> str:
    return f"{number(num)} / {number(den)}"


def printable(text: str) -> str:
    """``text`` with control characters (terminal escape codes included)
    written as escapes, so that a document name cannot drive the terminal."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def settings_line(settings: Mapping[str, Any]) -> str:
    """The line under a report's tables: matching (with its parameters),
    twinless policy, singletons, preset and any other setting that is not
    the default, then the scorer's version (``Settings.to_dict()`` in)."""
    shown = dict(settings)
    shown.pop("metrics", None)
    words = {"match": "matching", "twinless": "twinless", "singletons": "singletons"}
    parts = [f"{words[name]} {shown.pop(name)}" for name in words if name in shown]
    parts.append(f"preset {shown.pop('preset', 'none')}")
    parts.extend(f"{name.replace('_', ' ')} {_setting(value)}" for name, value in shown.items() if value is not None)
    return f"Settings: {', '.join(parts)}; spacy-coref-eval {__version__}\n"


def _setting(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {v:g}" if isinstance(v, float) else f"{k}: {v}" for k, v in value.items()) + "}"
    return f"{value:g}" if isinstance(value, float) else str(value)
