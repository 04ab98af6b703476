"""Characters as alignment compares them (docs/formats.md, Alignment onto
the key): white space and zero-width characters have no unit, quotes fold
to ``'`` and ``''``, Penn Treebank bracket escapes to their brackets."""

import re
from dataclasses import dataclass

import numpy as np

from ...arrays import NO_INTEGERS

WHITE_SPACE = np.array([ord(c) for c in map(chr, range(0x3000 + 1)) if c.isspace()], dtype=np.uint32)
"""The code points below U+3001 that ``str.isspace`` calls white space."""
_ZERO_WIDTH = (0x0, 0x200B, 0xFEFF)
_SINGLE_QUOTES = "'‘’‚‛`"
_DOUBLE_QUOTES = '"“”„‟'
_APOSTROPHE = ord("'")
TABLE = 0x10000
_WIDTH = np.ones(TABLE, dtype=np.int64)
"""Units per character: 0 for white space and zero width, 2 for a double
quote (folded to ``''``), else 1 (characters past the table too)."""
_WIDTH[WHITE_SPACE] = 0
_WIDTH[list(_ZERO_WIDTH)] = 0
_WIDTH[[ord(c) for c in _DOUBLE_QUOTES]] = 2
_QUOTE = np.zeros(TABLE, dtype=bool)
_QUOTE[[ord(c) for c in _SINGLE_QUOTES + _DOUBLE_QUOTES]] = True
_ESCAPES = re.compile(r"-[LR][RSC]B-")
_ESCAPED = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}"}


@dataclass(frozen=True)
class Folded:
    """A text reduced to what alignment compares: ``units`` are its
    characters without white space, quotes folded (every single quote to
    ``'``, every double quote to ``''``) and Penn Treebank bracket escapes
    (``-LRB-``) to their brackets; ``codes`` are the text's characters,
    ``before[i]`` the number of units before character ``i`` (``len(text)
    + 1`` entries), and ``special`` the units that come from a quote or an
    escape, the only ones whose character may differ from the unit."""

    units: np.ndarray
    codes: np.ndarray
    before: np.ndarray
    special: np.ndarray
    text: str

    def __len__(self) -> int:
        return len(self.units)

    def character(self, unit: int) -> int:
        """The text's character holding ``unit`` (its length at the end)."""
        return int(np.searchsorted(self.before, unit, side="right")) - 1


def _codes(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)


def visible_characters(text: str) -> np.ndarray:
    """Mask of the characters of ``text`` that alignment compares (neither
    white space nor zero width), as :func:`fold` counts them."""
    return _WIDTH[np.minimum(_codes(text), TABLE - 1)] > 0


def fold(text: str) -> Folded:
    """The :class:`Folded` form of ``text`` (linear in its length)."""
    codes = _codes(text)
    looked_up = np.minimum(codes, TABLE - 1)
    width = _WIDTH.take(looked_up)
    quotes = np.flatnonzero(_QUOTE.take(looked_up))
    escapes = [(m.start(), m.end(), m.group()) for m in _ESCAPES.finditer(text)] if "B-" in text else []
    folded = codes.copy() if len(quotes) or escapes else codes
    if len(quotes):
        folded[quotes] = _APOSTROPHE
    if escapes:
        width = width.copy()
        for start, end, escape in escapes:
            folded[start] = ord(_ESCAPED[escape])
            width[start + 1 : end] = 0
    before = np.zeros(len(codes) + 1, dtype=np.int64)
    np.cumsum(width, out=before[1:])
    if not len(quotes) and not escapes:
        return Folded(folded.compress(width.astype(bool)), codes, before, NO_INTEGERS, text=text)
    doubles = quotes[width[quotes] == 2]
    special = np.concatenate([before[quotes], before[doubles] + 1, before[[start for start, _, _ in escapes]]])
    return Folded(np.repeat(folded, width), codes, before, np.unique(special), text=text)


def replaced_characters(key: Folded, text: Folded) -> np.ndarray:
    """The characters of ``text`` that differ from ``key``'s at the same
    units (two folded texts with the same units)."""
    units = np.union1d(key.special, text.special)
    key_at = np.searchsorted(key.before, units, side="right") - 1
    text_at = np.searchsorted(text.before, units, side="right") - 1
    replaced = text_at[key.codes.take(key_at) != text.codes.take(text_at)]
    if len(replaced) < 2:
        return replaced
    return replaced[np.concatenate(([True], replaced[1:] != replaced[:-1]))]


VISIBLE = _WIDTH > 0
_QUOTE_KIND = np.zeros(TABLE, dtype=np.int8)
"""1 for a single quote, 2 for a double quote (its units folded alike)."""
_QUOTE_KIND[[ord(c) for c in _SINGLE_QUOTES]] = 1
_QUOTE_KIND[[ord(c) for c in _DOUBLE_QUOTES]] = 2


def quote_kinds(codes: np.ndarray) -> np.ndarray:
    """The kind of quote of every character (:data:`_QUOTE_KIND`)."""
    return _QUOTE_KIND.take(np.minimum(codes.astype(np.int64), TABLE - 1))


def visible_codes(text: str) -> tuple[np.ndarray, np.ndarray]:
    """The codes of ``text`` and the mask of those that have a unit (as
    bytes where ``text`` is ASCII, UTF-16 code units where each character
    is one)."""
    if text.isascii():
        codes = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
        others = np.flatnonzero(codes < 0x20)
    else:
        codes = np.frombuffer(text.encode("utf-16-le"), dtype=np.uint16)
        if len(codes) != len(text):
            codes = _codes(text)
        others = np.flatnonzero((codes < 0x20) | (codes > 0x7E))
    visible = codes > 0x20
    if len(others):
        visible[others] = VISIBLE.take(np.minimum(codes.take(others).astype(np.int64), TABLE - 1))
    return codes, visible


def visible_before(hidden: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The visible characters before each character ``at``, given the
    places of the ``hidden`` ones (no unit), in increasing order."""
    return at - np.searchsorted(hidden, at)
