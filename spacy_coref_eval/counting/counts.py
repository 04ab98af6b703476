"""Additive counts: what one document contributes to a corpus score.

Counts keep one shape from counting to output: an array of
``(documents, len(BLOCKS), len(FIELDS))``, one row per count block of the
metrics in :data:`~.metrics.REGISTRY` (BLANC has two: coreference and
non-coreference links) and recall and precision numerators and
denominators as columns. Counts of documents add up to the counts of the
corpus (docs/metrics.md §1), so they can be merged across shards and saved.
A :class:`Counts` is one document's (or one total's) row of that array.
"""

import json
from collections.abc import Mapping, Sequence
from typing import Optional

import numpy as np

from .metrics import ANAPHORA_METRICS, DEFAULT_METRICS, METRIC_INFO, METRICS, REGISTRY, check_metrics

FIELDS: tuple[str, ...] = ("recall_num", "recall_den", "precision_num", "precision_den")
BLOCKS: tuple[str, ...] = tuple(block for metric in REGISTRY for block in metric.count_blocks)
BLOCK_INDEX: dict[str, int] = {name: i for i, name in enumerate(BLOCKS)}
ALWAYS: tuple[str, ...] = tuple(metric.name for metric in REGISTRY if not metric.selectable and metric.kind != "anaphora")
"""The metrics reported whatever is chosen (mention identification)."""


def reported(metrics: Sequence[str]) -> tuple[str, ...]:
    """Every metric reported when ``metrics`` are chosen, in report order."""
    return tuple(metric.name for metric in REGISTRY if metric.name in ALWAYS or metric.name in metrics)


def empty_counts(n_docs: int) -> np.ndarray:
    """Zero counts of ``n_docs`` documents."""
    return np.zeros((n_docs, len(BLOCKS), len(FIELDS)))


class Counts:
    """Numerators and denominators of recall and precision per metric, for
    one document or a total: one row of the counts array (rows of metrics
    not computed stay zero and are left out of :meth:`as_dict`)."""

    __slots__ = ("array", "metrics")

    def __init__(self, metrics: Sequence[str] = DEFAULT_METRICS, array: Optional[np.ndarray] = None) -> None:
        self.metrics = check_metrics(metrics)
        self.array = np.zeros((len(BLOCKS), len(FIELDS))) if array is None else array

    def block(self, name: str) -> tuple[float, float, float, float]:
        """``(recall_num, recall_den, precision_num, precision_den)`` of a block."""
        return tuple(float(x) for x in self.array[BLOCK_INDEX[name]])  # type: ignore[return-value]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Counts) and other.metrics == self.metrics and bool(np.array_equal(other.array, self.array))

    def __repr__(self) -> str:
        return f"Counts({self.as_dict()!r})"

    def as_dict(self) -> dict[str, dict]:
        """``{"mentions": {field: value}, "muc": {...}, ..., "blanc":
        {"coref_links": {...}, "noncoref_links": {...}}}`` for the metrics
        reported."""
        out: dict[str, dict] = {}
        for name in reported(self.metrics):
            metric = METRIC_INFO[name]
            if metric.parts:
                out[name] = {part: self._fields(block) for part, block in zip(metric.parts, metric.blocks)}
            else:
                out[name] = self._fields(name)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Mapping], metrics: Optional[Sequence[str]] = None) -> "Counts":
        """Inverse of :meth:`as_dict`; ``metrics`` (default: those present)
        must all be in ``data`` (else :class:`KeyError`), and every count a
        number (else :class:`ValueError` naming it: ``true``, ``"12"`` and
        ``null`` are not)."""
        if metrics is None:
            metrics = [m.name for m in REGISTRY if m.name in data and m.name in METRICS + ANAPHORA_METRICS]
        else:
            metrics = check_metrics(metrics)
        counts = cls(metrics)
        for name in reported(metrics):
            metric = METRIC_INFO[name]
            if metric.parts:
                for part, block in zip(metric.parts, metric.blocks):
                    counts.array[BLOCK_INDEX[block]] = _numbers(data[name][part], f"{name} {part}")
            else:
                counts.array[BLOCK_INDEX[name]] = _numbers(data[name], name)
        return counts

    def _fields(self, block: str) -> dict[str, float]:
        return dict(zip(FIELDS, self.block(block)))


def _numbers(fields: Mapping[str, object], label: str) -> list:
    """The four counts of one block, refusing what is not a number."""
    values = [fields[field] for field in FIELDS]
    for field, value in zip(FIELDS, values):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            shown = "null" if value is None else json.dumps(value) if isinstance(value, (bool, str)) else repr(value)
            raise ValueError(f"{label} {field} ({shown}) is not a number")
    return values
