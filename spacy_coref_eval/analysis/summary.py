"""The analyses a command asks of a scoring run, computed in one call
(:func:`analyse`) and carried to the report as one value (:class:`Analyses`)."""
from dataclasses import dataclass
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple

from ..scoring import CorpusResult


@dataclass(frozen=True)
class Analyses:
    """What a report adds to the scores on request: bootstrap intervals with
    how they were drawn (``level``, ``n_resamples``, ``seed``), macro
    averages, error counts by document and in total, resolution
    classes (a :class:`~.resolution_classes.ResolutionClassResult`) and the
    alignment report."""

    intervals: Optional[Dict[str, Dict[str, Tuple[float, float]]]] = None
    level: Optional[float] = None
    n_resamples: int = 1000
    seed: int = 0
    macro: Optional[Dict[str, Dict[str, float]]] = None
    errors: Optional[Dict[str, Dict[str, int]]] = None
    classes: Any = None
    alignment: Optional[Mapping[str, Any]] = None
    """What aligning the response onto the key changed, by document
    (:class:`~spacy_coref_eval.formats.document.AlignmentReport`), when a
    format aligned it."""


def analyse(
    result: CorpusResult,
    level: Optional[float] = None,
    n_resamples: int = 1000,
    seed: int = 0,
    macro: bool = False,
    errors: bool = False,
    tokens: Optional[Sequence[Any]] = None,
) -> Analyses:
    """The analyses asked for: intervals at ``level``, ``macro`` averages,
    ``errors`` kinds, and resolution classes when the key's ``tokens`` are
    given (one :class:`~spacy_coref_eval.formats.tokens.Tokens` per
    document). Each module loads only when its analysis is asked for."""
    out: Dict[str, Any] = {"level": level, "n_resamples": n_resamples, "seed": seed}
    if level is not None or macro:
        from .statistics import bootstrap_intervals, macro_average

        if level is not None:
            out["intervals"] = bootstrap_intervals(result, level, n_resamples, seed)
        if macro:
            out["macro"] = macro_average(result)
    if errors:
        from .error_types import corpus_error_counts

        out["errors"] = corpus_error_counts(result)
    if tokens is not None:
        from .resolution import score_resolution_classes

        out["classes"] = score_resolution_classes(result, tokens)
    return Analyses(**out)
