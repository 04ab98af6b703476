"""Reading input files within bounds: every reader takes its bytes from
:func:`read_input`, ``.gz`` read transparently."""
import gzip
import os
import stat
import zlib
from contextlib import contextmanager
from functools import partial
from itertools import chain
from pathlib import Path
from typing import Dict, Iterator, Optional, Union

from ..errors import CorefInputError

MAX_INPUT_BYTES = int(os.environ.get("SPACY_COREF_EVAL_MAX_INPUT_BYTES", 1 << 30))
"""Largest input read (1 GiB after decompression, or the environment
variable ``SPACY_COREF_EVAL_MAX_INPUT_BYTES``)."""
MAX_LINE_BYTES = int(os.environ.get("SPACY_COREF_EVAL_MAX_LINE_BYTES", 1 << 24))
"""Longest line read (16 MiB, or ``SPACY_COREF_EVAL_MAX_LINE_BYTES``) unless
a reader allows more."""
_CHUNK_BYTES = 1 << 20
_VIEWS: Dict[Path, bytes] = {}


@contextmanager
def reading_bytes(path: Path, data: bytes) -> Iterator[None]:
    """Within the block, :func:`read_input` gives ``data`` (some documents
    of ``path``, already decompressed, docs/streaming.md) for ``path``,
    so that a reader reads part of a file as it reads the whole."""
    _VIEWS[path] = data
    try:
        yield
    finally:
        del _VIEWS[path]


def read_input(path: Path, max_line: Optional[int] = None) -> Union[bytes, bytearray]:
    """The bytes of ``path`` (gunzipped for ``.gz``), read in chunks within
    :data:`MAX_INPUT_BYTES` and lines of at most ``max_line`` bytes
    (default :data:`MAX_LINE_BYTES`), so that a gzip bomb, an endless
    stream or a giant line stops with a :class:`CorefInputError` naming the
    file (and line) before it fills the memory. A plain file no longer than
    a line may be is read in one piece, into memory written once. Readers
    only read what this returns."""
    max_line = MAX_LINE_BYTES if max_line is None else max_line
    if path in _VIEWS:
        return _view(path, max_line)
    data = bytearray()
    line_length = 0
    chunk_size = min(_CHUNK_BYTES, max_line)
    try:
        with (gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")) as stream:
            status = None if path.suffix == ".gz" else os.fstat(stream.fileno())
            chunks = iter(partial(stream.read, chunk_size), b"")
            if status is not None and stat.S_ISREG(status.st_mode) and status.st_size <= min(max_line, MAX_INPUT_BYTES):
                whole = stream.read(status.st_size)
                more = next(chunks, b"")
                if not more:
                    return whole
                data = bytearray(whole)
                line_length = len(data) - data.rfind(b"\n") - 1
                chunks = chain([more], chunks)
            for chunk in chunks:
                if len(data) + len(chunk) > MAX_INPUT_BYTES:
                    raise CorefInputError(
                        f"{path}: larger than the maximum input size ({MAX_INPUT_BYTES} bytes"
                        f"{' decompressed' if path.suffix == '.gz' else ''}; raise it with the environment "
                        "variable SPACY_COREF_EVAL_MAX_INPUT_BYTES)"
                    )
                first = chunk.find(b"\n")
                line_length += len(chunk) if first < 0 else first
                if line_length > max_line:
                    line = data.count(b"\n") + 1
                    raise CorefInputError(
                        f"{path}:{line}: line longer than the maximum line length ({max_line} bytes; raise it "
                        "with the environment variable SPACY_COREF_EVAL_MAX_LINE_BYTES)"
                    )
                if first >= 0:
                    line_length = len(chunk) - chunk.rfind(b"\n") - 1
                data += chunk
            return data
    except (OSError, EOFError, zlib.error) as err:
        raise CorefInputError(f"{path}: cannot read file: {err}") from None


def _view(path: Path, max_line: int) -> bytes:
    """The bytes given for ``path`` by :func:`reading_bytes`, within the
    line length; a longer line is refused without its number (the whole
    file read again names it)."""
    data = _VIEWS[path]
    if len(data) > max_line:
        import numpy as np

        edges = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 0x0A)
        if int(np.diff(edges, prepend=-1, append=len(data)).max()) - 1 > max_line:
            raise CorefInputError(f"{path}: line longer than the maximum line length ({max_line} bytes)")
    return data


def check_utf8(data: Union[bytes, bytearray], path: Path) -> None:
    """Refuse bytes that are not UTF-8 text, naming the file, the line and
    the byte, whatever a command then reads of them (a file scored without
    its words is refused as one converted with them). Only the runs of
    bytes above 127 are decoded: an ASCII byte is never part of a UTF-8
    sequence, so the text is valid exactly when every run is."""
    if data.isascii():
        return
    import numpy as np

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
