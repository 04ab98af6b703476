"""Read CRAC 2025 LLM-track tagged text (docs/formats.md, text2text): one
document a line, no names (documents pair with the key's by order), each
put on its key document's words as text2text-coref's ``clean`` and
``text2conllu`` put it, with an :class:`~..document.AlignmentReport`."""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Optional, Union

import numpy as np

from ...errors import CorefInputError
from ...model.clusters import Clusters, NodeSets
from ..base import ReadOptions
from ..conllu.parse import ids_per_document
from ..conllu.side import ConlluSideDocument
from ..document import AlignmentReport, Paired, Side, SideDocument
from ..inputs import check_utf8, read_input
from . import FORMAT
from .align import align_words
from .heads import Trees
from .tags import TagCounts, count_openings, sentence_mentions, split_token

_HEADER = re.compile(rb"^# global\.Entity\s*=\s*(\S*)", re.MULTILINE)


@dataclass
class TextDocument(SideDocument):
    """One line of tagged text: its written ``tokens`` (``form|tags``).
    ``seen``, shared by the lines of one file, holds every entity id placed
    so far with the place of its first mention in udapi's mention order
    (line, first word, minus its number of words, last word), which orders
    entities as the official scorer reads text2conllu's file: across lines
    when the key's ids are ``eid``, within each line when they are ``GRP``
    (docs/corefud.md §8)."""

    tokens_written: list[str]
    line: int
    source: str
    name: Optional[str] = None
    seen: dict[str, tuple[int, int, int, int]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def words(self) -> list[str]:
        return [split_token(token)[0] for token in self.tokens_written]

    @property
    def n_tokens(self) -> int:
        return len(self.tokens_written)

    @property
    def sentence_starts(self) -> Sequence[int]:
        return [0]

    @property
    def clusters(self) -> Clusters:
        """The mentions on the document's own words, read as one sentence."""
        found = sentence_mentions(self.tokens_written, TagCounts())
        return _clusters(found, list(range(len(self.tokens_written) + 1)), [start for _, start, _ in found])

    def placed_on(self, key: SideDocument) -> Paired:
        """This document's mentions on ``key``'s words (see the module)."""
        return place(self, key)


def parse_side(data: Union[bytes, bytearray], path: Path, options: ReadOptions) -> Side:
    """The bytes of a text2text file as a :class:`Side`, ``path`` naming it
    (the format's reader): every line is a document, an empty line an
    empty one."""
    data = bytes(data)
    check_utf8(data, path)
    text = data.decode("utf8")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    documents = [TextDocument(line.split(), number, str(path)) for number, line in enumerate(lines, 1)]
    seen: dict[str, tuple[int, int, int, int]] = {}
    for document in documents:
        document.seen = seen
    return Side(path, FORMAT, list(documents), unparseable_warnings(path, documents))


def unparseable_warnings(path: Path, documents: Sequence[TextDocument]) -> list[str]:
    """One line counting the tags that cannot be parsed (dropped, as
    text2text-coref's ``clean`` drops them), naming the first."""
    counts = TagCounts()
    for document in documents:
        for token in document.tokens_written:
            if "|" in token:
                sentence_mentions([token], counts, f"{path}:{document.line}: ")
    dropped = counts.invalid + counts.pipes
    if not dropped:
        return []
    return [f"{counts.first}: {dropped} tag(s) cannot be parsed and are dropped, as text2text-coref's clean drops them"]


def place(response: TextDocument, key: SideDocument) -> Paired:
    """``response`` on ``key``'s words: aligned (:func:`~.align.align_words`),
    tags repaired per key sentence (:func:`~.tags.sentence_mentions`),
    heads from the key's trees where it gives heads."""
    conllu = key.document if isinstance(key, ConlluSideDocument) else None
    gold = [word.replace(" ", "_") for word in (conllu.words if conllu is not None else key.words)]
    if conllu is not None:
        sentences = conllu.sentence_starts.tolist()
        positions = np.searchsorted(key.order, conllu.word_keys()).tolist() + [key.n_tokens]
    else:
        sentences = sorted({int(s) for s in key.sentence_starts if 0 < int(s) < len(gold)} | {0}) + [len(gold)]
        positions = list(range(len(gold) + 1))
    written = response.tokens_written
    alignment = align_words([split_token(token)[0] for token in written], gold)
    counts = TagCounts()
    found: list[tuple[str, int, int]] = []
    zeros_at = [at for _, at in alignment.zeros]
    source = alignment.source.tolist()
    for s in range(len(sentences) - 1):
        a, b = sentences[s], sentences[s + 1]
        stream: list[tuple[Optional[str], int]] = []
        z = int(np.searchsorted(zeros_at, a))
        for w in range(a, b):
            while z < len(zeros_at) and zeros_at[z] == w:
                stream.append((written[alignment.zeros[z][0]], -1))
                z += 1
            stream.append((written[source[w]] if source[w] >= 0 else None, w))
        where = f"{response.source}:{response.line}: "
        for eid, first, last in sentence_mentions([token for token, _ in stream], counts, where):
            words = [w for _, w in stream[first : last + 1] if w >= 0]
            if words:
                found.append((eid, words[0], words[-1]))
    counts.openings = count_openings(written)
    made = len(found) - counts.stray
    heads = _heads(key, conllu, found)
    fields = _header(*_identity(conllu.source)) if conllu is not None else ()
    across = conllu is not None and not ids_per_document(["-".join(fields)])
    clusters = _clusters(found, positions, heads, seen=first_mentions(found, response.line, response.seen if across else {}))
    report = AlignmentReport(
        "words",
        inserted=alignment.inserted,
        deleted=alignment.deleted,
        replaced=alignment.replaced,
        dropped=max(counts.openings - made, 0),
        repaired=counts.repaired,
    )
    return Paired(key, clusters, alignment=report)


def _heads(key: SideDocument, conllu, found: Sequence[tuple[str, int, int]]) -> list[int]:
    """Every mention's head word: by the key's dependency trees when its
    file gives mentions heads (``global.Entity`` with a ``head`` field), else
    the first word, as text2text-coref's output is read back."""
    if conllu is None or not found or "head" not in _header(*_identity(conllu.source)):
        return [first for _, first, _ in found]
    trees = Trees(conllu)
    return [trees.head(first, last) for _, first, last in found]


def _identity(source: str) -> tuple[str, int, int]:
    try:
        status = Path(source).stat()
    except OSError:
        return source, 0, 0
    return source, status.st_mtime_ns, status.st_size


@lru_cache(maxsize=8)
def _header(source: str, mtime: int, size: int) -> tuple[str, ...]:
    """The fields of the CoNLL-U file ``source``'s first ``global.Entity``
    header (text2conllu copies it to its output)."""
    try:
        found = _HEADER.search(read_input(Path(source)))
    except CorefInputError:
        return ()
    return tuple(found.group(1).decode("utf8", "replace").split("-")) if found else ()


def first_mentions(
    found: Sequence[tuple[str, int, int]], line: int, seen: dict[str, tuple[int, int, int, int]]
) -> dict[str, tuple[int, int, int, int]]:
    """``seen`` (the lines placed before, kept by whoever placed them) with
    the mentions ``found`` on line ``line``: every entity id at its first
    mention. A line placed again finds its own ids at the same places."""
    for eid, first, last in found:
        place = (line, first, first - last - 1, last)
        if eid not in seen or place < seen[eid]:
            seen[eid] = place
    return seen


def _clusters(
    found: Sequence[tuple[str, int, int]],
    positions: Sequence[int],
    heads: Sequence[int],
    *,
    seen: Optional[dict[str, tuple[int, int, int, int]]] = None,
) -> Clusters:
    """Mentions ``(entity id, first word, last word)`` as clusters over the
    key's tokens (word ``w`` at ``positions[w]``), entities in udapi's order
    (by their first mention in the file, ``seen``, then id; docs/corefud.md
    §8), mentions by position."""
    if not found:
        return Clusters()
    seen = seen if seen is not None else first_mentions(found, 0, {})
    order = sorted(range(len(found)), key=lambda m: (found[m][1], -found[m][2], m))
    eids = sorted({eid for eid, _, _ in found}, key=lambda eid: (seen[eid], eid))
    first_seen = {eid: rank for rank, eid in enumerate(eids)}
    order.sort(key=lambda m: first_seen[found[m][0]])
    at = np.asarray(positions, dtype=np.int64)
    firsts = np.array([found[m][1] for m in order], dtype=np.int64)
    lasts = np.array([found[m][2] for m in order], dtype=np.int64)
    labels = np.array([first_seen[found[m][0]] for m in order], dtype=np.int64)
    head_array = at[np.array([heads[m] for m in order], dtype=np.int64)]
    starts, ends = at[firsts], at[lasts] + 1
    nodes = None
    sizes = lasts - firsts + 1
    if np.any(ends - starts != sizes):
        indptr = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        tokens = np.concatenate([at[first : last + 1] for first, last in zip(firsts.tolist(), lasts.tolist())])
        nodes = NodeSets(indptr, tokens, np.zeros(len(order), dtype=bool), None)
    return Clusters.from_arrays(starts, ends, labels, heads=head_array, nodes=nodes)
