"""spacy-coref-eval: coreference metrics for spaCy, exactly as the CoNLL
reference scorer computes them, and fast.

The data flows one way: :mod:`.readers` (clusters) → :mod:`.twinning`
(twins and twinless policies) → :mod:`.counting` (one contingency table,
six metrics) → :mod:`.scoring` (documents to corpus) → :mod:`.report`.
"""
from .about import __version__
from .clusters import Clusters
from .counting import METRICS, Counts
from .errors import CorefInputError
from .readers.conll import read_conll
from .scoring import CorpusResult, Settings, count_document, score_documents, score_pairs

__all__ = [
    "__version__",
    "Clusters",
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
