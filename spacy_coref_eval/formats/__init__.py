"""Stage 1, reading (docs/formats.md): one subpackage per format, each a
:class:`Format` in the registry, which names the format of a file for
reading and writing alike (:func:`format_of`). Importing this package
imports no numpy; the readers load when a format is used."""

from .base import DocumentIndex, Format, Lazy, Opened, ReadOptions
from .registry import ENTRY_POINTS, describe_formats, format_of, get_format, register_format, registered_formats

__all__ = [
    "ENTRY_POINTS",
    "DocumentIndex",
    "Format",
    "Lazy",
    "Opened",
    "ReadOptions",
    "describe_formats",
    "format_of",
    "get_format",
    "register_format",
    "registered_formats",
]
