"""The scores tables before rendering: columns and rows with rates as
fractions and counts as numbers, rendered as text (:mod:`.table`) or for
papers (:mod:`.paper`)."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Callable, Union

from ..counting import METRIC_INFO
from .labels import METRIC_NAMES, METRIC_ORDER, SCORE_ORDER, number, pct

Cell = Union[str, float, None]
"""A label, a rate (a fraction; shown as a percentage) or a count; ``None``: empty."""
RATE, COUNT, LABEL = "rate", "count", "label"
SCORE_KINDS = (LABEL, RATE, RATE, RATE, COUNT, COUNT, COUNT, COUNT)


@dataclass(frozen=True)
class Grid:
    """A table: its ``title`` (empty: none), column names, what each column
    holds (:data:`LABEL`, :data:`RATE` or :data:`COUNT`) and its rows."""

    title: str
    header: tuple[str, ...]
    kinds: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]


def scores_grid(metrics: Mapping[str, dict]) -> Grid:
    """One row per metric (and per part of a metric, e.g. BLANC's links,
    indented): recall, precision, F1 and the counts behind them; CoNLL's F1."""
    rows: list[tuple[Cell, ...]] = []
    for name in SCORE_ORDER:
        if name not in metrics:
            continue
        scores, metric = metrics[name], METRIC_INFO[name]
        rows.append(score_row(METRIC_NAMES[name], scores, counts=not metric.parts))
        rows.extend(score_row(f"  {label}", scores[part], counts=True) for part, label in zip(metric.parts, metric.part_labels))
    if "conll" in metrics:
        rows.append((METRIC_NAMES["conll"], None, None, metrics["conll"]["f1"], None, None, None, None))
    header = ("Metric", "Recall", "Precision", "F1", "Recall num", "Recall den", "Precision num", "Precision den")
    return Grid("", header, SCORE_KINDS, tuple(rows))


def score_row(label: str, scores: Mapping[str, float], counts: bool) -> tuple[Cell, ...]:
    """``label``, recall, precision, F1 and (with ``counts``) the
    numerators and denominators behind them, in :data:`SCORE_KINDS`."""
    rates: tuple[Cell, ...] = (label, scores["recall"], scores["precision"], scores["f1"])
    if not counts:
        return rates + (None, None, None, None)
    return rates + tuple(scores[name] for name in ("recall_num", "recall_den", "precision_num", "precision_den"))


def documents_grid(documents: Mapping[str, Mapping[str, dict]]) -> Grid:
    """F1 of every metric, one row per document."""
    names = [m for m in METRIC_ORDER if any(m in d for d in documents.values())]
    rows = tuple((doc, *(d[m]["f1"] if m in d else None for m in names)) for doc, d in documents.items())
    header = ("Document", *(f"{METRIC_NAMES[m]} F1" for m in names))
    return Grid("Documents", header, (LABEL,) + (RATE,) * len(names), rows)


def intervals_grid(intervals: Mapping[str, Mapping[str, tuple[float, float]]], level: float) -> Grid:
    """Bootstrap intervals: per metric the low and high bound of recall,
    precision and F1."""
    rates = ("recall", "precision", "f1")
    rows = tuple(
        (METRIC_NAMES[name], *(bound for rate in rates for bound in (intervals[name].get(rate) or (None, None))))
        for name in METRIC_ORDER
        if name in intervals
    )
    header = ("Metric", *(f"{label} {end}" for label in ("Recall", "Precision", "F1") for end in ("low", "high")))
    return Grid(f"Bootstrap {100 * level:g}% intervals", header, (LABEL,) + (RATE,) * 6, rows)


def macro_grid(macro: Mapping[str, Mapping[str, float]]) -> Grid:
    """Macro averages over documents: recall, precision, F1 and the number of documents."""
    rows = tuple(
        (METRIC_NAMES[name], macro[name].get("recall"), macro[name].get("precision"), macro[name]["f1"], macro[name]["n_documents"])
        for name in METRIC_ORDER
        if name in macro
    )
    header = ("Metric", "Recall", "Precision", "F1", "Documents")
    return Grid("Macro averages over documents", header, (LABEL, RATE, RATE, RATE, COUNT), rows)


def cell_text(cell: Cell, kind: str, label: Callable[[str], str] = str) -> str:
    """A cell as text: a rate as a percentage, a count as a number, a
    label through ``label``; no value, nothing."""
    if cell is None:
        return ""
    if kind == RATE:
        return pct(float(cell))
    if kind == COUNT:
        return number(float(cell))
    return label(str(cell))
