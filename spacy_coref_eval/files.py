"""Writing outputs without losing a file.

Every output the package writes goes through :func:`open_output`: it refuses
an output that is the same file as one of the inputs, writes a regular file
atomically (a temporary file in the same folder, then :func:`os.replace`),
so that an interrupted or failed run leaves the previous file intact, and
turns every failure into one :class:`CorefInputError` naming the file.
"""

import glob
import gzip
import io
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Optional, Union, cast

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


def check_distinct(outputs: Iterable[Optional[PathLike]]) -> None:
    """Refuse two outputs that name one file (the second would replace the
    first)."""
    seen: list[Path] = []
    for output in outputs:
        if output is None:
            continue
        path = Path(output)
        for other in seen:
            if os.path.abspath(path) == os.path.abspath(other) or (path.exists() and other.exists() and os.path.samefile(path, other)):
                raise CorefInputError(f"{path}: two outputs name this file ({other} too); give each its own file")
        seen.append(path)


@contextmanager
def open_output(path: PathLike, mode: str = "w", inputs: Iterable[PathLike] = (), *, make_parents: bool = False) -> Iterator[IO]:
    """A file to write ``path`` through (``mode`` ``"w"`` or ``"wb"``),
    creating its folder first with ``make_parents``.

    A regular file (or a new one) is written to a temporary file beside it
    (named after the file and this process) and moved into place when the
    block ends without error; an interrupted run (Ctrl-C, SIGTERM, SIGHUP) removes
    it, and temporary files of processes that no longer run (a SIGKILL) are
    removed the next time the file is written. A device or a pipe
    (``/dev/stdout``, ``/dev/null``) is written directly. A name ending in
    ``.gz`` is written gzip-compressed (no name or time in the header, so
    that the same content gives the same bytes), as the readers read it.
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
        _remove_stale(path)
        handle, temporary = tempfile.mkstemp(prefix=f"{_temporary_prefix(path)}{os.getpid()}.", suffix=".tmp", dir=path.parent)
    except OSError as err:
        raise CorefInputError(f"{path}: cannot write file: {_reason(path, err)}") from None
    try:
        with (
            _terminated_as_interrupt(),
            os.fdopen(handle, raw_mode, encoding=encoding) as out,
            _compressing(out, mode, compressed) as written,
        ):
            yield written
        if path.exists():
            os.chmod(temporary, stat.S_IMODE(path.stat().st_mode))
        else:
            os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except OSError as err:
        _remove(temporary)
        raise CorefInputError(f"{path}: cannot write file: {_reason(path, err)}") from None
    except BaseException:
        _remove(temporary)
        raise


def _temporary_prefix(path: Path) -> str:
    return f".{path.name}."


def _remove_stale(path: Path) -> None:
    """Remove temporary files of :func:`open_output` for ``path`` left by
    processes that no longer run."""
    prefix = _temporary_prefix(path)
    for stale in path.parent.glob(f"{glob.escape(prefix)}*.tmp"):
        pid = stale.name[len(prefix) :].split(".", 1)[0]
        if pid.isdigit() and not _running(int(pid)):
            _remove(str(stale))


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


@contextmanager
def _terminated_as_interrupt() -> Iterator[None]:
    """SIGTERM and SIGHUP (a closed terminal) raise :class:`KeyboardInterrupt`
    inside the block, as Ctrl-C does, so that a terminated write cleans up
    (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt("terminated")

    caught = [signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])
    previous = {signum: signal.signal(signum, interrupt) for signum in caught}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _reason(path: Path, err: OSError) -> str:
    """Why writing failed, naming the folder when it is the folder that
    cannot be written."""
    reason = err.strerror or str(err)
    folder = path.parent
    if folder.is_dir() and not os.access(folder, os.W_OK):
        return f"{reason} (the folder {folder} is not writable)"
    return reason


@contextmanager
def _compressing(out: IO, mode: str, compressed: bool) -> Iterator[IO]:
    """``out`` itself, or with ``compressed`` a gzip stream into it (text
    in UTF-8 unless ``mode`` is binary), finished when the block ends."""
    if not compressed:
        yield out
        return
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0) as zipped:
        if "b" in mode:
            yield cast(IO, zipped)
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
