"""The edge where input enters: files opened (``.gz`` read transparently)
within the size limits of :class:`InputLimits`, read once from the
environment. Readers take the bytes this module returns (or a part of a
file the streamed path hands them) with a source name for messages; no
reader opens a file."""

import gzip
import os
import stat
import struct
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from itertools import chain
from pathlib import Path
from typing import Optional, Union

import numpy as np

from ..errors import CorefInputError

PREFIX = "SPACY_COREF_EVAL_"
_CHUNK_BYTES = 1 << 20
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


@dataclass(frozen=True)
class InputLimits:
    """How input is read: the largest input (``max_input_bytes``, after
    decompression), the longest line unless a reader allows more
    (``max_line_bytes``), the size of two files from which they are read a
    batch of documents at a time (``stream_from``; 0: always), the bytes
    of a batch (``batch_bytes``; 0: never streamed), docs/streaming.md, and
    the size of two files from which ``--n-process`` starts worker
    processes (``parallel_from``: 32 MiB, 1.6× LitBank, below which a pool costs
    more than it saves; docs/streaming.md §4).
    :meth:`from_environ` reads them from ``SPACY_COREF_EVAL_*`` variables."""

    max_input_bytes: int = 1 << 30
    max_line_bytes: int = 1 << 24
    stream_from: int = 32 << 20
    batch_bytes: int = 8 << 20
    parallel_from: int = 32 << 20

    @classmethod
    def from_environ(cls, environ: Optional[Mapping[str, str]] = None) -> "InputLimits":
        """The limits set by ``SPACY_COREF_EVAL_MAX_INPUT_BYTES``,
        ``…_MAX_LINE_BYTES``, ``…_STREAM_FROM``, ``…_BATCH_BYTES`` and
        ``…_PARALLEL_FROM`` in
        ``environ`` (default :data:`os.environ`), the defaults elsewhere; a
        value that is not a whole number of bytes (``8M``, ``1G`` allowed),
        or 0 for a size limit, is one :class:`CorefInputError` naming it."""
        environ = os.environ if environ is None else environ
        values = {}
        least_of = {"max_input_bytes": 1, "max_line_bytes": 1, "stream_from": 0, "batch_bytes": 0, "parallel_from": 0}
        for name, least in least_of.items():
            variable = PREFIX + name.upper()
            given = environ.get(variable)
            if given is not None and given.strip():
                values[name] = _bytes(variable, given, least)
        return cls(**values)


def _bytes(variable: str, given: str, least: int) -> int:
    text = given.strip().upper().removesuffix("B").removesuffix("I")
    unit = text[-1:] if text[-1:] in _UNITS else ""
    number = text[: len(text) - len(unit)]
    if not number.isdigit() or int(number) * _UNITS[unit] < least:
        allowed = "a positive" if least else "a non-negative"
        raise CorefInputError(f"environment variable {variable}={given!r}: expected {allowed} number of bytes (e.g. 8388608 or 8M)")
    return int(number) * _UNITS[unit]


def open_input(path: Path, limits: Optional[InputLimits] = None, max_line: Optional[int] = None) -> Union[bytes, bytearray]:
    """The bytes of ``path`` (gunzipped for ``.gz``), read in chunks within
    ``limits`` (default :meth:`InputLimits.from_environ`) and lines of at
    most ``max_line`` bytes (default the limits' line length), so that a
    gzip bomb, an endless stream or a giant line stops with a
    :class:`CorefInputError` naming the file (and line) before it fills
    the memory; a ``.gz`` whose trailer says it inflates past the input
    limit is refused once a line's worth is read (so that a file of one
    endless line is refused for that line either way). A plain file no
    longer than a line may be is read in one piece."""
    limits = InputLimits.from_environ() if limits is None else limits
    max_line = limits.max_line_bytes if max_line is None else max_line
    max_input = limits.max_input_bytes
    compressed = path.suffix == ".gz"
    data = bytearray()
    line_length = 0
    chunk_size = min(_CHUNK_BYTES, max_line)
    try:
        claimed = gzip_size(path) if compressed else 0
        with gzip.open(path, "rb") if compressed else open(path, "rb") as stream:
            status = None if compressed else os.fstat(stream.fileno())
            chunks = iter(partial(stream.read, chunk_size), b"")
            if status is not None and stat.S_ISREG(status.st_mode) and status.st_size <= min(max_line, max_input):
                whole = stream.read(status.st_size)
                more = next(chunks, b"")
                if not more:
                    return whole
                data = bytearray(whole)
                line_length = len(data) - data.rfind(b"\n") - 1
                chunks = chain([more], chunks)
            for chunk in chunks:
                if len(data) + len(chunk) > max_input:
                    raise CorefInputError(too_large(path, max_input))
                first = chunk.find(b"\n")
                line_length += len(chunk) if first < 0 else first
                if line_length > max_line:
                    raise CorefInputError(too_long(path, max_line, data.count(b"\n") + 1))
                if first >= 0:
                    line_length = len(chunk) - chunk.rfind(b"\n") - 1
                if claimed > max_input and len(data) + len(chunk) > min(max_line, max_input):
                    raise CorefInputError(too_large(path, max_input))
                data += chunk
            return data
    except (OSError, EOFError, zlib.error) as err:
        raise CorefInputError(f"{path}: cannot read file: {err}") from None


def read_input(path: Path, limits: Optional[InputLimits] = None, long_lines: bool = False) -> Union[bytes, bytearray]:
    """The bytes of the file a reader is given (:func:`open_input`): lines
    as long as the whole input with ``long_lines``; too little memory is
    one :class:`CorefInputError` naming the file."""
    limits = InputLimits.from_environ() if limits is None else limits
    try:
        return open_input(path, limits, limits.max_input_bytes if long_lines else None)
    except MemoryError:
        raise CorefInputError(f"{path}: not enough memory to read this file") from None


def input_text(path: Path, limits: Optional[InputLimits] = None) -> str:
    """The text of a file a reader is given (:func:`read_input`), its line
    ends as written; bytes that are not UTF-8 are one
    :class:`CorefInputError` naming the file, line and byte
    (:func:`check_utf8`)."""
    data = read_input(path, limits)
    check_utf8(data, path)
    return bytes(data).decode("utf8")


def input_head(path: Path, size: int) -> bytes:
    """At most the first ``size`` bytes of ``path`` (gunzipped for
    ``.gz``, any case), for a guess at what a file holds; ``b""`` where it
    cannot be read."""
    try:
        with gzip.open(path, "rb") if path.name.lower().endswith(".gz") else open(path, "rb") as handle:
            return handle.read(size)
    except (OSError, EOFError, zlib.error):
        return b""


def gzip_size(path: Path) -> int:
    """At least how many bytes a gzip file inflates to, by its trailer
    (RFC 1952 ISIZE: the last member's size modulo 2³², a lower bound of
    the whole); 0 where the file is too short to have one."""
    with open(path, "rb") as handle:
        if handle.seek(0, os.SEEK_END) < 18:
            return 0
        handle.seek(-4, os.SEEK_END)
        return int(struct.unpack("<I", handle.read(4))[0])


def too_large(path: Path, max_input: int) -> str:
    """The message refusing an input larger than ``max_input`` bytes."""
    return (
        f"{path}: larger than the maximum input size ({max_input} bytes"
        f"{' decompressed' if path.suffix == '.gz' else ''}; raise it with the environment "
        f"variable {PREFIX}MAX_INPUT_BYTES)"
    )


def too_long(path: Path, max_line: int, line: Optional[int]) -> str:
    """The message refusing a line longer than ``max_line`` bytes."""
    where = f"{path}:{line}" if line is not None else str(path)
    return (
        f"{where}: line longer than the maximum line length ({max_line} bytes; raise it "
        f"with the environment variable {PREFIX}MAX_LINE_BYTES)"
    )


def check_lines(data: bytes, source: Path, max_line: int) -> None:
    """Refuse bytes handed to a reader (a part of a file) that hold a line
    longer than ``max_line``, as :func:`open_input` refuses it."""
    if len(data) <= max_line:
        return
    edges = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 0x0A)
    lengths = np.diff(edges, prepend=-1, append=len(data)) - 1
    longest = int(np.argmax(lengths))
    if int(lengths[longest]) > max_line:
        raise CorefInputError(too_long(source, max_line, longest + 1))


def check_utf8(data: Union[bytes, bytearray], path: Path) -> None:
    """Refuse bytes that are not UTF-8 text, naming the file, the line and
    the byte, whatever a command then reads of them (a file scored without
    its words is refused as one converted with them). Only the runs of
    bytes above 127 are decoded: an ASCII byte is never part of a UTF-8
    sequence, so the text is valid exactly when every run is."""
    if data.isascii():
        return
    buf = np.frombuffer(data, dtype=np.uint8)
    high = np.flatnonzero(buf >= 0x80)
    starts = np.flatnonzero(np.diff(high, prepend=-2) != 1)
    joined = np.full(len(high) + len(starts), 0x0A, dtype=np.uint8)
    place = np.arange(len(high)) + np.searchsorted(starts, np.arange(len(high)), side="right")
    joined[place] = buf[high]
    try:
        joined.tobytes().decode("utf8")
    except UnicodeDecodeError as err:
        offset = int(high[np.searchsorted(place, err.start)])
        line = data.count(b"\n", 0, offset) + 1
        reason = err.reason
        raise CorefInputError(
            f"{path}:{line}: not UTF-8 text: 'utf-8' codec can't decode byte 0x{data[offset]:02x} in position "
            f"{offset}: {reason} "
            "(convert the file, e.g. iconv -f latin1 -t utf8)"
        ) from None
