"""Byte routines of the CoNLL-U line parser (:mod:`.parse`): reading
eight bytes as one word, comparing prefixes, reading small numbers and
gathering ranges of a file's bytes with array operations."""

from collections.abc import Sequence
from typing import Union

import numpy as np

_NL = 10
_MASKS = np.array([(1 << (8 * n)) - 1 for n in range(9)], dtype=np.uint64)
"""The low ``n`` bytes of a word."""
_ZEROS, _NINES = np.uint64(0x3030303030303030), np.uint64(0x4646464646464646)
_TOP_BITS, _LOW_NIBBLES = np.uint64(0x8080808080808080), np.uint64(0x0F0F0F0F0F0F0F0F)


def byte_words(data: Union[bytes, bytearray]) -> np.ndarray:
    """The eight bytes before every offset of ``data`` (zero bytes outside
    it) as little-endian integers: ``words[i]`` holds ``data[i - 8:i]``,
    ``words[i + 8]`` the eight bytes from ``i``. One gather reads them."""
    padded = b"".join((bytes(8), data, bytes(8)))
    return np.ndarray((len(data) + 9,), dtype="<u8", buffer=padded, strides=(1,))


def starts_with(words: np.ndarray, positions: np.ndarray, prefix: bytes) -> np.ndarray:
    """Whether the bytes at each of ``positions`` start with ``prefix``
    (``words`` from :func:`byte_words`)."""
    found = begins(words[positions + 8], prefix[:8])
    if len(prefix) > 8:
        found[found] = starts_with(words, positions[found] + 8, prefix[8:])
    return found


def begins(first_words: np.ndarray, prefix: bytes) -> np.ndarray:
    """Whether each of ``first_words`` (eight bytes read as one) starts with
    ``prefix`` (at most eight bytes)."""
    return (first_words & _MASKS[len(prefix)]) == np.uint64(int.from_bytes(prefix, "little"))


def numbers(words: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The number written in each byte range ``[starts, ends)`` and whether
    it is one: 1 to 8 ASCII digits (``words`` from :func:`byte_words`).
    The eight bytes before each end are read as one word, the bytes before
    the range made ``0``, and the digits checked and summed in the word
    (SWAR: a byte below ``0`` borrows, one above ``9`` carries into its top
    bit)."""
    lengths = np.clip(ends - starts, 0, 8)
    kept = ~_MASKS[8 - lengths]
    word = (words[ends] & kept) | (_ZEROS & ~kept)
    plain = (((word - _ZEROS) | (word + _NINES)) & _TOP_BITS) == 0
    plain &= (ends - starts >= 1) & (ends - starts <= 8)
    value = (word & _LOW_NIBBLES) * np.uint64(2561) >> np.uint64(8)
    value = (value & np.uint64(0x00FF00FF00FF00FF)) * np.uint64(6553601) >> np.uint64(16)
    value = (value & np.uint64(0x0000FFFF0000FFFF)) * np.uint64(42949672960001) >> np.uint64(32)
    return value.astype(np.int64), plain


def any_of(data: np.ndarray, values: Sequence[int]) -> np.ndarray:
    """Whether each byte of ``data`` is one of ``values``: one comparison
    each, faster than a table lookup, which widens every byte to an index."""
    found = data == values[0]
    for value in values[1:]:
        found |= data == value
    return found


def gather_lines(buffer: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> bytes:
    """The byte ranges ``[starts, ends)`` of ``buffer``, each followed by a
    newline, as one bytes object (each range must be followed in
    ``buffer`` by one byte)."""
    if not len(starts):
        return b""
    sizes = ends + 1 - starts
    line_starts = np.cumsum(sizes) - sizes
    step = np.ones(int(line_starts[-1] + sizes[-1]), dtype=np.int64)
    step[line_starts[1:]] = starts[1:] - ends[:-1]
    step[0] = starts[0]
    out = buffer[np.cumsum(step, out=step)]
    out[line_starts + sizes - 1] = _NL
    return out.tobytes()


def strings(buffer: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> list[str]:
    """The UTF-8 strings ``buffer[starts[i]:ends[i]]`` (as :func:`gather_lines`)."""
    return gather_lines(buffer, starts, ends).decode("utf8").split("\n")[:-1]
