"""The ``spacy-coref-eval`` command line (also ``python -m spacy_coref_eval``)."""
from .values import App

app = App(
    name="spacy-coref-eval",
    help="Score coreference resolution: MUC, B³, CEAF, BLANC, LEA and the CoNLL score.",
    no_args_is_help=True,
    add_completion=False,
)

from . import compare, convert, evaluate, profile, report, score  # noqa: E402,F401  (registers the commands)


def main() -> None:
    app()
