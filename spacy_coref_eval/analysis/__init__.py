"""Analyses of a scored corpus beyond its micro-averaged scores: macro
averages, bootstrap confidence intervals, paired significance tests
(:mod:`.statistics`) and counts of error kinds (:mod:`.error_types`)."""
from .error_types import ERROR_KINDS, corpus_error_counts, error_counts
from .statistics import bootstrap_intervals, compare, macro_average

__all__ = [
    "ERROR_KINDS",
    "bootstrap_intervals",
    "compare",
    "corpus_error_counts",
    "error_counts",
    "macro_average",
]
