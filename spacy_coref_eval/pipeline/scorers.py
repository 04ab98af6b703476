"""Registered spaCy scorers: score ``Example`` objects with the reference
scorer's metrics and report spaCy score keys (:mod:`..report.spacy_scores`).

Gold clusters come from ``example.reference`` and predicted ones from
``example.predicted``, put on the reference's tokens through character
offsets (:func:`~..readers.alignment.aligned_clusters`). Any component with a
``scorer`` setting can use these scorers; :mod:`.component` adds one to
pipelines whose coreference component has none.
"""
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, Mapping, Optional, Sequence, Union

from spacy.training import Example
from spacy.util import registry

from ..counting import METRICS
from ..readers.alignment import aligned_clusters, unmapped_warnings
from ..readers.spans import ClusterReader, prefixed_span_groups
from ..report.spacy_scores import check_headline, spacy_scores
from ..scoring import CorpusResult, Settings, score_pairs

ReaderSpec = Union[ClusterReader, Dict[str, Any], None]
MatcherSpec = Union[str, Callable[..., Any], None]

DEFAULT_READER: Dict[str, Any] = {"@misc": "spacy_coref_eval.prefixed_span_groups.v1"}
"""The ``reader`` default: a config block, resolved by spaCy (never mutated)."""


class CorefEvalWarning(UserWarning):
    """Input scored in a documented but lossy way (unmapped or repeated spans)."""


def example_name(index: int) -> str:
    """The document name of the ``index``-th example in warnings and results."""
    return f"example {index}"


def resolve_reader(reader: ReaderSpec) -> ClusterReader:
    """A cluster reader from a reader, an unresolved config block naming a
    registered one, or ``None`` (``prefixed_span_groups()``)."""
    if reader is None:
        return prefixed_span_groups()
    if isinstance(reader, Mapping):
        return registry.resolve({"reader": dict(reader)})["reader"]
    return reader


def emit(messages: Iterable[str]) -> None:
    """Each distinct message once, as a :class:`CorefEvalWarning`."""
    for message in dict.fromkeys(messages):
        warnings.warn(message, CorefEvalWarning, stacklevel=2)


def score_examples(
    examples: Iterable[Example],
    settings: Optional[Settings] = None,
    reader: Optional[ClusterReader] = None,
) -> CorpusResult:
    """Score the examples' predicted clusters against their reference
    clusters, one document per example (named by :func:`example_name`).
    Warnings (unmapped spans, repeated spans) are emitted and kept on the
    result."""
    reader = reader or prefixed_span_groups()
    pairs = []
    unmapped: Dict[str, int] = {}
    for index, example in enumerate(examples):
        key, response, n_unmapped = aligned_clusters(example.reference, example.predicted, reader)
        if n_unmapped:
            unmapped[example_name(index)] = n_unmapped
        pairs.append((example_name(index), key, response))
    result = score_pairs(pairs, settings, unmapped_warnings(unmapped))
    emit(result.warnings)
    return result


@dataclass(frozen=True)
class CorefScorer:
    """A spaCy scorer: ``scorer(examples, **kwargs) -> scores``. Keyword
    arguments spaCy passes (``labels``, component settings) are ignored."""

    settings: Settings
    reader: ClusterReader
    headline: str = "lea"

    def __post_init__(self) -> None:
        check_headline(self.headline, self.settings.metrics)

    def __call__(self, examples: Iterable[Example], **kwargs: Any) -> Dict[str, float]:
        result = score_examples(examples, self.settings, self.reader)
        return spacy_scores(result.metrics(), self.headline)


def build_scorer(
    metrics: Iterable[str],
    headline: str,
    reader: ReaderSpec,
    matcher: MatcherSpec,
    twinless: str,
    singletons: str,
) -> CorefScorer:
    """A :class:`CorefScorer` from registered-function arguments."""
    settings = Settings(metrics=tuple(metrics), matcher=matcher, twinless=twinless, singletons=singletons)
    return CorefScorer(settings, resolve_reader(reader), headline)


@registry.scorers("spacy_coref_eval.coref_scorer.v1")
def make_coref_scorer(
    reader: ReaderSpec = DEFAULT_READER,
    matcher: MatcherSpec = None,
    twinless: str = "conll",
    singletons: str = "keep",
    metrics: Sequence[str] = METRICS,
    headline: str = "lea",
) -> CorefScorer:
    """All chosen ``metrics``, mention identification, the CoNLL score and
    ``coref_p/r/f`` for the ``headline`` metric (one of ``metrics`` or
    ``"conll"``). ``matcher`` ``None`` twins identical spans only."""
    return build_scorer(metrics, headline, reader, matcher, twinless, singletons)


def _one_metric_scorer(metric: str, source: str) -> Callable[..., CorefScorer]:
    """The registered factory ``spacy_coref_eval.{metric}_scorer.v1``: that
    metric, mention identification and ``coref_p/r/f`` for it."""

    def make(
        reader: ReaderSpec = DEFAULT_READER,
        matcher: MatcherSpec = None,
        twinless: str = "conll",
        singletons: str = "keep",
    ) -> CorefScorer:
        return build_scorer([metric], metric, reader, matcher, twinless, singletons)

    make.__name__ = make.__qualname__ = f"make_{metric}_scorer"
    make.__doc__ = f"{source} and mention identification."
    return registry.scorers.register(f"spacy_coref_eval.{metric}_scorer.v1", func=make)


make_muc_scorer = _one_metric_scorer("muc", "MUC (Vilain et al. 1995)")
make_bcub_scorer = _one_metric_scorer("bcub", "B³ (Bagga & Baldwin 1998)")
make_ceafm_scorer = _one_metric_scorer("ceafm", "Mention-based CEAF (Luo 2005)")
make_ceafe_scorer = _one_metric_scorer("ceafe", "Entity-based CEAF (Luo 2005)")
make_blanc_scorer = _one_metric_scorer("blanc", "BLANC (Recasens & Hovy 2011; Luo et al. 2014)")
make_lea_scorer = _one_metric_scorer("lea", "LEA (Moosavi & Strube 2016)")
