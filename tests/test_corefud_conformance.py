"""The official CorefUD scorer's numbers on its own test cases, where the
setting is one this scorer has without a CorefUD preset: MUC, B³, CEAFm,
CEAFe and LEA under the case's matching (exact, head, partial) and MOR, on
cases whose mentions are word spans (no discontinuous or zero mentions),
singletons kept as in that suite; the official numbers are the scorer's output (``peer_actual``, or
where that is null its rerun, tests/data/corefud-rerun). The rest (node
sets with empty nodes, discontinuous mentions, its BLANC rule) needs the
preset of docs/corefud.md."""
import json
import math

import pytest

from spacy_coref_eval import CorefInputError, Settings
from spacy_coref_eval.readers.corpus import load_pairs
from spacy_coref_eval.scoring import score_pairs

from .conftest import data_path

CASES = data_path("conformance", "corefud")
ROWS = json.loads((CASES / "expected.json").read_text())["cases"]
RERUN = json.loads(data_path("corefud-rerun", "peer_rerun.json").read_text())["cases"]
for _row, _rerun in zip(ROWS, RERUN):
    assert (_row["test"], _row["metric"]) == (_rerun["test"], _rerun["metric"])
    _row["official"] = _row["peer_actual"] if _row["peer_actual"] is not None else _rerun["rerun"]
PARTITION_METRICS = ("muc", "bcub", "ceafm", "ceafe", "lea")
MATCH = {"exact": "exact", "head": "head", "partial-corefud": "partial"}
EXPECTED_COVERED, EXPECTED_OUTSIDE = 170, 128


def in_scope(row) -> bool:
    return row["metric"] == "mor" or row["metric"] in PARTITION_METRICS


def word_span_pairs(row):
    """The case's documents, or ``None`` when a mention is not a word span."""
    try:
        return load_pairs(CASES / row["key"], CASES / row["response"], formats=("conllu", "conllu"))[0]
    except CorefInputError as err:
        assert "only mentions that are word spans can be scored" in str(err)
        return None


SCOPE = [row for row in ROWS if in_scope(row)]
COVERED = [row for row in SCOPE if word_span_pairs(row) is not None]


def test_the_scope_covers_every_matching_and_mor():
    """Every in-scope case is scored but those with discontinuous or zero
    mentions (the preset's), and no metric is left out."""
    outside = sorted({row["test"] for row in SCOPE if row not in COVERED})
    assert (len(COVERED), len(SCOPE) - len(COVERED)) == (EXPECTED_COVERED, EXPECTED_OUTSIDE), outside
    assert {row["metric"] for row in COVERED} == {*PARTITION_METRICS, "mor"}
    assert {row["matching"] for row in COVERED if row["metric"] != "mor"} == set(MATCH)


@pytest.mark.parametrize("row", COVERED, ids=lambda row: f"{row['test']}-{row['metric']}")
def test_official_corefud_scores(row):
    pairs = word_span_pairs(row)
    settings = Settings.from_options([row["metric"]], MATCH[row["matching"]])
    scores = score_pairs(pairs, settings).metrics()[row["metric"]]
    got = (scores["recall"], scores["precision"], scores["f1"])
    assert all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) for a, b in zip(got, row["official"])), (got, row)
