"""Stage 5: the counts of every document of a run, and the scores they
aggregate to."""
from dataclasses import dataclass
from functools import cached_property
from typing import Dict, Iterable, Iterator, List, Mapping, Optional, Tuple

import numpy as np

from ..counting import Counts
from ..counting.rates import rates, stack_rates
from ..twinning import TwinnedCorpus
from .settings import Settings


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
    names: Tuple[str, ...]
    counts: np.ndarray
    warnings: List[str]
    twinned: Optional[TwinnedCorpus] = None

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
        return Counts(self.settings.metrics, self.counts.sum(axis=0))

    def metrics(self) -> Dict[str, Dict]:
        """Recall, precision, F1 and counts per metric, micro-averaged."""
        return rates(self.total, self.settings.conventions)

    def document_metrics(self) -> Dict[str, Dict[str, Dict]]:
        """:meth:`metrics` of every document, by name in corpus order."""
        return dict(zip(self.names, stack_rates(self.counts, self.settings.metrics, self.settings.conventions)))
