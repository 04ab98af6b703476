"""``-`` for one input of a command: standard input read whole into a
temporary file, its format from ``--*-format`` or from its content
(:func:`~spacy_coref_eval.formats.sniff.sniff_format`), then read through
the same API as any file; messages name it ``<stdin>``."""

import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Optional

import click

from .output import aliased, fail

STDIN = "<stdin>"
"""How messages and reports name standard input."""


def is_dash(path: Optional[Path]) -> bool:
    """Whether a path argument is ``-``."""
    return path is not None and str(path) == "-"


@contextmanager
def standard_input(paths: Sequence[Path], labels: Sequence[str], given: Sequence[Optional[str]]) -> Iterator[list[Path]]:
    """``paths`` with the one that is ``-`` replaced by a temporary file of
    standard input, removed afterwards; ``labels`` name the arguments in the
    usage error that refuses two ``-``, ``given`` the formats named on the
    command line for each (``None``: told from the content)."""
    dashes = [index for index, path in enumerate(paths) if is_dash(path)]
    if not dashes:
        yield list(paths)
        return
    if len(dashes) > 1:
        raise click.UsageError(f"standard input ('-') can be one input only, not {' and '.join(labels[index] for index in dashes)}")
    index = dashes[0]
    data = sys.stdin.buffer.read()
    with tempfile.TemporaryDirectory(prefix="spacy-coref-eval-") as folder:
        path = Path(folder) / (STDIN + ("" if given[index] else _suffix(data, labels[index])))
        path.write_bytes(data)
        with aliased(str(path), STDIN):
            yield [path if position == index else other for position, other in enumerate(paths)]


def _suffix(data: bytes, label: str) -> str:
    """The file suffix of the format standard input holds, or the error
    that asks for the format."""
    from ..errors import CorefInputError
    from ..formats import get_format
    from ..formats.sniff import sniff_format

    if not data:
        fail(CorefInputError(f"{STDIN}: standard input ({label}) is empty"))
    name, gzipped = sniff_format(data)
    if name is None:
        option = "--key-format" if label == "KEY" else "--response-format" if label != "IN" else "--input-format"
        fail(CorefInputError(f"{STDIN}: cannot tell the format of standard input ({label}) from its content; name it with {option}"))
    suffix = get_format(name).suffixes[0]
    return ("" if suffix.startswith(".") else ".") + suffix + (".gz" if gzipped else "")
