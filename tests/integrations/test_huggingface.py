"""The Hugging Face ``evaluate`` module (integrations/huggingface/coreference),
loaded and run through ``evaluate`` itself: the command line's numbers on
LitBank, 100 where two documents reuse an entity id, and the numbers of
Hugging Face's ``coval`` module on single documents (its outputs recorded
in tests/data/hf_coval with their provenance)."""

import gzip
import json
import math
from pathlib import Path
from typing import Any

import evaluate
import pytest
from click.testing import CliRunner

from spacy_coref_eval.cli import app
from tests.conftest import REPO, data_path
from tests.support.litbank import litbank, litbank_files as written_litbank

MODULE = REPO / "integrations" / "huggingface" / "coreference"
COVAL_KEYS = ("mentions", "muc", "bcub", "ceafe", "lea")
TOLERANCE = 1e-12


@pytest.fixture(scope="module")
def metric():
    return evaluate.load(str(MODULE))


def sentences_of(path: Path) -> list[list[str]]:
    """A CoNLL-2012 file as coval's module takes it: every sentence's word
    lines, columns joined with spaces."""
    sentences: list[list[str]] = [[]]
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            if sentences[-1]:
                sentences.append([])
            continue
        sentences[-1].append(" ".join(line.split()))
    return [sentence for sentence in sentences if sentence]


def cli_metrics(key: Path, response: Path, *extra: str) -> dict[str, Any]:
    run = CliRunner().invoke(app, ["score", str(key), str(response), "-f", "json", *extra])
    assert run.exit_code == 0, run.output
    return json.loads(run.stdout)["metrics"]


def assert_same_as_cli(ours: dict[str, Any], metrics: dict[str, Any]) -> None:
    for name, rates in metrics.items():
        if name == "conll":
            assert math.isclose(ours["conll_score"], 100 * rates["f1"], rel_tol=0, abs_tol=1e-10)
            continue
        for rate in ("recall", "precision", "f1"):
            assert math.isclose(ours[f"{name}/{rate}"], rates[rate], rel_tol=0, abs_tol=TOLERANCE), (name, rate)
    assert {key.split("/")[0] for key in ours if "/" in key} == set(metrics) - {"conll"}


@pytest.fixture(scope="module")
def litbank_files(tmp_path_factory) -> dict[str, Path]:
    return written_litbank(tmp_path_factory.mktemp("hf"))


def test_litbank_sentences_score_as_the_command_line(metric, litbank_files):
    ours = metric.compute(predictions=sentences_of(litbank_files["response"]), references=sentences_of(litbank_files["key"]))
    assert ours["n_documents"] == len(litbank().documents)
    assert_same_as_cli(ours, cli_metrics(litbank_files["key"], litbank_files["response"]))


def test_litbank_clusters_score_as_the_command_line(metric, litbank_files):
    corpus = litbank()

    def lists(clusters):
        return [[list(span) for span in entity] for entity in clusters.entities()]

    names = list(corpus.documents)
    ours = metric.compute(predictions=[lists(corpus.system[n]) for n in names], references=[lists(corpus.key[n]) for n in names])
    assert_same_as_cli(ours, cli_metrics(litbank_files["key"], litbank_files["response"]))
    inclusive = metric.compute(
        predictions=[[[[s, e - 1] for s, e in entity] for entity in lists(corpus.system[n])] for n in names],
        references=[[[[s, e - 1] for s, e in entity] for entity in lists(corpus.key[n])] for n in names],
        span_end="inclusive",
    )
    assert inclusive == ours


@pytest.mark.parametrize(
    "options, extra",
    [
        ({"keep_singletons": False}, ["--singletons", "remove"]),
        ({"twinless": "b3all"}, ["--twinless", "b3all"]),
        pytest.param({"preset": "coval"}, ["--preset", "coval"], marks=pytest.mark.slow),
    ],
)
def test_options_are_the_command_lines(metric, litbank_files, options, extra):
    ours = metric.compute(predictions=sentences_of(litbank_files["response"]), references=sentences_of(litbank_files["key"]), **options)
    assert_same_as_cli(ours, cli_metrics(litbank_files["key"], litbank_files["response"], *extra))


def test_min_span_and_np_only_are_covals_on_parsed_files(metric):
    key, response = data_path("coval", "gen-1000.key.conll"), data_path("coval", "gen-1000.response.conll")
    for options, extra in (({"min_span": True}, ["--mina"]), ({"NP_only": True}, ["--np-only"])):
        ours = metric.compute(predictions=sentences_of(response), references=sentences_of(key), **options)
        assert ours["n_documents"] == 3
        assert_same_as_cli(ours, cli_metrics(key, response, *extra))


@pytest.fixture(scope="module")
def recorded() -> dict[str, Any]:
    return json.loads(gzip.decompress(data_path("hf_coval", "outputs.json.gz").read_bytes()))


def test_the_fixture_says_where_it_comes_from(recorded):
    provenance = recorded["provenance"]
    assert provenance["evaluate"]["commit"] and provenance["coval"]["commit"]
    assert provenance["command"].startswith("PYTHONPATH=")
    assert sum(name.startswith("random-") for name in recorded["cases"]) == provenance["n_random_documents"] == 300


@pytest.mark.slow
def test_single_documents_score_as_huggingfaces_coval(metric, recorded):
    """On one document per call, where coval's module is right, every one
    of its numbers (mentions, MUC, B³, CEAFe, LEA; CoNLL in percent)."""
    compared = 0
    for name, case in recorded["cases"].items():
        if not name.startswith("random-"):
            continue
        theirs = case["coval"]["output"]
        ours = metric.compute(predictions=case["predictions"], references=case["references"])
        assert set(theirs) <= set(ours)
        for key, value in theirs.items():
            assert math.isclose(ours[key], value, rel_tol=0, abs_tol=TOLERANCE), (name, key, ours[key], value)
        compared += 1
    assert compared == 300


def test_two_documents_reusing_an_entity_id_score_100(metric, recorded):
    case = recorded["cases"]["id-collision"]
    ours = metric.compute(predictions=case["predictions"], references=case["references"])
    assert ours["conll_score"] == 100.0 and ours["n_documents"] == 2
    assert all(ours[f"{name}/f1"] == 1.0 for name in (*COVAL_KEYS, "ceafm", "blanc"))
    assert case["coval"]["output"]["conll_score"] < 64, "coval's module merges the two documents"


def test_min_span_without_parses_is_one_clear_error(metric, recorded):
    case = recorded["cases"]["min_span"]
    assert case["coval"]["error"].startswith("TypeError")
    with pytest.raises(Exception, match="has no parse column"):
        metric.compute(predictions=case["predictions"], references=case["references"], min_span=True)


def test_sentences_group_by_document_and_part_in_any_order(metric):
    a1 = ["a 0 0 John - (0)", "a 0 1 saw - -"]
    a2 = ["a 0 2 himself - (0)"]
    b = ["b 1 0 Mary - (0)", "b 1 1 left - (0)"]
    b_response = ["b 1 0 Mary - (3)", "b 1 1 left - -"]
    ours = metric.compute(predictions=[a1, b_response, a2], references=[a1, a2, b])
    assert ours["n_documents"] == 2
    assert ours["muc/recall"] == 0.5 and ours["muc/precision"] == 1.0
