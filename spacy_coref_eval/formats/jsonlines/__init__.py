"""jsonlines, the format of e2e-coref and its descendants (docs/formats.md,
jsonlines): one JSON object a line, ``doc_key``, ``sentences`` and clusters
of inclusive ``[start, end]`` token spans."""

from ..base import DocumentIndex, Format, Lazy, Opened

FORMAT = Format(
    "jsonlines",
    "jsonlines",
    (".jsonlines", ".jsonl"),
    Opened(Lazy(f"{__name__}.side:parse_side"), long_lines=True),
    write=Lazy(f"{__name__}.write:write_side"),
    index=DocumentIndex(
        rb'[^\n]*?"doc_key"\s*:\s*"((?:[^"\\\n]|\\.)*)"|[ \t\r]*(\S)', None, Lazy(f"{__name__}.index:document_entries"), long_lines=True
    ),
)
