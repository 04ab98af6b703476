"""Read coreference from CorefUD 1.x CoNLL-U files (docs/formats.md, CorefUD
CoNLL-U). The model lives in :mod:`.document`, the line parser in
:mod:`.parse`, the ``Entity=`` pairing in :mod:`.entities`."""

import codecs
from pathlib import Path
from typing import Optional, Union

from ...files import PathLike
from ..inputs import InputLimits, read_input
from .document import ConlluFile, CorefUDDocument, EmptyNode, Mention, check_aligned, node_key
from .parse import FileParser

__all__ = [
    "ConlluFile",
    "CorefUDDocument",
    "EmptyNode",
    "Mention",
    "check_aligned",
    "node_key",
    "parse_conllu",
    "read_conllu",
    "read_conllu_bytes",
]


def read_conllu(path: PathLike, *, limits: Optional[InputLimits] = None) -> ConlluFile:
    """Read a CorefUD CoNLL-U file (``.gz`` read transparently) within
    ``limits`` (:class:`~..inputs.InputLimits`, default from the environment)."""
    return bytes_parser(read_input(Path(path), limits), Path(path)).parse()


def read_conllu_bytes(data: Union[bytes, bytearray], source: PathLike, seen: Optional[dict[str, int]] = None) -> ConlluFile:
    """:func:`read_conllu` of a file's bytes, ``source`` naming it in
    messages; ``seen`` ranks the eids of the documents before them (a
    batch of a file read apart, :func:`~.parse._entities_in_file_order`)."""
    return bytes_parser(data, Path(source), seen).parse()


def bytes_parser(data: Union[bytes, bytearray], path: Path, seen: Optional[dict[str, int]] = None) -> FileParser:
    """:func:`read_conllu_bytes`'s parser, not yet run."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    return FileParser(data, str(path), seen=seen)


def parse_conllu(text: str, source: str = "<string>") -> ConlluFile:
    """Parse CoNLL-U text; errors name ``source``, the line and the entity."""
    return FileParser(text.encode("utf8"), source).parse()
