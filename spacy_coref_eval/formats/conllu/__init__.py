"""CorefUD CoNLL-U (docs/formats.md, CorefUD CoNLL-U): ``# newdoc id``
documents, ``Entity=`` brackets in MISC; mentions are sets of nodes."""

from ..base import DocumentIndex, Format, Lazy, Opened

FORMAT = Format(
    "conllu",
    "CorefUD CoNLL-U",
    (".conllu",),
    Opened(Lazy(f"{__name__}.side:parse_side")),
    write=Lazy(f"{__name__}.write:write_side"),
    spans_only=False,
    token_attributes=True,
    index=DocumentIndex(
        rb"# (?:newdoc|global\.Entity)[^\n]*",
        b"#",
        Lazy(f"{__name__}.index:document_entries"),
        read_batch=Lazy(f"{__name__}.side:read_batch"),
        batch_warnings=Lazy(f"{__name__}.side:batch_warnings"),
        alone=True,
    ),
)
