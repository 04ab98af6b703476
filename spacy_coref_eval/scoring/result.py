"""Stage 5: the counts of every document of a run, and the scores they
aggregate to."""

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Optional

import numpy as np

from ..counting import Counts
from ..counting.rates import rates, stack_rates
from ..twinning import TwinnedCorpus
from .settings import Settings


def order_free_sum(counts: np.ndarray) -> np.ndarray:
    """The sum of ``counts`` over its first axis, the same whatever the
    order of its rows (so shards merged in any order and any partition
    give the whole run's bytes): a column of whole numbers adds up exactly
    as it is, any other column by :func:`math.fsum` (the exact sum,
    rounded once; Shewchuk 1997)."""
    total = counts.sum(axis=0)
    if len(counts) < 2:
        return total
    flat = counts.reshape(len(counts), -1)
    with np.errstate(invalid="ignore"):
        inexact = np.flatnonzero(~np.all(flat == np.round(flat), axis=0) & np.isfinite(total.reshape(-1)))
    if len(inexact):
        out = total.reshape(-1)
        for column in inexact.tolist():
            out[column] = math.fsum(flat[:, column].tolist())
    return total


class DocumentCounts(Mapping[str, Counts]):
    """The counts of a :class:`CorpusResult` by document name: a view of its
    counts array."""

    def __init__(self, result: "CorpusResult") -> None:
        self._result = result
        self._index = {name: i for i, name in enumerate(result.names)}

    def __getitem__(self, name: str) -> Counts:
        return Counts(self._result.settings.metrics, self._result.counts[self._index[name]])

    def __iter__(self) -> Iterator[str]:
        return iter(self._result.names)

    def __len__(self) -> int:
        return len(self._result.names)


@dataclass(frozen=True)
class CorpusResult:
    """The counts of every document of a corpus, ``counts[d]`` being those
    of document ``names[d]`` (shape ``(documents, len(BLOCKS),
    len(FIELDS))``), what went wrong on the way, and the twinning the
    counts came from (``None`` for results merged from saved counts)."""

    settings: Settings
    names: tuple[str, ...]
    counts: np.ndarray
    warnings: list[str]
    twinned: Optional[TwinnedCorpus] = None
    splits: Optional[np.ndarray] = None
    """Whether each document has split antecedents (the only source of
    partial-credit fractions, docs/ua.md); ``None``: not known (a counts
    file of version 1)."""

    @cached_property
    def documents(self) -> DocumentCounts:
        """Every document's :class:`Counts`, by name, in corpus order (its
        name index built once)."""
        return DocumentCounts(self)

    def stack(self, names: Optional[Iterable[str]] = None) -> np.ndarray:
        """The counts of every document, or of the documents ``names`` in
        that order."""
        if names is None:
            return self.counts
        index = {name: i for i, name in enumerate(self.names)}
        return self.counts[[index[name] for name in names]]

    @property
    def total(self) -> Counts:
        """The sum of the documents' counts."""
        return Counts(self.settings.metrics, order_free_sum(self.counts))

    def metrics(self) -> dict[str, dict]:
        """Recall, precision, F1 and counts per metric, micro-averaged."""
        return rates(self.total, self.settings.conventions)

    def document_metrics(self) -> dict[str, dict[str, dict]]:
        """:meth:`metrics` of every document, by name in corpus order."""
        return dict(zip(self.names, stack_rates(self.counts, self.settings.metrics, self.settings.conventions)))
