"""``agree``: pairwise scores equal ``score A B``, Krippendorff's alpha
(MASI) equals NLTK's, missing documents are missing data."""

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st
from nltk.metrics import agreement as nltk_agreement, distance as nltk_distance

from spacy_coref_eval.analysis.agreement import Annotation, agreement, read_annotation
from spacy_coref_eval.analysis.krippendorff import masi_distance, triples
from spacy_coref_eval.cli import app
from spacy_coref_eval.formats import get_format
from spacy_coref_eval.formats.document import Side, WordsDocument
from spacy_coref_eval.model.clusters import Clusters
from spacy_coref_eval.scoring import Options, evaluate_corpus
from tests.conftest import REPO
from tests.support.strategies import deterministic

DATA = REPO / "spacy_coref_eval" / "data"
KEY, RESPONSE = DATA / "demo.key.conll", DATA / "demo.response.conll"
WORDS = [f"w{i}" for i in range(12)]


def nltk_alpha(result, linking=False):
    """NLTK's alpha of the triples of every unit (with ``linking``: of the
    units every annotator marked, values restricted to them)."""
    units = {}
    for doc in result.units:
        kept = doc.linking_units() if linking else range(len(doc.units))
        idents = frozenset(doc.units[u].ident for u in kept)
        for u in kept:
            units[doc.units[u].ident] = {
                result.annotators[a]: (doc.values[a][u] & idents if linking else doc.values[a][u]) for a in doc.annotators
            }
    task = nltk_agreement.AnnotationTask(triples(units), distance=nltk_distance.masi_distance)
    return task.alpha()


def side(name, entities_by_doc):
    documents = [WordsDocument(doc, Clusters.from_entities(entities), list(WORDS)) for doc, entities in entities_by_doc.items()]
    return Annotation(name, Side(Path(name), get_format("conll"), documents), Side(Path(name), get_format("conll"), documents))


def test_masi_distance_is_nltks():
    for a, b in [({1}, {1}), ({1, 2}, {1, 2, 3, 4}), ({1, 2}, {2, 3}), ({1}, {2}), ({"not marked"}, {1, 2})]:
        assert masi_distance(frozenset(a), frozenset(b)) == pytest.approx(nltk_distance.masi_distance(set(a), set(b)), abs=1e-12)


def test_demo_files_alpha_equals_nltk():
    options = Options.from_names()
    annotations = [read_annotation(path, name, options) for path, name in ((KEY, "a"), (RESPONSE, "b"), (KEY, "c"))]
    result = agreement(annotations, options, level=None)
    assert result.alpha()["masi"] == pytest.approx(nltk_alpha(result), abs=1e-9)
    assert 0 < result.alpha()["masi"] < 1


@st.composite
def annotations(draw):
    n_annotators = draw(st.integers(2, 4))
    spans = [(s, s + w) for s in range(10) for w in (1, 2)]
    out = []
    for a in range(n_annotators):
        docs = {}
        for doc in ("d0", "d1"):
            if a and draw(st.booleans()) and draw(st.booleans()):
                continue
            chosen = draw(st.lists(st.sampled_from(spans), max_size=6, unique=True))
            labels = draw(st.lists(st.integers(0, 2), min_size=len(chosen), max_size=len(chosen)))
            entities = {}
            for span, label in zip(chosen, labels):
                entities.setdefault(label, []).append(span)
            docs[doc] = list(entities.values())
        out.append(side(f"a{a}", docs))
    return out


@deterministic(60)
@given(annotations())
def test_random_alpha_equals_nltk(drawn):
    result = agreement(drawn, Options.from_names(), level=None)
    ours = result.alpha()["masi"]
    units = sum(len(doc.units) for doc in result.units)
    values = {v for doc in result.units for a in doc.annotators for v in doc.values[a]}
    if ours is None or units == 0:
        return
    if len(values) == 1:
        assert ours == 1.0
        return
    assert ours == pytest.approx(nltk_alpha(result), abs=1e-9)
    linking = result.alpha()["linking"]
    linking_values = {value for doc in result.units for unit in doc.linking_values() for value in unit}
    if linking is not None and len(linking_values) > 1:
        assert linking == pytest.approx(nltk_alpha(result, linking=True), abs=1e-9)


@deterministic(30)
@given(annotations())
def test_random_identical_annotators_agree_fully(drawn):
    first = drawn[0]
    result = agreement([first, replace(first, name="copy")], Options.from_names(), level=None)
    if result.alpha()["masi"] is not None:
        assert result.alpha()["masi"] == 1.0
    for matrix in result.pairwise.values():
        # every cell is score A A, 1 wherever the metric is defined (MUC and BLANC of singletons alone give 0)
        assert matrix[0][1] == matrix[1][0] == matrix[0][0] == matrix[1][1]
    assert result.disagreements() == []


@deterministic(30)
@given(annotations())
def test_random_removal_of_a_document_changes_only_its_units(drawn):
    last = drawn[-1]
    if len(last.key.documents) < 2:
        return
    removed = last.key.documents[-1].name
    kept = [d for d in last.key.documents if d.name != removed]
    shorter = replace(last, key=replace(last.key, documents=kept), response=replace(last.response, documents=kept))
    before = {doc.name: doc for doc in agreement(drawn, Options.from_names(), level=None).units}
    after = {doc.name: doc for doc in agreement([*drawn[:-1], shorter], Options.from_names(), level=None).units}
    for name, doc in before.items():
        if name != removed:
            assert after[name].values == doc.values and after[name].units == doc.units
    if removed in after:
        assert len(drawn) - 1 not in after[removed].annotators


@pytest.mark.filterwarnings("ignore:bootstrap intervals")
def test_identical_annotators_agree_fully():
    options = Options.from_names()
    annotations = [read_annotation(KEY, name, options) for name in "abc"]
    result = agreement(annotations, options, level=0.95, n_resamples=50)
    data = result.to_dict()
    assert data["alpha"]["masi"] == 1.0 and data["alpha"]["linking"] == 1.0
    for metric, matrix in data["pairwise"].items():
        assert all(cell == pytest.approx(1.0) for row in matrix for cell in row), metric
    assert data["disagreements"] == []


def test_cells_equal_score_and_are_symmetric():
    options = Options.from_names()
    annotations = [read_annotation(KEY, "a", options), read_annotation(RESPONSE, "b", options)]
    data = agreement(annotations, options, level=None).to_dict()
    ab = evaluate_corpus(KEY, RESPONSE).metrics()
    ba = evaluate_corpus(RESPONSE, KEY).metrics()
    for metric, matrix in data["pairwise"].items():
        assert matrix[0][1] == ab[metric]["f1"]
        assert matrix[1][0] == ba[metric]["f1"]
        assert matrix[0][1] == pytest.approx(matrix[1][0], abs=1e-12)


def test_missing_document_changes_only_its_units():
    full = {"d0": [[(0, 1), (3, 4)], [(5, 7)]], "d1": [[(0, 2), (4, 5), (8, 9)]]}
    other = {"d0": [[(0, 1), (5, 7)], [(3, 4)]], "d1": [[(0, 2), (4, 5)], [(8, 9)]]}
    third = {"d0": [[(0, 1), (3, 4), (5, 7)]], "d1": [[(0, 2)], [(4, 5), (8, 9)]]}
    options = Options.from_names()
    before = agreement([side("a", full), side("b", other), side("c", third)], options, level=None)
    after = agreement([side("a", full), side("b", other), side("c", {"d0": third["d0"]})], options, level=None)
    by_doc = {doc.name: doc for doc in before.units}
    changed = {doc.name: doc for doc in after.units}
    assert changed["d0"].values == by_doc["d0"].values
    assert changed["d1"].annotators == [0, 1] and by_doc["d1"].annotators == [0, 1, 2]
    assert after.to_dict()["documents"]["missing"] == {"a": [], "b": [], "c": ["d1"]}
    assert (
        after.pairwise["conll"][0][2]
        == evaluate_corpus(
            Side(Path("a"), get_format("conll"), side("a", {"d0": full["d0"]}).key.documents),
            Side(Path("c"), get_format("conll"), side("c", {"d0": third["d0"]}).key.documents),
        ).metrics()["conll"]["f1"]
    )


def test_linking_is_scored_on_shared_mentions():
    a = side("a", {"d0": [[(0, 1), (3, 4)], [(6, 7)]]})
    b = side("b", {"d0": [[(0, 1), (3, 4)], [(9, 10)]]})
    result = agreement([a, b], Options.from_names(), level=None)
    assert result.linking["muc"][0][1] == 1.0
    assert result.pairwise["mentions"][0][1] == pytest.approx(2 / 3)


def test_consensus_is_the_majority():
    a = side("a", {"d0": [[(0, 1), (3, 4)], [(6, 7)]]})
    c = side("c", {"d0": [[(0, 1)], [(3, 4), (6, 7)], [(9, 10)]]})
    result = agreement([a, a, c], Options.from_names(), level=None)
    ((_, clusters, _, _),) = result.consensus()
    assert clusters.entities() == (((0, 1), (3, 4)), ((6, 7),))


@pytest.mark.filterwarnings("ignore:bootstrap intervals")
def test_command_writes_json_html_and_consensus(tmp_path):
    out, page, draft = tmp_path / "agree.json", tmp_path / "agree.html", tmp_path / "draft.conll"
    run = CliRunner().invoke(
        app,
        [
            "agree",
            str(KEY),
            str(RESPONSE),
            str(KEY),
            "--names",
            "x,y,z",
            "--system",
            str(RESPONSE),
            "--n-resamples",
            "50",
            "-o",
            str(out),
            "--html",
            str(page),
            "--consensus",
            str(draft),
        ],
    )
    assert run.exit_code == 0, run.output
    data = json.loads(out.read_text())
    assert data["annotators"] == ["x", "y", "z"]
    assert data["pairwise"]["conll"][0][1] == evaluate_corpus(KEY, RESPONSE).metrics()["conll"]["f1"]
    assert data["system"]["f1"]["conll"][1] == 1.0
    html = page.read_text()
    assert "Disagreements for adjudication" in html
    assert html.count('<div class="side">') == 3 * 2 and "(the annotators disagree on it)" in html
    consensus = evaluate_corpus(KEY, draft).metrics()
    assert consensus["conll"]["f1"] == 1.0


def test_command_per_doc_table():
    run = CliRunner().invoke(app, ["agree", str(KEY), str(RESPONSE), "--ci", "0", "--per-doc"])
    assert run.exit_code == 0, run.output
    assert "Linking alpha" in run.output and "(demo/storm); part 000" in run.output


def test_command_needs_two_files():
    run = CliRunner().invoke(app, ["agree", str(KEY)])
    assert run.exit_code != 0 and "two or more" in run.output


def test_units_are_twinned_under_other_matchers():
    a = side("a", {"d0": [[(0, 3), (5, 6)]]})
    b = side("b", {"d0": [[(0, 2), (5, 6)]]})
    exact = agreement([a, b], Options.from_names(), level=None)
    overlap = agreement([a, b], Options.from_names(match="overlap"), level=None)
    assert len(exact.units[0].units) == 3 and exact.alpha()["linking_units"] == 1
    assert len(overlap.units[0].units) == 2 and overlap.alpha()["masi"] == 1.0
    assert overlap.pairwise["mentions"][0][1] == 1.0


def test_spacy_span_group_families():
    import spacy
    from spacy.util import registry

    import spacy_coref_eval.pipeline.registrations  # noqa: F401  (registers the functions)

    nlp = spacy.blank("en")
    doc = nlp("Alice met Bob and she greeted him .")
    doc.spans["alice_0"] = [doc[0:1], doc[4:5]]
    doc.spans["alice_1"] = [doc[2:3], doc[6:7]]
    doc.spans["bob_0"] = [doc[0:1], doc[4:5]]
    doc.spans["bob_1"] = [doc[2:3]]
    agree = registry.misc.get("spacy_coref_eval.agreement.v1")(families={"alice": "alice_*", "bob": "bob_*"})
    data = agree([doc])
    assert data["annotators"] == ["alice", "bob"]
    assert data["pairwise"]["mentions"][0][1] == pytest.approx(6 / 7)
    assert [entry["unit"] for entry in data["disagreements"]] == ["'Bob' [2-3)", "'him' [6-7)"]


def test_annotators_without_a_shared_document_are_empty_cells():
    a = side("a", {"d0": [[(0, 1), (2, 3)]]})
    b = side("b", {"d1": [[(0, 1), (2, 3)]]})
    result = agreement([a, b], Options.from_names(), level=None)
    assert result.pairwise["conll"] == [[1.0, None], [None, 1.0]]
    assert result.warnings == ["a and b share no document (by name), so their cells are empty"]
    assert result.alpha()["masi"] is None and result.mean(result.pairwise["conll"]) is None
