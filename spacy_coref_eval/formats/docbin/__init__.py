"""spaCy DocBin (``.spacy``; docs/formats.md, spaCy DocBin): docs whose
span groups hold the clusters, read without building ``Doc`` objects."""
from ..base import Format, Lazy

FORMAT = Format(
    "spacy", "spaCy DocBin", (".spacy",), Lazy(f"{__name__}.side:read_side"), write=Lazy(f"{__name__}.side:write_side"),
)
