"""``score --match/--min-overlap/--overlap-measure/--twinless/--singletons``:
options reach the scorer, are echoed in the JSON settings, and a matcher
that needs heads says which input lacks them."""

import json

import pytest
from click.testing import CliRunner
from spacy.tokens import Doc, DocBin
from spacy.vocab import Vocab

from spacy_coref_eval.cli import app

runner = CliRunner()
WORDS = ["The", "big", "dog", "saw", "it", "."]
HEADS = [2, 2, 3, 3, 3, 3]
DEPS = ["det", "amod", "nsubj", "ROOT", "dobj", "punct"]


def conll(marks) -> str:
    lines = ["#begin document (d); part 000"]
    lines += [f"d\t0\t{i}\t{word}\t{mark}" for i, (word, mark) in enumerate(zip(WORDS, marks))]
    return "\n".join(lines + ["", "#end document", ""])


# key {The big dog, it}; response {big dog, it}: off by one token.
KEY_MARKS = ["(0", "-", "0)", "-", "(0)", "-"]
RESPONSE_MARKS = ["-", "(0", "0)", "-", "(0)", "-"]
KEY_SPANS, RESPONSE_SPANS = [(0, 3), (4, 5)], [(1, 3), (4, 5)]


@pytest.fixture
def files(tmp_path):
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(conll(KEY_MARKS), encoding="utf8")
    response.write_text(conll(RESPONSE_MARKS), encoding="utf8")
    return str(key), str(response)


def parsed_docbin(path, spans):
    """A one-doc ``.spacy`` file with a dependency parse and one entity."""
    doc = Doc(Vocab(), words=WORDS, heads=HEADS, deps=DEPS)
    doc.spans["coref_clusters_1"] = [doc[start:end] for start, end in spans]
    DocBin(docs=[doc]).to_disk(path)
    return str(path)


def score_json(*args):
    result = runner.invoke(app, ["score", *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_exact_is_the_default(files):
    data = score_json(*files)
    assert data["settings"]["match"] == "exact"
    assert data["metrics"]["mentions"]["recall"] == 0.5
    assert data["metrics"]["muc"]["recall"] == 0.0


@pytest.mark.parametrize(
    "options, settings",
    [
        (["--match", "overlap"], {"match": "overlap", "min_overlap": 0.5, "overlap_measure": "dice"}),
        (
            ["--match", "overlap", "--min-overlap", "0.6", "--overlap-measure", "jaccard"],
            {"match": "overlap", "min_overlap": 0.6, "overlap_measure": "jaccard"},
        ),
    ],
)
def test_overlap_twins_the_off_by_one_span(files, options, settings):
    """Dice 4/5, Jaccard 2/3: the two mentions become one."""
    data = score_json(*files, *options, "--twinless", "sys", "--singletons", "remove")
    assert data["settings"] == {
        "metrics": ["muc", "bcub", "ceafm", "ceafe", "blanc", "lea"],
        **settings,
        "twinless": "sys",
        "singletons": "remove",
    }
    assert data["metrics"]["mentions"]["recall"] == 1.0
    assert data["metrics"]["muc"]["f1"] == 1.0


def test_overlap_threshold_above_the_overlap_leaves_them_apart(files):
    data = score_json(*files, "--match", "overlap", "--min-overlap", "0.81")
    assert data["metrics"]["mentions"]["recall"] == 0.5


@pytest.mark.parametrize("match", ["head", "partial"])
def test_heads_from_a_parsed_spacy_corpus(tmp_path, match):
    key = parsed_docbin(tmp_path / "key.spacy", KEY_SPANS)
    response = parsed_docbin(tmp_path / "response.spacy", RESPONSE_SPANS)
    data = score_json(key, response, "--match", match)
    assert data["settings"]["match"] == match
    assert data["metrics"]["mentions"]["recall"] == 1.0


def test_partial_needs_heads_of_the_key_only(tmp_path, files):
    key = parsed_docbin(tmp_path / "key.spacy", KEY_SPANS)
    data = score_json(key, files[1], "--match", "partial")
    assert data["metrics"]["mentions"]["recall"] == 1.0


@pytest.mark.parametrize("match, key_parsed, lacking", [("head", False, "key"), ("partial", False, "key"), ("head", True, "response")])
def test_missing_heads_name_the_input_and_the_fix(tmp_path, files, match, key_parsed, lacking):
    if key_parsed:
        key, response = parsed_docbin(tmp_path / "key.spacy", KEY_SPANS), files[1]
    else:
        key, response = files[0], parsed_docbin(tmp_path / "response.spacy", RESPONSE_SPANS)
    result = runner.invoke(app, ["score", key, response, "--match", match])
    assert result.exit_code == 1
    message = " ".join(result.output.split())
    assert f"the {match!r} matcher needs mention heads, but the {lacking} has none" in message
    assert f"document {'doc0' if key_parsed else '(d); part 000'!r}" in message
    assert "parsed .spacy corpus" in message and "head span group" in message
    assert "Traceback" not in result.output


def test_head_matching_of_two_conll_files_fails(files):
    result = runner.invoke(app, ["score", *files, "--match", "head"])
    assert result.exit_code == 1
    assert "the key has none (plain CoNLL-2012 files carry no heads)" in " ".join(result.output.split())


@pytest.mark.parametrize(
    "options, message",
    [
        (["--match", "fuzzy"], "Invalid value for '--match': 'fuzzy' is not one of 'exact', 'head', 'overlap', 'partial'."),
        (["--match", "overlap", "--min-overlap", "0"], "Invalid value for '--min-overlap': 0.0 is not in the range 0<x<=1."),
        (["--match", "overlap", "--min-overlap", "1.5"], "Invalid value for '--min-overlap': 1.5 is not in the range 0<x<=1."),
        (["--match", "overlap", "--overlap-measure", "cosine"], "'cosine' is not one of 'dice', 'jaccard'."),
        (["--min-overlap", "0.7"], "'exact' matcher takes no option(s) ['min_overlap']"),
        (["--twinless", "none"], "'none' is not one of 'conll', 'b3all', 'b30', 'sys'."),
        (["--singletons", "drop"], "'drop' is not one of 'keep', 'remove'."),
    ],
)
def test_bad_options_are_one_clear_line(files, options, message):
    """A value outside a closed set is a usage error (exit 2, as click
    gives it); one the options do not allow together is bad input (exit 1)."""
    result = runner.invoke(app, ["score", *files, *options])
    assert result.exit_code == (1 if "takes no option" in message else 2)
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output
