"""A document of an annotation tool's export: its text and its mentions as
character fragments (one for a span, several for a discontinuous one),
each in an entity. Read as a key it is tokenised on its own (the text cut
at white space and at every fragment boundary); read as a response it is
put on the key's words through the text, with the alignment report
(docs/formats.md, Alignment onto the key)."""

from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import Optional

import numpy as np

from ...errors import CorefInputError
from ...model.clusters import Clusters, NodeSets
from ..alignment import KeyText, align_text, place_characters, place_units, placed_report
from ..base import Format
from ..document import Paired, Side, SideDocument, WordMismatch
from ..inputs import InputLimits, input_text
from ..sysout.document import SystemDocument
from .closure import Closure, closure_of, closure_warning

Fragments = Sequence[Sequence[tuple[int, int]]]


class AnnotatedDocument(SystemDocument):
    """``fragments[m]``: the character spans ``(start, end)`` of mention
    ``m`` of ``text``; ``labels[m]`` its entity; ``closure`` what closing
    the links did (:class:`~.closure.Closure`)."""

    def __init__(
        self, name: Optional[str], text: str, fragments: Fragments, *, labels: np.ndarray, closure: Optional[Closure] = None
    ) -> None:
        sizes = [len(parts) for parts in fragments]
        spans = np.array([span for parts in fragments for span in parts], dtype=np.int64).reshape(-1, 2)
        self.owner = np.repeat(np.arange(len(fragments), dtype=np.int64), sizes)
        self.mention_labels = np.asarray(labels, dtype=np.int64)
        super().__init__(name, spans, self.mention_labels[self.owner], text=text)
        del self.sentence_starts  # built from the text's lines when asked for
        self.closure = closure

    @cached_property
    def sentence_starts(self) -> list[int]:  # type: ignore[override]
        """The first word of every line of the text (brat and LitBank write
        a sentence a line), as sentences for the analyses."""
        starts = self.bounds[0]
        breaks = np.flatnonzero(np.frombuffer((self.text or "").encode("utf-32-le"), dtype=np.uint32) == ord("\n"))
        if not len(starts) or not len(breaks):
            return [0] if len(starts) else []
        line = np.searchsorted(breaks, starts)
        return np.flatnonzero(np.concatenate(([True], line[1:] != line[:-1]))).tolist()

    @cached_property
    def clusters(self) -> Clusters:  # type: ignore[override]
        """The mentions on the document's own words."""
        starts, ends = self.spans[:, 0], self.spans[:, 1]
        word_starts = self.bounds[0]
        first = np.searchsorted(word_starts, starts, side="left")
        after = np.searchsorted(word_starts, ends, side="left")
        return self._grouped(first, after, after > first)

    def paired_with(self, response: SideDocument) -> Paired:
        """As the key: a response on other words (a system's CoNLL file
        tokenised otherwise) is put on this document's words through the
        text, as word outputs are (:func:`~..alignment.align_text`), its
        mentions as their hulls."""
        try:
            return super().paired_with(response)
        except WordMismatch:
            mine, theirs = KeyText.of(self.words), KeyText.of(response.words)
            report = align_text(mine, theirs.folded)
            clusters = response.clusters
            placed = place_units(mine, theirs.starts[clusters.starts], theirs.ends[clusters.ends - 1])
            kept = placed.kept
            on_mine = Clusters.from_arrays(placed.starts[kept], placed.ends[kept], clusters.entity[kept])
            return Paired(self, on_mine, 0, placed_report(report, placed))

    def placed_on(self, key: SideDocument) -> Paired:
        """The mentions on ``key``'s words through the text, every fragment
        placed by the one rule (:func:`~..alignment.place_characters`)."""
        placed, report = place_characters(key.words, self.text or "", starts=self.spans[:, 0], ends=self.spans[:, 1])
        return Paired(key, self._grouped(placed.starts, placed.ends, placed.kept), 0, placed_report(report, placed))

    def _grouped(self, starts: np.ndarray, ends: np.ndarray, kept: np.ndarray) -> Clusters:
        """Fragments on words grouped back into mentions (a mention whose
        fragments were all dropped is dropped); discontinuous mentions as
        token sets."""
        owner = self.owner[kept]
        starts, ends = starts[kept], ends[kept]
        if len(owner) == len(np.unique(owner)):
            return Clusters.from_arrays(starts, ends, self.mention_labels[owner])
        mentions: list[np.ndarray] = []
        ids = np.unique(owner)
        for m in ids.tolist():
            mine = owner == m
            tokens = np.unique(np.concatenate([np.arange(s, e) for s, e in zip(starts[mine].tolist(), ends[mine].tolist())]))
            mentions.append(tokens)
        if all(len(t) == t[-1] - t[0] + 1 for t in mentions):
            return Clusters.from_arrays(
                np.array([t[0] for t in mentions]), np.array([t[-1] + 1 for t in mentions]), self.mention_labels[ids]
            )
        indptr = np.concatenate([[0], np.cumsum([len(t) for t in mentions])]).astype(np.int64)
        nodes = NodeSets(indptr, np.concatenate(mentions).astype(np.int64), np.zeros(len(mentions), dtype=bool))
        return Clusters.from_arrays(
            np.array([t[0] for t in mentions]), np.array([t[-1] + 1 for t in mentions]), self.mention_labels[ids], nodes=nodes
        )


def annotated_side(path: Path, fmt: Format, documents: list[AnnotatedDocument], *, warnings: Sequence[str] = ()) -> Side:
    """The documents of one file or folder, with the closure's warning line."""
    closure = closure_of(documents)
    notes = list(warnings) + (closure_warning(path, closure) if closure is not None else [])
    return Side(path, fmt, list(documents), notes)


def read_text(path: Path, limits: Optional[InputLimits] = None) -> str:
    """The ``.txt`` beside an ``.ann`` file, its line ends as written
    (brat counts every character), read within ``limits``."""
    text = path.with_suffix(".txt")
    if not text.exists():
        raise CorefInputError(f"{path}: no {text.name} beside it; brat offsets point into the text file")
    return input_text(text, limits)
