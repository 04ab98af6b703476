"""The format of an input that has no name (standard input), told from its
first bytes: the one place formats are recognised by content rather than
by suffix (:func:`~.registry.format_of`)."""

import zlib
from typing import Optional

HEAD_BYTES = 1 << 16
"""How much of the input (decompressed) the rules read."""


def sniff_format(data: bytes) -> tuple[Optional[str], bool]:
    """The name of the format ``data`` looks like (``None``: none) and
    whether it is gzip-compressed. A DocBin is zlib-compressed msgpack;
    jsonlines begins with a JSON object; CoNLL-2012 has ``#begin
    document`` lines; CoNLL-UA and CorefUD CoNLL-U have ``# global.columns``
    (CoNLL-UA's naming ``IDENTITY``), ``# newdoc`` or ``# sent_id``."""
    gzipped = data[:2] == b"\x1f\x8b"
    head = data[:HEAD_BYTES]
    if gzipped:
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data, HEAD_BYTES)
        except zlib.error:
            return None, True
    return _by_content(head), gzipped


def _by_content(head: bytes) -> Optional[str]:
    if len(head) >= 2 and head[0] == 0x78 and (head[0] << 8 | head[1]) % 31 == 0:
        return "spacy"
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    if text.startswith("{"):
        return "jsonlines"
    lines = [line.strip() for line in text.splitlines()]
    if any(line.startswith("#begin document") for line in lines):
        return "conll"
    columns = next((line for line in lines if line.startswith("# global.columns")), None)
    if columns is not None and "IDENTITY" in columns.split():
        return "ua"
    if columns is not None or any(line.startswith(("# newdoc", "# sent_id")) for line in lines):
        return "conllu"
    return None
