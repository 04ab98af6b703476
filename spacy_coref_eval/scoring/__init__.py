"""One scoring run, and stage 5: aggregate over documents.

(name, key, response) pairs → :func:`~.twinning.twin_corpus` (every
document in one matcher call) → :func:`~.twinning.apply_policy` →
:func:`~.counting.count_corpus` (every document in one pass) → a
:class:`CorpusResult`: the counts array with the document names beside it,
and the twinning it came from, which the analyses and the report read
instead of matching again.
"""

from .result import CorpusResult, DocumentCounts, order_free_sum
from .run import Options, Run, evaluate_corpus, read_pairs
from .score import count_document, score_documents, score_pairs
from .settings import SINGLETON_MODES, ZERO_MODES, Settings

__all__ = [
    "SINGLETON_MODES",
    "ZERO_MODES",
    "CorpusResult",
    "DocumentCounts",
    "Options",
    "Run",
    "Settings",
    "count_document",
    "evaluate_corpus",
    "order_free_sum",
    "read_pairs",
    "score_documents",
    "score_pairs",
]
