"""The ``coref_evaluator`` component: coreference scores for any pipeline.

It leaves docs untouched; its ``score()`` runs the configured scorer, so a
pipeline whose coreference component has no ``scorer`` setting (rule-based,
a wrapped third-party model) is scored by ``spacy evaluate`` and in
training. It has no state: ``nlp.to_disk`` and ``spacy.load`` keep only its
config.
"""

from collections.abc import Iterable
from typing import Any, Callable

from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc
from spacy.training import Example

DEFAULT_SCORER = {"@scorers": "spacy_coref_eval.coref_scorer.v1"}
DEFAULT_SCORE_WEIGHTS = {"coref_f": 1.0, "coref_p": None, "coref_r": None}


class CorefEvaluator(Pipe):
    """A no-op component whose :meth:`score` is ``scorer``."""

    def __init__(self, name: str, scorer: Callable[..., dict[str, Any]]) -> None:
        self.name = name
        self.scorer = scorer

    def __call__(self, doc: Doc) -> Doc:
        return doc

    def score(self, examples: Iterable[Example], **kwargs: Any) -> dict[str, Any]:
        return self.scorer(examples, **kwargs)


@Language.factory("coref_evaluator", default_config={"scorer": DEFAULT_SCORER}, default_score_weights=DEFAULT_SCORE_WEIGHTS)
def make_coref_evaluator(nlp: Language, name: str, scorer: Callable[..., dict[str, Any]]) -> CorefEvaluator:
    """Factory of ``coref_evaluator``; ``scorer`` defaults to
    ``spacy_coref_eval.coref_scorer.v1``, whose ``coref_f`` (the headline
    metric, LEA by default) gets the training weight."""
    return CorefEvaluator(name, scorer)
