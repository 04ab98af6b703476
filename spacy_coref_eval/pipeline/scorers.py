"""Registered spaCy scorers: score ``Example`` objects with the reference
scorer's metrics and report spaCy score keys (:mod:`..report.spacy_scores`).

Gold clusters come from ``example.reference`` (read by
``reference_reader``) and predicted ones from ``example.predicted`` (read by
``predicted_reader``; both default to ``reader``), put on the reference's
tokens through their non-white-space characters
(:func:`~..readers.alignment.aligned_clusters`). Any component with a
``scorer`` setting can use these scorers; :mod:`.component` adds one to
pipelines whose coreference component has none.
"""
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Optional, Sequence

from spacy.training import Example
from spacy.util import registry

from ..analysis.resolution import RESOLUTION_CLASSES, score_resolution_classes
from ..counting import DEFAULT_METRICS, METRIC_INFO, METRICS
from ..errors import CorefEvalWarning, warn
from ..formats.alignment import example_pairs
from ..formats.docbin.spans import ClusterReader, PrefixedSpanGroups
from ..formats.tokens import Tokens
from ..report.spacy_scores import check_headline, spacy_scores
from ..scoring import CorpusResult, Settings, score_pairs
from ..twinning import ExactMatcher, Matcher

__all__ = ["CorefEvalWarning", "CorefScorer", "make_coref_scorer", "score_examples"]


def score_examples(
    examples: Iterable[Example],
    settings: Optional[Settings] = None,
    readers: Sequence[ClusterReader] = (PrefixedSpanGroups(), PrefixedSpanGroups()),
    lengths: Optional[Sequence[int]] = None,
) -> CorpusResult:
    """Score the examples' predicted clusters against their reference
    clusters, one document per example (``example 0``, ``example 1``, ...),
    the reference read by ``readers[0]`` and the prediction by
    ``readers[1]`` (:func:`~..readers.alignment.example_pairs`). Warnings
    (unmapped spans, repeated spans, a side with no coreference span group
    at all) are emitted as :class:`CorefEvalWarning` and kept on the result.
    ``lengths`` are passed on to :func:`~..scoring.score_pairs`."""
    pairs, notes = example_pairs(examples, readers)
    result = score_pairs(pairs, settings, notes, lengths=lengths)
    for message in dict.fromkeys(result.warnings):
        warn(message)
    return result


@dataclass(frozen=True)
class CorefScorer:
    """A spaCy scorer: ``scorer(examples, **kwargs) -> scores``. Keyword
    arguments spaCy passes (``labels``, component settings) are ignored."""

    settings: Settings
    reference_reader: ClusterReader
    predicted_reader: ClusterReader
    headline: str = "lea"
    classes: bool = False

    def __post_init__(self) -> None:
        check_headline(self.headline, self.settings.metrics)

    def __call__(self, examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
        readers = (self.reference_reader, self.predicted_reader)
        if not self.classes:
            return spacy_scores(score_examples(examples, self.settings, readers).metrics(), self.headline)
        examples = list(examples)
        tokens = [Tokens.from_spacy(example.reference) for example in examples]
        result = score_examples(examples, self.settings, readers, [len(part) for part in tokens])
        scores: Dict[str, Any] = spacy_scores(result.metrics(), self.headline)
        rates = score_resolution_classes(result, tokens).rates()
        scores["coref_rc_per_class"] = {
            name: {short: float(rates[rate][index]) for short, rate in (("p", "precision"), ("r", "recall"), ("f", "f1"))}
            for index, name in enumerate(RESOLUTION_CLASSES)
        }
        return scores


def build_scorer(
    metrics: Sequence[str],
    headline: str,
    reader: Optional[ClusterReader],
    reference_reader: Optional[ClusterReader],
    predicted_reader: Optional[ClusterReader],
    match: Optional[Matcher],
    twinless: str,
    singletons: Optional[str],
    classes: bool = False,
    preset: Optional[str] = None,
) -> CorefScorer:
    """A :class:`CorefScorer` from registered-function arguments: a reader
    or matcher left out is the default one. Under a ``preset``
    (:meth:`~..scoring.Settings.from_options`), ``match`` is the registered
    exact, head or partial matcher whose kind the preset's own alignment
    follows, and ``singletons`` default to the preset's."""
    reader = reader or PrefixedSpanGroups()
    if preset is None:
        settings = Settings(tuple(metrics), match or ExactMatcher(), twinless, singletons or "keep")
    else:
        from ..twinning.corefud import MODES

        kind = None if match is None else getattr(match, "name", "")
        if kind is not None and (kind not in MODES or type(match) is not type(MODES[kind])):
            raise ValueError(
                f"under preset {preset!r} the match is a registered exact, head or partial matcher, not {match!r}"
            )
        settings = Settings.from_options(metrics, kind, twinless, singletons, preset=preset)
    return CorefScorer(settings, reference_reader or reader, predicted_reader or reader, headline, classes)


@registry.scorers("spacy_coref_eval.coref_scorer.v1")
def make_coref_scorer(
    reader: Optional[ClusterReader] = None,
    reference_reader: Optional[ClusterReader] = None,
    predicted_reader: Optional[ClusterReader] = None,
    match: Optional[Matcher] = None,
    twinless: str = "conll",
    singletons: Optional[str] = None,
    metrics: Sequence[str] = DEFAULT_METRICS,
    headline: str = "lea",
    classes: bool = False,
    preset: Optional[str] = None,
) -> CorefScorer:
    """All chosen ``metrics``, mention identification, the CoNLL score and
    ``coref_p/r/f`` for the ``headline`` metric (one of ``metrics`` or
    ``"conll"``). ``reader`` (default: span groups ``coref_clusters_N``)
    reads both sides unless ``reference_reader`` / ``predicted_reader`` is
    given; ``match`` (a registered matcher, default exact spans) twins
    mentions; ``singletons`` are kept unless ``"remove"``. ``preset``
    ``"corefud"`` scores as the CorefUD scorer does (head matching and
    singletons removed unless ``match`` / ``singletons`` say otherwise,
    its alignment and BLANC rule). With ``classes``,
    ``coref_rc_per_class`` holds the MUC-RC of every resolution class
    (Stoyanov et al. 2009) as ``{"PN-e": {"p", "r", "f"}, ...}``, like
    spaCy's ``ents_per_type``."""
    return build_scorer(
        metrics, headline, reader, reference_reader, predicted_reader, match, twinless, singletons, classes, preset
    )


@dataclass(frozen=True)
class OneMetricScorerFactory:
    """The registered factory ``spacy_coref_eval.{metric}_scorer.v1`` of a
    metric of the registry: that metric, mention identification and
    ``coref_p/r/f`` for it."""

    metric: str

    def __call__(
        self,
        reader: Optional[ClusterReader] = None,
        reference_reader: Optional[ClusterReader] = None,
        predicted_reader: Optional[ClusterReader] = None,
        match: Optional[Matcher] = None,
        twinless: str = "conll",
        singletons: Optional[str] = None,
        preset: Optional[str] = None,
    ) -> CorefScorer:
        return build_scorer(
            [self.metric], self.metric, reader, reference_reader, predicted_reader, match, twinless, singletons,
            preset=preset,
        )

    def __post_init__(self) -> None:
        info = METRIC_INFO[self.metric]
        object.__setattr__(self, "__doc__", f"{info.label} ({info.source}) and mention identification.")

    @property
    def registered_name(self) -> str:
        return f"spacy_coref_eval.{self.metric}_scorer.v1"

    @property
    def __name__(self) -> str:
        """The name spaCy's config system shows for this factory."""
        return f"make_{self.metric}_scorer"


ONE_METRIC_SCORERS: Dict[str, OneMetricScorerFactory] = {name: OneMetricScorerFactory(name) for name in METRICS}
for _factory in ONE_METRIC_SCORERS.values():
    registry.scorers.register(_factory.registered_name, func=_factory)


def __getattr__(name: str) -> OneMetricScorerFactory:
    """``make_{metric}_scorer``: the registered factory of a metric's scorer,
    the target of its ``spacy_scorers`` entry point."""
    metric = name[len("make_"):-len("_scorer")] if name.startswith("make_") and name.endswith("_scorer") else ""
    if metric in ONE_METRIC_SCORERS:
        return ONE_METRIC_SCORERS[metric]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
