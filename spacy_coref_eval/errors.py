"""Errors raised on bad input, named after where the input went wrong."""


class CorefInputError(ValueError):
    """Input that cannot be scored without guessing: the message names the
    file, line, document or span at fault."""
