"""The HTML report of a scoring run: its analyses computed, its views
built from the run's own twinning (:mod:`.views`), then rendered
(:mod:`.html`)."""
from typing import Mapping, Optional, Sequence

from ..analysis.summary import analyse
from ..scoring import CorpusResult


def report_page(
    result: CorpusResult,
    words: Mapping[str, Sequence[str]],
    key: str,
    response: str,
    level: float = 0.95,
    n_resamples: int = 1000,
    seed: int = 0,
    worst: int = 5,
    max_tokens: int = 400,
    tokens: Optional[Sequence] = None,
) -> str:
    """The page: bootstrap intervals at ``level``, macro averages, error
    kinds, resolution classes when the key's ``tokens`` are given, and the
    ``worst`` documents' mentions side by side (at most ``max_tokens`` of
    each), titled with the ``key`` and ``response`` it compares."""
    from .html import render_report
    from .views import build_report

    analyses = analyse(result, level, n_resamples, seed, macro=True, errors=True, tokens=tokens)
    data = build_report(
        result, words,
        intervals=analyses.intervals, macro=analyses.macro, errors=analyses.errors,
        key=key, response=response, level=level, n_resamples=n_resamples, seed=seed,
        worst=worst, max_tokens=max_tokens,
        classes=None if analyses.classes is None else analyses.classes.to_dict(),
    )
    return render_report(data)
