"""Additive counts: what one document contributes to a corpus score.

A :class:`Counts` holds, for each metric computed, recall and precision
numerators and denominators (BLANC as two blocks: coreference and
non-coreference links). Counts of documents add up to the counts of the
corpus (SPEC §1), so they can be merged across shards and saved.
"""
from typing import Dict, Iterable, Mapping, Optional, Sequence, Tuple

import numpy as np

METRICS: Tuple[str, ...] = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
FIELDS: Tuple[str, ...] = ("recall_num", "recall_den", "precision_num", "precision_den")
BLOCKS: Tuple[str, ...] = (
    "mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "blanc_coref", "blanc_noncoref",
)
BLOCK_INDEX = {name: i for i, name in enumerate(BLOCKS)}
BLANC_PARTS = (("coref_links", "blanc_coref"), ("noncoref_links", "blanc_noncoref"))


def check_metrics(metrics: Iterable[str]) -> Tuple[str, ...]:
    """Validated metric names, in canonical order."""
    chosen = set(metrics)
    unknown = chosen - set(METRICS)
    if unknown:
        raise ValueError(f"unknown metric(s) {sorted(unknown)}; choose from {list(METRICS)}")
    return tuple(m for m in METRICS if m in chosen)


class Counts:
    """Numerators and denominators of recall and precision per metric.

    ``array`` has one row per block of :data:`BLOCKS` and one column per
    field of :data:`FIELDS`; rows of metrics not computed stay zero and are
    left out of :meth:`as_dict`.
    """

    __slots__ = ("array", "metrics")

    def __init__(self, metrics: Sequence[str] = METRICS, array: Optional[np.ndarray] = None) -> None:
        self.metrics = check_metrics(metrics)
        self.array = np.zeros((len(BLOCKS), len(FIELDS))) if array is None else array

    def block(self, name: str) -> Tuple[float, float, float, float]:
        """``(recall_num, recall_den, precision_num, precision_den)`` of a block."""
        return tuple(float(x) for x in self.array[BLOCK_INDEX[name]])  # type: ignore[return-value]

    def __add__(self, other: "Counts") -> "Counts":
        if not isinstance(other, Counts):
            return NotImplemented
        if other.metrics != self.metrics:
            raise ValueError(f"cannot add counts of metrics {self.metrics} and {other.metrics}")
        return Counts(self.metrics, self.array + other.array)

    def __radd__(self, other: object) -> "Counts":
        if other == 0:
            return self
        return NotImplemented  # type: ignore[return-value]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Counts)
            and other.metrics == self.metrics
            and bool(np.array_equal(other.array, self.array))
        )

    def __repr__(self) -> str:
        return f"Counts({self.as_dict()!r})"

    @classmethod
    def total(cls, counts: Iterable["Counts"], metrics: Sequence[str] = METRICS) -> "Counts":
        """The sum of ``counts`` (zero counts of ``metrics`` when empty)."""
        out = Counts(metrics)
        for item in counts:
            out = out + item
        return out

    def as_dict(self) -> Dict[str, Dict]:
        """``{"mentions": {field: value}, "muc": {...}, ..., "blanc":
        {"coref_links": {...}, "noncoref_links": {...}}}`` for the metrics
        computed."""
        out: Dict[str, Dict] = {"mentions": self._fields("mentions")}
        for metric in self.metrics:
            if metric == "blanc":
                out["blanc"] = {part: self._fields(block) for part, block in BLANC_PARTS}
            else:
                out[metric] = self._fields(metric)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Mapping], metrics: Optional[Sequence[str]] = None) -> "Counts":
        """Inverse of :meth:`as_dict`; ``metrics`` (default: those present)
        must all be in ``data`` (else :class:`KeyError`)."""
        metrics = [m for m in METRICS if m in data] if metrics is None else check_metrics(metrics)
        counts = cls(metrics)
        for name in ("mentions", *metrics):
            if name == "blanc":
                for part, block in BLANC_PARTS:
                    counts.array[BLOCK_INDEX[block]] = [data[name][part][f] for f in FIELDS]
            else:
                counts.array[BLOCK_INDEX[name]] = [data[name][f] for f in FIELDS]
        return counts

    def _fields(self, block: str) -> Dict[str, float]:
        return dict(zip(FIELDS, self.block(block)))
