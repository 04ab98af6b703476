"""Resolution classes where users see them: ``score --classes`` (JSON,
table, per document), ``profile``, ``compare --classes`` and the HTML
report's class chart, all against the analysis module's own numbers."""

import json

from click.testing import CliRunner

from spacy_coref_eval.analysis.resolution import RESOLUTION_CLASSES, TABLE4_AVERAGE, class_profile, score_resolution_classes
from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.score import DATA
from spacy_coref_eval.formats.corpus import Corpus, read_corpus
from spacy_coref_eval.model.tokens import Tokens
from spacy_coref_eval.scoring import score_pairs
from tests.conftest import data_path
from tests.report.test_html_report import parse, tagged

runner = CliRunner()
KEY, RESPONSE = DATA / "demo.key.conll", DATA / "demo.response.conll"
LITBANK = data_path("corpora", "litbank.key.conll.gz")


def api_classes(key, response):
    corpus = read_corpus(key, response, tokens=True)
    return score_resolution_classes(score_pairs(corpus.pairs), corpus.tokens())


def test_score_classes_json_equals_the_api_and_has_every_class():
    result = runner.invoke(app, ["score", str(KEY), str(RESPONSE), "--classes", "--per-doc", "-f", "json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    expected = api_classes(KEY, RESPONSE)
    assert data["resolution_classes"] == json.loads(json.dumps(expected.to_dict()))
    block = data["resolution_classes"]
    assert set(RESOLUTION_CLASSES) <= set(block) and block["none"]["count"] >= 0
    for name in RESOLUTION_CLASSES:
        assert set(block[name]) == {"count", "share", "muc_rc"}
        assert set(block[name]["muc_rc"]) == {"recall", "precision", "f1", "recall_num", "recall_den", "precision_num", "precision_den"}
    per_doc = [doc["resolution_classes"] for doc in data["documents"].values()]
    for name in RESOLUTION_CLASSES:
        assert sum(doc[name]["count"] for doc in per_doc) == block[name]["count"]
        assert sum(doc[name]["muc_rc"]["recall_num"] for doc in per_doc) == block[name]["muc_rc"]["recall_num"]


def test_score_classes_table_lists_every_class():
    result = runner.invoke(app, ["score", str(KEY), str(RESPONSE), "--classes"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert any(line.startswith("Resolution classes (Stoyanov et al. 2009)") for line in lines)
    for name in (*RESOLUTION_CLASSES, "none"):
        assert any(line.split()[:1] == [name] for line in lines), name


def test_key_against_itself_scores_one_on_every_class_with_members():
    result = runner.invoke(app, ["score", str(LITBANK), str(LITBANK), "--classes", "-f", "json"])
    block = json.loads(result.stdout)["resolution_classes"]
    for name in RESOLUTION_CLASSES:
        assert block[name]["count"] > 0
        assert block[name]["muc_rc"]["f1"] == 1.0


def test_profile_gives_the_class_mix_and_the_cpp_prediction(tmp_path):
    result = runner.invoke(app, ["profile", str(LITBANK), "-f", "json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    members = api_classes(LITBANK, LITBANK).members
    profile = json.loads(json.dumps(class_profile(members)))
    assert {k: data[k] for k in profile} == profile
    assert data["first_mentions"] + data["unclassified"] == data["none"]
    assert data["unclassified"] == data["anaphoric"] - sum(entry["count"] for entry in data["classes"].values())
    expected_cpp = sum(data["classes"][name]["share"] * TABLE4_AVERAGE[name] for name in RESOLUTION_CLASSES)
    assert abs(data["cpp"] - expected_cpp) < 1e-12
    scores = tmp_path / "scores.json"
    scored = runner.invoke(app, ["score", str(KEY), str(RESPONSE), "--classes", "-o", str(scores)])
    assert scored.exit_code == 0
    own = runner.invoke(app, ["profile", str(LITBANK), "--scores", str(scores), "-f", "json"])
    block = json.loads(scores.read_text())["resolution_classes"]
    expected = sum(data["classes"][n]["share"] * block[n]["muc_rc"]["f1"] for n in RESOLUTION_CLASSES)
    assert abs(json.loads(own.stdout)["cpp"] - expected) < 1e-12
    table = runner.invoke(app, ["profile", str(LITBANK)])
    assert "CPP prediction of MUC F1" in table.stdout and "G3Pr" in table.stdout


def test_compare_tests_every_class(tmp_path):
    result = runner.invoke(
        app, ["compare", str(KEY), str(RESPONSE), str(KEY), "--classes", "--rounds", "200", "--n-resamples", "100", "-f", "json"]
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data["resolution_classes"]) == set(RESOLUTION_CLASSES)
    for entry in data["resolution_classes"].values():
        assert 0 <= entry["p_value_randomization"] <= 1 and 0 <= entry["p_value_bootstrap"] <= 1
        assert entry["b"] in (0.0, 1.0)
    assert "rc:PN-e" not in data["metrics"]


def test_report_has_a_class_chart(tmp_path):
    page = tmp_path / "r.html"
    assert runner.invoke(app, ["report", str(KEY), str(RESPONSE), "-o", str(page), "--n-resamples", "50"]).exit_code == 0
    html = page.read_text()
    assert '<section id="classes">' in html
    block = api_classes(KEY, RESPONSE).to_dict()
    for name in RESOLUTION_CLASSES:
        assert f'<td data-class-count="{name}">{block[name]["count"]}</td>' in html


def test_report_goes_on_without_classes_when_a_document_cannot_be_classified(tmp_path, monkeypatch):
    """Tokens that stop short of the key's mentions, as a reader that lost
    them would give, cannot be classified: the page still has every other
    section, no class chart, and says why among its warnings; so does the
    command line."""
    monkeypatch.setattr(Corpus, "tokens", lambda self: [Tokens(list(d.words)[:1], [0]) for d in self.key_documents])
    page = tmp_path / "r.html"
    result = runner.invoke(app, ["report", str(KEY), str(RESPONSE), "-o", str(page), "--n-resamples", "50"])
    assert result.exit_code == 0, result.stderr
    assert "resolution classes left out: document '(demo/alice); part 000'" in result.stderr
    assert "beyond the 1 tokens given" in result.stderr
    tree = parse(page.read_text())
    for section in ("metrics", "errors", "documents", "worst"):
        tree.find(tagged("section", id=section))
    assert not tree.find_all(tagged("section", id="classes"))
    notes = [item.all_text() for item in tree.find(tagged("details", "warnings")).find_all(tagged("li"))]
    assert [note for note in notes if note.startswith("resolution classes left out")] == [
        "resolution classes left out: document '(demo/alice); part 000': a mention or head reaches token 7, beyond the 1 tokens given"
    ]


def test_the_pos_column_of_ontonotes_files_decides_the_head_kind(tmp_path):
    """A capitalised word inside a sentence is a proper name to the lexical
    fallback, but the part-of-speech column says it is a common noun."""
    row = "d 0 {i} {w} {p} * - - - - * {c}\n"
    tokens = [("the", "DT", "(1"), ("Bank", "NN", "1)"), ("said", "VBD", "-"), ("the", "DT", "(1"), ("Bank", "NN", "1)"), (".", ".", "-")]
    body = "".join(row.format(i=i, w=w, p=p, c=c) for i, (w, p, c) in enumerate(tokens))
    tagged = tmp_path / "tagged.conll"
    tagged.write_text("#begin document (d); part 000\n" + body + "#end document\n")
    plain = tmp_path / "plain.conll"
    plain.write_text(
        "#begin document (d); part 000\n" + "".join(f"d 0 {i} {w} {c}\n" for i, (w, _, c) in enumerate(tokens)) + "#end document\n"
    )
    counts = {}
    for name, path in (("tagged", tagged), ("plain", plain)):
        result = runner.invoke(app, ["score", str(path), str(path), "--classes", "-f", "json"])
        block = json.loads(result.stdout)["resolution_classes"]
        counts[name] = {cls: block[cls]["count"] for cls in RESOLUTION_CLASSES if block[cls]["count"]}
    assert counts == {"tagged": {"CN-e": 1}, "plain": {"PN-e": 1}}
