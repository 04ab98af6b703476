"""The "indiscrim" rows of the coref-data collection on the Hugging Face Hub
(docs/formats.md, indiscrim): one JSON object a line (``dataset.to_json``),
``id``, ``sentences`` (each with ``tokens``, each with ``text``) and
``coref_chains``, a list of chains of inclusive ``[sentence, start, end]``
mentions (sentence: its index in ``sentences``; start and end: token
indices within it)."""

from ..base import Format, Lazy, Opened

FORMAT = Format(
    "indiscrim",
    "coref-data indiscrim rows",
    (".indiscrim.jsonl", ".indiscrim.json"),
    Opened(Lazy(f"{__name__}.read:parse_side"), long_lines=True),
    write=Lazy(f"{__name__}.read:write_side"),
)
