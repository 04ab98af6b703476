"""The analyses a command asks of a scoring run, computed in one call
(:func:`analyse`) and carried to the report as one value (:class:`Analyses`):
the bootstrap intervals and macro averages of the scores, and every
registered analysis asked for (:mod:`.registry`)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Optional

from ..scoring import CorpusResult
from .registry import Context, get_analysis, registered_analyses, resolve


@dataclass(frozen=True)
class Analyses:
    """What a report adds to the scores on request: bootstrap intervals with
    how they were drawn (``level``, ``n_resamples``, ``seed``), macro
    averages, the alignment report (what aligning the response onto the key
    changed, by document, when a format aligned it) and the value of every
    registered analysis asked for (``results``, by name, in registry
    order; also read as attributes, ``analyses.waterfall``)."""

    intervals: Optional[dict[str, dict[str, tuple[float, float]]]] = None
    level: Optional[float] = None
    n_resamples: int = 1000
    seed: int = 0
    macro: Optional[dict[str, dict[str, float]]] = None
    alignment: Optional[Mapping[str, Any]] = None
    """What aligning the response onto the key changed, by document
    (:class:`~spacy_coref_eval.formats.document.AlignmentReport`), when a
    format aligned it."""
    closure: Optional[Mapping[str, Any]] = None
    """By side, what closing an annotation tool's links did (docs/formats.md)."""
    results: Mapping[str, Any] = field(default_factory=dict)
    result: Optional[CorpusResult] = None
    """The run's result as an analysis changed it (``--partial-gold``), or ``None``."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("results", "result"):
            raise AttributeError(name)
        aliases = {"classes": "resolution_classes"}
        try:
            get_analysis(aliases.get(name, name))
        except KeyError:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}") from None
        return self.results.get(aliases.get(name, name))

    def blocks(self, per_doc: bool = False) -> dict[str, Any]:
        """The JSON block of every analysis computed, by name, in registry order."""
        out = {}
        for analysis in registered_analyses():
            if analysis.name in self.results:
                value = self.results[analysis.name]
                out[analysis.name] = resolve(analysis.json)(value, per_doc) if analysis.json else value
        return out


class Breakdowns:
    """The registered analyses asked for, by the values of their options
    (``Breakdowns(waterfall=True, by=("chain-length",))``; docs/analyses.md),
    and what they need of the run."""

    def __init__(self, values: Optional[Mapping[str, Any]] = None, **given: Any) -> None:
        self.values: dict[str, Any] = {**(values or {}), **given}
        if "by" in self.values:
            self.values["by"] = tuple(self.values["by"] or ())

    def __repr__(self) -> str:
        return f"Breakdowns({self.values!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Breakdowns) and self.values == other.values

    @property
    def asked(self) -> tuple[str, ...]:
        """The names of the analyses asked for, in registry order."""
        return tuple(analysis.name for analysis in registered_analyses() if analysis.asked(self.values))

    @property
    def needs(self) -> frozenset[str]:
        """What the analyses asked for need of the run (:data:`~.registry.NEEDS`)."""
        out: frozenset[str] = frozenset()
        for name in self.asked:
            out |= get_analysis(name).needed(self.values)
        return out

    @property
    def twinning(self) -> bool:
        """Whether they read the run's twinning."""
        return "twinning" in self.needs

    @property
    def tokens(self) -> bool:
        """Whether they read the key's token information."""
        return "tokens" in self.needs

    @property
    def words(self) -> bool:
        """Whether they read the key's words."""
        return "words" in self.needs

    @property
    def whole(self) -> bool:
        """Whether they need every document read at once (no streaming)."""
        return "whole" in self.needs

    @property
    def response_attributes(self) -> bool:
        """Whether they read attributes of the response's own documents."""
        return "response_documents" in self.needs

    def run_options(self) -> dict[str, Any]:
        """What the run keeps for them, as :class:`~..scoring.Options`
        fields: ``tokens``, ``words``, ``twinning``, and ``stream`` unless
        they need every document read at once."""
        return {"tokens": self.tokens, "words": self.words, "twinning": self.twinning, "stream": not self.whole}

    def check(self, scoring: Any = None) -> "Breakdowns":
        """Itself, once every analysis asked for accepts its option values
        (and the run's ``scoring`` options); else :class:`ValueError`."""
        for name in self.asked:
            analysis = get_analysis(name)
            if analysis.check:
                resolve(analysis.check)(self.values, scoring)
        return self


def analyse(
    result: CorpusResult,
    *,
    level: Optional[float] = None,
    n_resamples: int = 1000,
    seed: int = 0,
    macro: bool = False,
    breakdowns: Breakdowns = Breakdowns(),
    corpus: Any = None,
    response_documents: Sequence[Any] = (),
    n_process: int = 1,
    errors: bool = False,
) -> Analyses:
    """The analyses asked for: intervals at ``level`` (``n_resamples``
    resamples drawn with ``seed``), ``macro`` averages, and every
    registered analysis the ``breakdowns`` ask for (``errors`` asks for
    the error counts too), computed on the run's ``corpus`` (its words,
    tokens and pairs) and the ``response_documents`` read again, in
    ``n_process`` processes where an analysis rescores. An analysis that
    adjusts the run (:attr:`~.registry.Analysis.adjust`) goes first; the
    intervals, the averages and the other analyses read the adjusted run,
    held in :attr:`Analyses.result`. Each module loads only when its
    analysis is asked for."""
    out: dict[str, Any] = {"level": level, "n_resamples": n_resamples, "seed": seed}
    if errors:
        breakdowns = Breakdowns(breakdowns.values, errors=True)
    context = Context(
        result, breakdowns.values, corpus, response_documents, level=level, n_resamples=n_resamples, seed=seed, n_process=n_process
    )
    results: dict[str, Any] = {}
    for name in breakdowns.asked:
        analysis = get_analysis(name)
        if analysis.adjust:
            results[name] = resolve(analysis.compute)(context)
            result = resolve(analysis.adjust)(context)
            out["result"] = result
            context = Context(
                result, breakdowns.values, corpus, response_documents, level=level, n_resamples=n_resamples, seed=seed, n_process=n_process
            )
    if level is not None or macro:
        from .statistics import bootstrap_intervals, macro_average

        if level is not None:
            out["intervals"] = bootstrap_intervals(result, level, n_resamples, seed=seed)
        if macro:
            out["macro"] = macro_average(result)
    for name in breakdowns.asked:
        if name not in results:
            results[name] = resolve(get_analysis(name).compute)(context)
    ordered = {name: results[name] for name in breakdowns.asked}
    return Analyses(**out, results=ordered)
