"""The HTML report of a scoring run: its analyses computed, its views
built from the run's own twinning (:mod:`.views`), then rendered
(:mod:`.html`)."""

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Optional

from ..analysis.resolution import score_resolution_classes
from ..analysis.summary import Breakdowns, analyse
from ..errors import CorefInputError, warn
from ..scoring import CorpusResult
from .html import render_report
from .views import build_report


def report_page(
    result: CorpusResult,
    words: Mapping[str, Sequence[str]],
    *,
    key: str,
    response: str,
    level: float = 0.95,
    n_resamples: int = 1000,
    seed: int = 0,
    worst: int = 5,
    max_tokens: int = 400,
    tokens: Optional[Sequence] = None,
    breakdowns: Breakdowns = Breakdowns(),
    corpus: Any = None,
    response_documents: Sequence[Any] = (),
    n_process: int = 1,
    alignment: Optional[Mapping[str, object]] = None,
    closure: Optional[Mapping[str, Any]] = None,
) -> str:
    """The page: bootstrap intervals at ``level``, macro averages, error
    kinds, resolution classes when the key's ``tokens`` are given, and the
    ``worst`` documents' mentions side by side (at most ``max_tokens`` of
    each), titled with the ``key`` and ``response`` it compares, and what
    aligning the response onto the key changed (``alignment``, by document)
    and what closing an annotation tool's links did (``closure``, by side). A corpus
    whose documents cannot be classified gets a page without the class
    section, and a warning (on the page too) saying why. Every registered
    analysis the ``breakdowns`` ask for is added, as
    :func:`~..analysis.summary.analyse` computes it from the run's
    ``corpus`` (docs/analyses.md)."""
    analyses = analyse(
        result,
        level=level,
        n_resamples=n_resamples,
        seed=seed,
        macro=True,
        errors=True,
        breakdowns=breakdowns,
        corpus=corpus,
        response_documents=response_documents,
        n_process=n_process,
    )
    result = result if analyses.result is None else analyses.result
    sections = analyses.blocks(per_doc=True)
    if tokens is not None:
        try:
            sections["resolution_classes"] = score_resolution_classes(result, tokens).to_dict()
        except CorefInputError as err:
            note = f"resolution classes left out: {err}"
            warn(note)
            result = replace(result, warnings=[*result.warnings, note])
    data = build_report(
        result,
        words,
        intervals=analyses.intervals,
        macro=analyses.macro,
        errors=analyses.results["errors"],
        key=key,
        response=response,
        level=level,
        n_resamples=n_resamples,
        seed=seed,
        worst=worst,
        max_tokens=max_tokens,
        sections=sections,
        alignment=alignment,
        closure=closure,
        key_documents=getattr(corpus, "key_documents", None) or None,
    )
    return render_report(data)
