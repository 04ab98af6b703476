"""compare with three or more systems: a ranking whose every pair equals
the two-system comparison, and whose scores equal each system's score."""

import json

import pytest
from click.testing import CliRunner

from spacy_coref_eval.cli import app
from spacy_coref_eval.formats.conll.write import write_conll
from tests.support.litbank import litbank

runner = CliRunner()
OPTIONS = ["--rounds", "200", "--n-resamples", "100", "--seed", "5"]


@pytest.fixture(scope="module")
def systems(tmp_path_factory):
    """The LitBank key and, given in scrambled order, a perfect system, a
    perturbed one and a damaged one (20 documents)."""
    folder = tmp_path_factory.mktemp("ranking")
    corpus = litbank()
    names = sorted(corpus.key)[:20]
    files = {}
    for label, clusters in (("key", corpus.key), ("perfect", corpus.key), ("system", corpus.system), ("damaged", corpus.damaged)):
        path = folder / f"{label}.conll"
        documents = corpus.documents
        write_conll(path, [(n, documents[n].words, clusters[n], documents[n].sentence_starts) for n in names])
        files[label] = str(path)
    return files


def invoke(*args):
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def test_three_systems_are_ranked_with_every_pair_as_compare_gives_it(systems):
    given = [systems["system"], systems["damaged"], systems["perfect"]]
    data = json.loads(invoke("compare", systems["key"], *given, *OPTIONS, "-f", "json"))
    assert [entry["system"] for entry in data["ranking"]] == [systems["perfect"], systems["system"], systems["damaged"]]
    assert data["rank_by"] == "conll" and data["systems"] == given
    for entry in data["ranking"]:
        scored = json.loads(invoke("score", systems["key"], entry["system"], "-f", "json"))["metrics"]
        assert entry["f1"] == {name: scored[name]["f1"] for name in entry["f1"]}
        low, high = entry["interval"]
        assert low <= entry["f1"]["conll"] <= high
    assert data["ranking"][0]["f1"]["conll"] == 1.0
    assert len(data["pairs"]) == 3
    for pair in data["pairs"]:
        alone = json.loads(invoke("compare", systems["key"], pair["a"], pair["b"], *OPTIONS, "-f", "json"))
        assert pair["metrics"] == alone["metrics"]
    for high, low in zip(data["ranking"], data["ranking"][1:]):
        against = high["against_next"]
        assert against["a"] == high["f1"]["conll"] and against["b"] == low["f1"]["conll"]
        assert against["difference"] == pytest.approx(low["f1"]["conll"] - high["f1"]["conll"])
    assert "against_next" not in data["ranking"][-1]


def test_the_ranking_table_and_its_refusals(systems):
    text = invoke("compare", systems["key"], systems["damaged"], systems["perfect"], systems["system"], *OPTIONS, "--rank-by", "lea")
    lines = [line for line in text.splitlines() if line.strip()]
    assert "ranked by lea F1" in lines[0]
    assert lines[1].split()[:3] == ["Rank", "System", "LEA"]
    assert lines[3].split()[:3] == ["1", systems["perfect"], "100.00"]
    assert "perfect" in lines[3] and "system" in lines[4] and "damaged" in lines[5]
    one = runner.invoke(app, ["compare", systems["key"], systems["system"]])
    assert one.exit_code == 2 and "at least two systems" in one.output
    files = [systems["key"], systems["system"], systems["damaged"], systems["perfect"]]
    wrong = runner.invoke(app, ["compare", *files, "--rank-by", "cheese"])
    assert wrong.exit_code == 2 and "'cheese' is not one of 'conll', 'mentions', 'muc'" in wrong.output
    absent = runner.invoke(app, ["compare", *files, "--rank-by", "mor"])
    assert absent.exit_code == 1 and "cannot rank by 'mor'" in absent.output
    classes = runner.invoke(app, ["compare", systems["key"], systems["system"], systems["damaged"], systems["perfect"], "--classes"])
    assert classes.exit_code == 2 and "--classes compares two systems" in classes.output


def test_the_ranking_page_plots_every_system_best_first(systems, tmp_path):
    page = tmp_path / "ranking.html"
    given = [systems["damaged"], systems["perfect"], systems["system"]]
    invoke("compare", systems["key"], *given, *OPTIONS, "--html", str(page))
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and "<script" not in html
    rows = html.split('<g data-system="')[1:]
    assert [row.split('"')[0] for row in rows] == ["1", "2", "3"]
    assert "perfect.conll: 100.00 (100.00–100.00)" in rows[0]
    assert "damaged.conll" in rows[2]
    assert html.count("<tr>") == 4
    two = runner.invoke(app, ["compare", systems["key"], systems["system"], systems["damaged"], "--html", str(page)])
    assert two.exit_code == 2 and "three or more systems" in two.output


def test_a_system_missing_documents_is_refused_as_compare_refuses_it(systems, tmp_path):
    """Like two systems, three must hold the same documents: a missing one
    would otherwise be ranked as an empty response."""
    fewer = tmp_path / "fewer.conll"
    text = open(systems["system"], encoding="utf8").read()
    fewer.write_text(text[text.index("#begin document", 1) :], encoding="utf8")
    result = runner.invoke(app, ["compare", systems["key"], systems["system"], systems["perfect"], str(fewer), *OPTIONS])
    assert result.exit_code == 1
    assert "they hold different documents (1 only in system.conll" in result.output


@pytest.mark.parametrize("given", [("system", "damaged"), ("system", "damaged", "perfect")], ids=["compare", "rank"])
def test_compare_and_rank_stream_each_system_with_the_same_bytes(systems, given):
    """Large files stream through compare and rank (only each system's
    counts are kept); the output is the bytes of reading them whole."""
    from spacy_coref_eval.formats import stream
    from tests.support.strategies import limits_env, patched

    args = ["compare", systems["key"], *(systems[label] for label in given), *OPTIONS, "-f", "json"]
    whole = invoke(*args)
    streamed = []
    original = stream.StreamPlan.corpus

    def counted(plan, batches, unpaired=None):
        streamed.append(len(batches))
        return original(plan, batches, unpaired)

    with limits_env(stream_from=0), limits_env(batch_bytes=50_000), patched(stream.StreamPlan, "corpus", counted):
        assert invoke(*args) == whole
    assert len(streamed) == len(given) and min(streamed) > 1
