"""Writing outputs without losing a file.

Every output the package writes goes through :func:`open_output`: it refuses
an output that is the same file as one of the inputs, writes a regular file
atomically (a temporary file in the same folder, then :func:`os.replace`),
so that an interrupted or failed run leaves the previous file intact, and
turns every failure into one :class:`CorefInputError` naming the file.
"""
import gzip
import io
import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterable, Iterator, Union

from .errors import CorefInputError

PathLike = Union[str, Path]


def check_not_input(output: PathLike, inputs: Iterable[PathLike]) -> None:
    """Refuse ``output`` when it is the same file as one of ``inputs``
    (:func:`os.path.samefile`: links and other spellings of a path too)."""
    output = Path(output)
    if not output.exists():
        return
    for path in inputs:
        try:
            same = os.path.samefile(output, path)
        except OSError:
            continue
        if same:
            raise CorefInputError(f"{output}: refusing to overwrite an input file (it is the input {path})")


@contextmanager
def open_output(
    path: PathLike, mode: str = "w", inputs: Iterable[PathLike] = (), make_parents: bool = False
) -> Iterator[IO]:
    """A file to write ``path`` through (``mode`` ``"w"`` or ``"wb"``),
    creating its folder first with ``make_parents``.

    A regular file (or a new one) is written to a temporary file beside it
    and moved into place when the block ends without error; a device or a
    pipe (``/dev/stdout``, ``/dev/null``) is written directly. A name
    ending in ``.gz`` is written gzip-compressed (no name or time in the
    header, so that the same content gives the same bytes), as the readers
    read it.
    """
    path = Path(path)
    check_not_input(path, inputs)
    compressed = path.suffix == ".gz"
    encoding = None if "b" in mode or compressed else "utf8"
    raw_mode = "wb" if compressed else mode
    try:
        special = path.exists() and not stat.S_ISREG(path.stat().st_mode)
        if special:
            with open(path, raw_mode, encoding=encoding) as out, _compressing(out, mode, compressed) as written:
                yield written
            return
        if make_parents:
            path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as err:
        raise CorefInputError(f"{path}: cannot write file: {err.strerror or err}") from None
    try:
        with os.fdopen(handle, raw_mode, encoding=encoding) as out, _compressing(out, mode, compressed) as written:
            yield written
        if path.exists():
            os.chmod(temporary, stat.S_IMODE(path.stat().st_mode))
        else:
            os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except OSError as err:
        _remove(temporary)
        raise CorefInputError(f"{path}: cannot write file: {err.strerror or err}") from None
    except BaseException:
        _remove(temporary)
        raise


@contextmanager
def _compressing(out: IO, mode: str, compressed: bool) -> Iterator[IO]:
    """``out`` itself, or with ``compressed`` a gzip stream into it (text
    in UTF-8 unless ``mode`` is binary), finished when the block ends."""
    if not compressed:
        yield out
        return
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0) as zipped:
        if "b" in mode:
            yield zipped
            return
        text = io.TextIOWrapper(zipped, encoding="utf8")
        yield text
        text.flush()
        text.detach()


def write_output(path: PathLike, data: Union[str, bytes], inputs: Iterable[PathLike] = ()) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` through :func:`open_output`."""
    with open_output(path, "wb" if isinstance(data, bytes) else "w", inputs) as out:
        out.write(data)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
