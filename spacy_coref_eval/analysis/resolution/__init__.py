"""Resolution classes, MUC-RC and the CPP prediction of Stoyanov, Gilbert,
Cardie and Riloff (2009, "Conundrums in Noun Phrase Coreference
Resolution", §4); docs/resolution_classes.md defines them as implemented.
Many documents go through at once, stacked on disjoint token ranges, and
counts are per document and additive, so they merge across shards."""

from .classify import classify_mentions
from .corpus import ResolutionClassResult, score_resolution_classes
from .lexicon import ANAPHORIC, CLASS_INDEX, MEMBER_COLUMNS, NONE, RESOLUTION_CLASSES, Classifier
from .muc_rc import count_resolution_classes, muc_rc_rates
from .profile import TABLE4_AVERAGE, class_profile, cpp_prediction, read_class_scores

__all__ = [
    "ANAPHORIC",
    "CLASS_INDEX",
    "Classifier",
    "MEMBER_COLUMNS",
    "NONE",
    "RESOLUTION_CLASSES",
    "ResolutionClassResult",
    "TABLE4_AVERAGE",
    "class_profile",
    "classify_mentions",
    "count_resolution_classes",
    "cpp_prediction",
    "muc_rc_rates",
    "read_class_scores",
    "score_resolution_classes",
]
