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
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from spacy.training import Example
from spacy.util import registry

from ..counting import METRICS
from ..readers.alignment import aligned_clusters
from ..readers.spans import ClusterReader, prefixed_span_groups
from ..report.spacy_scores import check_headline, spacy_scores
from ..scoring import CorpusResult, Settings, score_pairs

ReaderSpec = Union[ClusterReader, Dict[str, Any], None]
MatcherSpec = Union[str, Callable[..., Any], None]

DEFAULT_READER: Dict[str, Any] = {"@misc": "spacy_coref_eval.prefixed_span_groups.v1"}
"""The ``reader`` default: a config block, resolved by spaCy (never mutated)."""
MAX_LISTED = 10


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


def unmapped_warnings(unmapped: Mapping[int, int]) -> List[str]:
    """One warning counting the predicted spans that did not map, listing
    the count of each example (``unmapped``: example index -> count)."""
    if not unmapped:
        return []
    listed = ", ".join(f"{example_name(i)}: {n}" for i, n in list(unmapped.items())[:MAX_LISTED])
    more = ", ..." if len(unmapped) > MAX_LISTED else ""
    return [
        f"{sum(unmapped.values())} predicted span(s) in {len(unmapped)} example(s) do not start "
        f"and end on reference token boundaries; scored as twinless response mentions "
        f"({listed}{more})"
    ]


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
    unmapped: Dict[int, int] = {}
    for index, example in enumerate(examples):
        key, response, n_unmapped = aligned_clusters(example.reference, example.predicted, reader)
        if n_unmapped:
            unmapped[index] = n_unmapped
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


@registry.scorers("spacy_coref_eval.muc_scorer.v1")
def make_muc_scorer(
    reader: ReaderSpec = DEFAULT_READER, matcher: MatcherSpec = None, twinless: str = "conll", singletons: str = "keep"
) -> CorefScorer:
    """MUC (Vilain et al. 1995) and mention identification."""
    return build_scorer(["muc"], "muc", reader, matcher, twinless, singletons)


@registry.scorers("spacy_coref_eval.bcub_scorer.v1")
def make_bcub_scorer(
    reader: ReaderSpec = DEFAULT_READER, matcher: MatcherSpec = None, twinless: str = "conll", singletons: str = "keep"
) -> CorefScorer:
    """B³ (Bagga & Baldwin 1998) and mention identification."""
    return build_scorer(["bcub"], "bcub", reader, matcher, twinless, singletons)


@registry.scorers("spacy_coref_eval.ceafm_scorer.v1")
def make_ceafm_scorer(
    reader: ReaderSpec = DEFAULT_READER, matcher: MatcherSpec = None, twinless: str = "conll", singletons: str = "keep"
) -> CorefScorer:
    """Mention-based CEAF (Luo 2005) and mention identification."""
    return build_scorer(["ceafm"], "ceafm", reader, matcher, twinless, singletons)


@registry.scorers("spacy_coref_eval.ceafe_scorer.v1")
def make_ceafe_scorer(
    reader: ReaderSpec = DEFAULT_READER, matcher: MatcherSpec = None, twinless: str = "conll", singletons: str = "keep"
) -> CorefScorer:
    """Entity-based CEAF (Luo 2005) and mention identification."""
    return build_scorer(["ceafe"], "ceafe", reader, matcher, twinless, singletons)


@registry.scorers("spacy_coref_eval.blanc_scorer.v1")
def make_blanc_scorer(
    reader: ReaderSpec = DEFAULT_READER, matcher: MatcherSpec = None, twinless: str = "conll", singletons: str = "keep"
) -> CorefScorer:
    """BLANC (Recasens & Hovy 2011; Luo et al. 2014) and mention identification."""
    return build_scorer(["blanc"], "blanc", reader, matcher, twinless, singletons)


@registry.scorers("spacy_coref_eval.lea_scorer.v1")
def make_lea_scorer(
    reader: ReaderSpec = DEFAULT_READER, matcher: MatcherSpec = None, twinless: str = "conll", singletons: str = "keep"
) -> CorefScorer:
    """LEA (Moosavi & Strube 2016) and mention identification."""
    return build_scorer(["lea"], "lea", reader, matcher, twinless, singletons)
