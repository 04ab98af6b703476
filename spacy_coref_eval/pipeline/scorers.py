"""Registered spaCy scorers: score ``Example`` objects with the reference
scorer's metrics and report spaCy score keys (:mod:`..report.spacy_scores`).

Gold clusters come from ``example.reference`` (read by ``reference_reader``)
and predicted ones from ``example.predicted`` (``predicted_reader``; both
default to ``reader``), put on the reference's tokens through their text
(:mod:`..formats.docbin.examples`), and scored by
:func:`~..scoring.evaluate_corpus`. Any component with a ``scorer``
setting can use these scorers; :mod:`.component` adds one to pipelines
whose coreference component has none.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Optional, Union

from spacy.training import Example
from spacy.util import registry

from ..analysis.attributes import CHAIN_LENGTH, DEFAULT_CHAIN_LENGTHS, MENTION_TYPE, SPREAD, SPREAD_SENTENCES, ChainLengths
from ..analysis.registry import get_analysis, resolve
from ..analysis.resolution import RESOLUTION_CLASSES, score_resolution_classes
from ..analysis.summary import Breakdowns, analyse
from ..counting import DEFAULT_METRICS, METRIC_INFO, METRICS, LeaImportance
from ..errors import CorefEvalWarning, warn
from ..formats.docbin.examples import docs_side, example_names
from ..formats.docbin.spans import ClusterReader, PrefixedSpanGroups
from ..presets import get_preset
from ..report.spacy_scores import check_headline, spacy_scores
from ..scoring import CorpusResult, Options, Run, Settings, evaluate_corpus
from ..twinning import Matcher
from .crossdoc import check_readers, check_tokens, ids_side

__all__ = ["CorefEvalWarning", "CorefScorer", "make_coref_scorer", "score_examples"]
SCORER_STRATA = (CHAIN_LENGTH, MENTION_TYPE, SPREAD, SPREAD_SENTENCES)
"""The strata the scorer can cut: those that spaCy docs carry."""


def score_examples(
    examples: Iterable[Example],
    settings: Optional[Settings] = None,
    readers: Sequence[ClusterReader] = (PrefixedSpanGroups(), PrefixedSpanGroups()),
) -> CorpusResult:
    """Score the examples' predicted clusters against their reference
    clusters, one document per example (named as the references' stored
    names, else ``example 0``, ``example 1``, ...; :func:`example_names`),
    the reference read by ``readers[0]`` and the prediction by
    ``readers[1]``. Warnings (unmapped spans, repeated spans, a side with
    no coreference span group at all) are emitted as
    :class:`CorefEvalWarning` and kept on the result."""
    return _run(examples, settings, readers).result


def _run(
    examples: Iterable[Example],
    settings: Optional[Settings],
    readers: Sequence[ClusterReader],
    *,
    tokens: bool = False,
    cross_document: bool = False,
) -> Run:
    """:func:`score_examples`' run; with ``tokens`` the references' token
    information is kept for resolution classes; with ``cross_document``
    the examples form one topic (:mod:`.crossdoc`)."""
    examples = list(examples)
    if not examples:
        warn("no examples to score: every coreference score is 0")
    if cross_document:
        check_tokens(examples)
        key = ids_side((example.reference for example in examples), readers[0], "key")
        response = ids_side((example.predicted for example in examples), readers[1], "response")
    else:
        names = example_names([example.reference for example in examples])
        key = docs_side((example.reference for example in examples), readers[0], "key", names=names)
        response = docs_side((example.predicted for example in examples), readers[1], "response", names=names)
    options = Options(settings or Settings(), tokens=tokens, cross_document=cross_document)
    run = evaluate_corpus(key, response, options)
    for message in dict.fromkeys(run.result.warnings):
        warn(message)
    return run


@dataclass(frozen=True)
class CorefScorer:
    """A spaCy scorer: ``scorer(examples, **kwargs) -> scores``. Keyword
    arguments spaCy passes (``labels``, component settings) are ignored."""

    settings: Settings
    reference_reader: ClusterReader
    predicted_reader: ClusterReader
    headline: str = "lea"
    classes: bool = False
    by: tuple[str, ...] = ()
    chain_lengths: str = DEFAULT_CHAIN_LENGTHS
    cross_document: bool = False
    spreads: Optional[str] = None
    links: bool = False
    window: Optional[int] = None

    def __post_init__(self) -> None:
        check_headline(self.headline, self.settings.metrics)
        if self.cross_document:
            check_readers((self.reference_reader, self.predicted_reader))
        unknown = [name for name in self.by if name not in SCORER_STRATA]
        if unknown:
            raise ValueError(f"the scorer's strata are {' and '.join(SCORER_STRATA)}, not {unknown}")
        ChainLengths.parse(self.chain_lengths)

    def __call__(self, examples: Iterable[Example], **kwargs: Any) -> dict[str, Any]:
        tokens = self.classes or MENTION_TYPE in self.by or SPREAD_SENTENCES in self.by
        run = _run(
            examples, self.settings, (self.reference_reader, self.predicted_reader), tokens=tokens, cross_document=self.cross_document
        )
        scores: dict[str, Any] = spacy_scores(run.metrics(), self.headline)
        if self.by or self.cross_document or self.links or self.window is not None:
            breakdowns = Breakdowns(
                by=self.by,
                chain_lengths=self.chain_lengths,
                spreads=self.spreads,
                cross_document=self.cross_document,
                links=self.links,
                window=self.window,
            ).check()
            analyses = analyse(run.result, breakdowns=breakdowns, corpus=run.corpus)
            for name, block in analyses.blocks().items():
                keys = get_analysis(name).spacy_keys
                if keys:
                    scores.update(resolve(keys)(block))
        if self.classes:
            rates = score_resolution_classes(run.result, run.corpus.tokens()).rates()
            scores["coref_rc_per_class"] = {
                name: {short: float(rates[rate][index]) for short, rate in (("p", "precision"), ("r", "recall"), ("f", "f1"))}
                for index, name in enumerate(RESOLUTION_CLASSES)
            }
        return scores


@registry.scorers("spacy_coref_eval.coref_scorer.v1")
def make_coref_scorer(
    reader: Optional[ClusterReader] = None,
    reference_reader: Optional[ClusterReader] = None,
    predicted_reader: Optional[ClusterReader] = None,
    *,
    match: Optional[Matcher] = None,
    twinless: str = "conll",
    singletons: Optional[str] = None,
    metrics: Sequence[str] = DEFAULT_METRICS,
    headline: str = "lea",
    classes: bool = False,
    preset: Optional[str] = None,
    by: Sequence[str] = (),
    chain_lengths: str = DEFAULT_CHAIN_LENGTHS,
    lea_importance: Union[str, LeaImportance] = "size",
    cross_document: bool = False,
    spreads: Optional[str] = None,
    links: bool = False,
    window: Optional[int] = None,
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
    spaCy's ``ents_per_type``. ``by`` (``"chain-length"``, cut by
    ``chain_lengths``, and ``"mention-type"``) adds
    ``coref_<metric>_<stratum>_f`` for every stratum (docs/analyses.md §3).
    ``lea_importance`` weighs LEA's entities (``size``, the default, or
    ``uniform`` by name; any :class:`~..counting.importance.LeaImportance`,
    ``spacy_coref_eval.lea_importance.v1`` in a config). With
    ``cross_document`` the examples of a call form one topic whose
    entities are shared across docs by a labelled span group's attribute
    (both readers ``spacy_coref_eval.labeled_span_group.v1``, predicted
    docs on the reference's tokens), and
    ``coref_<metric>_within_{p,r,f}`` / ``coref_<metric>_across_{p,r,f}``
    score MUC's, BLANC's and LEA's links within one doc and across docs
    (docs/crossdoc.md §6). ``by`` also takes ``"spread"`` and
    ``"spread-sentences"`` (cut by ``spreads``); ``links`` adds
    ``coref_links_<class>_{p,r,f}`` and ``window`` (tokens)
    ``coref_<metric>_windows_{p,r,f}`` (docs/long-documents.md)."""
    chosen = get_preset(preset)
    settings = Settings(
        tuple(metrics),
        chosen.adopt(match),
        twinless,
        singletons or chosen.singletons,
        preset=chosen,
        lea_importance=LeaImportance.of(lea_importance),
    )
    reader = reader or PrefixedSpanGroups()
    return CorefScorer(
        settings,
        reference_reader or reader,
        predicted_reader or reader,
        headline,
        classes=classes,
        by=tuple(by),
        chain_lengths=chain_lengths,
        cross_document=cross_document,
        spreads=spreads,
        links=links,
        window=window,
    )


def _one_metric(metric: str) -> Any:
    """The registered factory ``spacy_coref_eval.{metric}_scorer.v1``:
    that metric, mention identification and ``coref_p/r/f`` for it."""

    def make_scorer(
        reader: Optional[ClusterReader] = None,
        reference_reader: Optional[ClusterReader] = None,
        predicted_reader: Optional[ClusterReader] = None,
        *,
        match: Optional[Matcher] = None,
        twinless: str = "conll",
        singletons: Optional[str] = None,
        preset: Optional[str] = None,
    ) -> CorefScorer:
        return make_coref_scorer(
            reader,
            reference_reader,
            predicted_reader,
            match=match,
            twinless=twinless,
            singletons=singletons,
            metrics=[metric],
            headline=metric,
            preset=preset,
        )

    info = METRIC_INFO[metric]
    make_scorer.__name__ = make_scorer.__qualname__ = f"make_{metric}_scorer"
    make_scorer.__doc__ = f"{info.label} ({info.source}) and mention identification; ``coref_p/r/f`` are its scores."
    return registry.scorers(f"spacy_coref_eval.{metric}_scorer.v1")(make_scorer)


for _metric in METRICS:
    globals()[f"make_{_metric}_scorer"] = _one_metric(_metric)
