"""What a resolution classifier may know about the tokens of a document:
words, sentence starts and, where the input has them, parts of speech and
the Person and Gender morphology (spaCy docs, CoNLL-U columns), numbered
like the spans of :class:`~spacy_coref_eval.model.clusters.Clusters`."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Optional, Union

import numpy as np

from ..errors import CorefInputError

MISSING = frozenset(("", "_", "-"))
"""Column values that mean "unknown"."""


@dataclass(frozen=True)
class Tokens:
    """What a classifier may know about the tokens of one or more documents,
    numbered like the spans of the :class:`Clusters` it classifies.

    ``words`` are required and ``sentence_starts`` (token indices) should
    be given (without them only document starts begin sentences). The
    optional columns hold one string per token, ``""``, ``"_"`` or ``"-"``
    where unknown: ``pos`` a Universal POS tag (spaCy ``pos_``, CoNLL-U
    UPOS), ``tag`` a Penn Treebank tag (spaCy ``tag_`` of English pipelines,
    the POS column of CoNLL-2012 files), ``person`` and ``gender`` the
    values of the morphological features ``Person`` and ``Gender``.
    ``document_starts`` lists where each stacked document begins (the last
    may be ``len(words)``, an empty document); nothing about one
    document's tokens may decide a class in another. Every document start
    is also a sentence start.
    """

    words: Sequence[str]
    sentence_starts: Union[Sequence[int], np.ndarray] = ()
    pos: Optional[Sequence[str]] = None
    tag: Optional[Sequence[str]] = None
    person: Optional[Sequence[str]] = None
    gender: Optional[Sequence[str]] = None
    document_starts: Sequence[int] = (0,)

    def __post_init__(self) -> None:
        n = len(self.words)
        for name in ("pos", "tag", "person", "gender"):
            column = getattr(self, name)
            if column is not None and len(column) != n:
                raise CorefInputError(f"tokens: the {name} column has {len(column)} values for {n} words")
        documents = np.asarray(self.document_starts, dtype=np.int64).reshape(-1)
        sentences = np.asarray(self.sentence_starts, dtype=np.int64).reshape(-1)
        for name, starts, limit in (("sentence", sentences, max(n - 1, 0)), ("document", documents, n)):
            if len(starts) and (starts.min() < 0 or starts.max() > limit):
                raise CorefInputError(f"tokens: a {name} start lies outside the {n} tokens")
        if not len(documents) or documents[0] != 0 or np.any(np.diff(documents) <= 0):
            raise CorefInputError("tokens: document starts must begin at 0 and increase")
        object.__setattr__(self, "document_starts", documents)
        starts = np.sort(np.concatenate([sentences, documents[documents < max(n, 1)]]))
        object.__setattr__(self, "sentence_starts", starts[np.diff(starts, prepend=-1) != 0])

    def __len__(self) -> int:
        return len(self.words)

    @classmethod
    def from_conll(cls, document: Any) -> "Tokens":
        """Words and sentences of a :class:`~spacy_coref_eval.formats.conll.read.ConllDocument`
        read with ``with_words=True``."""
        if document.words is None:
            raise CorefInputError(f"document {document.name!r}: resolution classes need the words; read it with with_words=True")
        return cls(document.words, document.sentence_starts or [0])

    @classmethod
    def from_columns(
        cls,
        words: Sequence[str],
        sentence_starts: Union[Sequence[int], np.ndarray],
        upos: Optional[Sequence[str]] = None,
        *,
        xpos: Optional[Sequence[str]] = None,
        feats: Optional[Sequence[str]] = None,
    ) -> "Tokens":
        """From CoNLL-U columns: UPOS, XPOS (read as Penn Treebank tags) and
        FEATS (``Gender=Masc|Person=3``), from which ``Person`` and
        ``Gender`` are kept."""
        person = gender = None
        if feats is not None:
            parsed = [_features(value) for value in feats]
            person = [f.get("Person", "") for f in parsed]
            gender = [f.get("Gender", "") for f in parsed]
        return cls(words, sentence_starts, upos, xpos, person=person, gender=gender)

    @classmethod
    def from_spacy(cls, doc: Any) -> "Tokens":
        """From a spaCy ``Doc``: ``pos_``, ``tag_`` and the ``Person`` and
        ``Gender`` morphology where the doc has those annotations, sentence
        starts where it has sentence boundaries (else the doc start only)."""
        words = [token.text for token in doc]
        sentences = [sentence.start for sentence in doc.sents] if doc.has_annotation("SENT_START") else [0]
        pos = [token.pos_ for token in doc] if doc.has_annotation("POS") else None
        tag = [token.tag_ for token in doc] if doc.has_annotation("TAG") else None
        person = gender = None
        if doc.has_annotation("MORPH"):
            person = [",".join(token.morph.get("Person")) for token in doc]
            gender = [",".join(token.morph.get("Gender")) for token in doc]
        return cls(words, sentences, pos, tag, person=person, gender=gender)

    @classmethod
    def stack(cls, parts: Sequence["Tokens"], offsets: Union[Sequence[int], np.ndarray]) -> "Tokens":
        """Several documents as one, part ``d`` starting at token
        ``offsets[d]`` as in :meth:`Clusters.stack`; the tokens between parts
        are blank. A column is kept when every part has it."""
        if not parts:
            return cls([], [0])
        starts = [int(offset) for offset in offsets]
        for d in range(1, len(parts)):
            if starts[d] < starts[d - 1] + max(len(parts[d - 1]), 1):
                raise CorefInputError(f"tokens: document {d} overlaps the one before it")
        gaps = [starts[d + 1] - starts[d] - len(parts[d]) for d in range(len(parts) - 1)] + [0]
        if starts[0] != 0:
            raise CorefInputError("tokens: the first document must start at token 0")

        def joined(name: str) -> Optional[list[str]]:
            columns = [getattr(part, name) for part in parts]
            if any(column is None for column in columns):
                return None
            out: list[str] = []
            for column, gap in zip(columns, gaps):
                out.extend(column)
                out.extend([""] * gap)
            return out

        shifted = [np.asarray(part.sentence_starts) + start for part, start in zip(parts, starts) if len(part)]
        sentences = np.concatenate(shifted) if shifted else np.zeros(0, dtype=np.int64)
        words = joined("words")
        assert words is not None
        return cls(words, sentences, joined("pos"), joined("tag"), person=joined("person"), gender=joined("gender"), document_starts=starts)


def _features(value: str) -> dict[str, str]:
    """``{"Person": "3", ...}`` from a FEATS string (``_`` for none)."""
    if value in MISSING:
        return {}
    out = {}
    for item in value.split("|"):
        name, _, feature_value = item.partition("=")
        out[name] = feature_value
    return out
