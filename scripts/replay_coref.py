"""``replay_coref``: a stand-in coreference component for the project.

It copies the clusters (span groups ``coref_clusters_N``) of a predictions
file onto every doc with the same text, matching spans by character offsets,
so that ``spacy evaluate`` with ``coref_evaluator`` scores the same
predictions as ``spacy-coref-eval score``. Load it with ``--code``.
"""

from spacy.language import Language
from spacy.tokens import Doc

from spacy_coref_eval.formats.docbin.docs import CLUSTER_PREFIX, read_docbin
from spacy_coref_eval.formats.docbin.spans import PrefixedSpanGroups

CharEntities = list[list[tuple[int, int]]]


class ReplayCoref:
    """Sets the predicted clusters stored for a doc's text."""

    def __init__(self, predictions: dict[str, CharEntities]) -> None:
        self.predictions = predictions

    def __call__(self, doc: Doc) -> Doc:
        for number, entity in enumerate(self.predictions.get(doc.text, []), 1):
            spans = [doc.char_span(start, end) for start, end in entity]
            doc.spans[f"{CLUSTER_PREFIX}_{number}"] = [span for span in spans if span is not None]
        return doc


@Language.factory("replay_coref", default_config={"predictions": None})
def make_replay_coref(nlp: Language, name: str, predictions: str) -> ReplayCoref:
    """``predictions``: a ``.spacy`` file with span groups ``coref_clusters_N``."""
    reader = PrefixedSpanGroups(CLUSTER_PREFIX)
    by_text = {
        doc.text: [[(span.start_char, span.end_char) for span in entity] for entity in reader(doc)] for doc in read_docbin(predictions)
    }
    return ReplayCoref(by_text)
