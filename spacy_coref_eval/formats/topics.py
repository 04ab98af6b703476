"""Cross-document pairing (docs/crossdoc.md): entity ids shared across the
documents of a file, every topic's documents stacked into one document,
as the reference scorer sees a file with one ``#begin document`` per
topic (or one for the whole corpus); CoNLL-2012 files by the mentions
their reader keeps with ids, CorefUD CoNLL-U files by their ``Entity=``
ids (:mod:`.conllu_topics`)."""
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..clusters import Clusters, Pair
from ..errors import CorefInputError
from .conll.read import ConllDocument
from .document import RawMentions, Side, SideDocument

if TYPE_CHECKING:
    from .corpus import Corpus
    from .inputs import InputLimits

CORPUS_TOPIC = "corpus"
"""The name of the one document of a corpus scored whole."""


@dataclass
class TopicDocument(ConllDocument):
    """The documents of one topic as one document: ``parts`` their names,
    ``offsets[i]`` the first token of part ``i`` (``offsets[-1]`` the
    token count)."""

    parts: Tuple[str, ...] = ()
    offsets: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))

    def part_of(self, tokens: np.ndarray) -> np.ndarray:
        """The part (document index) each token lies in."""
        return np.searchsorted(self.offsets, tokens, side="right") - 1


def topic_of(name: str, pattern: Optional["re.Pattern[str]"]) -> str:
    """The topic of a document: its name's first group of ``pattern`` (the
    whole match for a pattern without groups); :data:`CORPUS_TOPIC` for every
    document without a pattern."""
    if pattern is None:
        return CORPUS_TOPIC
    match = pattern.search(name)
    if match is None:
        raise CorefInputError(f"document {name!r}: its name does not match --topic-pattern {pattern.pattern!r}")
    topic = match.group(1) if pattern.groups else match.group(0)
    if topic is None:
        raise CorefInputError(f"document {name!r}: the first group of --topic-pattern {pattern.pattern!r} matches nothing")
    return topic


def compile_topic_pattern(pattern: Optional[str]) -> Optional["re.Pattern[str]"]:
    if pattern is None:
        return None
    try:
        return re.compile(pattern)
    except re.error as err:
        raise CorefInputError(f"--topic-pattern {pattern!r} is not a regular expression: {err}") from None


def stack_topic(parts: Sequence[Optional[RawMentions]], offsets: np.ndarray) -> Clusters:
    """One topic's clusters: part ``i``'s mentions moved ``offsets[i]``
    tokens on, mentions with the same id one entity whichever part they lie
    in; entities ordered by first appearance in the topic and mentions in
    reading order, as the reference scorer reads the concatenation (so
    that a repeated span keeps the copy it keeps)."""
    given = [(index, raw) for index, raw in enumerate(parts) if raw is not None and len(raw.starts)]
    if not given:
        return Clusters()
    shift = np.concatenate([np.full(len(raw.starts), offsets[index], dtype=np.int64) for index, raw in given])
    starts = np.concatenate([raw.starts for _, raw in given]) + shift
    ends = np.concatenate([raw.ends for _, raw in given]) + shift
    width = max(int(raw.labels.max()) for _, raw in given) + 1
    order = np.concatenate([raw.labels + index * width for index, raw in given])
    kinds = {raw.ids.dtype.kind for _, raw in given}
    ids = np.concatenate([raw.ids if kinds == {"i"} else raw.ids.astype(str) for _, raw in given])
    _, inverse = np.unique(ids, return_inverse=True)
    first = np.full(int(inverse.max()) + 1, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(first, inverse, order)
    return Clusters.from_arrays(starts, ends, first[inverse.reshape(-1)])


def pair_topics(
    triples: Sequence[Tuple[str, SideDocument, Optional[SideDocument]]], pattern: Optional[str], sides: Tuple[Side, Side]
) -> Tuple[List[Pair], List[TopicDocument]]:
    """The paired documents ``(name, key, response or None)`` grouped into
    topics (:func:`topic_of`, in order of first appearance), each topic one
    pair whose documents lie at their key document's token offsets (a
    missing response document scored as empty)."""
    from .conllu_topics import conllu_topic, is_conllu

    compiled = compile_topic_pattern(pattern)
    conllu = [is_conllu(side) for side in sides]
    for side, nodes in zip(sides, conllu):
        unread = [d for d in side.documents if getattr(d, "mentions", None) is None]
        if unread and not nodes:
            raise CorefInputError(
                f"{side.path}: --cross-document needs entity ids shared across documents, which the package keeps "
                f"for CoNLL-2012 and CorefUD CoNLL-U files only (this input is read as {side.format.title})"
            )
    if conllu[0] != conllu[1]:
        raise CorefInputError(
            f"{sides[1].path}: --cross-document pairs a CoNLL-U key with a CoNLL-U response and a CoNLL-2012 key "
            f"with a CoNLL-2012 response, not {sides[0].format.title} with {sides[1].format.title}"
        )
    topics: Dict[str, List[Tuple[str, SideDocument, Optional[SideDocument]]]] = {}
    for triple in triples:
        topics.setdefault(topic_of(triple[0], compiled), []).append(triple)
    pairs, documents = [], []
    for topic, members in topics.items():
        if conllu[0]:
            key, response, document = conllu_topic(topic, members)
            pairs.append(Pair(topic, key, response, document.n_tokens))
            documents.append(document)
            continue
        offsets = np.cumsum([0] + [key.n_tokens for _, key, _ in members]).astype(np.int64)
        key = stack_topic([k.mentions for _, k, _ in members], offsets)
        response = stack_topic([r.mentions if r is not None else None for _, _, r in members], offsets)
        document = _topic_document(topic, [k for _, k, _ in members], key, offsets)
        pairs.append(Pair(topic, key, response, int(offsets[-1])))
        documents.append(document)
    return pairs, documents


def _topic_document(topic: str, members: Sequence[SideDocument], clusters: Clusters, offsets: np.ndarray) -> TopicDocument:
    """The key documents of a topic as one, their words and sentences
    (and parts of speech where every one has them) in a row."""
    words = pos = None
    if all(m.words is not None for m in members):
        words = [word for m in members for word in m.words]
    if all(getattr(m, "pos", None) is not None for m in members):
        pos = [tag for m in members for tag in m.pos]
    starts = list(dict.fromkeys(
        int(start) + int(offset) for m, offset in zip(members, offsets) for start in (m.sentence_starts or [0])
    ))
    return TopicDocument(
        topic, clusters, int(offsets[-1]), getattr(members[0], "source", ""), getattr(members[0], "line", 0), words, starts, pos,
        parts=tuple(m.name for m in members), offsets=offsets,
    )


def pair_topic_sides(key: Side, response: Side, pattern: Optional[str] = None, pair_by: Optional[str] = None) -> "Corpus":
    """Two sides read with their entity ids paired document by document
    (as :func:`~.corpus.pair_sides` pairs them) and then topic by topic
    (:func:`pair_topics`): a :class:`~.corpus.Corpus` of one pair per topic."""
    from .corpus import Corpus, _pair_by_name_or_order, length_warnings

    triples, warnings, response_names = _pair_by_name_or_order(key, response, pair_by)
    pairs, documents = pair_topics(triples, pattern, (key, response))
    notes = list(dict.fromkeys(key.warnings + response.warnings))
    return Corpus(pairs, list(documents), notes + warnings + length_warnings(triples), response_names)


def stream_topic_sides(
    key_path: Path, response_path: Path, formats: Tuple[Optional[str], Optional[str]] = (None, None),
    pattern: Optional[str] = None, pair_by: Optional[str] = None, *, limits: Optional["InputLimits"] = None,
) -> Optional["Corpus"]:
    """:func:`pair_topic_sides` of two CoNLL-2012 files read a batch of
    documents at a time (docs/streaming.md), each document kept as its
    mentions with their ids, name, token count and sentence starts, its
    clusters and bytes dropped once read; ``None`` where the files are to
    be read whole."""
    from .corpus import Corpus, length_warnings
    from .stream import Fallback, plan_stream

    try:
        with plan_stream(key_path, response_path, formats, pair_by, limits=limits, entity_ids=True) as plan:
            triples = [
                (name, _mentions_only(key), None if response is None else _mentions_only(response))
                for batch in range(len(plan.batches)) for name, key, response in plan.documents(batch)
            ]
            plan.read_unpaired()
            warnings, response_names = plan.warnings, plan.response_names
            sides = (
                Side(plan.key.path, plan.key.format, [key for _, key, _ in triples]),
                Side(plan.response.path, plan.response.format, [r for _, _, r in triples if r is not None]),
            )
    except Fallback:
        return None
    pairs, documents = pair_topics(triples, pattern, sides)
    return Corpus(pairs, list(documents), warnings + length_warnings(triples), response_names)


def _mentions_only(document: SideDocument) -> ConllDocument:
    if not isinstance(document, ConllDocument) or document.mentions is None:
        from .stream import Fallback

        raise Fallback(f"document {document.name!r}: read without its entity ids")
    return replace(document, clusters=Clusters(), words=None, pos=None)
