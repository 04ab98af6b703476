"""Errors and warnings about the input, named after where it went wrong."""
import warnings


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
