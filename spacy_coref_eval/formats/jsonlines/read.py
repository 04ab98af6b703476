"""Read jsonlines files, the format of e2e-coref and its descendants
(docs/formats.md §6): every line read by ``json.loads``, the clusters of
all lines turned into documents' clusters at once."""

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate, chain
from pathlib import Path
from typing import Any, Optional, Union

import numpy as np

from ...arrays import NO_INTEGERS, NO_SPANS
from ...errors import CorefInputError
from ...files import PathLike
from ...model.clusters import Clusters
from ..document import SideDocument
from ..inputs import InputLimits, read_input

_ROLES = ("response", "key")
_LISTS = frozenset((list,))
_STRINGS = frozenset((str,))
_INTS = frozenset((int,))
_WORDPIECE_MARKERS = ("##", "\u0120", "\u2581")
_SPECIAL_PIECES = frozenset(("[CLS]", "[SEP]", "<s>", "</s>", "<pad>", "[PAD]"))


@dataclass
class JsonlinesDocument(SideDocument):
    """One line: the first word of every sentence, the clusters (word
    spans, end exclusive) and the field they were read from, and the number
    of words. ``pieces`` are the flattened ``sentences`` as written and
    ``words`` the pieces, or with ``subtoken_map`` the words rebuilt from
    their pieces (markers and special tokens dropped); both are built only
    when asked for."""

    doc_key: str
    sentence_starts: list[int]
    clusters: Clusters
    field: str
    source: str
    line: int
    n_words: int
    sentences: list[list[str]]
    subtoken_map: Optional[list[int]] = None

    @property
    def name(self) -> str:
        return self.doc_key

    @property
    def n_tokens(self) -> int:
        return self.n_words

    @cached_property
    def pieces(self) -> list[Any]:
        return list(chain.from_iterable(self.sentences))

    @cached_property
    def words(self) -> list[Any]:
        if self.subtoken_map is None:
            return self.pieces
        return _words_from_pieces(self.pieces, np.array(self.subtoken_map, dtype=np.int64))


ANNOTATION_TOOLS = ("prodigy", "doccano")
"""Formats of annotation tools' JSONL exports, read by their own readers
when a ``.jsonl`` file's members say so."""


def read_jsonlines(
    path: PathLike, *, role: str = "response", field: Optional[str] = None, limits: Optional[InputLimits] = None
) -> dict[str, JsonlinesDocument]:
    """Documents of a jsonlines file (``.gz`` read transparently) by doc_key,
    in file order. ``role`` and ``field`` choose the clusters read (module
    docstring)."""
    path = Path(path)
    return parse_jsonlines(load_text(path, limits), source=str(path), role=role, field=field)


def load_text(path: Path, limits: Optional[InputLimits] = None) -> str:
    """The text of a JSON lines file (``.gz`` read transparently), a line
    as long as the whole input may be."""
    return decode_text(read_input(path, limits, long_lines=True), path)


def decode_text(data: Union[bytes, bytearray], path: Path) -> str:
    """A JSON lines file's bytes as text (a byte order mark dropped)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise CorefInputError(f"{path}: not UTF-8 text: {err}") from None


def parse_jsonlines(
    text: str, *, source: str = "<string>", role: str = "response", field: Optional[str] = None
) -> dict[str, JsonlinesDocument]:
    """Like :func:`read_jsonlines`, from a string."""
    if role not in _ROLES:
        raise ValueError(f"role must be one of {_ROLES}, not {role!r}")
    documents: dict[str, JsonlinesDocument] = {}
    pending: list[tuple[np.ndarray, np.ndarray]] = []
    for number, line in enumerate(text.split("\n"), 1):
        if not line or line.isspace():
            continue
        try:
            obj = json.loads(line)
        except ValueError as err:
            raise CorefInputError(f"{source}:{number}: not a JSON object: {err}") from None
        document, word_spans = _document(obj, source, number, role=role, field=field)
        if document.doc_key in documents:
            raise CorefInputError(
                f"{source}:{number}: doc_key {document.doc_key!r} appears twice (first at line {documents[document.doc_key].line})"
            )
        documents[document.doc_key] = document
        pending.append(word_spans)
    built = _clusters_by_document(pending)
    for document, clusters in zip(documents.values(), built):
        document.clusters = clusters
    return documents


def _check_inside(spans: np.ndarray, labels: np.ndarray, *, n_tokens: int, field: str, where: str) -> None:
    """Raise :class:`CorefInputError` for the first mention that is
    reversed or outside the document's ``n_tokens`` tokens."""
    bad = _outside(spans, n_tokens)
    if bad.any():
        m = int(np.argmax(bad))
        raise CorefInputError(
            f"{where}: mention [{spans[m, 0]}, {spans[m, 1]}] in {field}"
            f"[{int(labels[m])}] is reversed or outside the document's {n_tokens} tokens "
            "(end is inclusive)"
        )


def _outside(spans: np.ndarray, n_tokens: int) -> np.ndarray:
    """Mask of the inclusive spans that are reversed or outside ``n_tokens``."""
    return (spans[:, 0] < 0) | (spans[:, 1] < spans[:, 0]) | (spans[:, 1] >= n_tokens)


def _all_words(sentences: list[list]) -> bool:
    """Whether every token of ``sentences`` (a list of lists) is a non-empty string."""
    return _STRINGS.issuperset(map(type, chain.from_iterable(sentences))) and "" not in chain.from_iterable(sentences)


def _word_error(sentences: list[list], where: str) -> None:
    """Raise :class:`CorefInputError` for the first token of ``sentences``
    that is not a non-empty string."""
    for i, sentence in enumerate(sentences):
        for j, token in enumerate(sentence):
            if type(token) is not str or not token:
                shown = "an empty string" if token == "" else f"{json.dumps(token)[:40]} (JSON {_json_kind(token)})"
                raise CorefInputError(f"{where}: 'sentences'[{i}][{j}] is {shown}; every token must be a non-empty string")


def _json_kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "number"
    return "array" if isinstance(value, list) else "object" if isinstance(value, dict) else "string"


def _document(
    obj: object, source: str, line: int, *, role: str, field: Optional[str]
) -> tuple[JsonlinesDocument, tuple[np.ndarray, np.ndarray]]:
    """The document of one line (its clusters left empty) and its mentions
    as word spans (end exclusive) and cluster indices."""
    if not isinstance(obj, dict):
        raise CorefInputError(f"{source}:{line}: a line must hold a JSON object")
    doc_key = obj.get("doc_key")
    if not isinstance(doc_key, str):
        raise CorefInputError(f"{source}:{line}: no doc_key string")
    where = f"{source}:{line}: document {doc_key!r}"
    sentences = obj.get("sentences")
    if not isinstance(sentences, list) or not _LISTS.issuperset(map(type, sentences)):
        raise CorefInputError(f"{where}: 'sentences' must be a list of lists of tokens")
    if not _all_words(sentences):
        _word_error(sentences, where)
    lengths = list(map(len, sentences))
    n_tokens, sentence_starts = sum(lengths), _starts(lengths)
    chosen = _field(obj, role, field, where=where)
    clusters = obj[chosen]
    spans, labels = _listed_spans(clusters, chosen, where)
    _check_inside(spans, labels, n_tokens=n_tokens, field=chosen, where=where)
    subtoken_map = obj.get("subtoken_map")
    n_words = n_tokens
    if subtoken_map is not None:
        subtoken_map = _subtoken_map(subtoken_map, n_tokens, where)
        if len(spans):
            spans = subtoken_map[spans]
        n_words = int(subtoken_map[-1]) + 1 if len(subtoken_map) else 0
        bounds = sentence_starts + [n_tokens]
        piece_starts = [a for a, b in zip(bounds, bounds[1:]) if b > a]
        sentence_starts = _word_sentence_starts(obj.get("sentence_map"), piece_starts, subtoken_map, where=where)
    document = JsonlinesDocument(
        doc_key,
        sentence_starts,
        Clusters(),
        chosen,
        source=source,
        line=line,
        n_words=n_words,
        sentences=sentences,
        subtoken_map=subtoken_map.tolist() if subtoken_map is not None else None,
    )
    return document, (spans + (0, 1), labels)


def _field(obj: dict, role: str, field: Optional[str], *, where: str) -> str:
    if field is not None:
        if field not in obj:
            raise CorefInputError(f"{where}: no {field!r} field")
        return field
    if role == "response" and "predicted_clusters" in obj:
        return "predicted_clusters"
    if "clusters" in obj:
        return "clusters"
    wanted = "'predicted_clusters' or 'clusters'" if role == "response" else "'clusters'"
    raise CorefInputError(f"{where}: no {wanted} field")


def _listed_spans(clusters: object, name: str, where: str) -> tuple[np.ndarray, np.ndarray]:
    """The mentions of clusters decoded by ``json.loads``: inclusive token
    spans and the index of their cluster."""
    if not isinstance(clusters, list):
        raise CorefInputError(f"{where}: {name!r} must be a list of clusters")
    try:
        sizes = list(map(len, clusters))
        flat = list(chain.from_iterable(clusters))
        widths = list(map(len, flat))
        ints = list(chain.from_iterable(flat))
    except TypeError:
        _mention_error(clusters, name, where)
    if widths.count(2) != len(widths) or not _INTS.issuperset(map(type, ints)):
        _mention_error(clusters, name, where)
    labels = np.repeat(np.arange(len(clusters), dtype=np.int64), sizes)
    if not flat:
        return NO_SPANS, labels
    try:
        return np.array(ints, dtype=np.int64).reshape(-1, 2), labels
    except OverflowError:
        raise CorefInputError(f"{where}: {name!r} holds a token index too large for any document") from None


def _mention_error(clusters: list, name: str, where: str) -> None:
    for index, cluster in enumerate(clusters):
        if not isinstance(cluster, list):
            raise CorefInputError(f"{where}: {name}[{index}] must be a list of [start, end] mentions")
        for mention in cluster:
            if (
                not isinstance(mention, list)
                or len(mention) != 2
                or not all(isinstance(i, int) and not isinstance(i, bool) for i in mention)
            ):
                raise CorefInputError(f"{where}: mention {mention!r} in {name}[{index}] is not [start, end] with integer token indices")
    raise CorefInputError(f"{where}: {name!r} must hold lists of [start, end] mentions")  # pragma: no cover


def _subtoken_map(value: object, n_tokens: int, where: str) -> np.ndarray:
    if not isinstance(value, list) or len(value) != n_tokens:
        raise CorefInputError(f"{where}: 'subtoken_map' must give the word of each of the {n_tokens} tokens")
    array = np.array(value) if value else np.zeros(0, dtype=np.int64)
    if array.ndim != 1 or (len(array) and array.dtype.kind not in "iu"):
        raise CorefInputError(f"{where}: 'subtoken_map' must hold integer word indices")
    array = array.astype(np.int64, copy=False)
    if len(array) and (array[0] < 0 or np.any(np.diff(array) < 0)):
        raise CorefInputError(f"{where}: 'subtoken_map' must be non-decreasing from word 0")
    return array


def _clusters_by_document(mentions: Sequence[tuple[np.ndarray, np.ndarray]]) -> list[Clusters]:
    """The clusters of every document from its word spans (end exclusive)
    and cluster indices, all built at once by :meth:`Clusters.per_document`."""
    counts = [len(labels) for _, labels in mentions]
    spans = np.concatenate([NO_SPANS] + [spans for spans, _ in mentions]).reshape(-1, 2)
    labels = np.concatenate([NO_INTEGERS] + [labels for _, labels in mentions])
    doc = np.repeat(np.arange(len(mentions)), counts)
    return Clusters.per_document(doc, spans[:, 0], spans[:, 1], labels=labels, n_docs=len(mentions))


def _starts(lengths: Iterable[int]) -> list[int]:
    return list(accumulate(chain((0,), lengths)))[:-1]


def _words_from_pieces(pieces: list[str], subtoken_map: np.ndarray) -> list[str]:
    """Words rebuilt from word pieces: the pieces of each word joined, with
    continuation/space markers and special tokens dropped."""
    n_words = int(subtoken_map[-1]) + 1 if len(subtoken_map) else 0
    words = [""] * n_words
    for piece, word in zip(pieces, subtoken_map.tolist()):
        if piece in _SPECIAL_PIECES:
            continue
        for marker in _WORDPIECE_MARKERS:
            if piece.startswith(marker):
                piece = piece[len(marker) :]
                break
        words[word] += piece
    return words


def _word_sentence_starts(sentence_map: object, piece_starts: list[int], subtoken_map: np.ndarray, *, where: str) -> list[int]:
    """The first word of every sentence: from ``sentence_map`` (the
    sentence of every piece) when given, else from the first piece of every
    non-empty sentence (``piece_starts``)."""
    if sentence_map is not None:
        if not isinstance(sentence_map, list) or len(sentence_map) != len(subtoken_map):
            raise CorefInputError(f"{where}: 'sentence_map' must give the sentence of each token")
        if not sentence_map:
            return []
        sentence_of = np.array(sentence_map)
        first_pieces = np.flatnonzero(np.concatenate(([True], sentence_of[1:] != sentence_of[:-1])))
    else:
        first_pieces = np.array(piece_starts, dtype=np.int64)
    starts = np.unique(subtoken_map[first_pieces]) if len(first_pieces) else np.zeros(0, dtype=np.int64)
    return starts.tolist()
