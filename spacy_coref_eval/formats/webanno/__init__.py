"""INCEpTION/WebAnno TSV 3 (docs/formats.md, Annotation tools): the
coreference chain layers (``#T_CH=...CoreferenceLink|referenceType|
referenceRelation``): a token of a link carries ``TYPE[CHAIN]`` and
``RELATION->CHAIN-LINK``; the tokens of one ``CHAIN-LINK`` form a mention,
the links of one chain an entity. Token offsets are characters of the
document, whose text is rebuilt from the tokens; one file a document,
named by the file name up to its first dot (``doc1.txt.tsv``: ``doc1``)."""

from ..base import Format, Lazy

FORMAT = Format("webanno", "INCEpTION/WebAnno TSV 3", (), Lazy(f"{__name__}.read:read_webanno"), directories=True)
