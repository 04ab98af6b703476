"""Nothing silent, nothing lost: the spaCy path and the command line as
users meet them (missing span groups, texts that differ, reader options per
side, outputs that would replace an input, bad counts files, option ranges,
few documents, names that would drive the terminal)."""

import json
import os
import warnings
from pathlib import Path

import pytest
import spacy
from click.testing import CliRunner
from spacy.tokens import Doc
from spacy.training import Example
from spacy.vocab import Vocab

from spacy_coref_eval import CorefEvalWarning, CorefInputError, read_conll, score_documents
from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.score import DATA
from spacy_coref_eval.formats.docbin.docs import conll_to_docs, write_docbin
from spacy_coref_eval.pipeline.scorers import make_coref_scorer, score_examples

runner = CliRunner()
KEY, RESPONSE = DATA / "demo.key.conll", DATA / "demo.response.conll"


def run(*args: str):
    return runner.invoke(app, [str(arg) for arg in args])


def docbin(path: Path, docs) -> Path:
    write_docbin(path, docs)
    return path


@pytest.fixture
def gold(tmp_path) -> Path:
    return docbin(tmp_path / "gold.spacy", conll_to_docs(read_conll(KEY, with_words=True).values(), Vocab()))


@pytest.fixture
def plain(tmp_path, gold) -> Path:
    """The gold texts and names with no span group at all."""
    docs = []
    for doc in conll_to_docs(read_conll(KEY, with_words=True).values(), Vocab()):
        for name in list(doc.spans):
            del doc.spans[name]
        docs.append(doc)
    return docbin(tmp_path / "plain.spacy", docs)


# --- missing or misnamed span groups -------------------------------------------------


def test_a_response_without_span_groups_is_scored_with_a_warning(gold, plain):
    result = run("score", gold, plain, "-f", "json")
    assert result.exit_code == 0
    assert "no coreference span group in any doc (found: no span groups; expected coref_clusters_<n>)" in result.stderr
    assert "--response-spans" in result.stderr
    assert json.loads(result.stdout)["metrics"]["lea"]["f1"] == 0.0


def test_a_key_without_span_groups_is_an_error(gold, plain):
    result = run("score", plain, gold)
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert "plain.spacy: no coreference span group in any doc" in result.stderr


def test_the_warning_names_the_span_groups_found(tmp_path, gold):
    docs = list(conll_to_docs(read_conll(KEY, with_words=True).values(), Vocab()))
    for doc in docs:
        spans = [span for name in list(doc.spans) for span in doc.spans[name]]
        for name in list(doc.spans):
            del doc.spans[name]
        doc.spans["mentions"] = spans
        doc.spans["sc"] = []
    response = docbin(tmp_path / "mentions.spacy", docs)
    result = run("score", gold, response)
    assert "found: mentions, sc; expected coref_clusters_<n>" in result.stderr


def test_a_wrong_prefix_names_the_closest_family_and_a_few_others(gold):
    result = run("score", gold, gold, "--spans", "coref_cluster_*")
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert "found: coref_clusters_* (" in result.stderr
    assert "expected coref_cluster_<n>; did you mean 'coref_clusters_*'?" in result.stderr


def test_many_span_groups_are_listed_as_a_few_families():
    from spacy_coref_eval.formats.docbin.spans import SHOWN, PrefixedSpanGroups, missing_groups

    groups = [f"coref_clusters_{n}" for n in range(80)] + [f"group{n}" for n in range(9)] + ["sc"]
    message = missing_groups(PrefixedSpanGroups("clusters"), groups)
    assert message.startswith("found: coref_clusters_* (80), ")
    assert message.count(", ") == SHOWN - 1
    assert f"and {10 - SHOWN + 1} more; expected clusters_<n>" in message
    assert len(message) < 200


def test_no_mention_in_existing_groups_stays_silent(tmp_path, gold):
    docs = list(conll_to_docs(read_conll(KEY, with_words=True).values(), Vocab()))
    for doc in docs:
        for name in list(doc.spans):
            doc.spans[name] = []
    response = docbin(tmp_path / "empty.spacy", docs)
    result = run("score", gold, response)
    assert result.exit_code == 0
    assert result.stderr == ""


def test_examples_without_span_groups_warn_in_python():
    nlp = spacy.blank("en")
    reference = nlp.make_doc("Anna met Bob . She left .")
    reference.spans["coref_clusters_1"] = [reference[0:1], reference[4:5]]
    predicted = nlp.make_doc("Anna met Bob . She left .")
    predicted.spans["mentions"] = [predicted[0:1]]
    with pytest.warns(CorefEvalWarning, match=r"predicted docs hold no coreference span group \(found: mentions"):
        scores = make_coref_scorer()([Example(predicted, reference)])
    assert scores["coref_lea_f"] == 0.0


# --- texts that differ -----------------------------------------------------------------


def shifted_example(nlp, reference_text="a b c d", predicted_text="  a b c d"):
    reference = nlp.make_doc(reference_text)
    reference.spans["coref_clusters_1"] = [reference[1:2], reference[3:4]]
    predicted = nlp.make_doc(predicted_text)
    tokens = [token for token in predicted if not token.is_space]
    predicted.spans["coref_clusters_1"] = [predicted[tokens[0].i : tokens[0].i + 1], predicted[tokens[2].i : tokens[2].i + 1]]
    return Example(predicted, reference)


def test_white_space_shifted_prediction_is_aligned_by_its_characters():
    nlp = spacy.blank("en")
    result = score_examples([shifted_example(nlp)])
    assert result.metrics()["lea"]["f1"] == 0.0
    assert result.metrics()["mentions"]["f1"] == 0.0


def test_texts_that_differ_beyond_white_space_are_an_error_naming_the_document():
    nlp = spacy.blank("en")
    with pytest.raises(CorefInputError, match=r"document 'example 0': the reference and predicted texts differ"):
        score_examples([shifted_example(nlp, "a b c d", "a b x d")])


def test_identical_spans_under_other_white_space_are_twins():
    nlp = spacy.blank("en")
    reference = nlp.make_doc("Anna met Bob. She left.")
    reference.spans["coref_clusters_1"] = [reference[0:1], reference[4:5]]
    predicted = nlp.make_doc("Anna  met\nBob .  She left .")
    she = next(token.i for token in predicted if token.text == "She")
    predicted.spans["coref_clusters_1"] = [predicted[0:1], predicted[she : she + 1]]
    result = score_examples([Example(predicted, reference)])
    assert result.metrics()["lea"]["f1"] == 1.0


# --- reader options per side ---------------------------------------------------------


def test_a_model_writing_one_labelled_group_scores_against_converted_gold(tmp_path, gold):
    docs = list(conll_to_docs(read_conll(RESPONSE, with_words=True).values(), Vocab()))
    for doc in docs:
        spans = []
        for name in sorted(doc.spans, key=lambda n: int(n.rsplit("_", 1)[1])):
            spans += [doc.char_span(s.start_char, s.end_char, label=name) for s in doc.spans[name]]
            del doc.spans[name]
        doc.spans["mentions"] = spans
    response = docbin(tmp_path / "model.spacy", docs)
    expected = json.loads(run("score", KEY, RESPONSE, "-f", "json").stdout)["metrics"]
    result = run("score", gold, response, "-f", "json", "--response-spans", "mentions:label_")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["metrics"] == expected
    assert run("score", gold, response, "--spans", "mentions:label_").exit_code == 1


def test_registered_scorer_takes_a_reader_per_side():
    nlp = spacy.blank("en")
    reference = nlp.make_doc("Anna met Bob . She left .")
    reference.spans["coref_clusters_1"] = [reference[0:1], reference[4:5]]
    predicted = nlp.make_doc("Anna met Bob . She left .")
    predicted.spans["mentions"] = [predicted.char_span(0, 4, label="A"), predicted.char_span(15, 18, label="A")]
    config = {
        "s": {
            "@scorers": "spacy_coref_eval.coref_scorer.v1",
            "predicted_reader": {"@misc": "spacy_coref_eval.labeled_span_group.v1", "key": "mentions", "attr": "label_"},
        }
    }
    scorer = spacy.registry.resolve(config)["s"]
    assert scorer([Example(predicted, reference)])["coref_lea_f"] == 1.0


@pytest.mark.parametrize("spec, message", [("a*b", "cannot read span groups"), ("mentions:text", "attr must be one of")])
def test_bad_span_group_options_are_one_line(gold, spec, message):
    result = run("score", gold, gold, "--spans", spec)
    assert result.exit_code == 1
    assert message in result.stderr


# --- outputs never replace an input, and are written whole ----------------------------


@pytest.mark.parametrize("option", ["--output", "--save-counts"])
def test_output_onto_an_input_is_refused_and_the_input_kept(tmp_path, option):
    key = tmp_path / "k.conll"
    key.write_bytes(KEY.read_bytes())
    before = key.read_bytes()
    result = run("score", key, RESPONSE, option, key)
    assert result.exit_code == 1
    assert "refusing to overwrite an input file" in result.stderr
    assert key.read_bytes() == before


def test_outputs_onto_inputs_are_refused_by_every_command(tmp_path):
    key = tmp_path / "k.conll"
    key.write_bytes(KEY.read_bytes())
    spacy_file = tmp_path / "k.spacy"
    assert run("convert", key, spacy_file).exit_code == 0
    link = tmp_path / "link.conll"
    os.symlink(key, link)
    before = key.read_bytes(), spacy_file.read_bytes()
    counts = tmp_path / "c.json"
    assert run("score", key, RESPONSE, "--save-counts", counts).exit_code == 0
    for args in (
        ("report", key, RESPONSE, "-o", link),
        ("convert", key, link),
        ("export", spacy_file, spacy_file),
        ("merge", counts, "-o", counts),
        ("compare", key, RESPONSE, RESPONSE, "-o", key),
    ):
        result = run(*args)
        assert result.exit_code == 1, args
        assert "refusing to overwrite an input file" in result.stderr, args
    assert (key.read_bytes(), spacy_file.read_bytes()) == before


def test_a_failed_write_leaves_the_previous_file(tmp_path, monkeypatch):
    out = tmp_path / "scores.txt"
    out.write_text("previous")
    import spacy_coref_eval.files as files

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", broken_replace)
    result = run("score", KEY, RESPONSE, "-o", out)
    assert result.exit_code == 1
    assert "scores.txt: cannot write file: No space left on device" in result.stderr
    assert out.read_text() == "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scores.txt"]


def test_output_suffix_json_writes_json(tmp_path):
    out = tmp_path / "x.json"
    assert run("score", KEY, RESPONSE, "--output", out).exit_code == 0
    assert json.loads(out.read_text())["metrics"]["muc"]["f1"] > 0
    table = tmp_path / "x.txt"
    assert run("score", KEY, RESPONSE, "--output", table).exit_code == 0
    assert table.read_text().startswith("\nMetric") or "Metric" in table.read_text().splitlines()[1]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_writing_to_a_full_device_is_one_line():
    result = run("score", KEY, RESPONSE, "-o", "/dev/full")
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and "/dev/full: cannot write file" in result.stderr


# --- counts files and option ranges ---------------------------------------------------


@pytest.mark.parametrize(
    "value, message",
    [
        ("NaN", "is not a finite number"),
        ("null", "(null) is not a number"),
        ("-1", "is negative"),
        ("1e400", "is not a finite number"),
        ("99", "is larger than its denominator"),
    ],
)
def test_edited_counts_files_are_refused_naming_document_and_field(tmp_path, value, message):
    counts = tmp_path / "c.json"
    assert run("score", KEY, RESPONSE, "--save-counts", counts).exit_code == 0
    text = counts.read_text()
    first = '"recall_num": '
    at = text.index(first) + len(first)
    end = text.index(",", at)
    counts.write_text(text[:at] + value + text[end:])
    result = run("merge", counts, "-f", "json")
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert message in result.stderr
    assert "document '(demo/alice); part 000': mentions recall_num" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("score", KEY, RESPONSE, "--ci", "0.9", "--n-resamples", "100000000"),
        ("score", KEY, RESPONSE, "--seed", "-1"),
        ("compare", KEY, RESPONSE, RESPONSE, "--rounds", "1000000000"),
    ],
)
def test_options_out_of_range_are_refused_before_work(args):
    result = run(*args)
    assert result.exit_code == 2
    assert "Invalid value" in result.output


def test_merge_seed_must_not_be_negative(tmp_path):
    counts = tmp_path / "c.json"
    assert run("score", KEY, RESPONSE, "--save-counts", counts).exit_code == 0
    result = run("merge", counts, "--ci", "0.9", "--seed", "-1")
    assert result.exit_code == 2 and "Traceback" not in result.output


# --- few documents, many missing, names that drive terminals ----------------------------


def test_statistics_on_few_documents_warn():
    key = {name: doc.clusters for name, doc in read_conll(KEY).items()}
    result = score_documents(key, key)
    from spacy_coref_eval.analysis import bootstrap_intervals, compare, macro_average

    for call in (
        lambda: bootstrap_intervals(result, n_resamples=10),
        lambda: macro_average(result),
        lambda: compare(result, result, n_rounds=10, n_resamples=10),
    ):
        with pytest.warns(CorefEvalWarning, match="over 2 document\\(s\\) are unreliable"):
            call()
    cli = run("score", KEY, RESPONSE, "--ci", "0.95", "--n-resamples", "50")
    assert "bootstrap intervals over 2 document(s) are unreliable" in cli.stderr


def test_many_missing_documents_are_summarised(tmp_path):
    key = tmp_path / "key.conll"
    key.write_text("".join(f"#begin document (d{i})\nd 0 0 w (1)\n#end document\n" for i in range(2000)))
    empty = tmp_path / "empty.conll"
    empty.write_text("#begin document (d0)\nd 0 0 w (1)\n#end document\n")
    result = run("score", key, empty)
    assert result.exit_code == 0
    assert result.stderr.count("\n") <= 10
    assert "1994 more key document(s) with no response document" in result.stderr


def test_terminal_escape_codes_in_names_are_escaped(tmp_path):
    key = tmp_path / "key.conll"
    key.write_text("#begin document (evil\x1b[2J\x07)\nd 0 0 w (1)\n#end document\n")
    result = run("score", key, key, "--per-doc", "--errors")
    assert result.exit_code == 0
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "evil\\x1b[2J\\x07" in result.stdout


def test_export_then_score_round_trips_white_space_tokens(tmp_path):
    doc = Doc(Vocab(), words=["Hi", "\n\n", "Bob", "left", "."], spaces=[False, False, True, False, False])
    doc.spans["coref_clusters_1"] = [doc[2:3], doc[0:1]]
    original = docbin(tmp_path / "in.spacy", [doc])
    exported = tmp_path / "out.conll"
    assert run("export", original, exported).exit_code == 0
    result = run("score", original, exported, "-f", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["metrics"]["lea"]["f1"] == 1.0
    back = run("score", exported, original, "-f", "json")
    assert back.exit_code == 0, back.stderr
    assert json.loads(back.stdout)["metrics"]["muc"]["f1"] == 1.0


def test_warnings_are_printed_once_each(gold, plain):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = run("score", gold, plain)
    assert result.stderr.count("no coreference span group") == 1
