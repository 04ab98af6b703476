"""Label Studio JSON exports (docs/formats.md, Annotation tools): a list of
tasks, each ``data.text`` and an annotation's ``result``: ``labels``
regions (``value.start``/``value.end`` in characters, ``id``) and
``relation`` results (``from_id``, ``to_id``, ``labels``). A task's first
annotation not cancelled is read; tasks are named by ``data`` (``name``,
``document``, ``doc_id``) or their ``id``."""

from ..base import Format, Lazy, Opened

FORMAT = Format("labelstudio", "Label Studio JSON", (), Opened(Lazy(f"{__name__}.read:parse_labelstudio")))
