"""CoNLL-2012, the reference scorer's format (docs/formats.md, CoNLL-2012):
``#begin document`` blocks, brackets in the last column."""

from ..base import DocumentIndex, Format, Lazy

FORMAT = Format(
    "conll",
    "CoNLL-2012",
    ("conll",),
    Lazy(f"{__name__}.read:read_side"),
    write=Lazy(f"{__name__}.write:write_side"),
    positional=True,
    directories=True,
    documents="'#begin document' blocks",
    index=DocumentIndex(rb"#[ \t]*(?:begin|end) document[^\n]*", b"#", Lazy(f"{__name__}.index:document_entries")),
    parse=Lazy(f"{__name__}.read:parse_side"),
)
