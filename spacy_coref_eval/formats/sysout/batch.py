"""Character outputs put on their key's words all documents at once
(docs/formats.md, Alignment onto the key): what
:func:`~..alignment.same_characters` does for one document, done for the
texts of a whole file joined, so that a corpus of many documents costs a
few passes over its characters rather than as many passes as it has
documents. Each document keeps what it would get alone; a document the
joined pass cannot place (another text, bracket escapes) is left to
:meth:`~.document.SystemDocument.placed_on`."""

from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING, Optional, cast

import numpy as np

from ...model.clusters import Clusters
from ..alignment import VisibleWords, character_excerpt, place_units, quote_kinds, shown_words, visible_before, visible_codes, visible_words
from ..document import AlignmentReport, Paired, Side, SideDocument
from ..jsonlines.read import JsonlinesDocument

if TYPE_CHECKING:
    from .document import SystemDocument

Pairs = list[tuple["SystemDocument", SideDocument]]


class CharacterBatch:
    """The character outputs of one file and the key side they are read
    against: on the first :meth:`paired`, every one is placed on the key
    document it will likely be paired with (of the same name where both
    sides name their documents, else in the same place), all at once."""

    def __init__(self, documents: Sequence["SystemDocument"], key: Side) -> None:
        self.documents, self.key = documents, key
        self._paired: Optional[dict[int, tuple[SideDocument, Paired]]] = None

    def paired(self, document: "SystemDocument", key: SideDocument) -> Optional[Paired]:
        """``document`` on ``key``'s words as :meth:`~.document.SystemDocument.placed_on`
        gives it, where the batch placed it on that very key document;
        else ``None``."""
        if self._paired is None:
            self._paired = place_all(self._guessed())
        found = self._paired.get(id(document))
        return found[1] if found is not None and found[0] is key else None

    def _guessed(self) -> Pairs:
        keys = self.key.documents
        if self.key.named and all(d.name is not None for d in self.documents):
            by_name = {k.name: k for k in keys}
            return [(d, by_name[d.name]) for d in self.documents if d.text is not None and d.name in by_name]
        return [(d, k) for d, k in zip(self.documents, keys) if d.text is not None]


def place_all(pairs: Pairs, retry: bool = True) -> dict[int, tuple[SideDocument, Paired]]:
    """Every response document of ``pairs`` (by ``id``) that the joined pass
    places, with its key document and the pair. Documents whose texts
    count other numbers of visible characters than their keys, or whose
    jsonlines keys may hold bracket escapes, are left out, and the rest
    placed again (once, ``retry``)."""
    pairs = [(d, k) for d, k in pairs if "B-" not in cast(str, d.text)]  # Pairs hold character outputs
    if len(pairs) < 2:
        return {}
    key, word_offsets = key_words([k for _, k in pairs])
    if key is None:
        plain = [(d, k) for d, k in pairs if not _escaped(k)]
        return place_all(plain, retry=False) if retry and len(plain) < len(pairs) else {}
    texts = [cast(str, d.text) for d, _ in pairs]
    char_offsets = _offsets(map(len, texts), len(texts))
    codes, visible = visible_codes("".join(texts))
    hidden = np.flatnonzero(~visible)
    units = visible_before(hidden, char_offsets)
    key_units = np.append(key.starts, len(key.chars)).take(word_offsets)
    if not np.array_equal(units, key_units):
        if not retry:
            return {}
        same = np.flatnonzero(np.diff(units) == np.diff(key_units)).tolist()
        return place_all([pairs[i] for i in same], retry=False)
    chars = codes.compress(visible) if len(hidden) else codes
    differ = np.flatnonzero(key.chars != chars)
    n_docs = len(pairs)
    differ_doc = np.searchsorted(units, differ, side="right") - 1
    kinds = quote_kinds(chars.take(differ))
    wrong = (kinds == 0) | (kinds != quote_kinds(key.chars.take(differ)))
    refused = set(differ_doc[wrong].tolist())

    counts = np.fromiter((len(d.labels) for d, _ in pairs), dtype=np.int64, count=n_docs)
    doc = np.repeat(np.arange(n_docs), counts)
    spans = np.concatenate([d.spans for d, _ in pairs]).reshape(-1, 2) + char_offsets[doc, None]
    placed = place_units(key, visible_before(hidden, spans[:, 0]), visible_before(hidden, spans[:, 1]))
    kept = placed.kept
    starts, ends = placed.starts - word_offsets[doc], placed.ends - word_offsets[doc]
    labels = np.concatenate([d.labels for d, _ in pairs])
    clusters = Clusters.per_document(doc[kept], starts[kept], ends[kept], labels=labels[kept], n_docs=n_docs)
    snapped = np.bincount(doc, weights=placed.snapped, minlength=n_docs).astype(np.int64).tolist()
    lost = np.bincount(doc, weights=~kept, minlength=n_docs).astype(np.int64).tolist()
    replaced = np.bincount(differ_doc, minlength=n_docs).tolist()
    first = np.searchsorted(differ_doc, np.arange(n_docs)).tolist()

    out: dict[int, tuple[SideDocument, Paired]] = {}
    visible_at: Optional[np.ndarray] = None
    for d, (document, key_document) in enumerate(pairs):
        if d in refused:
            continue
        drift = ""
        if replaced[d]:
            visible_at = np.flatnonzero(visible) if visible_at is None else visible_at
            at = int(differ[first[d]])
            character = int(visible_at[at]) - int(char_offsets[d])
            word = int(np.searchsorted(key.ends, at, side="right"))
            shown = key.source(word, min(word + 3, int(word_offsets[d + 1])))
            drift = (
                f"{character_excerpt(cast(str, document.text), character, 12)} against {shown_words(word - int(word_offsets[d]), shown)}"
            )
        report = AlignmentReport(
            "characters",
            replaced=replaced[d],
            snapped=snapped[d],
            dropped=document.dropped + lost[d],
            unplaced=document.unplaced,
            drift=drift,
        )
        out[id(document)] = (key_document, Paired(key_document, clusters[d], 0, report))
    return out


def key_words(keys: Sequence[SideDocument]) -> tuple[Optional[VisibleWords], np.ndarray]:
    """The words of all ``keys`` as one :class:`~..alignment.VisibleWords`,
    and the first word of every key (and their number, last)."""
    words = [k.words for k in keys]
    offsets = _offsets(map(len, words), len(keys))
    return visible_words(list(chain.from_iterable(words))), offsets


def _escaped(key: SideDocument) -> bool:
    """Whether a jsonlines key's ``sentences`` may hold a bracket escape
    (OntoNotes' ``-LRB-``)."""
    return isinstance(key, JsonlinesDocument) and any("B-" in piece for piece in key.pieces)


def _offsets(lengths, n: int) -> np.ndarray:
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.fromiter(lengths, dtype=np.int64, count=n), out=offsets[1:])
    return offsets
