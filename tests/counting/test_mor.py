"""MOR, the mention overlap ratio (Žabokrtský et al. 2022), against a naive
implementation (every one-to-one alignment tried), and where users see it:
the metric registry, the command line and the spaCy score keys."""

import configparser
import itertools

import spacy
from hypothesis import given, strategies as st
from spacy.training import Example

from spacy_coref_eval import Settings, count_document
from spacy_coref_eval.counting import METRICS, REGISTRY
from tests.conftest import REPO
from tests.support.strategies import deterministic, entities_over, spans


def naive_mor(key, response):
    """(shared, key tokens, shared, response tokens): the best total overlap
    over every one-to-one alignment of key to response mentions."""
    k = [span for entity in key for span in entity]
    r = [span for entity in response for span in entity]

    def overlap(a, b):
        return max(0, min(a[1], b[1]) - max(a[0], b[0]))

    best = 0
    small, large, swap = (k, r, False) if len(k) <= len(r) else (r, k, True)
    for chosen in itertools.permutations(range(len(large)), len(small)):
        best = max(best, sum(overlap(small[i], large[j]) for i, j in enumerate(chosen)))
    return (best, sum(e - s for s, e in k), best, sum(e - s for s, e in r))


@st.composite
def small_documents(draw):
    key_spans = draw(st.lists(spans(max_token=10, max_width=4), max_size=5, unique=True))
    response_spans = draw(st.lists(spans(max_token=10, max_width=4), max_size=5, unique=True))
    return draw(entities_over(key_spans)), draw(entities_over(response_spans))


@deterministic(max_examples=300)
@given(document=small_documents())
def test_mor_is_the_best_alignment_of_mention_tokens(document):
    key, response = document
    counts = count_document(key, response, Settings(("mor",))).block("mor")
    assert counts == naive_mor(key, response)


def test_mor_ignores_the_matching_and_the_entities():
    key = [[(0, 3), (5, 6)]]
    response = [[(1, 3)], [(5, 7)]]
    for match in ("exact", "overlap"):
        assert count_document(key, response, Settings.from_options(["mor"], match)).block("mor") == (3, 4, 3, 4)


def test_every_metric_has_its_registered_scorer_entry_point():
    config = configparser.ConfigParser()
    config.read(REPO / "setup.cfg")
    entry_points = config["options.entry_points"]["spacy_scorers"]
    for name in METRICS:
        assert f"spacy_coref_eval.{name}_scorer.v1 = spacy_coref_eval.pipeline.scorers:make_{name}_scorer" in entry_points
    assert [metric.name for metric in REGISTRY][-2:] == ["mor", "zero"] and {"mor", "zero"} <= set(METRICS)


def test_mor_in_the_spacy_keys_when_chosen():
    nlp = spacy.blank("en")
    reference = nlp.make_doc("Anna met Bob . She left .")
    reference.spans["coref_clusters_1"] = [reference[0:1], reference[4:5]]
    predicted = nlp.make_doc(reference.text)
    predicted.spans["coref_clusters_1"] = [predicted[0:2], predicted[4:5]]
    scorer = spacy.registry.resolve({"s": {"@scorers": "spacy_coref_eval.mor_scorer.v1"}})["s"]
    scores = scorer([Example(predicted, reference)])
    assert scores["coref_mor_r"] == 1.0 and scores["coref_mor_p"] == 2 / 3
    assert scores["coref_f"] == scores["coref_mor_f"]
    default = spacy.registry.resolve({"s": {"@scorers": "spacy_coref_eval.coref_scorer.v1"}})["s"]
    assert "coref_mor_f" not in default([Example(predicted, reference)])


def test_mor_on_the_command_line(tmp_path):
    from click.testing import CliRunner

    from spacy_coref_eval.cli import app
    from spacy_coref_eval.cli.score import DATA

    result = CliRunner().invoke(app, ["score", str(DATA / "demo.key.conll"), str(DATA / "demo.response.conll"), "-m", "muc,mor"])
    assert result.exit_code == 0
    assert any(line.startswith("MOR ") for line in result.stdout.splitlines())
