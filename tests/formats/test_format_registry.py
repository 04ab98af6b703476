"""The format registry: one rule names the format of a file for reading and
writing, and a format registered from outside the package (here, from this
test module, and from an installed package's entry point) reads, scores
and converts through the command line like a built-in one."""

import json
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from spacy_coref_eval import Clusters
from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.score import DATA
from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.files import open_output
from spacy_coref_eval.formats import DocumentIndex, Format, ReadOptions, format_of, get_format, register_format, registered_formats
from spacy_coref_eval.formats.document import Side, SideDocument, WordsDocument, document_names
from tests.conftest import REPO

runner = CliRunner()
KEY, RESPONSE = DATA / "demo.key.conll", DATA / "demo.response.conll"


def read_toy(path: Path, options: ReadOptions) -> Side:
    """One document a line: ``name<TAB>words<TAB>entities``, entities
    ``;``-separated lists of ``start-end`` token spans (end exclusive)."""
    documents = []
    for _number, line in enumerate(Path(path).read_text(encoding="utf8").splitlines(), 1):
        name, words, entities = line.split("\t")
        spans = [[tuple(map(int, span.split("-"))) for span in entity.split(",")] for entity in entities.split(";") if entity]
        documents.append(WordsDocument(name, Clusters.from_entities(spans), words.split(" ")))
    return Side(Path(path), TOY, documents)


def write_toy(path: Path, documents: Sequence[SideDocument], inputs: Sequence[Path]) -> list[str]:
    with open_output(path, "w", inputs) as out:
        for name, document in zip(document_names(documents), documents):
            entities = ";".join(",".join(f"{s}-{e}" for s, e in entity) for entity in document.clusters.entities())
            out.write(f"{name}\t{' '.join(document.words)}\t{entities}\n")
    return []


TOY = register_format(Format("toy", "Toy tab-separated", (".toy",), read_toy, write=write_toy), replace=True)


def run(*args):
    result = runner.invoke(app, [str(arg) for arg in args])
    assert result.exit_code == 0, result.output
    return result


def metrics(*args):
    return json.loads(run("score", *args, "-f", "json").stdout)["metrics"]


def test_a_format_registered_from_a_test_module_converts_and_scores_through_the_command_line(tmp_path):
    key, response = tmp_path / "key.toy", tmp_path / "response.toy"
    run("convert", KEY, key)
    run("convert", RESPONSE, response)
    assert key.read_text().startswith("(demo/alice); part 000\t")
    assert metrics(key, response) == metrics(KEY, RESPONSE)
    assert metrics(KEY, response) == metrics(KEY, RESPONSE)
    back = tmp_path / "back.conll"
    run("convert", response, back)
    assert metrics(KEY, back) == metrics(KEY, RESPONSE)
    assert "toy" in run("formats").stdout


def test_one_rule_names_the_format_for_reading_and_writing(tmp_path):
    for name, fmt in [("a.CONLL", "conll"), ("a.Conllu.GZ", "conllu"), ("a.jsonl", "jsonlines"), ("x.toy", "toy")]:
        assert format_of(name).name == format_of(name, writing=True).name == fmt
    assert format_of("TC-A.key").name == "conll"
    with pytest.raises(CorefInputError, match="cannot tell which format to write"):
        format_of(tmp_path / "scores.json", writing=True)
    assert format_of("scores.json", "toy", writing=True) is TOY is get_format("toy")
    assert [fmt.name for fmt in registered_formats()][:4] == ["conll", "conllu", "jsonlines", "spacy"]


def test_writing_to_a_name_of_no_format_is_refused(tmp_path):
    result = runner.invoke(app, ["convert", str(KEY), str(tmp_path / "scores.json")])
    assert result.exit_code == 1
    assert "cannot tell which format to write from the name" in result.stderr
    assert not (tmp_path / "scores.json").exists()
    run("convert", KEY, tmp_path / "scores.json", "--output-format", "jsonlines")
    assert metrics(KEY, tmp_path / "scores.json", "--response-format", "jsonlines") == metrics(KEY, KEY)


@pytest.mark.slow
def test_a_format_from_an_installed_package_s_entry_point_is_found(tmp_path):
    """A package that declares ``[spacy_coref_eval.formats] toy2 =
    toyformat:FORMAT`` adds the format to a fresh process, reading and
    writing by its suffix."""
    (tmp_path / "toyformat.py").write_text(
        textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(REPO)!r})
        from spacy_coref_eval.formats import Format
        from tests.formats.test_format_registry import read_toy, write_toy
        FORMAT = Format("toy2", "Toy from a plugin", (".toy2",), read_toy, write_toy)
    """)
    )
    info = tmp_path / "toyformat-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toyformat\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[spacy_coref_eval.formats]\ntoy2 = toyformat:FORMAT\n")
    env_path = f"{tmp_path}"
    command = [sys.executable, "-m", "spacy_coref_eval"]
    env = {"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"}
    listed = subprocess.run([*command, "formats"], capture_output=True, text=True, env=env)
    assert listed.returncode == 0, listed.stderr
    assert "toy2" in listed.stdout
    out = tmp_path / "demo.toy2"
    converted = subprocess.run([*command, "convert", str(KEY), str(out)], capture_output=True, text=True, env=env)
    assert converted.returncode == 0, converted.stderr
    scored = subprocess.run([*command, "score", str(KEY), str(out), "-f", "json"], capture_output=True, text=True, env=env)
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["metrics"] == metrics(KEY, KEY)


def read_toy_lines(path: Path, options: ReadOptions) -> Side:
    """:func:`parse_toy_lines` of the file opened at the edge
    (:func:`~.formats.inputs.open_input`)."""
    from spacy_coref_eval.formats.inputs import open_input

    return parse_toy_lines(bytes(open_input(Path(path), options.limits)), Path(path), options)


def parse_toy_lines(data: bytes, path: Path, options: ReadOptions) -> Side:
    """:func:`read_toy` of a file's bytes, so that a batch of documents
    reads as the whole file does."""
    lines = data.decode("utf8").splitlines()
    documents = []
    for line in lines:
        name, words, entities = line.split("\t")
        spans = [[tuple(map(int, span.split("-"))) for span in entity.split(",")] for entity in entities.split(";") if entity]
        documents.append(WordsDocument(name, Clusters.from_entities(spans), words.split(" ")))
    return Side(Path(path), TOY_LINES, documents)


def toy_entries(scan):
    """One document a line, named by its first field."""
    from spacy_coref_eval.formats.index import entries

    names, starts = [], []
    for offset, match in scan:
        if match is None:
            return entries(names, [0, *starts[1:], offset]), b"", False
        names.append(match.group(1).decode("utf8"))
        starts.append(offset)


TOY_LINES = register_format(
    Format(
        "toy-lines",
        "Toy lines",
        (".toylines",),
        read_toy_lines,
        write=write_toy,
        index=DocumentIndex(rb"([^\t\n]+)\t", None, toy_entries),
        parse=parse_toy_lines,
    ),
    replace=True,
)


@pytest.mark.usefixtures("stream_files_of_any_size")
def test_a_registered_format_with_a_document_index_streams_as_it_reads_whole(tmp_path):
    from spacy_coref_eval.formats import stream
    from spacy_coref_eval.report.json import score_json
    from spacy_coref_eval.scoring import Options, evaluate_corpus
    from tests.support.strategies import limits_env

    key, response = tmp_path / "key.toylines", tmp_path / "response.toylines"
    run("convert", KEY, key)
    run("convert", RESPONSE, response)
    scored = {}
    for streamed in (False, True):
        with limits_env(batch_bytes=1):
            result = evaluate_corpus(key, response, Options.from_names(twinning=False, stream=streamed))
        scored[streamed] = (json.dumps(score_json(result.result, per_doc=True), sort_keys=True), result.corpus.streamed)
    assert scored[True][0] == scored[False][0]
    assert (scored[False][1], scored[True][1]) == (False, True)
    assert len(stream.index_file(key, TOY_LINES, tmp_path).entries) == len(key.read_text().splitlines()) > 1
