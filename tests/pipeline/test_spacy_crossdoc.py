"""The spaCy scorer's ``cross_document`` option (docs/crossdoc.md §6):
the examples of one call are one topic whose entities are shared across
docs by a labelled span group's attribute, scored as ``score
--cross-document`` scores the same documents written as CoNLL-2012."""

from collections.abc import Sequence

import pytest
import spacy
from spacy.tokens import Doc, Span
from spacy.training import Example

from spacy_coref_eval.analysis.crossdoc import cross_document, topic_documents
from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.pipeline.registrations import labeled_span_group, prefixed_span_groups
from spacy_coref_eval.pipeline.scorers import make_coref_scorer
from spacy_coref_eval.report.spacy_scores import spacy_scores
from spacy_coref_eval.scoring import evaluate_corpus

TEXTS = ("Anna met Bob in Rome . She smiled at him .", "Anna left Rome . Bob stayed with the dog .")
Marks = Sequence[tuple[int, int, str]]
KEY: tuple[Marks, ...] = (
    [(0, 1, "ANNA"), (2, 3, "BOB"), (4, 5, "ROME"), (6, 7, "ANNA"), (9, 10, "BOB")],
    [(0, 1, "ANNA"), (2, 3, "ROME"), (4, 5, "BOB"), (7, 9, "")],
)
RESPONSE: tuple[Marks, ...] = ([(0, 1, "a"), (2, 3, "b"), (6, 7, "b"), (9, 10, "b")], [(0, 1, "a"), (2, 3, "r"), (4, 5, "c"), (7, 9, "d")])


def marked(nlp, text: str, marks: Marks, attr: str = "kb_id_") -> Doc:
    doc = nlp.make_doc(text)
    doc.spans["chains"] = [
        Span(doc, start, end, **({"kb_id": value} if attr == "kb_id_" else {"span_id": value})) for start, end, value in marks
    ]
    return doc


def examples(nlp) -> list[Example]:
    return [Example(marked(nlp, text, response), marked(nlp, text, key)) for text, key, response in zip(TEXTS, KEY, RESPONSE)]


def conll(path, marks_of: Sequence[Marks]) -> None:
    """The docs as one CoNLL-2012 file, entity ids numbered over the file
    (an empty attribute: an id of its own)."""
    numbers: dict[str, int] = {}
    lines = []
    for index, (text, marks) in enumerate(zip(TEXTS, marks_of)):
        name = f"d{index}"
        lines.append(f"#begin document {name}")
        words = text.split()
        column = ["-"] * len(words)
        for start, end, value in marks:
            number = numbers.setdefault(value or f"single {index} {start}", len(numbers) + 1)
            if end - start == 1:
                column[start] = f"({number})" if column[start] == "-" else f"{column[start]}|({number})"
            else:
                column[start] = f"({number}" if column[start] == "-" else f"{column[start]}|({number}"
                column[end - 1] = f"{number})" if column[end - 1] == "-" else f"{column[end - 1]}|{number})"
        lines.extend(f"{name}\t0\t{i}\t{word}\t{mark}" for i, (word, mark) in enumerate(zip(words, column)))
        lines.extend(["", "#end document"])
    path.write_text("\n".join(lines) + "\n", encoding="utf8")


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en")


def test_scores_equal_the_command_line_on_the_same_documents(nlp, tmp_path):
    key_path, response_path = tmp_path / "key.conll", tmp_path / "response.conll"
    conll(key_path, KEY)
    conll(response_path, RESPONSE)
    run = evaluate_corpus(key_path, response_path, cross_document=True)
    links = cross_document(run.result, topic_documents(run.corpus)).to_dict()
    reader = labeled_span_group("chains", "kb_id_")
    scores = make_coref_scorer(reader=reader, cross_document=True)(examples(nlp))
    expected = spacy_scores(run.metrics(), "lea")
    for key, value in expected.items():
        assert scores[key] == pytest.approx(value), key
    for part in ("within", "across"):
        for metric in ("muc", "blanc", "lea"):
            for short, rate in (("p", "precision"), ("r", "recall"), ("f", "f1")):
                assert scores[f"coref_{metric}_{part}_{short}"] == pytest.approx(links[part][metric][rate])
    assert scores["coref_muc_across_r"] < 1 and scores["coref_muc_f"] < 1


def test_docs_apart_differ_from_the_topic(nlp):
    """Without the option, ``ANNA`` in two docs is two entities."""
    reader = labeled_span_group("chains", "kb_id_")
    apart = make_coref_scorer(reader=reader)(examples(nlp))
    together = make_coref_scorer(reader=reader, cross_document=True)(examples(nlp))
    assert "coref_muc_within_f" not in apart
    assert apart["coref_muc_r"] != together["coref_muc_r"]


def test_the_option_needs_ids_and_shared_tokens(nlp):
    with pytest.raises(ValueError, match="labeled_span_group"):
        make_coref_scorer(reader=prefixed_span_groups(), cross_document=True)
    scorer = make_coref_scorer(reader=labeled_span_group("chains", "kb_id_"), cross_document=True)
    retokenised = Example(marked(nlp, TEXTS[0].replace("Anna met", "Annamet"), []), marked(nlp, TEXTS[0], KEY[0]))
    with pytest.raises(CorefInputError, match="example 0: cross-document scoring needs the predicted doc"):
        scorer([retokenised])


def test_a_config_sets_the_option(nlp):
    from spacy.util import registry
    from thinc.api import Config

    config = Config().from_str("""
[scorer]
@scorers = "spacy_coref_eval.coref_scorer.v1"
cross_document = true

[scorer.reader]
@misc = "spacy_coref_eval.labeled_span_group.v1"
key = "chains"
attr = "kb_id_"
""")
    scorer = registry.resolve(config)["scorer"]
    assert scorer.cross_document
    assert "coref_lea_across_f" in scorer(examples(nlp))
