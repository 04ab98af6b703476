"""Counts are additive: shards scored apart and merged give the score of the
whole, and parallel scoring gives the same bytes as serial scoring."""

import json

import pytest
from click.testing import CliRunner

from benchmarks.perturb import perturb_corpus
from spacy_coref_eval import CorefInputError, Settings, score_documents
from spacy_coref_eval.cli import app
from spacy_coref_eval.counting import BLOCKS
from spacy_coref_eval.formats.conll.read import read_conll
from spacy_coref_eval.formats.conll.write import write_conll
from spacy_coref_eval.report.json import score_json as result_json
from spacy_coref_eval.scoring import score_pairs
from spacy_coref_eval.shards import load_counts, merge_results, save_counts
from tests.conftest import data_path
from tests.support.strategies import limits_env

runner = CliRunner()


@pytest.fixture(scope="module")
def litbank(tmp_path_factory):
    """LitBank key and a perturbed response, each whole and in two shards."""
    folder = tmp_path_factory.mktemp("litbank")
    documents = read_conll(data_path("corpora", "litbank.key.conll.gz"), with_words=True)
    key = {name: doc.clusters for name, doc in documents.items()}
    response = perturb_corpus(key, {name: doc.n_tokens for name, doc in documents.items()}, seed=3)
    names = list(documents)
    files = {}
    for side, clusters in (("key", key), ("response", response)):
        for part, chosen in (("all", names), ("a", names[:37]), ("b", names[37:])):
            path = folder / f"{side}.{part}.conll"
            write_conll(path, [(n, documents[n].words, clusters[n], documents[n].sentence_starts) for n in chosen])
            files[side, part] = path
    return files


def score_json(*args):
    result = runner.invoke(app, ["score", *map(str, args), "-f", "json", "--per-doc"])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_merged_shards_equal_the_whole(litbank, tmp_path):
    whole = score_json(litbank["key", "all"], litbank["response", "all"])
    for part, suffix in (("a", ".json"), ("b", ".msgpack")):
        result = runner.invoke(
            app, ["score", str(litbank["key", part]), str(litbank["response", part]), "--save-counts", str(tmp_path / f"{part}{suffix}")]
        )
        assert result.exit_code == 0, result.output
    merged = runner.invoke(app, ["merge", str(tmp_path / "a.json"), str(tmp_path / "b.msgpack"), "-f", "json", "--per-doc"])
    assert merged.exit_code == 0, merged.output
    assert merged.stdout == whole
    assert json.loads(whole)["metrics"]["mentions"]["recall_den"] == 29103


def test_parallel_scoring_gives_the_same_bytes(litbank):
    serial = score_json(litbank["key", "all"], litbank["response", "all"], "--match", "overlap")
    with limits_env(parallel_from=0):
        parallel = score_json(litbank["key", "all"], litbank["response", "all"], "--match", "overlap", "--n-process", "2")
    assert parallel == serial


def test_counts_files_round_trip(tmp_path):
    result = score_documents({"d": [[(0, 1), (2, 3)]]}, {"d": [[(0, 1)], [(2, 3)]]}, Settings(metrics=("muc", "lea")))
    for name in ("c.json", "c.msgpack"):
        save_counts(result, tmp_path / name)
        loaded = load_counts(tmp_path / name)
        assert loaded.documents == result.documents
        assert loaded.settings == result.settings
        assert result_json(loaded, per_doc=True) == result_json(result, per_doc=True)


def test_merge_refuses_what_does_not_add_up(tmp_path):
    one = score_documents({"d": [[(0, 1)]]}, {"d": [[(0, 1)]]})
    other = score_documents({"d": [[(0, 1)]]}, {"d": [[(0, 1)]]}, Settings(twinless="b3all"))
    with pytest.raises(CorefInputError, match="document 'd' is in both shard 1 and shard 2"):
        merge_results([one, one])
    with pytest.raises(CorefInputError, match="only runs with the same settings merge"):
        merge_results([one, other])
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}')
    result = runner.invoke(app, ["merge", str(bad)])
    assert result.exit_code == 1
    assert "not a counts file written by spacy-coref-eval --save-counts" in result.output


def test_merge_gives_intervals_and_macro_averages_like_score(litbank, tmp_path):
    options = ["--ci", "0.9", "--macro", "--seed", "3", "--n-resamples", "200", "-f", "json"]
    whole = runner.invoke(app, ["score", str(litbank["key", "all"]), str(litbank["response", "all"]), *options])
    assert whole.exit_code == 0, whole.output
    for part in "ab":
        saved = runner.invoke(
            app, ["score", str(litbank["key", part]), str(litbank["response", part]), "--save-counts", str(tmp_path / f"{part}.json")]
        )
        assert saved.exit_code == 0, saved.output
    merged = runner.invoke(app, ["merge", str(tmp_path / "a.json"), str(tmp_path / "b.json"), *options])
    assert merged.exit_code == 0, merged.output
    assert merged.stdout == whole.stdout
    assert {"intervals", "macro"} <= set(json.loads(merged.stdout))


def test_malformed_counts_files_are_one_clear_error(tmp_path):
    good = score_documents({"d": [[(0, 1), (2, 3)]]}, {"d": [[(0, 1)]]})
    save_counts(good, tmp_path / "good.json")
    data = json.loads((tmp_path / "good.json").read_text())
    broken = {
        "no-documents": {k: v for k, v in data.items() if k != "documents"},
        "unknown-metric": {**data, "settings": {**data["settings"], "metrics": ["cheese"]}},
        "missing-metric": {**data, "documents": {"d": {"mentions": data["documents"]["d"]["mentions"]}}},
    }
    for label, content in broken.items():
        path = tmp_path / f"{label}.json"
        path.write_text(json.dumps(content))
        result = runner.invoke(app, ["merge", str(path)])
        assert result.exit_code == 1, label
        assert f"{label}.json: malformed counts file" in result.output, label


def test_only_the_chosen_metrics_are_counted(tmp_path):
    result = score_documents({"d": [[(0, 1), (2, 3)]]}, {"d": [[(0, 1), (2, 3)]]}, Settings(metrics=("ceafm",)))
    array = result.documents["d"].array
    counted = {block for block, row in zip(BLOCKS, array) if row.any()}
    assert counted == {"mentions", "ceafm"}
    save_counts(result, tmp_path / "c.msgpack")
    assert load_counts(tmp_path / "c.msgpack").documents == result.documents


@pytest.mark.parametrize("options", [{"match": "overlap", "twinless": "sys", "singletons": "remove"}, {"twinless": "b3all"}, {}])
def test_a_documents_counts_are_a_function_of_that_document_alone(options):
    """CEAF's float sums do not depend on which documents share the run
    (-n, shards): every document's counts equal its counts scored alone,
    to the last bit."""
    from tests.support.litbank import litbank

    settings = Settings.from_options(**options)
    corpus = litbank()
    names = sorted(corpus.key)[:40]
    pairs = [(name, corpus.key[name], corpus.damaged[name]) for name in names]
    whole = score_pairs(pairs, settings)
    for (name, key, response), counts in zip(pairs, whole.counts):
        alone = score_pairs([(name, key, response)], settings).counts[0]
        assert counts.tobytes() == alone.tobytes(), name


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: d["documents"]["d"]["muc"].update(recall_num=True), "muc recall_num (true) is not a number"),
        (lambda d: d["documents"]["d"]["muc"].update(recall_num="1"), 'muc recall_num ("1") is not a number'),
        (lambda d: d["documents"]["d"]["muc"].update(recall_num=None), "muc recall_num (null) is not a number"),
        (
            lambda d: d["documents"]["d"]["blanc"]["coref_links"].update(recall_den=None),
            "blanc coref_links recall_den (null) is not a number",
        ),
        (
            lambda d: (d["documents"]["d"]["muc"].update(recall_num=0.5), d["settings"].update(split_antecedents="remove")),
            "muc recall_num (0.5) is not a whole number",
        ),
        (lambda d: d.update(warnings="abc"), "malformed counts file (warnings must be a list of strings)"),
        (lambda d: d.update(warnings=[1]), "malformed counts file (warnings must be a list of strings)"),
    ],
)
def test_merge_checks_types_and_whole_numbers(tmp_path, edit, message):
    good = score_documents({"d": [[(0, 1), (2, 3)], [(4, 5)]]}, {"d": [[(0, 1)], [(2, 3), (4, 5)]]})
    save_counts(good, tmp_path / "good.json")
    data = json.loads((tmp_path / "good.json").read_text())
    assert load_counts(tmp_path / "good.json").documents == good.documents
    data["documents"]["d"]["bcub"]["recall_num"] = 1.5
    edit(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["merge", str(path)])
    assert result.exit_code == 1
    assert "bad.json: " in result.output and message in result.output, result.output
    assert result.output.count("\n") == 1


def _round_trip_every_mode(pairs, settings_list, tmp_path):
    for index, settings in enumerate(settings_list):
        result = score_pairs(pairs, settings)
        path = tmp_path / f"c{index}.json"
        save_counts(result, path)
        assert load_counts(path).documents == result.documents, settings.to_dict()


def test_counts_of_corefud_runs_with_repeats_and_zeros_load_back(tmp_path):
    """merge's checks refuse no counts a run gives: CorefUD random cases
    (repeated node sets, zeros, discontinuous mentions) in all 24 modes."""
    from tests.conformance.test_corefud_random import FIXTURES, METRICS, _pairs

    for case in FIXTURES["cases"][::20]:
        pairs = _pairs(case, tmp_path)
        settings = []
        for mode in FIXTURES["modes"]:
            match, singletons, zeros, zero_match = mode.split("-")
            settings.append(
                Settings.from_options(METRICS, match, singletons=singletons, preset="corefud", zeros=zeros, zero_match=zero_match)
            )
        _round_trip_every_mode(pairs, settings, tmp_path)


def test_counts_of_ua_runs_with_split_antecedents_load_back(tmp_path):
    """... and UA documents with split antecedents, non-referring and
    bridging markables, in every split-antecedent mode."""
    from spacy_coref_eval.formats.corpus import read_corpus

    corpus = read_corpus(data_path("ua", "example.key.ua"), data_path("ua", "example.response.ua"))
    settings = [
        Settings.from_options(preset="ua", split_antecedents=mode, non_referring=True, bridging=True) for mode in ("keep", "remove", "only")
    ]
    _round_trip_every_mode(corpus.pairs, settings, tmp_path)


def test_split_antecedents_may_make_link_counts_fractional(tmp_path):
    """Where split antecedents are scored (the default, and the UA scorer's
    partial credit), a fractional MUC numerator is a count a run gives in
    a document with split antecedents, and in no other."""
    good = score_documents({"d": [[(0, 1), (2, 3)], [(4, 5)]]}, {"d": [[(0, 1)], [(2, 3), (4, 5)]]})
    save_counts(good, tmp_path / "good.json")
    data = json.loads((tmp_path / "good.json").read_text())
    data["documents"]["d"]["muc"]["recall_num"] = 0.5
    data["split_antecedents"] = ["d"]
    (tmp_path / "split.json").write_text(json.dumps(data))
    assert load_counts(tmp_path / "split.json").documents["d"].as_dict()["muc"]["recall_num"] == 0.5
    data["split_antecedents"] = []
    (tmp_path / "split.json").write_text(json.dumps(data))
    with pytest.raises(CorefInputError, match="muc recall_num \\(0.5\\) is not a whole number"):
        load_counts(tmp_path / "split.json")
