"""Read jsonlines files, the format of e2e-coref and its descendants
(docs/formats.md §6), giving what ``json.loads`` of every line gives,
with the clusters of all lines turned into numbers at once."""

import json
import re
import sys
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate, chain
from json.decoder import scanstring  # type: ignore[attr-defined]  # public in json.decoder, absent from typeshed
from json.scanner import make_scanner
from pathlib import Path
from typing import Any, Callable, NamedTuple, Optional, Union, cast

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
_CLUSTER_FIELDS = ("predicted_clusters", "clusters")
_OTHER_MEMBERS = frozenset(("doc_key", "sentences", "subtoken_map", "sentence_map"))


def _span_lists(dumped: bool = False) -> "re.Pattern[str]":
    """JSON text of a list of lists of ``[int, int]`` (ints of at most 18
    digits), possessive where Python has it (3.11): with any JSON white
    space, or as ``json.dumps`` writes it by default (``dumped``: the one
    space after each comma, which matches in two thirds of the time)."""
    more = "+" if sys.version_info >= (3, 11) else ""
    space, comma = ("", ", ") if dumped else (rf"[ \t\n\r]*{more}", rf"[ \t\n\r]*{more},[ \t\n\r]*{more}")
    number = rf"-?{more}(?:0|[1-9][0-9]{{0,17}}{more})"
    mention = rf"\[{space}{number}{comma}{number}{space}\]"
    cluster = rf"\[{space}(?:{mention}(?:{comma}{mention})*{more})?{more}{space}\]"
    return re.compile(rf"\[{space}(?:{cluster}(?:{comma}{cluster})*{more})?{more}{space}\]")


_SPAN_LISTS = _span_lists()
_DUMPED_SPAN_LISTS = _span_lists(dumped=True)
"""Tried first: where it matches, :data:`_SPAN_LISTS` matches the same text
(the outer list closes at one place)."""
_SPACE = re.compile(r"[ \t\n\r]*")
_SCAN = make_scanner(json.JSONDecoder())  # type: ignore[arg-type]  # typeshed types make_scanner as a class
_NUMBERS_ONLY = str.maketrans("[],", "   ")
_BRACKETS_ONLY = str.maketrans("", "", "0123456789-, \t\n\r")


class SpanText(str):
    """The JSON text of a clusters field that :data:`_SPAN_LISTS` matches."""


class _Sentences(NamedTuple):
    """A ``sentences`` value: its JSON text and, when the whole line was
    decoded by ``json.loads``, the value decoded instead; its number of
    tokens and the first token of every sentence. The text is decoded once
    to check and count it, and again only when the words are asked for:
    the lists of a whole corpus kept alive cost the garbage collector more
    than decoding twice."""

    text: Optional[str]
    n_tokens: int
    starts: list[int]
    decoded: Optional[list[list]]


@dataclass
class JsonlinesDocument(SideDocument):
    """One line: the first word of every sentence, the clusters (word
    spans, end exclusive) and the field they were read from, and the number
    of words. ``pieces`` are the flattened ``sentences`` as written and
    ``words`` the pieces, or with ``subtoken_map`` the words rebuilt from
    their pieces (markers and special tokens dropped); both are decoded
    only when asked for."""

    doc_key: str
    sentence_starts: list[int]
    clusters: Clusters
    field: str
    source: str
    line: int
    n_words: int
    sentences: _Sentences
    subtoken_map: Optional[list[int]] = None

    @property
    def name(self) -> str:
        return self.doc_key

    @property
    def n_tokens(self) -> int:
        return self.n_words

    @property
    def sentences_text(self) -> Optional[str]:
        """The JSON text of ``sentences`` as the line holds it."""
        return self.sentences.text

    @cached_property
    def pieces(self) -> list[Any]:
        decoded = self.sentences.decoded
        text = cast(str, self.sentences.text)  # held where not decoded
        return list(chain.from_iterable(json.loads(text) if decoded is None else decoded))

    @cached_property
    def words(self) -> list[Any]:
        if self.subtoken_map is None:
            return self.pieces
        return _words_from_pieces(self.pieces, np.array(self.subtoken_map, dtype=np.int64))

    def same_words(self, other: SideDocument) -> bool:
        """Two lines whose ``sentences`` are the same JSON text of words
        (no word pieces) have the same words without decoding them."""
        if (
            isinstance(other, JsonlinesDocument)
            and self.subtoken_map is None
            and other.subtoken_map is None
            and self.sentences_text is not None
            and self.sentences_text == other.sentences_text
        ):
            return True
        return super().same_words(other)


ANNOTATION_TOOLS = ("prodigy", "doccano")
"""Formats of annotation tools' JSONL exports, read by their own readers
when a ``.jsonl`` file's members say so."""


def read_jsonlines(
    path: PathLike,
    *,
    role: str = "response",
    field: Optional[str] = None,
    known: Optional[Mapping[str, JsonlinesDocument]] = None,
    limits: Optional[InputLimits] = None,
) -> dict[str, JsonlinesDocument]:
    """Documents of a jsonlines file (``.gz`` read transparently) by doc_key,
    in file order. ``role`` and ``field`` choose the clusters read (module
    docstring); ``known`` are the documents of the file this one is paired
    with, whose ``sentences`` a line may share."""
    path = Path(path)
    return parse_jsonlines(load_text(path, limits), source=str(path), role=role, field=field, known=known)


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
    text: str,
    *,
    source: str = "<string>",
    role: str = "response",
    field: Optional[str] = None,
    known: Optional[Mapping[str, JsonlinesDocument]] = None,
) -> dict[str, JsonlinesDocument]:
    """Like :func:`read_jsonlines`, from a string."""
    if role not in _ROLES:
        raise ValueError(f"role must be one of {_ROLES}, not {role!r}")
    documents: dict[str, JsonlinesDocument] = {}
    pending: list[_Mentions] = []
    raw = frozenset((field,) if field is not None else _CLUSTER_FIELDS) - _OTHER_MEMBERS
    try:
        for number, line in enumerate(text.split("\n"), 1):
            if not line or line.isspace():
                continue
            obj = line_members(line, raw, known, sentences=field != "sentences")
            if obj is None:
                try:
                    obj = json.loads(line)
                except ValueError as err:
                    raise CorefInputError(f"{source}:{number}: not a JSON object: {err}") from None
            document, mentions = _document(obj, source, number, role=role, field=field)
            if document.doc_key in documents:
                raise CorefInputError(
                    f"{source}:{number}: doc_key {document.doc_key!r} appears twice (first at line {documents[document.doc_key].line})"
                )
            documents[document.doc_key] = document
            pending.append(mentions)
    except CorefInputError:
        _word_spans(pending)  # a mention error of an earlier line is the one to report
        raise
    built = _clusters_by_document(_word_spans(pending))
    for document, clusters in zip(documents.values(), built):
        document.clusters = clusters
    return documents


class _Mentions(NamedTuple):
    """The mentions of one document as read from its line: inclusive token
    spans and cluster indices, or the clusters text they are still to be
    parsed from; and what checking and placing them needs."""

    spans: np.ndarray
    labels: np.ndarray
    text: Optional[str]
    subtoken_map: Optional[np.ndarray]
    field: str
    n_tokens: int
    where: str


def _word_spans(pending: Sequence[_Mentions]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every document's mentions as word spans (end exclusive) and cluster
    indices. The clusters texts of all documents are parsed at once; a
    mention outside its document raises :class:`CorefInputError` for the
    first such document."""
    deferred = [m for m in pending if m.text is not None]
    parsed: Iterator[tuple[np.ndarray, np.ndarray]] = iter(())
    if deferred:
        spans, labels, owner = parsed_spans([cast(str, m.text) for m in deferred])
        limits = np.array([m.n_tokens for m in deferred], dtype=np.int64)[owner]
        bounds = np.searchsorted(owner, np.arange(len(deferred) + 1)).tolist()
        outside = _outside(spans, limits)
        if outside.any():
            d = int(owner[np.argmax(outside)])
            _check_inside(spans[bounds[d] : bounds[d + 1]], labels[bounds[d] : bounds[d + 1]], deferred[d])
        parsed = iter(zip(np.split(spans, bounds[1:-1]), np.split(labels, bounds[1:-1])))
    out = []
    for mentions in pending:
        spans, labels = next(parsed) if mentions.text is not None else (mentions.spans, mentions.labels)
        if mentions.subtoken_map is not None and len(spans):
            spans = mentions.subtoken_map[spans]
        out.append((spans + (0, 1), labels))
    return out


def _check_inside(spans: np.ndarray, labels: np.ndarray, mentions: _Mentions) -> None:
    """Raise :class:`CorefInputError` for the first mention that is
    reversed or outside the document's tokens."""
    n_tokens = mentions.n_tokens
    bad = _outside(spans, n_tokens)
    if bad.any():
        m = int(np.argmax(bad))
        raise CorefInputError(
            f"{mentions.where}: mention [{spans[m, 0]}, {spans[m, 1]}] in {mentions.field}"
            f"[{int(labels[m])}] is reversed or outside the document's {n_tokens} tokens "
            "(end is inclusive)"
        )


def _outside(spans: np.ndarray, n_tokens: Union[int, np.ndarray]) -> np.ndarray:
    """Mask of the inclusive spans that are reversed or outside ``n_tokens``."""
    return (spans[:, 0] < 0) | (spans[:, 1] < spans[:, 0]) | (spans[:, 1] >= n_tokens)


def line_members(
    line: str, raw: Collection[str], known: Optional[Mapping[str, JsonlinesDocument]] = None, *, sentences: bool = True
) -> Optional[dict[str, Any]]:
    """The JSON object on ``line`` as ``json.loads`` gives it, except that
    the value of a member named in ``raw`` that :data:`_SPAN_LISTS` matches
    is kept as its text (:class:`SpanText`), and with ``sentences`` the
    ``sentences`` value is read by :func:`_sentences`. None for anything
    but a plain object (``json.loads`` then reads it, or says what is
    wrong)."""
    space = cast(Callable[..., "re.Match[str]"], _SPACE.match)  # [ \t\n\r]* matches everywhere
    obj: dict[str, Any] = {}
    try:
        at = space(line).end()
        if line[at] != "{":
            return None
        at = space(line, at + 1).end()
        while line[at] != "}":
            if line[at] != '"':
                return None
            key, at = scanstring(line, at + 1)
            at = space(line, at).end()
            if line[at] != ":":
                return None
            at = space(line, at + 1).end()
            spans = (_DUMPED_SPAN_LISTS.match(line, at) or _SPAN_LISTS.match(line, at)) if key in raw else None
            if spans:
                obj[key], at = SpanText(spans.group()), spans.end()
            elif sentences and key == "sentences":
                doc_key = obj.get("doc_key")
                namesake = known.get(doc_key) if known and isinstance(doc_key, str) else None
                obj[key], at = _sentences(line, at, namesake.sentences if namesake else None)
            else:
                obj[key], at = _SCAN(line, at)
            at = space(line, at).end()
            if line[at] == ",":
                at = space(line, at + 1).end()
                if line[at] != '"':
                    return None
            elif line[at] != "}":
                return None
    except (IndexError, ValueError, StopIteration):
        return None
    return obj if space(line, at + 1).end() == len(line) else None


def _sentences(line: str, at: int, known: Optional[_Sentences]) -> tuple[Any, int]:
    """The ``sentences`` value at ``at`` and where it ends: ``known`` (those
    of the other file's document with the same doc_key) when the line holds
    the same text there, else decoded, measured and kept as text (anything
    but a list of lists is returned as decoded, for :func:`_document` to
    refuse)."""
    if known is not None and known.text is not None and line.startswith(known.text, at):
        return known, at + len(known.text)
    value, end = _SCAN(line, at)
    if not isinstance(value, list) or not _LISTS.issuperset(map(type, value)) or not _all_words(value):
        return value, end
    lengths = list(map(len, value))
    return _Sentences(line[at:end], sum(lengths), _starts(lengths), None), end


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


def _document(obj: object, source: str, line: int, *, role: str, field: Optional[str]) -> tuple[JsonlinesDocument, _Mentions]:
    """The document of one line (its clusters left empty) and its mentions."""
    if not isinstance(obj, dict):
        raise CorefInputError(f"{source}:{line}: a line must hold a JSON object")
    doc_key = obj.get("doc_key")
    if not isinstance(doc_key, str):
        raise CorefInputError(f"{source}:{line}: no doc_key string")
    where = f"{source}:{line}: document {doc_key!r}"
    sentences = obj.get("sentences")
    if not isinstance(sentences, _Sentences):
        if not isinstance(sentences, list) or not _LISTS.issuperset(map(type, sentences)):
            raise CorefInputError(f"{where}: 'sentences' must be a list of lists of tokens")
        if not _all_words(sentences):
            _word_error(sentences, where)
        lengths = list(map(len, sentences))
        sentences = _Sentences(None, sum(lengths), _starts(lengths), sentences)
    n_tokens, sentence_starts = sentences.n_tokens, sentences.starts
    chosen = _field(obj, role, field, where=where)
    clusters = obj[chosen]
    if isinstance(clusters, SpanText):
        mentions = _Mentions(NO_SPANS, NO_INTEGERS, clusters, None, chosen, n_tokens, where)
    else:
        spans, labels = _listed_spans(clusters, chosen, where)
        mentions = _Mentions(spans, labels, None, None, chosen, n_tokens, where)
        _check_inside(spans, labels, mentions)
    subtoken_map = obj.get("subtoken_map")
    n_words = n_tokens
    if subtoken_map is not None:
        subtoken_map = _subtoken_map(subtoken_map, n_tokens, where)
        mentions = mentions._replace(subtoken_map=subtoken_map)
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
    return document, mentions


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


def parsed_spans(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The mentions of clusters texts that :data:`_SPAN_LISTS` matches, all
    parsed at once: inclusive token spans (the numbers in order), the
    cluster of every mention within its text (from the depth of its
    bracket), and the text it comes from."""
    joined = "".join(texts)
    brackets = np.frombuffer(joined.translate(_BRACKETS_ONLY).encode("ascii"), dtype=np.uint8) == ord("[")
    depth = np.cumsum(brackets.astype(np.int64) * 2 - 1)
    mention = brackets & (depth == 3)
    text_open = brackets & (depth == 1)
    clusters = np.cumsum(brackets & (depth == 2))
    owner = np.cumsum(text_open)[mention] - 1
    labels = clusters[mention] - 1 - clusters[text_open][owner]
    if not len(labels):
        return NO_SPANS, labels, owner
    return np.fromstring(joined.translate(_NUMBERS_ONLY), dtype=np.int64, sep=" ").reshape(-1, 2), labels, owner


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
