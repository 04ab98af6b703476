"""The reference scorer's own numbers (tests/data/conformance/expected.json)."""

import json
import math

import pytest

from spacy_coref_eval import Settings, read_conll, score_documents
from tests.conftest import data_path

CONFORMANCE = data_path("conformance")
CASES = json.loads((CONFORMANCE / "expected.json").read_text())["cases"]
SETTINGS = {"default": Settings(), "explicit": Settings.from_options(match="exact", twinless="conll", singletons="keep")}


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def score_case(case, settings):
    key = {name: doc.clusters for name, doc in read_conll(CONFORMANCE / case["key"]).items()}
    response = {name: doc.clusters for name, doc in read_conll(CONFORMANCE / case["response"]).items()}
    return score_documents(key, response, settings)


def quad(block):
    return [block["recall_num"], block["recall_den"], block["precision_num"], block["precision_den"]]


@pytest.mark.parametrize("setting", sorted(SETTINGS))
@pytest.mark.parametrize("name", sorted(CASES))
def test_reference_counts(name, setting):
    case = CASES[name]
    result = score_case(case, SETTINGS[setting])
    counts = result.total.as_dict()
    metrics = result.metrics()
    for metric, expected in case["counts"].items():
        if metric == "blanc":
            for part in ("coref_links", "noncoref_links"):
                want = expected[part]["recall"] + expected[part]["precision"]
                got = quad(counts["blanc"][part])
                assert all(map(close, got, want)), (name, part, got, want)
            want = [expected["blanc"]["recall"][0], expected["blanc"]["precision"][0]]
            got = [metrics["blanc"]["recall"], metrics["blanc"]["precision"]]
            assert all(map(close, got, want)), (name, "blanc", got, want)
        else:
            want = expected["recall"] + expected["precision"]
            got = quad(counts[metric])
            assert all(map(close, got, want)), (name, metric, got, want)


@pytest.mark.parametrize("name", sorted(n for n in CASES if "rpf" in CASES[n]))
def test_published_scores(name):
    """The suite's published recall/precision/F1, printed to 5 or more
    decimals; A9 is checked here only, after de-duplication."""
    case = CASES[name]
    metrics = score_case(case, Settings()).metrics()
    for metric, (recall, precision, f1) in case["rpf"].items():
        got = metrics[metric]
        assert got["recall"] == pytest.approx(recall, abs=1e-5), (name, metric)
        assert got["precision"] == pytest.approx(precision, abs=1e-5), (name, metric)
        assert got["f1"] == pytest.approx(f1, abs=1e-5), (name, metric)


def test_repeated_mentions_are_reported():
    result = score_case(CASES["A9"], Settings())
    assert result.warnings == ["document '(LuoTestCase);': 10 repeated mention(s) in the response dropped (first copy kept)"]


def test_worked_examples_of_the_papers():
    """Luo (2005) Figure 1 and Moosavi & Strube (2016) §5, as docs/metrics.md §2 quotes them."""
    f1 = {r: score_case(CASES[f"luo-{r}"], Settings()).metrics() for r in "abcd"}
    expected = {
        "muc": (0.947, 0.947, 0.900, 0.0),
        "bcub": (0.865, 0.737, 0.545, 0.400),
        "ceafm": (0.833, 0.583, 0.417, 0.250),
        "ceafe": (0.733, 0.667, 0.294, 0.178),
    }
    for metric, values in expected.items():
        got = tuple(round(f1[r][metric]["f1"], 3) for r in "abcd")
        assert got == values, metric
    lea = score_case(CASES["lea-sec5"], Settings()).metrics()["lea"]
    assert round(lea["recall"], 2) == 0.24
    assert round(lea["precision"], 2) == 0.33
