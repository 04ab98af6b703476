"""Errors and warnings about the input, named after where it went wrong."""
import warnings
from typing import Sequence


class CorefInputError(ValueError):
    """Input that cannot be scored without guessing: the message names the
    file, line, document or span at fault."""


class CorefEvalWarning(UserWarning):
    """Input scored in a documented but lossy or unreliable way (unmapped or
    repeated spans, missing span groups, too few documents to resample)."""


def warn(message: str) -> None:
    """``message`` as a :class:`CorefEvalWarning` (the command line prints
    these on standard error)."""
    warnings.warn(message, CorefEvalWarning, stacklevel=3)


LISTED = 5
"""Document names listed in one warning before the rest are only counted."""


def listed(names: Sequence[str], shown: int = LISTED) -> str:
    """The first ``shown`` names, quoted, and how many more."""
    more = f", … ({len(names) - shown} more)" if len(names) > shown else ""
    return ", ".join(repr(name) for name in names[:shown]) + more
