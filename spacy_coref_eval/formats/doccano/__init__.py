"""doccano JSONL (docs/formats.md, Annotation tools): one document a line,
``text`` with ``entities`` (``id``, ``start_offset``, ``end_offset``) and
``relations`` (``from_id``, ``to_id``, ``type``), or sequence labels
``label`` (``[start, end, label]``: mentions alone, singletons)."""

from ..base import Format, Lazy, Opened

FORMAT = Format("doccano", "doccano JSONL", (), Opened(Lazy(f"{__name__}.read:parse_doccano")))
