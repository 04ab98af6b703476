"""LitBank's coreference TSV (docs/formats.md, Annotation tools):
``MENTION<TAB>T1<TAB>SENTENCE<TAB>TOKEN<TAB>SENTENCE<TAB>TOKEN<TAB>TEXT...``
lines in the coordinates of the ``.txt`` (one sentence a line, tokens
between spaces; ends inclusive) and ``COREF<TAB>T1<TAB>LABEL`` lines
naming each chained mention's entity; mentions without one are
singletons, and relation lines (``COP``, ``APPOS``) are not
coreference (counted in the closure report). Files are named ``.ann`` as LitBank names them: a ``brat``
file holding such lines is read so too."""

from ..base import Format, Lazy

FORMAT = Format("litbank-tsv", "LitBank TSV", (), Lazy(f"{__name__}.read:read_litbank_tsv"), directories=True)
