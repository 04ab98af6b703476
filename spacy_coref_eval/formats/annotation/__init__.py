"""What the annotation tools' readers share (docs/formats.md, Annotation
tools): links closed into entities with a report of what the closure did
(:mod:`.closure`), and documents of character-offset mentions that may be
discontinuous, tokenised on their own or put on a key's words through the
text (:mod:`.document`)."""

from .closure import COREFERENCE_TYPES, Closure, close, closure_of, closure_report, closure_warning
from .document import AnnotatedDocument, annotated_side, read_text

__all__ = [
    "COREFERENCE_TYPES",
    "AnnotatedDocument",
    "Closure",
    "annotated_side",
    "close",
    "closure_of",
    "closure_report",
    "closure_warning",
    "read_text",
]
