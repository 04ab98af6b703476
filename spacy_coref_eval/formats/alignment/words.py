"""The key's words as alignment reads them: their bounds in units, as one
folded text (:class:`KeyText`) or as their visible characters
(:class:`VisibleWords`)."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

from .characters import Folded, fold, visible_before, visible_codes
from .excerpts import word_excerpt


@dataclass(frozen=True)
class WordBounds:
    """Every key word's first unit and end (``[starts, ends)``)."""

    starts: np.ndarray
    ends: np.ndarray


@dataclass(frozen=True)
class KeyText(WordBounds):
    """The key's words as one :class:`Folded` text (the words joined by a
    character of no unit) and every word's units ``[starts, ends)``."""

    words: Sequence[str]
    folded: Folded

    @classmethod
    def of(cls, words: Sequence[str]) -> "KeyText":
        """The words joined by NUL, a character of no unit, whose places
        give the words' bounds (the words' lengths where a word holds one)."""
        try:
            folded = fold("\0".join(words))
        except TypeError:
            words = [str(word) for word in words]
            folded = fold("\0".join(words))
        cuts = np.flatnonzero(folded.codes == 0)
        if len(cuts) == len(words) - 1:
            units = np.concatenate(([0], folded.before[cuts], [len(folded)]))
        else:
            bounds = np.zeros(len(words) + 1, dtype=np.int64)
            np.cumsum(np.fromiter(map(len, words), dtype=np.int64, count=len(words)) + 1, out=bounds[1:])
            bounds[1:] -= 1
            units = folded.before[np.maximum(bounds, 0)]
        return cls(units[:-1], units[1:], words, folded)

    def word_at(self, unit: int) -> int:
        """The word holding ``unit``."""
        return int(np.searchsorted(self.ends, unit, side="right"))

    def excerpt(self, unit: int, width: int = 6) -> str:
        """``word N 'w w w'`` from the word holding ``unit``."""
        if unit >= len(self.folded):
            return "the end of the key's words"
        return word_excerpt(self.words, self.word_at(unit), width)


@dataclass(frozen=True)
class VisibleWords(WordBounds):
    """The key's words as their visible characters (``chars``, as codes),
    every word's first visible character and end (``[starts, ends)``), and
    ``source``, which gives words ``[start, stop)`` themselves (asked only
    to say where a response text drifts)."""

    chars: np.ndarray
    source: Callable[[int, int], Sequence[str]]


def visible_words(words: Sequence[str]) -> Optional[VisibleWords]:
    """:class:`VisibleWords` of ``words``; ``None`` where a word is not a
    string or holds ``B-`` (perhaps a bracket escape, which needs
    :func:`fold`)."""
    try:
        joined = "".join(words)
    except TypeError:
        return None
    if "B-" in joined:
        return None
    codes, visible = visible_codes(joined)
    ends = np.cumsum(np.fromiter(map(len, words), dtype=np.int64, count=len(words)))
    starts = np.concatenate(([0], ends[:-1])) if len(ends) else ends
    hidden = np.flatnonzero(~visible)
    if len(hidden):
        codes, starts, ends = codes.compress(visible), visible_before(hidden, starts), visible_before(hidden, ends)
    return VisibleWords(starts, ends, codes, lambda start, stop: words[start:stop])
