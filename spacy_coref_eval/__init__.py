"""spacy-coref-eval: coreference metrics for spaCy and for files, exactly as
the reference scorers compute them, and fast.

Data flows one way, and so do the imports: :mod:`.model` (what an
annotation is) → :mod:`.formats` (read, pair) → :mod:`.twinning` (twins,
twinless policies; solvers in :mod:`.assignment`) → :mod:`.counting` (one
contingency table, every metric) → :mod:`.compat` (scorers reproduced
outside that table) → :mod:`.scoring` (documents to corpus, presets) →
:mod:`.analysis` → :mod:`.report` → :mod:`.api` (:func:`score`) →
:mod:`.cli` and :mod:`.pipeline`.
``docs/`` holds the definitions. Names load when first used, so that the
command line's help starts without numpy.
"""

from importlib import import_module
from typing import Any

from .about import __version__

_MODULE_OF = {
    "Clusters": "model.clusters",
    "CorefEvalWarning": "errors",
    "CorefInputError": "errors",
    "CorpusResult": "scoring",
    "Counts": "counting",
    "METRICS": "counting",
    "Options": "scoring",
    "Pair": "model.clusters",
    "Run": "scoring",
    "Scores": "api",
    "Settings": "scoring",
    "count_document": "scoring",
    "evaluate_corpus": "scoring",
    "read_conll": "formats.conll.read",
    "score": "api",
    "score_documents": "scoring",
    "score_pairs": "scoring",
}
__all__ = ["__version__", *_MODULE_OF]


def __getattr__(name: str) -> Any:
    if name not in _MODULE_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_MODULE_OF[name]}", __name__), name)
