"""spaCy DocBin (``.spacy``; docs/formats.md, spaCy DocBin): docs whose
span groups hold the clusters, read without building ``Doc`` objects."""

from ..base import Format, Lazy, Opened

FORMAT = Format(
    "spacy",
    "spaCy DocBin",
    (".spacy",),
    Opened(Lazy(f"{__name__}.side:parse_side"), long_lines=True),
    write=Lazy(f"{__name__}.side:write_side"),
)
