"""The UA scorer's own test suites (unittests.py, 115 assertions;
plural_unittests.py, 81) through ``evaluate_corpus(..., preset="ua")``:
every asserted recall, precision and F1 equal to the UA scorer's output
(tests/data/ua/suite_cases.json.gz, see tests/data/README.md) to 1e-9."""

import gzip
import json

import pytest

from spacy_coref_eval.scoring import evaluate_corpus
from tests.conftest import REPO

DATA = REPO / "tests" / "data" / "ua"
CASES = json.loads(gzip.decompress((DATA / "suite_cases.json.gz").read_bytes()))["cases"]


def _ids(case):
    return f"{case['suite']}:{case['line']}:{case['test']}:{case['metric']}"


def _score(tmp_path, case, **names):
    key, response = tmp_path / "key.ua", tmp_path / "response.ua"
    key.write_text(case["key"], encoding="utf8")
    response.write_text(case["response"], encoding="utf8")
    return evaluate_corpus(key, response, preset="ua", **names).metrics()


@pytest.mark.parametrize("suite, count", [("unittests.py", 115), ("plural_unittests.py", 81)])
def test_every_assertion_is_transcribed(suite, count):
    assert sum(case["suite"] == suite for case in CASES) == count


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_every_assertion(tmp_path, case):
    scores = _score(tmp_path, case)[case["metric"]]
    for rate in ("recall", "precision", "f1"):
        assert scores[rate] == pytest.approx(case["peer_actual"][rate], abs=1e-9)
        assert scores[rate] == pytest.approx(case["expected"][rate], abs=1e-4)
