"""The error-impact waterfall (docs/analyses.md §1) and the error list (§2)
on random key/response pairs: the cumulative steps end at the key, in any
order; a step with no errors changes nothing and one with errors changes
the response; the first step is the run; the list holds what --errors
counts."""

import json
from itertools import permutations

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

from spacy_coref_eval.analysis.document_errors import DocumentErrors
from spacy_coref_eval.analysis.error_list import error_list
from spacy_coref_eval.analysis.error_types import ERROR_KINDS, corpus_error_counts
from spacy_coref_eval.analysis.waterfall import WATERFALL_ORDER, fixed_response, rescore, waterfall
from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.score import DATA
from spacy_coref_eval.counting.counts import FIELDS
from spacy_coref_eval.counting.rates import score_arrays
from spacy_coref_eval.model.clusters import Clusters, Pair
from spacy_coref_eval.scoring import Settings, score_documents, score_pairs
from tests.support.strategies import corpora, deterministic

SETTINGS = {
    "exact": Settings(),
    "overlap": Settings.from_options(match="overlap", min_overlap=0.3),
    "exact, no singletons, b3all": Settings.from_options(singletons="remove", twinless="b3all"),
    "overlap, sys": Settings.from_options(match="overlap", twinless="sys"),
}
KEY, RESPONSE = DATA / "demo.key.conll", DATA / "demo.response.conll"


def documents(result):
    return [DocumentErrors.of(result.twinned, d) for d in range(result.twinned.n_docs)]


def same_clusters(a: Clusters, b: Clusters) -> bool:
    """The same mentions (spans and token sets) in the same entities."""

    def entities(clusters):
        return sorted(sorted(entity) for entity in clusters.entities())

    return entities(a) == entities(b)


def assert_every_defined_metric_is_one(counts, metrics):
    """F1 exactly 1 for every metric whose recall and precision
    denominators are not 0 (0/0 stays 0)."""
    scores = score_arrays(counts[None], metrics)
    for name, block in scores.items():
        if name == "conll":
            continue
        dens = counts.reshape(-1, len(FIELDS))[:, [1, 3]]
        if (dens > 0).all():
            assert block["f1"][0] == 1.0, name


@pytest.mark.parametrize("name", list(SETTINGS))
@deterministic(max_examples=25)
@given(corpus=corpora(max_documents=3, max_mentions=9), order=st.permutations(WATERFALL_ORDER))
def test_the_cumulative_steps_end_at_the_key_in_any_order(name, corpus, order):
    settings = SETTINGS[name]
    result = score_documents(*corpus, settings)
    steps = waterfall(result, order)
    key_against_key = rescore(result, documents(result), WATERFALL_ORDER)
    for doc in documents(result):
        assert same_clusters(fixed_response(doc, order), doc.key)
        assert same_clusters(fixed_response(doc, WATERFALL_ORDER), doc.key)
    itself = score_pairs(
        [Pair(f"d{i}", doc.key, doc.key) for i, doc in enumerate(documents(result))],
        Settings.from_options(settings.metrics, None, settings.twinless, singletons="keep", min_overlap=None),
    )
    assert np.allclose(steps.cumulative[-1], key_against_key.counts, rtol=1e-12, atol=1e-12)
    assert np.allclose(steps.cumulative[-1], itself.counts, rtol=1e-12, atol=1e-12)
    assert_every_defined_metric_is_one(steps.cumulative[-1].sum(axis=0), settings.metrics)
    for d in range(len(result.names)):
        assert_every_defined_metric_is_one(steps.cumulative[-1][d], settings.metrics)


@pytest.mark.parametrize("name", list(SETTINGS))
@deterministic(max_examples=25)
@given(corpus=corpora(max_documents=3, max_mentions=9))
def test_the_first_step_is_the_run_and_a_step_without_errors_changes_nothing(name, corpus):
    result = score_documents(*corpus, SETTINGS[name])
    steps = waterfall(result)
    assert np.allclose(steps.cumulative[0], result.counts, rtol=1e-12, atol=1e-12)
    totals = steps.fixed.sum(axis=0)
    for i, _kind in enumerate(WATERFALL_ORDER):
        if totals[i] == 0:
            assert np.array_equal(steps.cumulative[i + 1], steps.cumulative[i])
            assert np.array_equal(steps.alone[i], steps.cumulative[0])
            block = steps.to_dict()["steps"][i]
            assert block["fixed"] == 0
            assert all(value == 0.0 for gains in block["gain"].values() for value in gains.values())


@deterministic(max_examples=80)
@given(corpus=corpora(max_documents=2, max_mentions=9), order=st.permutations(WATERFALL_ORDER))
def test_every_fix_changes_the_response_exactly_when_its_kind_has_errors(corpus, order):
    """No step is a fix of nothing: from any set of fixes already made, a
    kind with errors changes the response and a kind without leaves it as
    it is (the same clusters, not only the same scores)."""
    result = score_documents(*corpus, SETTINGS["overlap"])
    for doc in documents(result):
        counts = doc.counts()
        for i, kind in enumerate(order):
            before = fixed_response(doc, order[:i])
            after = fixed_response(doc, order[: i + 1])
            assert same_clusters(before, after) == (counts[kind] == 0), kind


@deterministic(max_examples=80)
@given(corpus=corpora(max_documents=3, max_mentions=9))
def test_steps_fix_the_kinds_that_errors_counts(corpus):
    """The waterfall's kinds are --errors' kinds; the mentions of missing
    (extra) entities are fixed with their entities, not as mentions."""
    result = score_documents(*corpus, SETTINGS["overlap"])
    counted = corpus_error_counts(result)
    for name, doc in zip(result.names, documents(result)):
        fixed, errors = doc.counts(), counted[name]
        for kind in ("span_errors", "divided_entities", "conflated_entities", "missing_entities", "extra_entities"):
            assert fixed[kind] == errors[kind]
        in_missing = int(sum((doc.key.entity == g).sum() for g in doc.missing_entities))
        in_extra = int(sum((doc.response.entity == e).sum() for e in doc.extra_entities))
        assert fixed["missing_mentions"] + in_missing == errors["missing_mentions"]
        assert fixed["extra_mentions"] + in_extra == errors["extra_mentions"]


@deterministic(max_examples=80)
@given(corpus=corpora(max_documents=3, max_mentions=9))
def test_the_error_list_holds_what_errors_counts_in_a_fixed_order(corpus):
    result = score_documents(*corpus, SETTINGS["overlap"])
    listed, counted = error_list(result), corpus_error_counts(result)
    for name in result.names:
        assert {kind: len(listed[name][kind]) for kind in ERROR_KINDS} == counted[name]
        for kind in ("missing_mentions", "extra_mentions"):
            spans = [tuple(entry["span"]) for entry in listed[name][kind]]
            assert spans == sorted(spans)
    again = error_list(score_documents(*corpus, SETTINGS["overlap"]))
    assert json.dumps(again) == json.dumps(listed)


def test_the_error_list_of_the_demo():
    result = score_documents(*_demo_clusters())
    alice = error_list(result)["(demo/alice); part 000"]
    assert alice["missing_mentions"] == [{"span": [10, 12], "entity": 4, "entity_missing": False}]
    assert alice["divided_entities"] == [
        {
            "entity": 2,
            "parts": [
                {"response_entity": 1, "mentions": [{"span": [9, 10]}]},
                {"response_entity": 2, "mentions": [{"span": [2, 3]}, {"span": [23, 24]}]},
            ],
        }
    ]
    assert [part["key_entity"] for part in alice["conflated_entities"][0]["parts"]] == [1, 2]


def _demo_clusters():
    from spacy_coref_eval import read_conll

    return tuple({name: doc.clusters for name, doc in read_conll(path).items()} for path in (KEY, RESPONSE))


def test_span_errors_take_their_twins_tokens():
    key = [[(0, 2), (5, 7)]]
    response = [[(0, 3), (5, 7)]]
    result = score_pairs([("d", key, response)], SETTINGS["overlap"])
    doc = documents(result)[0]
    assert doc.counts()["span_errors"] == 1
    assert fixed_response(doc, ["span_errors"]).entities() == (((0, 2), (5, 7)),)
    steps = waterfall(result).to_dict()
    assert steps["steps"][0]["fixed"] == 1
    assert steps["steps"][0]["metrics"]["muc"]["f1"] == 1.0


def test_fixes_commute():
    """The response after a set of fixes is the same in every order."""
    key = [[(0, 1), (2, 3), (4, 5)], [(6, 7), (8, 9)], [(10, 11)]]
    response = [[(0, 1), (6, 7), (12, 13)], [(2, 3), (8, 9)], [(14, 15)]]
    doc = documents(score_pairs([("d", key, response)]))[0]
    kinds = ("extra_mentions", "conflated_entities", "divided_entities", "missing_mentions")
    shapes = {tuple(sorted(tuple(sorted(e)) for e in fixed_response(doc, order).entities())) for order in permutations(kinds)}
    assert len(shapes) == 1


def test_cli_waterfall_and_errors_list_in_json(tmp_path):
    out = tmp_path / "w.json"
    result = CliRunner().invoke(app, ["score", str(KEY), str(RESPONSE), "--waterfall", "--errors-list", "--per-doc", "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["waterfall"]["order"] == list(WATERFALL_ORDER)
    assert data["waterfall"]["original"]["conll"] == data["metrics"]["conll"]
    last = data["waterfall"]["steps"][-1]["metrics"]
    assert {name: block["f1"] for name, block in last.items()} == {name: 1.0 for name in last}
    assert set(data["errors_list"]) == set(data["documents"])
    for document in data["documents"].values():
        assert document["waterfall"]["steps"][-1]["metrics"]["conll"]["f1"] == 1.0
    text = CliRunner().invoke(app, ["score", str(KEY), str(RESPONSE), "--waterfall", "--errors-list"])
    assert "Points each kind gains, fixed alone" in text.output
    assert '"a letter"' in text.output


def test_default_output_is_unchanged_by_the_new_analyses():
    plain = CliRunner().invoke(app, ["score", str(KEY), str(RESPONSE), "-f", "json"])
    data = json.loads(plain.output)
    assert not {"waterfall", "errors_list", "strata", "variants"} & set(data)


@pytest.fixture(scope="module")
def gum(tmp_path_factory):
    from tests.support.gum_pair import write_gum_pair

    return write_gum_pair(tmp_path_factory.mktemp("gum"))


@pytest.mark.parametrize(
    "match, singletons, zeros", [("head", "remove", "keep"), ("partial", "keep", "keep"), ("exact", "remove", "exclude")]
)
def test_corefud_documents_reach_the_key(gum, match, singletons, zeros):
    """Token sets, zero mentions and heads: under the CorefUD conventions
    the first step is the run, the last the key (every metric 1)."""
    from spacy_coref_eval import evaluate_corpus

    run = evaluate_corpus(*gum, preset="corefud", match=match, singletons=singletons, zeros=zeros)
    steps = waterfall(run.result)
    assert np.allclose(steps.cumulative[0], run.result.counts, rtol=1e-12, atol=1e-12)
    assert steps.fixed.sum() > 0
    final = steps.to_dict()["steps"][-1]["metrics"]
    assert {name: block["f1"] for name, block in final.items()} == {name: 1.0 for name in final}
    assert {kind: sum(len(doc[kind]) for doc in error_list(run.result).values()) for kind in ERROR_KINDS} == (
        corpus_error_counts(run.result)["total"]
    )
