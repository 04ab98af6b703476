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
from .read import ANNOTATION_TOOLS, JsonlinesDocument, decode_text, load_text, parse_jsonlines


def read_side(path: Path, options: ReadOptions) -> Side:
    """A jsonlines file as a :class:`Side` (the format's reader): a
    response reuses what was read of the sentences it shares with a
    jsonlines key. A file whose members are a system's output is read in
    that system's format (:func:`~..sysout.detect.system_of`)."""
    return parse_side(load_text(Path(path), options.limits), Path(path), options)


def parse_side(data: Union[bytes, str], path: Path, options: ReadOptions) -> Side:
    """A jsonlines file's bytes (or text) as a :class:`Side`, ``path``
    naming it (:func:`read_side`)."""
    text = data if isinstance(data, str) else decode_text(data, path)
    system = system_of(text, str(path))
    if system in ANNOTATION_TOOLS:
        return get_format(system).read(path, options)
    if system is not None:
        return read_system(path, get_format(system), text, options.paired_with)
    key = options.paired_with
    known = (
        {d.doc_key: d for d in key.documents if isinstance(d, JsonlinesDocument)}
        if key is not None and key.format is FORMAT else None
    )
    return Side(path, FORMAT, list(parse_jsonlines(text, source=str(path), role=options.role, known=known).values()))
