"""The ``spacy-coref-eval`` command line (also ``python -m spacy_coref_eval``):
one module per command, each reading, scoring and reporting through
:func:`~spacy_coref_eval.scoring.evaluate_corpus`."""

import gc

from ._app import app

# isort: off
from . import score, compare, report, evaluate, profile, convert, baseline, agree  # noqa: F401  (registers the commands in this order)
# isort: on


def main() -> None:
    """Run the command line and end the process. What a run leaves behind
    is frozen out of the garbage collector before the interpreter
    finalizes it: the collector's passes over every object then took
    about 20 ms of a GUM ``score`` and found nothing to free."""
    try:
        app()
    finally:
        gc.freeze()
