"""The official CorefUD scorer's numbers on 120 random CoNLL-U key/response
pairs, in all 24 of its modes (matching × singletons × zeros × zero
matching): repeated node sets across entities, zeros matched linearly and by
dependencies, entities emptied by zero exclusion, discontinuous mentions,
eids reused across documents. The official output is in
tests/data/corefud-rerun/random_fixtures.json.gz (provenance in its ``about``). Where the official
scorer raises on a metric, that metric is not compared (docs/corefud.md §10).
A fixed sample of 15 cases runs in the fast loop, all 120 under ``slow``."""

import gzip
import json
import math
import warnings

import pytest

from spacy_coref_eval import Settings
from spacy_coref_eval.errors import CorefEvalWarning
from spacy_coref_eval.formats.corpus import read_corpus
from spacy_coref_eval.scoring import score_pairs
from tests.conftest import data_path

FIXTURES = json.loads(gzip.decompress(data_path("corefud-rerun", "random_fixtures.json.gz").read_bytes()))
METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mor", "zero")
FAST = {case["id"] for case in FIXTURES["cases"][::8]}
"""Every eighth case: 15 cases for the fast loop."""


CASES = [pytest.param(case, id=case["id"], marks=() if case["id"] in FAST else (pytest.mark.slow,)) for case in FIXTURES["cases"]]


def _pairs(case, tmp_path):
    key, response = tmp_path / "key.conllu", tmp_path / "response.conllu"
    key.write_text(case["key"], encoding="utf-8")
    response.write_text(case["response"], encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CorefEvalWarning)
        return read_corpus(key, response).pairs


def _scores(pairs, mode):
    match, singletons, zeros, zero_match = mode.split("-")
    settings = Settings.from_options(METRICS, match, singletons=singletons, preset="corefud", zeros=zeros, zero_match=zero_match)
    return score_pairs(pairs, settings).metrics()


@pytest.mark.parametrize("case", CASES)
def test_every_mode_equals_the_official_scorer(case, tmp_path):
    pairs = _pairs(case, tmp_path)
    compared = 0
    for mode in FIXTURES["modes"]:
        official = case["official"][mode]
        got = _scores(pairs, mode)
        for metric in METRICS:
            if metric in official["errors"]:
                continue
            ours = [got[metric][rate] for rate in ("recall", "precision", "f1")]
            expected = official["metrics"][metric]
            assert all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) for a, b in zip(ours, expected)), (mode, metric, ours, expected)
            compared += 1
    assert compared > 0


def test_the_sample_covers_what_the_preset_must_reproduce(tmp_path):
    """The fast sample has node sets given in several entities and
    entities emptied by zero exclusion (the only cause of the metrics the
    official scorer cannot score, all under ``exclude``)."""
    sample = [case for case in FIXTURES["cases"] if case["id"] in FAST]
    assert len(sample) == 15
    assert any(
        pair.key.memberships is not None or pair.response.memberships is not None for case in sample for pair in _pairs(case, tmp_path)
    )
    assert any(case["official"][mode]["errors"] for case in sample for mode in FIXTURES["modes"] if "exclude" in mode)
    assert not any(case["official"][mode]["errors"] for case in FIXTURES["cases"] for mode in FIXTURES["modes"] if "exclude" not in mode)
