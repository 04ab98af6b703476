"""Read coreference from CorefUD 1.x CoNLL-U files (docs/formats.md, CorefUD
CoNLL-U). The model lives in :mod:`.document`, the line parser in
:mod:`.parse`, the ``Entity=`` pairing in :mod:`.entities`."""
import codecs
from pathlib import Path
from typing import Dict, Optional

from ...errors import CorefInputError
from ...files import PathLike
from ..inputs import read_input
from .document import ConlluFile, CorefUDDocument, EmptyNode, Mention, check_aligned, node_key
from .parse import FileParser

__all__ = [
    "ConlluFile", "CorefUDDocument", "EmptyNode", "Mention", "check_aligned", "node_key", "parse_conllu", "read_conllu",
]


def read_conllu(path: PathLike, seen: Optional[Dict[str, int]] = None) -> ConlluFile:
    """Read a CorefUD CoNLL-U file (``.gz`` read transparently); ``seen``
    ranks the eids of the documents before it (a batch of a file read
    apart, :func:`~.parse._entities_in_file_order`)."""
    return file_parser(Path(path), seen).parse()


def file_parser(path: Path, seen: Optional[Dict[str, int]] = None) -> FileParser:
    """:func:`read_conllu`'s parser of ``path``, not yet run."""
    try:
        data = read_input(path)
    except MemoryError:
        raise CorefInputError(f"{path}: not enough memory to read this file") from None
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    return FileParser(data, str(path), seen=seen)


def parse_conllu(text: str, source: str = "<string>") -> ConlluFile:
    """Parse CoNLL-U text; errors name ``source``, the line and the entity."""
    return FileParser(text.encode("utf8"), source).parse()
