"""A document of a system's output: its words (for character outputs,
the text cut at white space and at every mention boundary) and its
mentions as spans of its text's characters or of its words, put on any
key's words through the text (docs/formats.md, Alignment onto the key)."""
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple

import numpy as np

from ...clusters import Clusters
from ..document import Paired, SideDocument

_NO_SPANS = np.zeros((0, 2), dtype=np.int64)


@dataclass
class SystemDocument(SideDocument):
    """``spans`` (end exclusive) are characters of ``text`` for character
    outputs, else words; ``labels`` their cluster indices; ``dropped`` the
    mentions the system gave without offsets. ``clusters`` are on
    ``words``, for a system output read as the key."""

    name: Optional[str]
    words: List[str]
    clusters: Clusters
    spans: np.ndarray
    labels: np.ndarray
    text: Optional[str] = None
    sentence_starts: Sequence[int] = ()
    dropped: int = 0
    where: str = field(default="", repr=False)

    @property
    def n_tokens(self) -> int:
        return len(self.words)

    def placed_on(self, key: SideDocument) -> Paired:
        """The mentions on ``key``'s words: directly when a word output has
        the key's words, else through the non-space characters of both
        (:func:`~..alignment.align_text`, :func:`~..alignment.place_units`),
        with what that changed (:class:`~..document.AlignmentReport`)."""
        from ..alignment import KeyText, align_text, fold, place_units, placed_report

        if self.text is None and key.same_words(self):
            return Paired(key, self.clusters)
        key_text = KeyText.of(key.words)
        starts, ends = self.spans[:, 0], self.spans[:, 1]
        if self.text is not None:
            folded = fold(self.text)
            unit_starts, unit_ends = folded.before[starts], folded.before[ends]
        else:
            mine = KeyText.of(self.words)
            folded = mine.folded
            unit_starts, unit_ends = mine.starts[starts], mine.ends[ends - 1]
        name = key.name if key.name is not None else self.name
        report = align_text(str(name), key_text, folded)
        placed = place_units(key_text, unit_starts, unit_ends)
        kept = placed.kept
        clusters = Clusters.from_arrays(placed.starts[kept], placed.ends[kept], self.labels[kept])
        return Paired(key, clusters, 0, placed_report(report, placed, self.dropped))


def from_words(name: Optional[str], words: List[str], spans: np.ndarray, labels: np.ndarray,
               sentence_starts: Sequence[int] = (), dropped: int = 0, where: str = "") -> SystemDocument:
    """A word output: ``spans`` are words, end exclusive."""
    clusters = Clusters.from_arrays(spans[:, 0], spans[:, 1], labels)
    return SystemDocument(name, words, clusters, spans, labels, None, sentence_starts, dropped, where)


def from_text(name: Optional[str], text: str, spans: np.ndarray, labels: np.ndarray, dropped: int = 0,
              where: str = "") -> SystemDocument:
    """A character output: ``spans`` are characters of ``text``, end
    exclusive; its words are the text cut at white space and at every
    mention boundary, so that each mention is whole words (one that covers
    only white space has none and is left out of ``clusters``)."""
    word_starts, word_ends = cut_words(text, spans)
    words = [text[a:b] for a, b in zip(word_starts.tolist(), word_ends.tolist())]
    first = np.searchsorted(word_starts, spans[:, 0], side="left")
    after = np.searchsorted(word_starts, spans[:, 1], side="left")
    solid = after > first
    clusters = Clusters.from_arrays(first[solid], after[solid], labels[solid])
    return SystemDocument(name, words, clusters, spans, labels, text, (), dropped, where)


def cut_words(text: str, spans: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """The words of ``text``: runs of visible characters, also cut at every
    start and end of ``spans``; their first characters and ends."""
    from ..alignment import visible_characters

    visible = visible_characters(text)
    n = len(visible)
    cuts = np.zeros(n + 1, dtype=bool)
    cuts[spans.ravel()] = True
    before = np.concatenate(([False], visible))
    after = np.concatenate((visible, [False]))
    starts = np.flatnonzero(after & (~before | cuts))
    ends = np.flatnonzero(before & (~after | cuts))
    return starts, ends
