"""The cluster readers, matchers and the resolution classifier in spaCy's
``registry.misc``, so that a config can pick them, e.g. ``match = {"@misc":
"spacy_coref_eval.overlap_matcher.v1", "min_overlap": 0.5}``. Loaded through
the ``spacy_misc`` entry points."""

from collections.abc import Iterable, Sequence
from typing import Any, Callable, Optional

from spacy.util import registry

from ..analysis.resolution import Classifier, classify_mentions
from ..counting import DEFAULT_METRICS
from ..counting.importance import LeaImportance
from ..formats.docbin.chains import CorefereeChains
from ..formats.docbin.spans import ClusterReader, LabeledSpanGroup, PrefixedSpanGroups
from ..twinning.matchers import ExactMatcher, HeadMatcher, OverlapMatcher, PartialMatcher
from .agreement import agreement_of


@registry.misc("spacy_coref_eval.prefixed_span_groups.v1")
def prefixed_span_groups(prefix: str = "coref_clusters", head_prefix: Optional[str] = None) -> ClusterReader:
    """Span groups ``PREFIX_<integer>``, one entity each (spaCy's
    experimental coreference component); heads from ``HEAD_PREFIX_<n>``
    with ``head_prefix`` (:class:`~..formats.docbin.spans.PrefixedSpanGroups`)."""
    return PrefixedSpanGroups(prefix, head_prefix)


@registry.misc("spacy_coref_eval.labeled_span_group.v1")
def labeled_span_group(key: str, attr: str = "id_") -> ClusterReader:
    """One span group ``key``, spans with the same ``attr`` forming one
    entity (:class:`~..formats.docbin.spans.LabeledSpanGroup`)."""
    return LabeledSpanGroup(key, attr)


@registry.misc("spacy_coref_eval.exact_matcher.v1")
def make_exact_matcher() -> ExactMatcher:
    """Same start and end: the CoNLL reference (the default)."""
    return ExactMatcher()


@registry.misc("spacy_coref_eval.head_matcher.v1")
def make_head_matcher() -> HeadMatcher:
    """Same head token, score |k ∩ r| / |k|; needs heads on both sides."""
    return HeadMatcher()


@registry.misc("spacy_coref_eval.overlap_matcher.v1")
def make_overlap_matcher(min_overlap: float = 0.5, overlap_measure: str = "dice") -> OverlapMatcher:
    """Dice (or Jaccard) overlap of at least ``min_overlap``; the option
    names are those of the command line and the JSON settings."""
    return OverlapMatcher(min_overlap=min_overlap, overlap_measure=overlap_measure)


@registry.misc("spacy_coref_eval.partial_matcher.v1")
def make_partial_matcher() -> PartialMatcher:
    """CorefUD's partial match: r inside k and containing k's head, score |r| / |k|."""
    return PartialMatcher()


@registry.misc("spacy_coref_eval.head_clusters.v1")
def head_clusters(prefix: str = "coref_head_clusters") -> ClusterReader:
    """Head-only clusters, span groups ``PREFIX_<n>`` of one-word mentions
    (spaCy's coreference component before its span resolver), each its own
    head, for ``match = head`` against a key's heads."""
    return PrefixedSpanGroups(prefix, prefix)


@registry.misc("spacy_coref_eval.coreferee_chains.v1")
def coreferee_chains() -> ClusterReader:
    """Coreferee's ``doc._.coref_chains``, every mention headed by its first
    token (:class:`~..formats.docbin.chains.CorefereeChains`), for
    ``match = head``."""
    return CorefereeChains()


@registry.misc("spacy_coref_eval.lea_importance.v1")
def lea_importance(name: str = "size", weights: Optional[dict[str, float]] = None, default_weight: Optional[float] = None) -> LeaImportance:
    """LEA's importance of an entity (Moosavi & Strube 2016, §4), for a
    scorer's ``lea_importance``: ``size`` (its mentions, the definition),
    ``uniform`` (1 each) or ``entity-type`` (``weights[etype]``,
    ``default_weight`` for other types;
    :class:`~spacy_coref_eval.counting.importance.LeaImportance`)."""
    return LeaImportance.of(name, weights, default_weight)


@registry.misc("spacy_coref_eval.resolution_classes.v1")
def make_resolution_classifier() -> Classifier:
    """The resolution classes of Stoyanov et al. (2009, §4):
    :func:`~spacy_coref_eval.analysis.resolution.classify_mentions`.
    A replacement takes ``(clusters, tokens)`` and returns a class index
    per mention (-1 for none)."""
    return classify_mentions


@registry.misc("spacy_coref_eval.agreement.v1")
def make_agreement(
    families: dict[str, Any],
    metrics: Sequence[str] = DEFAULT_METRICS,
    match: Any = None,
    *,
    level: Optional[float] = None,
    n_resamples: int = 1000,
    seed: int = 0,
) -> Callable[[Iterable[Any]], dict[str, Any]]:
    """The agreement of several span-group ``families`` on the same docs
    (annotator name → cluster reader or ``--spans`` value), as ``agree``
    reports it (:func:`~.agreement.agreement_of`)."""
    return agreement_of(families, metrics=metrics, match=match, level=level, n_resamples=n_resamples, seed=seed)
