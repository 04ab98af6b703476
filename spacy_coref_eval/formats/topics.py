"""Cross-document pairing (docs/crossdoc.md): entity ids shared across the
documents of a file, every topic's documents stacked into one document,
as the reference scorer sees a file with one ``#begin document`` per
topic (or one for the whole corpus); CoNLL-2012 files by the mentions
their reader keeps with ids, CorefUD CoNLL-U files by their ``Entity=``
ids (:mod:`.conllu_topics`)."""

import re
from collections.abc import Sequence
from typing import Any, Optional, cast

import numpy as np

from ..errors import CorefInputError
from ..model.clusters import Clusters, Pair
from .conllu_topics import conllu_topic, is_conllu
from .document import RawMentions, Side, SideDocument, bare_name
from .topic_document import TopicDocument

CORPUS_TOPIC = "corpus"
"""The name of the one document of a corpus scored whole."""


def topic_of(name: str, pattern: Optional["re.Pattern[str]"]) -> str:
    """The topic of a document: the first group of ``pattern`` in its bare
    name (:func:`~.document.bare_name`: ``1_1ecb`` of ``(1_1ecb); part
    000``; the whole match for a pattern without groups);
    :data:`CORPUS_TOPIC` for every document without a pattern."""
    if pattern is None:
        return CORPUS_TOPIC
    match = pattern.search(bare_name(name))
    if match is None:
        shown = f"{name!r}" if bare_name(name) == name else f"{name!r} (matched as {bare_name(name)!r})"
        raise CorefInputError(f"document {shown}: its name does not match --topic-pattern {pattern.pattern!r}")
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
    triples: Sequence[tuple[str, SideDocument, Optional[SideDocument]]], pattern: Optional[str], sides: tuple[Side, Side]
) -> tuple[list[Pair], list[TopicDocument]]:
    """The paired documents ``(name, key, response or None)`` grouped into
    topics (:func:`topic_of`, in order of first appearance), each topic one
    pair whose documents lie at their key document's token offsets (a
    missing response document scored as empty)."""
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
    topics: dict[str, list[tuple[str, SideDocument, Optional[SideDocument]]]] = {}
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
        document = _topic_document(topic, [k for _, k, _ in members], key, offsets=offsets)
        pairs.append(Pair(topic, key, response, int(offsets[-1])))
        documents.append(document)
    return pairs, documents


def _topic_document(topic: str, members: Sequence[SideDocument], clusters: Clusters, *, offsets: np.ndarray) -> TopicDocument:
    """The key documents of a topic as one, their words and sentences
    (and parts of speech where every one has them) in a row."""
    words = pos = None
    if all(m.words is not None for m in members):
        words = [word for m in members for word in m.words]
    if all(getattr(m, "pos", None) is not None for m in members):
        pos = [tag for m in members for tag in cast(Any, m).pos]  # every member has pos, checked above
    starts = list(dict.fromkeys(int(start) + int(offset) for m, offset in zip(members, offsets) for start in (m.sentence_starts or [0])))
    return TopicDocument(
        topic,
        clusters,
        int(offsets[-1]),
        getattr(members[0], "source", ""),
        line=getattr(members[0], "line", 0),
        words=words,
        sentence_starts=starts,
        pos=pos,
        parts=tuple(m.name for m in members),
        offsets=offsets,
    )
