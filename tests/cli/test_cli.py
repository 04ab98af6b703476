"""The command line: score, demo, output formats and error messages."""

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from spacy_coref_eval import read_conll, score_documents
from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.score import DATA
from spacy_coref_eval.report.json import score_json
from tests.conftest import data_path

runner = CliRunner()
KEY, RESPONSE = DATA / "demo.key.conll", DATA / "demo.response.conll"


def clusters(path):
    return {name: doc.clusters for name, doc in read_conll(path).items()}


def test_json_output_matches_the_api():
    result = runner.invoke(app, ["score", str(KEY), str(RESPONSE), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    expected = score_json(score_documents(clusters(KEY), clusters(RESPONSE)))
    assert data == json.loads(json.dumps(expected))
    assert set(data["metrics"]) == {"muc", "bcub", "ceafm", "ceafe", "lea", "mentions", "blanc", "conll"}
    assert set(data["metrics"]["blanc"]) == {"recall", "precision", "f1", "coref_links", "noncoref_links"}
    assert data["settings"] == {
        "metrics": ["muc", "bcub", "ceafm", "ceafe", "blanc", "lea"],
        "match": "exact",
        "twinless": "conll",
        "singletons": "keep",
    }
    assert "documents" not in data


def test_per_doc_json_and_metric_selection(tmp_path):
    out = tmp_path / "scores.json"
    result = runner.invoke(app, ["score", str(KEY), str(RESPONSE), "-f", "json", "--per-doc", "-m", "muc,bcub", "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert list(data["documents"]) == ["(demo/alice); part 000", "(demo/storm); part 000"]
    assert set(data["metrics"]) == {"muc", "bcub", "mentions"}
    assert set(data["documents"]["(demo/storm); part 000"]["metrics"]) == {"muc", "bcub", "mentions"}


def test_output_is_byte_for_byte_deterministic(tmp_path):
    outputs = []
    for i in range(2):
        path = tmp_path / f"{i}.json"
        runner.invoke(app, ["score", str(KEY), str(RESPONSE), "-f", "json", "--per-doc", "-o", str(path)])
        outputs.append(path.read_bytes())
    assert outputs[0] == outputs[1]


def test_table_shows_every_metric_with_counts():
    result = runner.invoke(app, ["score", str(KEY), str(RESPONSE)])
    assert result.exit_code == 0, result.output
    for label in ("Mentions", "MUC", "B³", "CEAFm", "CEAFe", "BLANC", "coref links", "LEA", "CoNLL"):
        assert label in result.stdout
    assert "7 / 10" in result.stdout


def test_bad_input_is_one_clear_line(tmp_path):
    bad = tmp_path / "bad.conll"
    bad.write_text("#begin document (x)\nx 0 0 w 1)\n#end document\n")
    result = runner.invoke(app, ["score", str(KEY), str(bad)])
    assert result.exit_code == 1
    assert "bad.conll:2: mention of entity 1 closes but was never opened" in result.output
    assert "Traceback" not in result.output


def test_unknown_metric_is_rejected():
    result = runner.invoke(app, ["score", str(KEY), str(RESPONSE), "-m", "muc,cheese"])
    assert result.exit_code != 0
    assert "cheese" in result.output


def test_warnings_go_to_the_user(tmp_path):
    response = tmp_path / "r.conll"
    response.write_text("#begin document (other)\nx 0 0 w (1)\n" + KEY.read_text().split("\n", 1)[1])
    result = runner.invoke(app, ["score", str(KEY), str(response), "-f", "json"])
    assert result.exit_code == 0
    assert "no response document" in result.output
    assert len(json.loads(result.stdout)["warnings"]) == 2


def test_no_document_in_common_is_an_error_with_a_hint(tmp_path):
    """Scripts rely on the exit status: nothing paired is an error, and
    names that differ only in formatting get a hint."""
    response = tmp_path / "r.conll"
    response.write_text("#begin document (other)\nx 0 0 w (1)\n#end document\n")
    result = runner.invoke(app, ["score", str(KEY), str(response)])
    assert result.exit_code == 1
    assert "no document name is in both" in result.stderr
    renamed = tmp_path / "renamed.conll"
    renamed.write_text(RESPONSE.read_text().replace("part 000", "part 0"))
    result = runner.invoke(app, ["score", str(KEY), str(renamed)])
    assert result.exit_code == 1
    assert "did you mean to pair '(demo/alice); part 000' with '(demo/alice); part 0'?" in result.stderr
    empty = tmp_path / "empty.conll"
    empty.write_text("")
    result = runner.invoke(app, ["score", str(KEY), str(empty)])
    assert result.exit_code == 1 and "empty.conll: no '#begin document' blocks, nothing to score" in result.stderr


def test_demo_runs_as_a_module():
    run = subprocess.run([sys.executable, "-m", "spacy_coref_eval", "demo"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "CoNLL" in run.stdout and "72.30" in run.stdout


def test_litbank_scale_json_reproduces_the_api(tmp_path):
    """The whole LitBank key against itself: every metric is 1 except that
    nothing is lost on the way through the command line."""
    litbank = data_path("corpora", "litbank.key.conll.gz")
    result = runner.invoke(app, ["score", str(litbank), str(litbank), "-f", "json"])
    assert result.exit_code == 0, result.output
    metrics = json.loads(result.stdout)["metrics"]
    assert metrics["mentions"]["recall_den"] == 29103
    assert all(metrics[m]["f1"] == 1.0 for m in ("muc", "bcub", "ceafm", "ceafe", "lea", "blanc"))


def loaded_by_score(modules, extra=()):
    """Which of ``modules`` a fresh process has loaded after scoring the
    demo pair with the options ``extra``."""
    code = (
        "import sys\n"
        "from spacy_coref_eval.cli import app\n"
        "from click.testing import CliRunner\n"
        f"result = CliRunner().invoke(app, ['score', {str(KEY)!r}, {str(RESPONSE)!r}, '-f', 'json', *{list(extra)!r}])\n"
        "assert result.exit_code == 0, result.output\n"
        f"print('\\n'.join(name for name in {list(modules)!r} if name in sys.modules))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return sorted(run.stdout.split())


def test_the_conll_path_does_not_import_spacy():
    assert loaded_by_score(["spacy"]) == []


UA_MODULES = (
    "spacy_coref_eval.model.ua.view",
    "spacy_coref_eval.model.ua.layer",
    "spacy_coref_eval.compat.ua.anaphora",
    "spacy_coref_eval.compat.ua.split_antecedents",
)


@pytest.mark.parametrize("extra,imported", [([], False), (["--preset", "ua"], False), (["--non-referring"], True)])
def test_the_conll_path_imports_the_ua_reader_only_for_ua_scoring(extra, imported):
    """CoNLL-2012 files scored as columns need none of the UA reader or its
    counting, under the UA preset too; a UA score that reads every
    document loads the UA model and counting, never the UA file parser."""
    assert loaded_by_score([*UA_MODULES, "spacy_coref_eval.formats.ua.parse"], extra) == (sorted(UA_MODULES) if imported else [])


def test_key_and_response_of_different_lengths_are_warned(tmp_path):
    key, response = tmp_path / "k.conll", tmp_path / "r.conll"
    key.write_text("#begin document (d)\nd 0 0 a (1)\nd 0 1 b (1)\n#end document\n")
    response.write_text("#begin document (d)\nd 0 0 a (1)\nd 0 1 b -\nd 0 2 c (1)\n#end document\n")
    result = runner.invoke(app, ["score", str(key), str(response), "-f", "json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["warnings"] == [
        "1 document(s) have different numbers of tokens in the key and the response; mentions are compared "
        "by token position, so check the files are aligned: (d) (2 vs 3)"
    ]


def test_unusual_bad_input_is_one_clear_line(tmp_path):
    bad_gz = tmp_path / "bad.conll.gz"
    bad_gz.write_bytes(b"\x1f\x8b\x08\x00 not really gzip")
    empty = tmp_path / "empty.conll"
    empty.write_text("")
    bom = tmp_path / "bom.conll"
    bom.write_bytes(b"\xef\xbb\xbf" + KEY.read_bytes())
    cases = [
        (["score", str(bad_gz), str(RESPONSE)], "bad.conll.gz: cannot read file"),
        (["score", str(empty), str(RESPONSE)], "empty.conll: no '#begin document' blocks"),
        (["score", str(KEY), str(RESPONSE), "-o", str(tmp_path / "missing" / "out.json")], "out.json: cannot write file"),
        (["score", str(KEY), str(RESPONSE), "--save-counts", str(tmp_path / "missing" / "c.json")], "c.json: cannot write file"),
    ]
    for args, message in cases:
        result = runner.invoke(app, args)
        assert result.exit_code == 1, args
        assert message in result.output, (args, result.output)
        assert "Traceback" not in result.output
    with_bom = runner.invoke(app, ["score", str(bom), str(RESPONSE), "-f", "json"])
    plain = runner.invoke(app, ["score", str(KEY), str(RESPONSE), "-f", "json"])
    assert json.loads(with_bom.stdout)["metrics"] == json.loads(plain.stdout)["metrics"]


def test_a_directory_of_conll_files_is_a_corpus(tmp_path):
    folder = tmp_path / "key"
    folder.mkdir()
    (folder / "a.conll").write_text("#begin document (a)\nd 0 0 w (1)\nd 0 1 w (1)\n#end document\n")
    (folder / "b.conll").write_text("#begin document (b)\nd 0 0 w (2)\n#end document\n")
    result = runner.invoke(app, ["score", str(folder), str(folder), "-f", "json", "--per-doc"])
    assert result.exit_code == 0, result.output
    assert list(json.loads(result.stdout)["documents"]) == ["(a)", "(b)"]
