"""spacy-coref-eval: coreference metrics for spaCy, exactly as the CoNLL
reference scorer computes them, and fast.

The data flows one way, and so do the imports: :mod:`.readers` (clusters)
→ :mod:`.twinning` (twins and twinless policies) → :mod:`.counting` (one
contingency table, every metric) → :mod:`.scoring` (documents to corpus) →
:mod:`.analysis` → :mod:`.report` → :mod:`.cli` and :mod:`.pipeline`.
The definitions are in ``docs/metrics.md``.
"""
from .about import __version__
from .clusters import Clusters
from .counting import METRICS, Counts
from .errors import CorefEvalWarning, CorefInputError
from .formats.conll.read import read_conll
from .scoring import CorpusResult, Settings, count_document, score_documents, score_pairs

__all__ = [
    "__version__",
    "Clusters",
    "CorefEvalWarning",
    "CorefInputError",
    "CorpusResult",
    "Counts",
    "METRICS",
    "Settings",
    "count_document",
    "read_conll",
    "score_documents",
    "score_pairs",
]
