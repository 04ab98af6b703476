"""Mentions given in characters of a response text placed on the key's
words by the one rule (docs/formats.md, Alignment onto the key): through
the visible characters where the texts agree but for quotes, else by
folding both."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional, cast

import numpy as np

from ..document import AlignmentReport, WordMismatch
from .characters import Folded, fold, quote_kinds, replaced_characters, visible_before, visible_codes
from .excerpts import character_excerpt, shown_words, text_excerpt
from .words import KeyText, VisibleWords, WordBounds, visible_words


@dataclass(frozen=True)
class Placed:
    """Mentions put on the key's words: new ``starts`` and ``ends`` (words,
    end exclusive), ``kept`` (False: dropped) and ``snapped`` masks."""

    starts: np.ndarray
    ends: np.ndarray
    kept: np.ndarray
    snapped: np.ndarray


def place_units(key: "WordBounds", starts: np.ndarray, ends: np.ndarray) -> Placed:
    """Mentions given as units ``[starts, ends)`` of the key's folded text
    placed on the key's words by the one rule (docs/formats.md): a mention
    becomes the words it touches, from the word holding its first unit to
    the word holding its last (``snapped`` where that moves an end); a
    mention of no unit is dropped."""
    kept = ends > starts
    solid_words = key.ends > key.starts
    every = bool(solid_words.all())
    solid = None if every else np.flatnonzero(solid_words)
    n = len(solid_words) if every else len(cast(np.ndarray, solid))
    if not n:
        zeros = np.zeros(len(starts), dtype=np.int64)
        return Placed(zeros, zeros, np.zeros(len(starts), dtype=bool), np.zeros(len(starts), dtype=bool))
    solid_ends = key.ends if solid is None else key.ends.take(solid)
    first = np.minimum(np.searchsorted(solid_ends, starts, side="right"), n - 1)
    last = np.minimum(np.searchsorted(solid_ends, ends - 1, side="right"), n - 1)
    if solid is not None:
        first, last = solid.take(first), solid.take(last)
    snapped = kept & ((key.starts.take(first) != starts) | (key.ends.take(last) != ends))
    return Placed(first, last + 1, kept, snapped)


def same_characters(key: VisibleWords, text: str, *, starts: np.ndarray, ends: np.ndarray) -> Optional[tuple[Placed, AlignmentReport]]:
    """:func:`place_characters` when the visible characters of ``text`` are
    those of the key's words (``key``), but for quotes of one kind (a double
    quote for a double quote), and neither holds a bracket escape: then
    every visible character is as many units in both, so the visible
    characters stand for the units, and need no folding. ``None`` for any
    other text, which needs :func:`fold`."""
    if "B-" in text:
        return None
    codes, visible = visible_codes(text)
    hidden = np.flatnonzero(~visible)
    chars = codes.compress(visible) if len(hidden) else codes
    key_chars = key.chars
    if len(key_chars) != len(chars):
        return None
    differ = np.flatnonzero(key_chars != chars)
    if len(differ):
        kinds = quote_kinds(chars.take(differ))
        if not (kinds.all() and np.array_equal(kinds, quote_kinds(key_chars.take(differ)))):
            return None
    placed = place_units(key, visible_before(hidden, starts), visible_before(hidden, ends))
    if not len(differ):
        return placed, AlignmentReport("characters")
    at = int(differ[0])
    character = int(np.flatnonzero(visible)[at])
    word = int(np.searchsorted(key.ends, at, side="right"))
    drift = f"{character_excerpt(text, character, 12)} against {shown_words(word, key.source(word, word + 3))}"
    return placed, AlignmentReport("characters", replaced=len(differ), drift=drift)


def place_characters(words: Sequence[str], text: str, *, starts: np.ndarray, ends: np.ndarray) -> tuple[Placed, AlignmentReport]:
    """Mentions given as characters ``[starts, ends)`` of a response
    ``text`` placed on the key's ``words`` (:func:`fold_characters`),
    through :func:`same_characters` where it applies."""
    key = visible_words(words)
    same = same_characters(key, text, starts=starts, ends=ends) if key is not None else None
    return same if same is not None else fold_characters(words, text, starts=starts, ends=ends)


def fold_characters(words: Sequence[str], text: str, *, starts: np.ndarray, ends: np.ndarray) -> tuple[Placed, AlignmentReport]:
    """Mentions given as characters ``[starts, ends)`` of a response
    ``text`` placed on the key's ``words`` by folding both
    (:func:`align_text`, :func:`place_units`)."""
    key = KeyText.of(words)
    folded = fold(text)
    report = align_text(key, folded)
    return place_units(key, folded.before[starts], folded.before[ends]), report


def align_text(key: KeyText, text: Folded) -> AlignmentReport:
    """Check that a response text has the key's units (else
    :class:`~.document.WordMismatch` saying where they part) and
    count the characters that agree only by folding (``replaced``)."""
    if not np.array_equal(key.folded.units, text.units):
        n = min(len(key.folded), len(text))
        differ = np.flatnonzero(key.folded.units[:n] != text.units[:n])
        at = int(differ[0]) if len(differ) else n
        raise WordMismatch(
            "a response text that differs from the key's words beyond white space, quotes and bracket escapes: "
            f"from {text_excerpt(text, at)} against {key.excerpt(at)}"
        )
    characters = replaced_characters(key.folded, text)
    if not len(characters):
        return AlignmentReport("characters")
    at = int(text.before[characters[0]])
    drift = f"{text_excerpt(text, at, 12)} against {key.excerpt(at, 3)}"
    return AlignmentReport("characters", replaced=len(characters), drift=drift)
