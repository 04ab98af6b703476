"""Outputs are never lost: two outputs naming one file are refused, a
report is written only to a name that says what it is, and a write that
is interrupted (Ctrl-C, SIGTERM) or killed leaves no temporary file
behind (the next write of the same file removes a killed one's)."""

import signal
import subprocess
import sys
import textwrap

import pytest
from click.testing import CliRunner

from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.score import DATA

runner = CliRunner()
KEY, RESPONSE = DATA / "demo.key.conll", DATA / "demo.response.conll"


@pytest.mark.parametrize("command", ["score", "merge"])
def test_two_outputs_naming_one_file_are_refused(tmp_path, command):
    counts = tmp_path / "counts.json"
    assert runner.invoke(app, ["score", str(KEY), str(RESPONSE), "--save-counts", str(counts)]).exit_code == 0
    same = tmp_path / "out.json"
    inputs = [str(KEY), str(RESPONSE)] if command == "score" else [str(counts)]
    result = runner.invoke(app, [command, *inputs, "-o", str(same), "--save-counts", str(tmp_path / "." / "out.json")])
    assert result.exit_code == 1
    assert "two outputs name this file" in result.stderr
    assert not same.exists()


@pytest.mark.parametrize(
    "name, says", [("report.html", "an HTML page"), ("scores.conll", "a CoNLL-2012 file"), ("x.spacy", "a spaCy DocBin file")]
)
def test_a_report_is_not_written_to_a_name_of_another_kind(tmp_path, name, says):
    result = runner.invoke(app, ["score", str(KEY), str(RESPONSE), "-o", str(tmp_path / name)])
    assert result.exit_code == 1
    assert says in result.stderr
    assert not (tmp_path / name).exists()
    assert runner.invoke(app, ["score", str(KEY), str(RESPONSE), "-o", str(tmp_path / "scores.txt")]).exit_code == 0


WRITER = """
import os, signal, sys
from spacy_coref_eval.files import open_output
with open_output(sys.argv[1], "w") as out:
    out.write("new")
    out.flush()
    os.kill(os.getpid(), getattr(signal, sys.argv[2]))
"""


def temporaries(folder):
    return sorted(path.name for path in folder.iterdir() if path.name.endswith(".tmp"))


def test_a_terminated_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    run = subprocess.run([sys.executable, "-c", WRITER, str(target), "SIGTERM"], capture_output=True, text=True)
    assert run.returncode != 0
    assert target.read_text() == "old"
    assert temporaries(tmp_path) == []


def test_a_killed_write_leaves_a_temporary_that_the_next_write_removes(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    run = subprocess.run([sys.executable, "-c", WRITER, str(target), "SIGKILL"], capture_output=True, text=True)
    assert run.returncode == -signal.SIGKILL
    assert target.read_text() == "old" and len(temporaries(tmp_path)) == 1
    other = tmp_path / "other.txt"
    (tmp_path / f".other.txt.{99999999}.abc.tmp").write_text("someone else's")
    subprocess.run(
        [
            sys.executable,
            "-c",
            textwrap.dedent("""
        import sys
        from spacy_coref_eval.files import write_output
        write_output(sys.argv[1], "fresh")
    """),
            str(target),
        ],
        check=True,
    )
    assert target.read_text() == "fresh"
    assert temporaries(tmp_path) == [".other.txt.99999999.abc.tmp"]
    assert not other.exists()


def test_converting_an_empty_file_is_an_error(tmp_path):
    empty = tmp_path / "empty.conll"
    empty.write_text("")
    result = runner.invoke(app, ["convert", str(empty), str(tmp_path / "out.jsonlines")])
    assert result.exit_code == 1
    assert "empty.conll: no '#begin document' blocks, nothing to convert" in result.stderr
    assert not (tmp_path / "out.jsonlines").exists()


def test_the_input_limits_can_be_raised_from_the_environment(tmp_path):
    big = tmp_path / "big.conll"
    big.write_text("#begin document (d)\n" + "d 0 0 w -\n" * 2000 + "#end document\n")
    code = "from spacy_coref_eval.cli import main; main()"
    command = [sys.executable, "-c", code, "score", str(big), str(big)]
    env = {"PATH": "/usr/bin:/bin", "SPACY_COREF_EVAL_MAX_INPUT_BYTES": "1000"}
    refused = subprocess.run(command, capture_output=True, text=True, env=env)
    assert refused.returncode == 1 and "SPACY_COREF_EVAL_MAX_INPUT_BYTES" in refused.stderr
    env["SPACY_COREF_EVAL_MAX_INPUT_BYTES"] = "100000"
    assert subprocess.run(command, capture_output=True, text=True, env=env).returncode == 0


def test_help_lists_every_command_with_a_whole_summary():
    from click.testing import CliRunner

    from spacy_coref_eval.cli import app

    result = CliRunner().invoke(app, ["--help"])
    listed = result.output.split("Commands:")[1].strip().splitlines()
    assert [line.split()[0] for line in listed][:3] == ["score", "merge", "demo"]
    assert len(listed) == len(app.commands)
    assert not [line for line in listed if line.endswith("...")]
