"""The "indiscrim" rows of the coref-data collection on the Hugging Face Hub
(docs/formats.md, indiscrim): one JSON object a line (``dataset.to_json``),
``id``, ``sentences`` (each with ``tokens``, each with ``text``) and
``coref_chains``, a list of chains of inclusive ``[sentence, start, end]``
mentions (sentence: its index in ``sentences``; start and end: token
indices within it)."""
from ..base import Format, Lazy

FORMAT = Format(
    "indiscrim", "coref-data indiscrim rows", (".indiscrim.jsonl", ".indiscrim.json"),
    Lazy(f"{__name__}.read:read_side"), write=Lazy(f"{__name__}.read:write_side"),
)
