"""Pair key and response documents, and say what did not pair.

Documents pair by name, in key order. A key document with no response is
scored against an empty response and a response document not in the key is
ignored. Warnings name the first few such documents and count the rest, so
that thousands of unpaired documents give a few lines.
"""
from dataclasses import dataclass, field
from typing import Any, Callable, List, Optional, Sequence, Tuple, TypeVar

from ..clusters import Clusters, ClustersLike

T = TypeVar("T")

Pair = Tuple[str, ClustersLike, ClustersLike]


@dataclass(frozen=True)
class SideDocument:
    """One document of one side as pairing and scoring need it: its stored
    name (``None`` for an unnamed ``.spacy`` doc), clusters, number of
    tokens, and its words: those read from a CoNLL file (``conll_words``,
    empty when not read, with ``sentence_starts``) or those of its
    ``record``, built only when asked for: a
    :class:`~.docbin_records.DocRecord` for a ``.spacy`` doc (which also
    gives the text and token offsets), a
    :class:`~.jsonlines.JsonlinesDocument` for a jsonlines line."""

    name: Optional[str]
    clusters: Clusters
    n_tokens: int
    conll_words: List[str] = field(default_factory=list)
    record: Any = None
    sentence_starts: Sequence[int] = ()
    token_info: Optional[Callable[[], Any]] = None
    """Builds the token information read with the document
    (:class:`~.tokens.Tokens` of a CoNLL-U document or of an OntoNotes-style
    CoNLL-2012 document with its part-of-speech column), only when asked for."""
    corefud: Any = None
    """The :class:`~.conllu.CorefUDDocument` a CoNLL-U document was read
    from: its tokens are its nodes, renumbered when paired with a file that
    has other empty nodes (:mod:`~.conllu_nodes`)."""
    words_text: Optional[str] = None
    """Text that two documents share only if they have the same words (the
    JSON text of a jsonlines line's ``sentences``), so that pairing need not
    build the words to compare them."""

    @property
    def words(self) -> List[str]:
        return self.conll_words if self.record is None else self.record.words
