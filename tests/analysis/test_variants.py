"""The variant matrix (docs/analyses.md §4): every row equals the separate
``score`` run of its setting; rows whose matching needs heads the input
lacks are not available, the others are scored."""

import json

import pytest
from click.testing import CliRunner

from spacy_coref_eval.analysis.variants import VARIANTS
from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.score import DATA

KEY, RESPONSE = DATA / "demo.key.conll", DATA / "demo.response.conll"
runner = CliRunner()


def score_json(*args):
    result = runner.invoke(app, ["score", *map(str, args), "-f", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def separate_run(key, response, row, extra=()):
    setting = ["--preset", row["preset"], "--match", row["match"], "--singletons", row["singletons"]]
    setting = [] if row["preset"] == "reference" else setting
    return score_json(key, response, *setting, *extra)


@pytest.fixture(scope="module")
def gum(tmp_path_factory):
    from tests.support.gum_pair import write_gum_pair

    return write_gum_pair(tmp_path_factory.mktemp("gum"), n_documents=6)


@pytest.mark.parametrize("extra", [(), ("--metrics", "muc,lea,mor", "--zeros", "exclude")])
def test_every_row_equals_its_own_score_run(gum, extra):
    rows = score_json(*gum, "--variants", *extra)["variants"]
    assert [(row["preset"], row["match"], row["singletons"]) for row in rows] == [
        (preset or "reference", match, singletons) for preset, match, singletons in VARIANTS
    ]
    for row in rows:
        assert row["available"], row
        alone = separate_run(*gum, row, extra)
        assert row["metrics"] == alone["metrics"], row
        assert row["settings"] == alone["settings"]


def test_rows_that_need_heads_are_not_available_without_them():
    data = score_json(KEY, RESPONSE, "--variants")
    rows = {(row["preset"], row["match"], row["singletons"]): row for row in data["variants"]}
    for (_preset, match, _singletons), row in rows.items():
        if match == "exact":
            assert row["metrics"] == separate_run(KEY, RESPONSE, row)["metrics"]
        else:
            assert not row["available"] and "needs mention heads" in row["reason"]
    assert data["metrics"] == rows["reference", "exact", "keep"]["metrics"]


def test_variants_tables_and_refusals():
    table = runner.invoke(app, ["score", str(KEY), str(RESPONSE), "--variants"])
    assert table.exit_code == 0
    assert "corefud head singletons removed: not available" in table.output
    refused = runner.invoke(app, ["score", str(KEY), str(RESPONSE), "--variants", "--match", "head"])
    assert refused.exit_code == 2 and "leave out --match" in refused.output
