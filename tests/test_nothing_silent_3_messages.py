"""Nothing silent, round three (issue 34): inputs that gave a library's
traceback or message, or a wrong file, get one line naming file, line or
document; round trips close; messages and warnings use the files' names."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.score import DATA

runner = CliRunner()
KEY, RESPONSE = DATA / "demo.key.conll", DATA / "demo.response.conll"


def run(*args: object):
    return runner.invoke(app, [str(arg) for arg in args])


def refused(result, *parts: str) -> str:
    """The one error line of a refused run, checked to hold ``parts``."""
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    line = result.stderr.strip().splitlines()[-1]
    for part in parts:
        assert part in line, line
    return line


# --- item 2: jsonlines words that are not strings ------------------------------------

NOT_WORDS = {"5": "5", "1.5": "1.5", "null": "null", "true": "true", '["x"]': '["x"]', "NaN": "NaN",
             "4294967297": "4294967297", "18446744073709551617": "18446744073709551617", "{}": "{}",
             '""': "an empty string"}


def _jsonlines(path: Path, word: str) -> Path:
    ok = '{"doc_key": "a", "sentences": [["x", "y"]], "clusters": [[[0, 0], [1, 1]]]}\n'
    path.write_text(ok + '{"doc_key": "d", "sentences": [["a"], ["b", %s]], "clusters": [[[0, 0], [1, 1]]]}\n' % word)
    return path


def _ok(path: Path) -> Path:
    path.write_text('{"doc_key": "a", "sentences": [["x", "y"]], "clusters": [[[0, 0], [1, 1]]]}\n'
                    '{"doc_key": "d", "sentences": [["a"], ["b", "c"]], "clusters": [[[0, 0], [1, 1]]]}\n')
    return path


@pytest.mark.parametrize("word", sorted(NOT_WORDS))
@pytest.mark.parametrize("command", ["score", "score-self", "report", "profile", "conll", "conllu",
                                     "spacy", "ua"])
def test_a_jsonlines_word_that_is_no_string_is_refused_naming_file_line_and_field(tmp_path, word, command):
    bad = _jsonlines(tmp_path / "bad.jsonlines", word)
    ok = _ok(tmp_path / "ok.jsonlines")
    args = {"score": ("score", ok, bad), "score-self": ("score", bad, bad),
            "report": ("report", ok, bad, "-o", tmp_path / "r.html"), "profile": ("profile", bad)}.get(
        command, ("convert", bad, tmp_path / f"out.{command}"))
    refused(run(*args), f"{bad}:2: document 'd': 'sentences'[1][1] is {NOT_WORDS[word]}",
            "every token must be a non-empty string")
    assert not (tmp_path / f"out.{command}").exists()


def test_a_system_output_word_that_is_no_string_is_refused_by_index(tmp_path):
    path = tmp_path / "wl.jsonl"
    path.write_text(json.dumps({"document_id": "d", "cased_words": ["a", ""], "span_clusters": [[[0, 1], [1, 2]]]})
                    + "\n")
    refused(run("score", path, path), f"{path}:1: document 'd': cased_words[1] is an empty string")
    path.write_text(json.dumps({"document_id": "d", "cased_words": ["a", 5], "span_clusters": [[[0, 1], [1, 2]]]})
                    + "\n")
    refused(run("score", path, path), f"{path}:1: document 'd': cased_words[1] is 5")


# --- item 4: messages in a library's words ----------------------------------------------

def test_a_wl_coref_sent_id_holding_a_list_is_named(tmp_path):
    path = tmp_path / "wl.jsonl"
    line = {"document_id": "d", "cased_words": ["a", "b", "c"], "sent_id": [0, [0, 1], 1],
            "span_clusters": [[[0, 1], [2, 3]]]}
    path.write_text(json.dumps(line) + "\n")
    refused(run("score", path, path), f"{path}:1: document 'd': sent_id[1] is [0, 1]", "'sent_id' must hold")


def test_wl_coref_sent_ids_as_strings_still_cut_sentences(tmp_path):
    path = tmp_path / "wl.jsonl"
    line = {"document_id": "d", "cased_words": ["a", "b", "c"], "sent_id": ["s1", "s1", "s2"],
            "span_clusters": [[[0, 1], [2, 3]]]}
    path.write_text(json.dumps(line) + "\n")
    result = run("convert", path, tmp_path / "o.conll")
    assert result.exit_code == 0, result.output
    rows = (tmp_path / "o.conll").read_text().split("\n")
    assert rows.index("") < rows.index("d\t0\t2\tc\t(0)") and "d\t0\t1\tb\t-" in rows
