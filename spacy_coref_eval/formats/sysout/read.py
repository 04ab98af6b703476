"""Read system outputs (docs/formats.md, System outputs): one JSON object
a line, as fastcoref/LingMess, maverick and wl-coref write them, each
line a :class:`~.document.SystemDocument`."""

import json
from collections.abc import Sequence
from functools import lru_cache
from itertools import chain
from pathlib import Path
from typing import Any, Callable, Optional, Union

import numpy as np

from ...arrays import NO_INTEGERS
from ...errors import CorefInputError
from ..base import Format, ReadOptions
from ..document import Side
from ..jsonlines.read import decode_text
from . import SYSTEMS
from .document import SystemDocument, cluster_words, from_text, from_words
from .strings import STRING_MEMBERS, place_strings, string_clusters

_LISTS = frozenset((list,))
_INTS = frozenset((int,))
_STRINGS = frozenset((str,))
_SENTENCE_IDS = frozenset((int, str))

Parser = Callable[[dict[str, Any], str], SystemDocument]


def parse_lines(text: str, source: str, parse: Parser) -> list[SystemDocument]:
    """Every non-blank line of ``text`` read by ``parse``; a document name
    given twice is an error."""
    objects: list[tuple[int, dict[str, Any]]] = []
    failure: Optional[CorefInputError] = None
    for number, line in enumerate(text.split("\n"), 1):
        if not line or line.isspace():
            continue
        try:
            obj = json.loads(line)
        except ValueError as err:
            failure = CorefInputError(f"{source}:{number}: not a JSON object: {err}")
            break
        if not isinstance(obj, dict):
            failure = CorefInputError(f"{source}:{number}: a line must hold a JSON object")
            break
        objects.append((number, obj))
    documents: list[SystemDocument] = []
    seen: dict[str, int] = {}
    for number, obj in objects:
        document = parse(obj, f"{source}:{number}")
        if document.name is not None:
            if document.name in seen:
                raise CorefInputError(f"{source}:{number}: document {document.name!r} appears twice (first at line {seen[document.name]})")
            seen[document.name] = number
        documents.append(document)
    if failure is not None:
        raise failure
    return documents


def _name(obj: dict[str, Any], member: str, where: str, *, required: bool = False) -> Optional[str]:
    name = obj.get(member)
    if name is None and not required:
        return None
    if not isinstance(name, str):
        raise CorefInputError(f"{where}: no {member!r} string")
    return name


def _words(value: Any, member: str, where: str) -> tuple[list[str], list[int]]:
    """A word list, or a list of sentences flattened with their first words;
    every word a non-empty string."""
    if isinstance(value, list) and _STRINGS.issuperset(map(type, value)):
        if "" in value:
            raise CorefInputError(f"{where}: {member}[{value.index('')}] is an empty string; every word must be a non-empty string")
        return value, []
    if isinstance(value, list) and value and _LISTS.issuperset(map(type, value)):
        words = list(chain.from_iterable(value))
        if _STRINGS.issuperset(map(type, words)) and "" not in words:
            return words, np.cumsum([0] + [len(s) for s in value])[:-1].tolist()
        for i, sentence in enumerate(value):
            for j, word in enumerate(sentence):
                if type(word) is not str or not word:
                    shown = "an empty string" if word == "" else json.dumps(word)[:40]
                    raise CorefInputError(f"{where}: {member}[{i}][{j}] is {shown}; every word must be a non-empty string")
    if isinstance(value, list):
        bad = next(i for i, word in enumerate(value) if type(word) is not str)
        raise CorefInputError(
            f"{where}: {member}[{bad}] is {json.dumps(value[bad])[:40]}; {member!r} must be a list of words (or of sentences of words)"
        )
    raise CorefInputError(f"{where}: {member!r} must be a list of words (or of sentences of words)")


def spans_of(
    value: Any, member: str, where: str, *, limit: int, unit: str, inclusive: bool, missing: bool = False
) -> tuple[np.ndarray, np.ndarray, int]:
    """The mentions of a clusters member: spans (end exclusive), their
    cluster indices, and how many mentions were ``None`` (allowed with
    ``missing``: fastcoref writes mentions on special tokens so). A mention
    that is not two integers, negative, reversed or beyond ``limit`` is an
    error."""
    flat, labels, dropped = _plain_mentions(value)
    if flat is None:
        flat, labels, dropped = _mentions(value, member, where, unit=unit, missing=missing)
    try:
        spans = np.array(flat, dtype=np.int64).reshape(-1, 2)
    except OverflowError:
        raise CorefInputError(f"{where}: {member!r} holds an offset too large for any document") from None
    if inclusive:
        spans = spans + (0, 1)
    bad = (spans[:, 0] < 0) | (spans[:, 1] <= spans[:, 0]) | (spans[:, 1] > limit)
    if bad.any():
        m = int(np.argmax(bad))
        beyond = spans[m, 1] > limit and 0 <= spans[m, 0] < spans[m, 1]
        what = f"beyond the document's {limit} {unit}s" if beyond else "negative or reversed"
        end = "inclusive" if inclusive else "exclusive"
        mention = [int(spans[m, 0]), int(spans[m, 1]) - inclusive]
        raise CorefInputError(f"{where}: mention {mention!r} in {member}[{int(labels[m])}] is {what} (its end is {end})")
    return spans, labels, dropped


def _plain_mentions(value: Any) -> tuple[Optional[list[int]], np.ndarray, int]:
    """The offsets of clusters that are lists of ``[int, int]`` lists, in
    order, and every mention's cluster; ``None`` for anything else."""
    if not isinstance(value, list) or not _LISTS.issuperset(map(type, value)):
        return None, NO_INTEGERS, 0
    flat = list(chain.from_iterable(value))
    if not _LISTS.issuperset(map(type, flat)) or set(map(len, flat)) - {2}:
        return None, NO_INTEGERS, 0
    numbers = list(chain.from_iterable(flat))
    if not _INTS.issuperset(map(type, numbers)):
        return None, NO_INTEGERS, 0
    return numbers, np.repeat(np.arange(len(value), dtype=np.int64), list(map(len, value))), 0


def _mentions(value: Any, member: str, where: str, *, unit: str, missing: bool) -> tuple[list[Any], np.ndarray, int]:
    """:func:`_plain_mentions` one mention at a time, which says what is
    wrong, and drops ``None`` mentions where ``missing`` allows them."""
    if not isinstance(value, list):
        raise CorefInputError(f"{where}: {member!r} must be a list of clusters")
    flat: list[Any] = []
    labels: list[int] = []
    dropped = 0
    for index, cluster in enumerate(value):
        if not isinstance(cluster, list):
            raise CorefInputError(f"{where}: {member}[{index}] must be a list of [start, end] mentions")
        for mention in cluster:
            if mention is None and missing:
                dropped += 1
                continue
            if (
                not isinstance(mention, list)
                or len(mention) != 2
                or not all(isinstance(i, int) and not isinstance(i, bool) for i in mention)
            ):
                raise CorefInputError(f"{where}: mention {mention!r} in {member}[{index}] is not [start, end] with integer {unit} offsets")
            flat.append(mention)
            labels.append(index)
    return flat, np.array(labels, dtype=np.int64), dropped


def parse_fastcoref(obj: dict[str, Any], where: str) -> SystemDocument:
    """``text`` and ``clusters`` of character offsets, end exclusive (or,
    from ``is_split_into_words``, a word list and word offsets)."""
    name = _name(obj, "doc_key", where)
    where = where if name is None else f"{where}: document {name!r}"
    if "clusters" not in obj:
        raise CorefInputError(f"{where}: no 'clusters' member")
    text = obj.get("text")
    if isinstance(text, str):
        try:
            spans, labels, dropped = spans_of(
                obj["clusters"], "clusters", where, limit=len(text), unit="character", inclusive=False, missing=True
            )
        except CorefInputError as err:
            if "reversed" not in str(err):
                raise
            raise CorefInputError(
                f"{err}; maverick's evaluate.py writes 'text' and 'clusters' of token offsets, "
                "end inclusive: name --response-format maverick"
            ) from None
        return from_text(name, text, spans, labels=labels, dropped=dropped)
    if isinstance(text, list):
        words, starts = _words(text, "text", where)
        spans, labels, dropped = spans_of(obj["clusters"], "clusters", where, limit=len(words), unit="word", inclusive=False, missing=True)
        return from_words(name, words, spans, labels=labels, sentence_starts=starts, dropped=dropped)
    raise CorefInputError(f"{where}: 'text' must be the text (or the word list of is_split_into_words)")


def parse_maverick(obj: dict[str, Any], where: str) -> SystemDocument:
    """``tokens`` and ``clusters_token_offsets``, or ``text`` and
    ``clusters_char_offsets``, or (evaluate.py) ``sentences`` or ``text``
    and ``clusters``: word, character or (``text``) spaCy token offsets,
    end inclusive; else ``text`` and mention strings (:func:`parse_strings`)."""
    name = _name(obj, "doc_key", where)
    where = where if name is None else f"{where}: document {name!r}"
    if obj.get("tokens") is not None and obj.get("clusters_token_offsets") is not None:
        words, starts = _words(obj["tokens"], "tokens", where)
        spans, labels, _ = spans_of(
            obj["clusters_token_offsets"], "clusters_token_offsets", where, limit=len(words), unit="word", inclusive=True
        )
        return from_words(name, words, spans, labels=labels, sentence_starts=starts, dropped=0)
    if isinstance(obj.get("text"), str) and obj.get("clusters_char_offsets") is not None:
        text = obj["text"]
        spans, labels, _ = spans_of(
            obj["clusters_char_offsets"], "clusters_char_offsets", where, limit=len(text), unit="character", inclusive=True
        )
        return from_text(name, text, spans, labels=labels, dropped=0)
    if obj.get("sentences") is not None and obj.get("clusters") is not None:
        words, starts = _words(obj["sentences"], "sentences", where)
        spans, labels, _ = spans_of(obj["clusters"], "clusters", where, limit=len(words), unit="word", inclusive=True)
        return from_words(name, words, spans, labels=labels, sentence_starts=starts or [0], dropped=0)
    if isinstance(obj.get("text"), str) and obj.get("clusters") is not None:
        text = obj["text"]
        token_starts, token_ends = spacy_tokens(text)
        spans, labels, _ = spans_of(obj["clusters"], "clusters", where, limit=len(token_starts), unit="word", inclusive=True)
        char_spans = np.stack([token_starts[spans[:, 0]], token_ends[spans[:, 1] - 1]], axis=1)
        return from_text(name, text, char_spans, labels=labels, dropped=0)
    if obj.get("text") is not None or obj.get("tokens") is not None:
        if string_clusters(obj, where)[0] is not None:
            return parse_strings(obj, where)
    raise CorefInputError(
        f"{where}: a maverick line holds 'tokens' and 'clusters_token_offsets', 'text' and "
        "'clusters_char_offsets', 'sentences' or 'text' and 'clusters' (evaluate.py), "
        "or 'text' and mention strings ('clusters_char_text')"
    )


@lru_cache(maxsize=1)
def _english():
    import spacy

    return spacy.blank("en")


def spacy_tokens(text: str) -> tuple[np.ndarray, np.ndarray]:
    """The first character and end of every token of spaCy's English
    tokenizer (en_core_web_sm's, which maverick's ``evaluate.py`` runs on a
    ``text`` input), white-space tokens included."""
    tokens = _english().tokenizer(text)
    starts = np.fromiter((token.idx for token in tokens), dtype=np.int64, count=len(tokens))
    lengths = np.fromiter((len(token.text) for token in tokens), dtype=np.int64, count=len(tokens))
    return starts, starts + lengths


def parse_wlcoref(obj: dict[str, Any], where: str) -> SystemDocument:
    """``document_id``, ``cased_words``, ``sent_id`` and ``span_clusters``
    (word offsets, end exclusive), or else ``word_clusters`` (head words)."""
    name = _name(obj, "document_id", where, required=True)
    where = f"{where}: document {name!r}"
    words, _ = _words(obj.get("cased_words"), "cased_words", where)
    if obj.get("span_clusters") is None and obj.get("word_clusters") is None:
        raise CorefInputError(f"{where}: no 'span_clusters' or 'word_clusters' member")
    heads = None
    if obj.get("word_clusters") is not None:
        clusters = obj["word_clusters"]
        if isinstance(clusters, list) and _LISTS.issuperset(map(type, clusters)):
            clusters = [[[head, head] for head in cluster] for cluster in clusters]
        head_spans, head_labels, _ = spans_of(clusters, "word_clusters", where, limit=len(words), unit="word", inclusive=True)
        heads = head_spans[:, 0]
    if obj.get("span_clusters") is None:
        spans, labels = head_spans, head_labels
    else:
        spans, labels, _ = spans_of(obj["span_clusters"], "span_clusters", where, limit=len(words), unit="word", inclusive=False)
        if heads is not None and not np.array_equal(labels, head_labels):
            raise CorefInputError(
                f"{where}: 'word_clusters' and 'span_clusters' differ in shape; each head of "
                "word_clusters[i][k] is that of span_clusters[i][k]"
            )
        if heads is not None and np.any((heads < spans[:, 0]) | (heads >= spans[:, 1])):
            m = int(np.argmax((heads < spans[:, 0]) | (heads >= spans[:, 1])))
            raise CorefInputError(
                f"{where}: head {int(heads[m])} (word_clusters) lies outside its span {spans[m].tolist()} (span_clusters[{int(labels[m])}])"
            )
    sentences = obj.get("sent_id")
    starts: Sequence[int] = ()
    if isinstance(sentences, list) and len(sentences) == len(words):
        if not _SENTENCE_IDS.issuperset(map(type, sentences)):
            bad = next(i for i, s in enumerate(sentences) if type(s) not in _SENTENCE_IDS)
            raise CorefInputError(
                f"{where}: sent_id[{bad}] is {json.dumps(sentences[bad])[:40]}; 'sent_id' must "
                "hold one sentence number (or string) per word"
            )
        if not _INTS.issuperset(map(type, sentences)):
            sentences = list(map(str, sentences))
        ids = np.array(sentences)
        starts = np.flatnonzero(np.concatenate(([True], ids[1:] != ids[:-1]))).tolist() if len(ids) else []
    document = from_words(name, words, spans, labels=labels, sentence_starts=starts, dropped=0, heads=heads)
    document.heads_only = obj.get("span_clusters") is None
    return document


def parse_strings(obj: dict[str, Any], where: str) -> SystemDocument:
    """``text`` (or ``tokens``, joined by spaces) and mentions as strings
    (:data:`.strings.STRING_MEMBERS`), placed by :func:`.strings.place_strings`."""
    name = _name(obj, "doc_key", where)
    where = where if name is None else f"{where}: document {name!r}"
    member, clusters = string_clusters(obj, where)
    if member is None:
        raise CorefInputError(f"{where}: no mention strings ({', '.join(map(repr, STRING_MEMBERS))})")
    text = obj.get("text")
    if not isinstance(text, str):
        given = obj.get("tokens") if obj.get("tokens") is not None else text
        if given is None:
            raise CorefInputError(f"{where}: mention strings need the 'text' (or the 'tokens') they are found in")
        text = " ".join(_words(given, "tokens", where)[0])
    spans, labels, unplaced = place_strings(text, clusters)
    document = from_text(name, text, spans, labels=labels)
    document.unplaced = unplaced
    return document


PARSERS = {"fastcoref": parse_fastcoref, "maverick": parse_maverick, "wl-coref": parse_wlcoref, "mention-strings": parse_strings}


def read_system(text: str, path: Path, fmt: Format) -> Side:
    """The documents of a system output of format ``fmt``, ``text`` read
    from ``path``, with a warning where mentions are head words alone. The
    clusters of its word outputs are built all at once
    (:func:`~.document.cluster_words`); its character outputs are placed
    on a key's words document by document
    (:meth:`~.document.SystemDocument.placed_on`)."""
    documents = parse_lines(text, str(path), PARSERS[fmt.name])
    words = [document for document in documents if document.text is None and document.heads is None]
    if len(words) > 1:
        cluster_words(words)
    heads = [d.name for d in documents if d.heads_only]
    warnings = (
        [
            f"{path}: {len(heads)} document(s) give head words only ('word_clusters'), each mention its head word "
            "alone: only --match head compares them with the key's mentions"
        ]
        if heads
        else []
    )
    return Side(path, fmt, documents, warnings)


def system_side(name: str, data: Union[bytes, bytearray], path: Path, options: ReadOptions) -> Side:
    """The bytes of an output of the system ``name`` (a format of
    :data:`~.SYSTEMS`) as a :class:`Side` (the formats' reader)."""
    fmt = next(fmt for fmt in SYSTEMS if fmt.name == name)
    return read_system(decode_text(data, path), path, fmt)
