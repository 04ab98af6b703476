"""jsonlines, the format of e2e-coref and its descendants (docs/formats.md,
jsonlines): one JSON object a line, ``doc_key``, ``sentences`` and clusters
of inclusive ``[start, end]`` token spans."""
from ..base import Format, Lazy

FORMAT = Format(
    "jsonlines", "jsonlines", (".jsonlines", ".jsonl"), Lazy(f"{__name__}.read:read_side"),
    Lazy(f"{__name__}.write:write_side"),
)
