"""Pair key and response documents, and say what did not pair.

Documents pair by name, in key order. A key document with no response is
scored against an empty response and a response document not in the key is
ignored. Warnings name the first few such documents and count the rest, so
that thousands of unpaired documents give a few lines.
"""
from dataclasses import dataclass, field
from typing import Any, Callable, List, Mapping, Optional, Sequence, Tuple, TypeVar

import numpy as np

from ..clusters import Clusters, ClustersLike

Offsets = Tuple[np.ndarray, np.ndarray]

T = TypeVar("T")
LISTED = 5
"""Document names listed in one warning before the rest are only counted."""

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


def pair_documents(key: Mapping[str, T], response: Mapping[str, T], empty: T) -> Tuple[List[Tuple[str, T, T]], List[str]]:
    """``(name, key, response)`` triples for the key documents, in key order,
    with ``empty`` standing in for a missing response, and warnings."""
    pairs = [(name, value, response.get(name, empty)) for name, value in key.items()]
    missing = [name for name in key if name not in response]
    extra = [name for name in response if name not in key]
    notes = [f"document {name!r}: no response document; scored as an empty response" for name in missing[:LISTED]]
    if len(missing) > LISTED:
        notes.append(
            f"{len(missing) - LISTED} more key document(s) with no response document, scored as empty "
            f"responses: {listed(missing[LISTED:])}"
        )
    if extra:
        notes.append(f"{len(extra)} response document(s) not in the key, ignored: {listed(extra)}")
    return pairs, notes


def pair_clusters(key: Mapping[str, ClustersLike], response: Mapping[str, ClustersLike]) -> Tuple[List[Pair], List[str]]:
    """:func:`pair_documents` of clusters, an empty response standing in."""
    return pair_documents(key, response, Clusters())


def listed(names: Sequence[str], shown: int = LISTED) -> str:
    """The first ``shown`` names, quoted, and how many more."""
    more = f", … ({len(names) - shown} more)" if len(names) > shown else ""
    return ", ".join(repr(name) for name in names[:shown]) + more


def repeated_warnings(name: str, key: Clusters, response: Clusters) -> List[str]:
    """Warnings for repeated mentions dropped when the clusters were read."""
    return [
        f"document {name!r}: {clusters.repeated} repeated mention(s) in the {side} dropped "
        "(first copy kept)"
        for side, clusters in (("key", key), ("response", response))
        if clusters.repeated
    ]
