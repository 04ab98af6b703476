"""The matchers of SPEC §3 and the resolution classifier in spaCy's
``registry.misc``, so that a config can pick one, e.g. ``matcher = {"@misc":
"spacy_coref_eval.overlap_matcher.v1", "min_overlap": 0.5}``. Loaded through
the ``spacy_misc`` entry points."""
from spacy.util import registry

from ..analysis.resolution_classes import Classifier, classify_mentions
from ..twinning.matchers import ExactMatcher, HeadMatcher, OverlapMatcher, PartialMatcher


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
    return OverlapMatcher(min_overlap=min_overlap, measure=overlap_measure)


@registry.misc("spacy_coref_eval.partial_matcher.v1")
def make_partial_matcher() -> PartialMatcher:
    """CorefUD's partial match: r inside k and containing k's head, score |r| / |k|."""
    return PartialMatcher()


@registry.misc("spacy_coref_eval.resolution_classes.v1")
def make_resolution_classifier() -> Classifier:
    """The resolution classes of Stoyanov et al. (2009, §4):
    :func:`~spacy_coref_eval.analysis.resolution_classes.classify_mentions`.
    A replacement takes ``(clusters, tokens)`` and returns a class index
    per mention (-1 for none)."""
    return classify_mentions
