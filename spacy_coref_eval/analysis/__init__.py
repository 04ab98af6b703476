"""Analyses of a scored corpus beyond its micro-averaged scores: macro
averages, bootstrap confidence intervals, paired significance tests
(:mod:`.statistics`), counts of error kinds (:mod:`.error_types`), and
every analysis of :data:`.registry.REGISTRY`.
Each module loads when one of its names is first used, so that resolution
classes (:mod:`.resolution`) load neither."""

from importlib import import_module
from typing import Any

_MODULE_OF = {
    "Analyses": "summary",
    "Analysis": "registry",
    "Breakdowns": "summary",
    "Option": "registry",
    "register_analysis": "registry",
    "registered_analyses": "registry",
    "ERROR_KINDS": "error_types",
    "analyse": "summary",
    "bootstrap_intervals": "statistics",
    "compare": "statistics",
    "corpus_error_counts": "error_types",
    "error_counts": "error_types",
    "macro_average": "statistics",
}
__all__ = list(_MODULE_OF)


def __getattr__(name: str) -> Any:
    if name not in _MODULE_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_MODULE_OF[name]}", __name__), name)
