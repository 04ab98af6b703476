"""The coref-data "indiscrim" rows as a format: inclusive
``[sentence, start, end]`` chains on the sentences' tokens read as
document spans, scored from files and from rows in Python, converted both
ways; malformed rows are one line naming file, line, document and chain."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from spacy_coref_eval import CorefInputError, score
from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.score import DATA
from spacy_coref_eval.formats import ReadOptions, format_of, get_format
from tests.conftest import data_path

KEY, RESPONSE = data_path("indiscrim", "key.indiscrim.jsonl"), data_path("indiscrim", "response.indiscrim.jsonl")


def rows(path: Path) -> list:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def cli_json(*args) -> dict:
    run = CliRunner().invoke(app, ["score", *map(str, args), "-f", "json", "--per-doc"])
    assert run.exit_code == 0, run.output
    return json.loads(run.stdout)


def test_the_format_is_registered_by_name_and_suffix():
    assert format_of(KEY).name == "indiscrim" and get_format("indiscrim").name == "indiscrim"
    assert format_of("rows.indiscrim.jsonl.gz").name == "indiscrim"
    assert format_of("other.jsonl").name == "jsonlines"


def test_chains_become_document_spans():
    side = get_format("indiscrim").read(KEY, ReadOptions("key"))
    pride, ship = side.documents
    assert (pride.name, ship.name) == ("pride_01", "ship_02")
    assert pride.words[:3] == ["Elizabeth", "Bennet", "met"] and pride.n_tokens == 17
    assert list(pride.sentence_starts) == [0, 6, 12]
    assert pride.clusters.entities() == (((0, 2), (6, 7), (12, 13)), ((3, 5), (8, 9)), ((12, 14),), ((15, 16),))
    assert ship.clusters.entities() == (((0, 2), (4, 5)), ((7, 9),))


def test_files_score_as_the_same_clusters_given_as_lists():
    side = {role: get_format("indiscrim").read(path, ReadOptions(role)) for role, path in (("key", KEY), ("response", RESPONSE))}
    lists = {role: {d.name: [list(e) for e in d.clusters.entities()] for d in s.documents} for role, s in side.items()}
    from_files = cli_json(KEY, RESPONSE)
    assert list(from_files["documents"]) == ["pride_01", "ship_02"]
    assert from_files == score(lists["key"], lists["response"]).to_dict()
    assert from_files["metrics"]["muc"]["recall"] == 1 / 4


def test_dataset_rows_score_directly_in_python():
    assert score(rows(KEY), rows(RESPONSE)).to_dict() == cli_json(KEY, RESPONSE)
    as_dict = {row["id"]: row for row in rows(RESPONSE)}
    assert score({row["id"]: row for row in rows(KEY)}, as_dict).metrics == score(KEY, RESPONSE).metrics


def test_conversion_keeps_every_score(tmp_path):
    converted = tmp_path / "demo.key.indiscrim.jsonl"
    run = CliRunner().invoke(app, ["convert", str(DATA / "demo.key.conll"), str(converted)])
    assert run.exit_code == 0, run.output
    back = tmp_path / "back.conll"
    assert CliRunner().invoke(app, ["convert", str(converted), str(back)]).exit_code == 0
    response = DATA / "demo.response.conll"
    assert cli_json(back, response)["metrics"] == cli_json(DATA / "demo.key.conll", response)["metrics"]
    row = rows(converted)[0]
    assert set(row) == {"id", "text", "sentences", "coref_chains"}
    assert all(len(mention) == 3 for chain in row["coref_chains"] for mention in chain)


@pytest.mark.parametrize(
    "chains, message",
    [
        ([[[0, 2, 1]]], "chain 0: mention [0, 2, 1]: tokens 2..1 (inclusive) do not lie in sentence 0 of 3 tokens"),
        ([[[0, 0, 0]], [[0, 1, 3]]], "chain 1: mention [0, 1, 3]: tokens 1..3 (inclusive) do not lie in sentence 0 of 3 tokens"),
        ([[[1, 0, 0]]], "chain 0: mention [1, 0, 0]: no sentence 1 (the document has 1)"),
        ([[[0, 0]]], "chain 0: a mention is [sentence, start, end] (three integers), not [0, 0]"),
        ([[[0, 0, "1"]]], "chain 0: a mention is [sentence, start, end] (three integers), not [0, 0, '1']"),
    ],
)
def test_malformed_rows_are_one_line_naming_file_line_document_and_chain(tmp_path, chains, message):
    good = {"id": "ok", "sentences": [{"tokens": [{"text": "a"}]}], "coref_chains": []}
    bad = {"id": "d1", "sentences": [{"tokens": [{"text": w} for w in "abc"]}], "coref_chains": chains}
    path = tmp_path / "bad.indiscrim.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(CorefInputError) as raised:
        get_format("indiscrim").read(path, ReadOptions("key"))
    assert str(raised.value) == f"{path}:2: document 'd1', {message}"
    run = CliRunner().invoke(app, ["score", str(path), str(path)])
    assert run.exit_code != 0 and message in run.output and "Traceback" not in run.output


def test_rows_without_the_schema_are_refused(tmp_path):
    path = tmp_path / "bad.indiscrim.jsonl"
    path.write_text('{"id": "x", "clusters": []}\n', encoding="utf-8")
    with pytest.raises(CorefInputError, match=r"bad.indiscrim.jsonl:1: an indiscrim row is an object with 'sentences' and 'coref_chains'"):
        get_format("indiscrim").read(path, ReadOptions("key"))
    with pytest.raises(CorefInputError, match=r"the key: document .x., chain 0: mention \[0, 0, 0\]: no sentence 0"):
        score([{"id": "x", "sentences": [], "coref_chains": [[[0, 0, 0]]]}], [{"id": "x", "sentences": [], "coref_chains": []}])
