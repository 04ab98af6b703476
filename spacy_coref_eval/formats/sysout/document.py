"""A document of a system's output: its words (for character outputs,
the text cut at white space and at every mention boundary) and its
mentions as spans of its text's characters or of its words, put on any
key's words through the text (docs/formats.md, Alignment onto the key)."""

from collections.abc import Sequence
from dataclasses import replace
from functools import cached_property
from typing import Optional, cast

import numpy as np

from ...arrays import NO_INTEGERS, NO_SPANS
from ...model.clusters import Clusters
from ..alignment import KeyText, align_text, fold_characters, place_units, placed_report, same_characters, visible_characters, visible_words
from ..document import AlignmentReport, Paired, SideDocument


class SystemDocument(SideDocument):
    """``spans`` (end exclusive) are characters of ``text`` for character
    outputs, else words; ``labels`` their cluster indices; ``dropped`` the
    mentions the system gave without offsets; ``heads`` every mention's
    head word, where the output gives them (wl-coref's ``word_clusters``).
    ``words`` and ``clusters``
    (on them), which only a system output read as the key needs, are
    built when asked for."""

    name: Optional[str]
    sentence_starts: Sequence[int]
    heads_only = False
    """Every mention is its head word alone (``word_clusters`` without spans)."""
    unplaced = 0
    """Mention strings found nowhere in the text (:mod:`.strings`)."""

    def __init__(
        self,
        name: Optional[str],
        spans: np.ndarray,
        labels: np.ndarray,
        *,
        text: Optional[str] = None,
        words: Optional[list[str]] = None,
        sentence_starts: Sequence[int] = (),
        dropped: int = 0,
        heads: Optional[np.ndarray] = None,
    ) -> None:
        self.name, self.spans, self.labels, self.text = name, spans, labels, text
        self.sentence_starts, self.dropped, self.heads = sentence_starts, dropped, heads
        if words is not None:
            self.words = words

    @cached_property
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """The first character and end of every word of a character output
        (:func:`cut_words`)."""
        return cut_words(cast(str, self.text), self.spans)  # character outputs have a text

    @cached_property
    def words(self) -> list[str]:  # type: ignore[override]
        """A character output's text cut at white space and at every
        mention boundary, so that each mention is whole words."""
        starts, ends = self.bounds
        text = cast(str, self.text)
        return [text[a:b] for a, b in zip(starts.tolist(), ends.tolist())]

    @cached_property
    def clusters(self) -> Clusters:  # type: ignore[override]
        """The mentions on :attr:`words` (for a character output, one that
        covers only white space has none and is left out)."""
        starts, ends = self.spans[:, 0], self.spans[:, 1]
        if self.text is None:
            return Clusters.from_arrays(starts, ends, self.labels, heads=self.heads)
        word_starts = self.bounds[0]
        first = np.searchsorted(word_starts, starts, side="left")
        after = np.searchsorted(word_starts, ends, side="left")
        solid = after > first
        return Clusters.from_arrays(first[solid], after[solid], self.labels[solid])

    @property
    def n_tokens(self) -> int:
        return len(self.words) if self.text is None else len(self.bounds[0])

    def placed_on(self, key: SideDocument) -> Paired:
        """The mentions on ``key``'s words: directly when a word output has
        the key's words, else through the non-space characters of both
        (:func:`~..alignment.align_text`, :func:`~..alignment.place_units`),
        with what that changed (:class:`~..document.AlignmentReport`)."""
        if self.text is None and key.same_words(self):
            return Paired(key, self.clusters, 0, AlignmentReport("words", dropped=self.dropped) if self.dropped else None)
        starts, ends = self.spans[:, 0], self.spans[:, 1]
        if self.text is not None:
            visible = visible_words(list(key.words))
            same = same_characters(visible, self.text, starts=starts, ends=ends) if visible is not None else None
            placed, report = same if same is not None else fold_characters(key.words, self.text, starts=starts, ends=ends)
        else:
            key_text, mine = KeyText.of(key.words), KeyText.of(self.words)
            report = align_text(key_text, mine.folded)
            placed = place_units(key_text, mine.starts[starts], mine.ends[ends - 1])
        kept = placed.kept
        heads = None
        if self.heads is not None:
            words = place_units(key_text, mine.starts[self.heads], mine.ends[self.heads])
            heads = np.where(words.kept, words.starts, -1)[kept]
        clusters = Clusters.from_arrays(placed.starts[kept], placed.ends[kept], self.labels[kept], heads=heads)
        report = placed_report(report, placed, self.dropped)
        return Paired(key, clusters, 0, replace(report, unplaced=self.unplaced) if self.unplaced else report)


def cluster_words(documents: Sequence[SystemDocument]) -> None:
    """The :attr:`~SystemDocument.clusters` of word outputs without heads
    built all at once (:meth:`~...clusters.Clusters.per_document`), as
    each would build its own."""
    spans = np.concatenate([NO_SPANS] + [d.spans for d in documents])
    labels = np.concatenate([NO_INTEGERS] + [d.labels for d in documents])
    doc = np.repeat(np.arange(len(documents)), [len(d.labels) for d in documents])
    for document, clusters in zip(documents, Clusters.per_document(doc, spans[:, 0], spans[:, 1], labels=labels, n_docs=len(documents))):
        document.clusters = clusters


def from_words(
    name: Optional[str],
    words: list[str],
    spans: np.ndarray,
    *,
    labels: np.ndarray,
    sentence_starts: Sequence[int] = (),
    dropped: int = 0,
    heads: Optional[np.ndarray] = None,
) -> SystemDocument:
    """A word output: ``spans`` are words, end exclusive; ``heads`` their
    head words where given."""
    return SystemDocument(name, spans, labels, text=None, words=words, sentence_starts=sentence_starts, dropped=dropped, heads=heads)


def from_text(name: Optional[str], text: str, spans: np.ndarray, *, labels: np.ndarray, dropped: int = 0) -> SystemDocument:
    """A character output: ``spans`` are characters of ``text``, end exclusive."""
    return SystemDocument(name, spans, labels, text=text, words=None, sentence_starts=(), dropped=dropped)


def cut_words(text: str, spans: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The words of ``text``: runs of visible characters, also cut at every
    start and end of ``spans``; their first characters and ends."""
    visible = visible_characters(text)
    n = len(visible)
    cuts = np.zeros(n + 1, dtype=bool)
    cuts[spans.ravel()] = True
    before = np.concatenate(([False], visible))
    after = np.concatenate((visible, [False]))
    starts = np.flatnonzero(after & (~before | cuts))
    ends = np.flatnonzero(before & (~after | cuts))
    return starts, ends
