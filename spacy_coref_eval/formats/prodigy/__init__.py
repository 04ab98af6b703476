"""Prodigy JSONL (docs/formats.md, Annotation tools): one document a line,
``text``, ``spans`` in characters and ``relations`` with ``head``/``child``
(their ``head_span``/``child_span``) and a ``label``; accepted records only."""

from ..base import Format, Lazy, Opened

FORMAT = Format("prodigy", "Prodigy JSONL", (), Opened(Lazy(f"{__name__}.read:parse_prodigy")))
