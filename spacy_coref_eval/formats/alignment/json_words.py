"""The key's words read from the JSON text of jsonlines' ``sentences``
without decoding it (docs/formats.md, Alignment onto the key)."""

import json
from typing import Optional

import numpy as np

from .characters import TABLE, VISIBLE, visible_codes
from .words import VisibleWords

_JSON_QUOTE = ord('"')
_JSON_ESCAPES = np.zeros(TABLE, dtype=np.int64)
"""The character of each two-character JSON escape, by its letter."""
for _letter, _character in zip('"/bfnrt', '"/\b\f\n\r\t'):
    _JSON_ESCAPES[ord(_letter)] = ord(_character)
_HEX = np.zeros(TABLE, dtype=np.int64)
_HEX[[ord(c) for c in "0123456789abcdefABCDEF"]] = [*range(16), *range(10, 16)]
_HEX_PLACES = np.array([4096, 256, 16, 1])
_NOT_ESCAPED = np.zeros(TABLE, dtype=bool)
"""Characters an escape may not stand for here: those of ``B-`` (looked
for in the text) and surrogates (the halves of one character)."""
_NOT_ESCAPED[[ord("B"), ord("-")]] = True
_NOT_ESCAPED[0xD800:0xE000] = True


def _json_escapes(codes: np.ndarray) -> Optional[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The escapes of JSON text ``codes`` (no ``\\\\`` in it): the
    character each stands for, the places of their backslashes and those of
    the rest of their characters; ``None`` where an escape stands for a
    character of :data:`_NOT_ESCAPED`."""
    escapes = np.flatnonzero(codes == ord("\\"))
    letters = codes.take(escapes + 1)
    values = _JSON_ESCAPES.take(letters)
    unicode = np.flatnonzero(letters == ord("u"))
    if len(unicode):
        digits = codes.take(escapes.take(unicode)[:, None] + np.arange(2, 6))
        values[unicode] = _HEX.take(digits) @ _HEX_PLACES
    if _NOT_ESCAPED.take(values).any():
        return None
    widths = np.ones(len(escapes), dtype=np.int64)
    widths[unicode] = 5
    firsts = np.cumsum(widths) - widths
    rest = np.repeat(escapes + 1 - firsts, widths) + np.arange(int(widths.sum()))
    return values, escapes, rest


def json_visible_words(sentences: str, n_words: int, n_lists: int) -> Optional[VisibleWords]:
    """:class:`VisibleWords` of the words of ``sentences``, the JSON text of
    lists of lists, ``n_lists`` lists in all, whose inner lists hold
    ``n_words`` values between them (jsonlines' ``sentences`` as read, or
    several joined), found in the text without decoding it into words (but
    those :attr:`~VisibleWords.source` is asked for): its strings are the
    words where it holds ``n_words`` strings and no other list and no
    object. ``None`` where it holds
    anything else, ``\\\\`` or ``B-``, or an escape for ``B``, ``-`` or
    half a character: :func:`visible_words` reads those."""
    if "B-" in sentences:
        return None
    codes, visible = visible_codes(sentences)
    is_quote = codes == _JSON_QUOTE
    if "\\" in sentences:
        escaped = _json_escapes(codes) if "\\\\" not in sentences else None
        if escaped is None:
            return None
        values, escapes, rest = escaped
        codes = codes.astype(np.uint16) if codes.dtype == np.uint8 else codes.copy()
        codes[escapes] = values
        visible[escapes] = VISIBLE.take(values)
        visible[rest] = False
        is_quote[rest] = False
    quotes = np.flatnonzero(is_quote)
    if len(quotes) != 2 * n_words:
        return None
    if sentences.count("[") != n_lists or "{" in sentences:
        opening = np.flatnonzero((codes == ord("[")) | (codes == ord("{")))
        outside = opening.compress(np.searchsorted(quotes, opening) % 2 == 0)
        if len(outside) != n_lists or (codes.take(outside) != ord("[")).any():
            return None
    inside = (np.cumsum(is_quote, dtype=np.int8) & 1).view(bool) & ~is_quote
    visible &= inside
    opens, closes = quotes[0::2], quotes[1::2]
    lengths = closes - opens - 1
    if np.count_nonzero(visible) != np.count_nonzero(inside):
        lost = np.flatnonzero(inside ^ visible)
        lengths -= np.bincount(np.searchsorted(opens, lost) - 1, minlength=n_words)
    ends = np.cumsum(lengths)

    def source(start: int, stop: int) -> list[str]:
        bounds = zip(opens[start:stop].tolist(), (closes[start:stop] + 1).tolist())
        return [json.loads(sentences[a:b]) for a, b in bounds]

    return VisibleWords(ends - lengths, ends, codes.compress(visible), source)
