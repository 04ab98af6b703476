"""Write system outputs from any key (``convert``), so that test inputs
can be built: fastcoref with the words detokenised by one documented rule
(:func:`detokenise`, docs/formats.md), maverick with its token offsets,
wl-coref with its span clusters."""

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import numpy as np

from ...files import open_output
from ...model.clusters import Clusters
from ..document import SideDocument, document_names

_ESCAPES = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}"}
_QUOTES = {"``": "\u201c", "''": "\u201d"}
_CLOSING = frozenset((".", ",", ";", ":", "!", "?", "%", ")", "]", "}", "\u201d", "\u2019", "'", "...", "n't", "n\u2019t"))
_OPENING = frozenset(("(", "[", "{", "\u201c", "\u2018", "$", "#"))


def detokenise(words: Sequence[str]) -> tuple[str, list[int], list[int]]:
    """The text of ``words`` and every word's first character and end:
    Penn Treebank escapes and quotes written as characters (`````` and
    ``''`` as typographic quotes, a ``"`` word opening and closing in
    turn), words joined by one space, except none before closing
    punctuation or a clitic (``'s``, ``n't``) and none after opening
    punctuation."""
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    at, opened, previous = 0, False, None
    for word in words:
        word = _ESCAPES.get(word, _QUOTES.get(word, word))
        closing = word in _CLOSING or (len(word) > 1 and word[0] in "'\u2019" and word[1].isalpha())
        if word == '"':
            word, closing, opened = ("\u201d", True, False) if opened else ("\u201c", False, True)
        if previous is not None and not closing and previous not in _OPENING:
            parts.append(" ")
            at += 1
        starts.append(at)
        parts.append(word)
        at += len(word)
        ends.append(at)
        previous = word
    return "".join(parts), starts, ends


def _lines(path: Path, lines: Sequence[dict[str, Any]], inputs: Sequence[Path]) -> list[str]:
    with open_output(path, "w", inputs, make_parents=True) as out:
        for line in lines:
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
    return []


def write_fastcoref(path: Path, documents: Sequence[SideDocument], inputs: Sequence[Path]) -> list[str]:
    """``doc_key``, ``text`` and ``clusters`` of character offsets, end exclusive."""
    lines = []
    for name, document in zip(document_names(documents), documents):
        text, starts, ends = detokenise(document.words)
        clusters = [[[starts[s], ends[e - 1]] for s, e in entity] for entity in document.clusters.entities()]
        lines.append({"doc_key": name, "text": text, "clusters": clusters})
    return _lines(path, lines, inputs)


def write_strings(path: Path, documents: Sequence[SideDocument], inputs: Sequence[Path]) -> list[str]:
    """``doc_key``, ``text`` (as :func:`write_fastcoref` writes it) and
    ``clusters_strings``, every mention as its text."""
    lines = []
    for name, document in zip(document_names(documents), documents):
        text, starts, ends = detokenise(document.words)
        clusters = [[text[starts[s] : ends[e - 1]] for s, e in entity] for entity in document.clusters.entities()]
        lines.append({"doc_key": name, "text": text, "clusters_strings": clusters})
    return _lines(path, lines, inputs)


def write_maverick(path: Path, documents: Sequence[SideDocument], inputs: Sequence[Path]) -> list[str]:
    """``doc_key``, ``tokens`` and ``clusters_token_offsets``, end inclusive."""
    lines = []
    for name, document in zip(document_names(documents), documents):
        clusters = [[[s, e - 1] for s, e in entity] for entity in document.clusters.entities()]
        lines.append({"doc_key": name, "tokens": list(document.words), "clusters_token_offsets": clusters})
    return _lines(path, lines, inputs)


def write_wlcoref(path: Path, documents: Sequence[SideDocument], inputs: Sequence[Path]) -> list[str]:
    """``document_id``, ``cased_words``, ``sent_id`` and ``span_clusters``, end
    exclusive; ``word_clusters`` (every mention's head) where the mentions
    have heads."""
    lines = []
    for name, document in zip(document_names(documents), documents):
        words = list(document.words)
        starts = sorted(set(document.sentence_starts) | {0})
        sentence = (np.searchsorted(starts, np.arange(len(words)), side="right") - 1).tolist()
        clusters = [[[s, e] for s, e in entity] for entity in document.clusters.entities()]
        line = {"document_id": name, "cased_words": words, "sent_id": sentence, "span_clusters": clusters}
        if document.clusters.heads is not None:
            line["word_clusters"] = head_clusters(document.clusters)
        lines.append(line)
    return _lines(path, lines, inputs)


def head_clusters(clusters: Clusters) -> list[list[int]]:
    """Every entity's mention heads, in stored order (an unknown head, -1,
    stands for the mention's first word)."""
    known = cast(np.ndarray, clusters.heads)  # written only for clusters with heads
    heads = np.where(known >= 0, known, clusters.starts).tolist()
    out: list[list[int]] = [[] for _ in range(clusters.n_entities)]
    for head, entity in zip(heads, clusters.entity.tolist()):
        out[entity].append(head)
    return out
