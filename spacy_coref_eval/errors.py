"""Errors and warnings about the input, named after where it went wrong."""

import os
import sys
import warnings
from collections.abc import Sequence
from types import FrameType
from typing import Optional


class CorefInputError(ValueError):
    """Input that cannot be scored without guessing: the message names the
    file, line, document or span at fault."""


class CorefEvalWarning(UserWarning):
    """Input scored in a documented but lossy or unreliable way (unmapped or
    repeated spans, missing span groups, too few documents to resample)."""


def warn(message: str) -> None:
    """``message`` as a :class:`CorefEvalWarning` (the command line prints
    these on standard error), attributed to the first caller outside the
    package (so filters by module see the user's code)."""
    warnings.warn(message, CorefEvalWarning, stacklevel=_outside_level())


_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def _outside_level() -> int:
    """The ``stacklevel`` of the first frame outside this package, counted
    from :func:`warn`'s caller's call of ``warnings.warn``."""
    frame: Optional[FrameType] = sys._getframe(2)
    level = 2
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE + os.sep):
        frame, level = frame.f_back, level + 1
    return level


_format_warning = warnings.formatwarning


def _formatted(message, category, filename, lineno, line=None) -> str:  # type: ignore[no-untyped-def]
    """A :class:`CorefEvalWarning` as one line, ``CorefEvalWarning: MESSAGE``
    (its message names the file, line or document; the Python source line
    would not); every other warning as before."""
    if isinstance(category, type) and issubclass(category, CorefEvalWarning):
        return f"{category.__name__}: {message}\n"
    return _format_warning(message, category, filename, lineno, line)


warnings.formatwarning = _formatted


LISTED = 5
"""Document names listed in one warning before the rest are only counted."""


def listed(names: Sequence[str], shown: int = LISTED) -> str:
    """The first ``shown`` names, quoted, and how many more."""
    more = f", … ({len(names) - shown} more)" if len(names) > shown else ""
    return ", ".join(repr(name) for name in names[:shown]) + more
