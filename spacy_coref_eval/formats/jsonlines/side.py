"""The jsonlines format's reader: a file of jsonlines documents, or of a
system's output in jsonlines (:mod:`..sysout`)."""
from pathlib import Path

from ..base import ReadOptions
from ..document import Side
from .read import ANNOTATION_TOOLS, load_text, parse_jsonlines


def read_side(path: Path, options: ReadOptions) -> Side:
    """A jsonlines file as a :class:`Side` (the format's reader): a
    response reuses what was read of the sentences it shares with a
    jsonlines key. A file whose members are a system's output is read in
    that system's format (:func:`~..sysout.detect.system_of`)."""
    from ..registry import get_format
    from ..sysout.detect import system_of
    from ..sysout.read import read_system
    from . import FORMAT

    text = load_text(path)
    system = system_of(text, str(path))
    if system in ANNOTATION_TOOLS:
        return get_format(system).read(path, options)
    if system is not None:
        return read_system(path, get_format(system), text, options.paired_with)
    key = options.paired_with
    known = {d.doc_key: d for d in key.documents} if key is not None and key.format is FORMAT else None
    return Side(path, FORMAT, list(parse_jsonlines(text, source=str(path), role=options.role, known=known).values()))
