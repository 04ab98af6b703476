"""Write LLM-track tagged text as text2text-coref's ``conllu2text -s``
writes it (docs/formats.md, text2text): one document a line, words (no
empty nodes) joined by spaces, each word's tags sorted and joined by
commas, entities numbered ``e1, e2, ...`` per document."""

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ...files import open_output
from ..conllu.side import ConlluSideDocument
from ..document import SideDocument

_NOT_A_WORD = -1


def tagged_line(document: SideDocument) -> str:
    """One document as a line of tagged words."""
    words, word_at = _words(document)
    clusters = document.clusters
    tags: dict[int, list[str]] = {}
    spans: list[tuple[int, int, int, int]] = []
    for m in range(len(clusters)):
        nodes = clusters.nodes.of(m) if clusters.nodes is not None else np.arange(clusters.starts[m], clusters.ends[m])
        head = int(clusters.heads[m]) if clusters.heads is not None else int(nodes[0])
        first, last = _head_part(nodes.tolist(), head, word_at)
        on_words = word_at[nodes][word_at[nodes] >= 0]
        spans.append((int(clusters.entity[m]), int(on_words[0]) if len(on_words) else len(words), first, last))
    numbers: dict[int, int] = {}
    for entity, _, _, _ in sorted(spans, key=lambda span: span[1]):
        numbers.setdefault(entity, len(numbers) + 1)
    for entity, _, first, last in spans:
        eid = f"e{numbers[entity]}"
        start, end = word_at[first], word_at[last]
        if first == last and start >= 0:
            tags.setdefault(start, []).append(f"[{eid}]")
            continue
        if start >= 0:
            tags.setdefault(start, []).append(f"[{eid}")
        if end >= 0:
            tags.setdefault(end, []).append(f"{eid}]")
    out = []
    for w, word in enumerate(words):
        form = word.replace(" ", "_")
        out.append(f"{form}|{','.join(sorted(tags[w]))}" if w in tags else form)
    return " ".join(out)


def _words(document: SideDocument) -> tuple[list[str], np.ndarray]:
    """The document's words and, for every token, its word index
    (:data:`_NOT_A_WORD` for an empty node of a CoNLL-U document)."""
    if not isinstance(document, ConlluSideDocument):
        return list(document.words), np.arange(document.n_tokens, dtype=np.int64)
    word_at = np.full(document.n_tokens, _NOT_A_WORD, dtype=np.int64)
    positions = np.searchsorted(document.order, document.document.word_keys())
    word_at[positions] = np.arange(len(positions))
    return list(document.document.words), word_at


def _head_part(nodes: Sequence[int], head: int, word_at: np.ndarray) -> tuple[int, int]:
    """First and last token of the part of a mention holding its head: the
    run of consecutive words (empty nodes aside) holding it, the whole
    mention when it is one run."""
    runs: list[list[int]] = [[nodes[0]]]
    for previous, node in zip(nodes, nodes[1:]):
        a, b = word_at[previous], word_at[node]
        if a >= 0 and b >= 0 and b != a + 1:
            runs.append([node])
        else:
            runs[-1].append(node)
    if len(runs) == 1:
        return nodes[0], nodes[-1]
    run = next((run for run in runs if head in run), runs[0])
    return run[0], run[-1]


def write_side(path: Path, documents: Sequence[SideDocument], inputs: Sequence[Path]) -> list[str]:
    """The documents as tagged text, one a line (the format's writer); the
    documents' names are not written (they pair by order)."""
    with open_output(path, "w", inputs, make_parents=True) as out:
        for document in documents:
            out.write(tagged_line(document) + "\n")
    return []
