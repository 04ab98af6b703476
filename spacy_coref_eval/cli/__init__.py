"""The ``spacy-coref-eval`` command line (also ``python -m spacy_coref_eval``):
one module per command, each reading, scoring and reporting through
:func:`~spacy_coref_eval.scoring.evaluate_corpus`."""
from ._app import app
from . import score, compare, report, evaluate, profile, convert  # noqa: E402,F401  (registers the commands in this order)


def main() -> None:
    app()
