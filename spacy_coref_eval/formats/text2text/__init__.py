"""CRAC 2025 LLM-track tagged text, as text2text-coref writes and reads it
(docs/formats.md, text2text): one document a line, ``word|[e1``,
``word|e1]``, ``word|[e1]``; read as a response against a key's words."""

from ..base import Format, Lazy, Opened

FORMAT = Format(
    "text2text",
    "text2text tagged text",
    (".t2t.txt", ".t2t"),
    Opened(Lazy(f"{__name__}.read:parse_side")),
    write=Lazy(f"{__name__}.write:write_side"),
    spans_only=False,
)
