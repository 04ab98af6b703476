"""The jsonlines format's reader: a file of jsonlines documents, or of a
system's output or an annotation tool's export in jsonlines
(:mod:`..sysout`, :mod:`..prodigy`, :mod:`..doccano`)."""

from pathlib import Path
from typing import Union

from ..base import ReadOptions
from ..document import Side
from ..registry import get_format
from ..sysout.detect import system_of
from ..sysout.read import read_system
from . import FORMAT
from .read import ANNOTATION_TOOLS, decode_text, parse_jsonlines


def parse_side(data: Union[bytes, bytearray, str], path: Path, options: ReadOptions) -> Side:
    """A jsonlines file's bytes (or text) as a :class:`Side`, ``path``
    naming it (the format's reader). A file whose members are
    a system's output is read in that system's format
    (:func:`~..sysout.detect.system_of`)."""
    text = data if isinstance(data, str) else decode_text(data, path)
    system = system_of(text, str(path))
    if system in ANNOTATION_TOOLS:
        parse = get_format(system).parse
        assert parse is not None
        return parse(text.encode("utf8") if isinstance(data, str) else data, path, options)
    if system is not None:
        return read_system(text, path, get_format(system))
    return Side(path, FORMAT, list(parse_jsonlines(text, source=str(path), role=options.role).values()))
