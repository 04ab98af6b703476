"""The command line of the statistics: ``score --ci/--macro/--errors`` and
``compare``, their JSON and tables, their determinism and their errors."""

import json

import pytest
from click.testing import CliRunner

from spacy_coref_eval.analysis import ERROR_KINDS
from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.score import DATA
from spacy_coref_eval.formats.conll.write import write_conll
from tests.support.litbank import litbank

runner = CliRunner()
KEY, RESPONSE = DATA / "demo.key.conll", DATA / "demo.response.conll"
METRICS = {"muc", "bcub", "ceafm", "ceafe", "lea", "mentions", "blanc", "conll"}


def run(*args, code=0):
    result = runner.invoke(app, [str(arg) for arg in args])
    assert result.exit_code == code, result.output
    return result


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """LitBank key, a system, a damaged copy and the system on 60 documents."""
    folder = tmp_path_factory.mktemp("systems")
    corpus = litbank()
    names = list(corpus.documents)
    out = {}
    for label, clusters, chosen in (
        ("key", corpus.key, names),
        ("system", corpus.system, names),
        ("damaged", corpus.damaged, names),
        ("partial", corpus.system, names[:60]),
    ):
        out[label] = folder / f"{label}.conll"
        documents = corpus.documents
        write_conll(out[label], [(n, documents[n].words, clusters[n], documents[n].sentence_starts) for n in chosen])
    return out


# --- score --------------------------------------------------------------------


def test_score_json_adds_analyses_and_keeps_the_rest():
    plain = json.loads(run("score", KEY, RESPONSE, "-f", "json", "--per-doc").stdout)
    data = json.loads(run("score", KEY, RESPONSE, "-f", "json", "--per-doc", "--ci", "0.9", "--macro", "--errors").stdout)
    assert list(data) == ["schema_version", "version", "settings", "metrics", "intervals", "macro", "errors", "documents", "warnings"]
    assert all(data[key] == plain[key] for key in ("settings", "metrics", "warnings"))
    for name, document in plain["documents"].items():
        assert list(data["documents"][name]) == ["metrics", "errors"]
        assert data["documents"][name]["metrics"] == document["metrics"]
    intervals = data["intervals"]
    assert (intervals.pop("level"), intervals.pop("n_resamples"), intervals.pop("seed")) == (0.9, 1000, 0)
    assert set(intervals) == METRICS
    low, high = intervals["muc"]["f1"]
    assert low <= data["metrics"]["muc"]["f1"] <= high
    assert set(data["macro"]) == METRICS and data["macro"]["muc"]["n_documents"] == 2
    assert list(data["errors"]) == ["total"] and list(data["errors"]["total"]) == list(ERROR_KINDS)
    documents = data["documents"].values()
    assert all(sum(doc["errors"][k] for doc in documents) == data["errors"]["total"][k] for k in ERROR_KINDS)


def test_score_json_without_flags_has_no_analyses():
    data = json.loads(run("score", KEY, RESPONSE, "-f", "json", "--errors").stdout)
    assert "intervals" not in data and "macro" not in data and "documents" not in data
    assert data["errors"]["total"]["missing_mentions"] == 2


def test_score_table_shows_every_analysis():
    text = run("score", KEY, RESPONSE, "--ci", "0.95", "--macro", "--errors", "--per-doc").stdout
    assert "Bootstrap 95% intervals (1000 resamples of the documents, seed 0)" in text
    assert "Macro averages over documents" in text
    assert "Errors (m. = mentions, e. = entities)" in text
    for row in ("CoNLL ", "total ", "(demo/storm); part 000 ", "Divided e.", "Documents"):
        assert row in text
    interval_rows = [line for line in text.splitlines() if line.startswith("MUC") and " – " in line]
    assert len(interval_rows) == 1 and interval_rows[0].count(" – ") == 3


def test_score_seed_and_resamples_change_the_intervals_reproducibly(tmp_path):
    def intervals(*extra):
        return json.loads(run("score", KEY, RESPONSE, "-f", "json", "--ci", "0.95", *extra).stdout)["intervals"]

    assert intervals("--seed", "4") == intervals("--seed", "4") != intervals("--seed", "5")
    assert intervals("--n-resamples", "50")["n_resamples"] == 50


def test_ci_without_a_value_is_a_usage_error():
    result = run("score", KEY, RESPONSE, "--ci", code=2)
    assert "requires an argument" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("level", ["0", "1", "1.5", "-0.5", "high"])
def test_bad_level_is_a_usage_error(level):
    result = run("score", KEY, RESPONSE, "--ci", level, code=2)
    assert "--ci" in result.output
    assert "Traceback" not in result.output


# --- compare ------------------------------------------------------------------


def test_compare_json_has_every_metric_and_both_p_values(files):
    data = json.loads(run("compare", files["key"], files["system"], files["damaged"], "-f", "json").stdout)
    assert list(data) == [
        "schema_version",
        "version",
        "settings",
        "key",
        "systems",
        "n_documents",
        "rounds",
        "n_resamples",
        "seed",
        "metrics",
        "warnings",
    ]
    assert (data["n_documents"], data["rounds"], data["n_resamples"], data["seed"]) == (100, 10000, 1000, 0)
    assert data["systems"] == {"a": str(files["system"]), "b": str(files["damaged"])}
    assert set(data["metrics"]) == METRICS
    for metric, entry in data["metrics"].items():
        assert entry["difference"] < 0, metric
        assert 0 < entry["p_value_randomization"] < 0.01, metric
        assert 0 <= entry["p_value_bootstrap"] < 0.01, metric
    assert {"recall_p_value_randomization", "precision_p_value_bootstrap"} <= set(data["metrics"]["lea"])


def test_compare_is_deterministic_byte_for_byte(files, tmp_path):
    outputs = []
    for i in range(2):
        path = tmp_path / f"{i}.json"
        run("compare", files["key"], files["system"], files["damaged"], "-f", "json", "--rounds", "2000", "-o", path)
        outputs.append(path.read_bytes())
    assert outputs[0] == outputs[1]
    other = run("compare", files["key"], files["system"], files["damaged"], "-f", "json", "--rounds", "2000", "--seed", "1")
    assert other.stdout.encode() != outputs[0]


def test_compare_table_is_readable(files):
    text = run("compare", files["key"], files["system"], files["damaged"], "-m", "muc,bcub,ceafe").stdout
    assert text.startswith(f"A = {files['system']}, B = {files['damaged']}; 100 documents;")
    header = next(line for line in text.splitlines() if line.startswith("Metric"))
    assert header.split() == ["Metric", "A", "F1", "B", "F1", "B", "−", "A", "p", "randomization", "p", "bootstrap"]
    rows = {line.split()[0]: line.split() for line in text.splitlines() if line.startswith(("MUC", "B³", "CEAFe", "CoNLL"))}
    assert set(rows) == {"MUC", "B³", "CEAFe", "CoNLL"}
    assert rows["CoNLL"][3].startswith("-") and rows["CoNLL"][4] == "0.0001"


def test_compare_identical_systems(files):
    data = json.loads(run("compare", files["key"], files["system"], files["system"], "-f", "json", "--rounds", "500").stdout)
    assert all(entry["p_value_randomization"] == entry["p_value_bootstrap"] == 1.0 for entry in data["metrics"].values())


def test_compare_with_matching_options(files):
    exact = json.loads(run("compare", files["key"], files["system"], files["damaged"], "-f", "json", "--rounds", "100").stdout)
    overlap = json.loads(
        run(
            "compare",
            files["key"],
            files["system"],
            files["damaged"],
            "-f",
            "json",
            "--rounds",
            "100",
            "--match",
            "overlap",
            "--min-overlap",
            "0.6",
            "--singletons",
            "remove",
        ).stdout
    )
    assert overlap["settings"]["match"] == "overlap" and overlap["settings"]["min_overlap"] == 0.6
    assert overlap["metrics"]["mentions"]["a"] > exact["metrics"]["mentions"]["a"]


def test_compare_files_with_different_documents_is_one_clear_line(files):
    result = run("compare", files["key"], files["partial"], files["system"], code=1)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert "they hold different documents (40 only in system.conll:" in lines[0]
    assert "Traceback" not in result.output


def test_compare_spacy_files(tmp_path):
    key, response = tmp_path / "key.spacy", tmp_path / "response.spacy"
    run("convert", KEY, key)
    run("convert", RESPONSE, response)
    data = json.loads(run("compare", key, response, key, "-f", "json", "--rounds", "200").stdout)
    assert data["n_documents"] == 2
    assert data["metrics"]["muc"]["a"] == pytest.approx(0.7368421052631577)
    assert data["metrics"]["muc"]["b"] == 1.0
