"""The part of msgpack a DocBin's field table and user data use, decoded
with the standard library as ``srsly.msgpack_loads`` decodes it, so that a
``.spacy`` file is read without importing srsly (docs/formats.md). Anything
else raises :class:`Unsupported`, and srsly decodes it (or names the damage)."""

import struct
from typing import Any

_U16, _U32, _U64 = struct.Struct(">H"), struct.Struct(">I"), struct.Struct(">Q")
_I8, _I16, _I32, _I64 = struct.Struct(">b"), struct.Struct(">h"), struct.Struct(">i"), struct.Struct(">q")
_F32, _F64 = struct.Struct(">f"), struct.Struct(">d")
_NUMBERS = {
    0xCC: (1, None),
    0xCD: (2, _U16),
    0xCE: (4, _U32),
    0xCF: (8, _U64),
    0xD0: (1, _I8),
    0xD1: (2, _I16),
    0xD2: (4, _I32),
    0xD3: (8, _I64),
    0xCA: (4, _F32),
    0xCB: (8, _F64),
}
_CONSTANTS = {0xC0: None, 0xC2: False, 0xC3: True}
_STR, _BIN, _ARRAY, _MAP = (0xD9, 0xDA, 0xDB), (0xC4, 0xC5, 0xC6), (0xDC, 0xDD), (0xDE, 0xDF)


class Unsupported(Exception):
    """Bytes outside the subset: ext types, map keys other than strings
    (srsly's numpy decoder reads maps with bytes keys), damage."""


def loads(data: bytes, use_list: bool = True) -> Any:
    """``data`` decoded as ``srsly.msgpack_loads(data, use_list)`` does,
    when it is one object of nil, booleans, numbers, strings, bytes,
    arrays and maps with string keys."""
    try:
        value, end = _read(data, 0, list if use_list else tuple)
    except (IndexError, struct.error, UnicodeDecodeError, RecursionError):
        raise Unsupported from None
    if end != len(data):
        raise Unsupported
    return value


def _read(data: bytes, pos: int, sequence: type) -> tuple[Any, int]:
    """The object at ``pos`` and the position after it."""
    first = data[pos]
    pos += 1
    if first < 0x80:
        return first, pos
    if 0xA0 <= first < 0xC0 or first in _STR:
        if first < 0xC0:
            size = first & 0x1F
        else:
            size, pos = _size(data, pos, first)
        end = pos + size
        if end > len(data):
            raise Unsupported
        return data[pos:end].decode("utf8"), end
    if first >= 0xE0:
        return first - 0x100, pos
    if first in _BIN:
        size, pos = _size(data, pos, first)
        if pos + size > len(data):
            raise Unsupported
        return data[pos : pos + size], pos + size
    if 0x90 <= first < 0xA0 or first in _ARRAY:
        count, pos = (first & 0x0F, pos) if first < 0xA0 else _count(data, pos, first)
        items: list[Any] = []
        append = items.append
        for _ in range(count):
            first = data[pos]
            if 0xA0 <= first < 0xC0:
                end = pos + 1 + (first & 0x1F)
                append(data[pos + 1 : end].decode("utf8"))
                pos = end
            else:
                item, pos = _read(data, pos, sequence)
                append(item)
        return (items if sequence is list else tuple(items)), pos
    if first < 0x90 or first in _MAP:
        count, pos = (first & 0x0F, pos) if first < 0x90 else _count(data, pos, first)
        out = {}
        for _ in range(count):
            key, pos = _read(data, pos, sequence)
            if type(key) is not str:
                raise Unsupported
            out[key], pos = _read(data, pos, sequence)
        return out, pos
    if first in _CONSTANTS:
        return _CONSTANTS[first], pos
    if first in _NUMBERS:
        width, unpacker = _NUMBERS[first]
        if pos + width > len(data):
            raise Unsupported
        return (data[pos] if unpacker is None else unpacker.unpack_from(data, pos)[0]), pos + width
    raise Unsupported


def _size(data: bytes, pos: int, first: int) -> tuple[int, int]:
    """The byte length of a str 8/16/32 or bin 8/16/32 and where it starts."""
    if first in (0xD9, 0xC4):
        return data[pos], pos + 1
    if first in (0xDA, 0xC5):
        return _U16.unpack_from(data, pos)[0], pos + 2
    return _U32.unpack_from(data, pos)[0], pos + 4


def _count(data: bytes, pos: int, first: int) -> tuple[int, int]:
    """The length of an array or map 16/32 and where its items start."""
    if first in (0xDC, 0xDE):
        return _U16.unpack_from(data, pos)[0], pos + 2
    return _U32.unpack_from(data, pos)[0], pos + 4
