"""CoNLL-UA, the Universal Anaphora format (docs/ua.md): CoNLL-U Plus with
``IDENTITY``, ``BRIDGING`` and ``DISCOURSE_DEIXIS`` columns of bracketed
markables, read as the UA scorer reads them."""

from ..base import Format, Lazy, Opened

FORMAT = Format(
    "ua",
    "CoNLL-UA",
    (".ua", ".conllua"),
    Opened(Lazy(f"{__name__}.side:parse_side")),
    write=Lazy(f"{__name__}.write:write_side"),
    positional=True,
)
