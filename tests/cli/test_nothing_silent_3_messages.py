"""Nothing silent, round three (issue 34): inputs that gave a library's
traceback or message, or a wrong file, get one line naming file, line or
document; round trips close; messages and warnings use the files' names."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.score import DATA
from tests.conftest import REPO

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

NOT_WORDS = {
    "5": "5",
    "1.5": "1.5",
    "null": "null",
    "true": "true",
    '["x"]': '["x"]',
    "NaN": "NaN",
    "4294967297": "4294967297",
    "18446744073709551617": "18446744073709551617",
    "{}": "{}",
    '""': "an empty string",
}


def _jsonlines(path: Path, word: str) -> Path:
    ok = '{"doc_key": "a", "sentences": [["x", "y"]], "clusters": [[[0, 0], [1, 1]]]}\n'
    path.write_text(ok + '{"doc_key": "d", "sentences": [["a"], ["b", ' + word + ']], "clusters": [[[0, 0], [1, 1]]]}\n')
    return path


def _ok(path: Path) -> Path:
    path.write_text(
        '{"doc_key": "a", "sentences": [["x", "y"]], "clusters": [[[0, 0], [1, 1]]]}\n'
        '{"doc_key": "d", "sentences": [["a"], ["b", "c"]], "clusters": [[[0, 0], [1, 1]]]}\n'
    )
    return path


@pytest.mark.parametrize("word", sorted(NOT_WORDS))
@pytest.mark.parametrize("command", ["score", "score-self", "report", "profile", "conll", "conllu", "t2t.txt", "spacy", "ua"])
def test_a_jsonlines_word_that_is_no_string_is_refused_naming_file_line_and_field(tmp_path, word, command):
    bad = _jsonlines(tmp_path / "bad.jsonlines", word)
    ok = _ok(tmp_path / "ok.jsonlines")
    args = {
        "score": ("score", ok, bad),
        "score-self": ("score", bad, bad),
        "report": ("report", ok, bad, "-o", tmp_path / "r.html"),
        "profile": ("profile", bad),
    }.get(command, ("convert", bad, tmp_path / f"out.{command}"))
    refused(run(*args), f"{bad}:2: document 'd': 'sentences'[1][1] is {NOT_WORDS[word]}", "every token must be a non-empty string")
    assert not (tmp_path / f"out.{command}").exists()


def test_a_system_output_word_that_is_no_string_is_refused_by_index(tmp_path):
    path = tmp_path / "wl.jsonl"
    path.write_text(json.dumps({"document_id": "d", "cased_words": ["a", ""], "span_clusters": [[[0, 1], [1, 2]]]}) + "\n")
    refused(run("score", path, path), f"{path}:1: document 'd': cased_words[1] is an empty string")
    path.write_text(json.dumps({"document_id": "d", "cased_words": ["a", 5], "span_clusters": [[[0, 1], [1, 2]]]}) + "\n")
    refused(run("score", path, path), f"{path}:1: document 'd': cased_words[1] is 5")


# --- item 4: messages in a library's words ----------------------------------------------


def test_a_wl_coref_sent_id_holding_a_list_is_named(tmp_path):
    path = tmp_path / "wl.jsonl"
    line = {"document_id": "d", "cased_words": ["a", "b", "c"], "sent_id": [0, [0, 1], 1], "span_clusters": [[[0, 1], [2, 3]]]}
    path.write_text(json.dumps(line) + "\n")
    refused(run("score", path, path), f"{path}:1: document 'd': sent_id[1] is [0, 1]", "'sent_id' must hold")


def test_wl_coref_sent_ids_as_strings_still_cut_sentences(tmp_path):
    path = tmp_path / "wl.jsonl"
    line = {"document_id": "d", "cased_words": ["a", "b", "c"], "sent_id": ["s1", "s1", "s2"], "span_clusters": [[[0, 1], [2, 3]]]}
    path.write_text(json.dumps(line) + "\n")
    result = run("convert", path, tmp_path / "o.conll")
    assert result.exit_code == 0, result.output
    rows = (tmp_path / "o.conll").read_text().split("\n")
    assert rows.index("") < rows.index("d\t0\t2\tc\t(0)") and "d\t0\t1\tb\t-" in rows


# --- item 3: numbers past 64 bits; names a writer's own reader cannot pair ---------------

CONLLU = (
    "# newdoc id = d\n# global.Entity = eid-etype-head-other\n# sent_id = s1\n# text = a b\n"
    "1\ta\ta\tX\t_\t_\t0\troot\t0:root\tEntity=(e1--{head})\n2\tb\tb\tX\t_\t_\t1\tdep\t1:dep\tEntity=(e1--1)\n\n"
)


@pytest.mark.parametrize("head", ["99999999999999999999", "9223372036854775808", "4611686018427387904"])
def test_a_conllu_head_number_past_64_bits_is_refused_naming_line_and_entity(tmp_path, head):
    path = tmp_path / "h.conllu"
    path.write_text(CONLLU.format(head=head))
    refused(run("score", path, path), f"{path}:5: entity e1: head index {head} outside the mention's nodes")
    refused(run("convert", path, tmp_path / "o.conll"), f"{path}:5: entity e1: head index {head}")


@pytest.mark.parametrize("brk", ["\u2028", "\u2029", "\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\x85"])
def test_the_conllu_a_writer_refuses_a_name_its_reader_would_cut(tmp_path, brk):
    source = tmp_path / "n.jsonlines"
    source.write_text(json.dumps({"doc_key": f"a{brk}b", "sentences": [["x", "y"]], "clusters": [[[0, 0], [1, 1]]]}) + "\n")
    refused(run("convert", source, tmp_path / "o.ua"), "CoNLL-UA cannot hold this name", repr(f"a{brk}b"))
    assert not (tmp_path / "o.ua").exists()


@pytest.mark.parametrize("brk", ["\u2028", "\x0c", "\x85"])
@pytest.mark.parametrize("suffix", ["conll", "conllu", "jsonlines", "spacy"])
def test_the_other_writers_keep_a_name_with_a_unicode_line_break_pairable(tmp_path, brk, suffix):
    """Their readers end lines at \\n (and \\r) only, or escape the name."""
    source = tmp_path / "n.jsonlines"
    source.write_text(json.dumps({"doc_key": f"a{brk}b", "sentences": [["x", "y"]], "clusters": [[[0, 0], [1, 1]]]}) + "\n")
    if suffix == "jsonlines":
        source = tmp_path / "n.conll"
        assert run("convert", tmp_path / "n.jsonlines", source).exit_code == 0
    target = tmp_path / f"o.{suffix}"
    assert run("convert", source, target).exit_code == 0
    result = run("score", source, target, "-f", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["metrics"]["conll"]["f1"] == 1.0
    assert "not in" not in result.stderr


# --- item 10: --topic-pattern on the bare document name ----------------------------------


def _alice_met_bob(path: Path, tags: tuple[str, ...]) -> Path:
    """One CoNLL-2012 document ``d``, "Alice met Bob and she left", with
    ``tags`` in the coreference column."""
    words = ("Alice", "met", "Bob", "and", "she", "left")
    rows = "".join(f"d\t0\t{index}\t{word}\t{tag}\n" for index, (word, tag) in enumerate(zip(words, tags)))
    path.write_text(f"#begin document d\n{rows}\n#end document\n")
    return path


def _standard_headers(source: Path, target: Path) -> Path:
    """The file with ``#begin document (NAME); part 000`` headers."""
    lines = []
    for line in source.read_text().splitlines():
        if line.startswith("#begin document "):
            line = f"#begin document ({line.split(' ', 2)[2]}); part 000"
        lines.append(line)
    target.write_text("\n".join(lines) + "\n")
    return target


def test_topic_pattern_matches_the_bare_name_of_standard_headers(tmp_path):
    key = _standard_headers(DATA / "ecb.key.conll", tmp_path / "k.conll")
    response = _standard_headers(DATA / "ecb.response.conll", tmp_path / "r.conll")
    bundled = run("score", DATA / "ecb.key.conll", DATA / "ecb.response.conll", "--topic-pattern", r"^(\d+)_", "-f", "json", "--per-doc")
    standard = run("score", key, response, "--topic-pattern", r"^(\d+)_", "-f", "json", "--per-doc")
    assert bundled.exit_code == standard.exit_code == 0, standard.output
    a, b = json.loads(bundled.stdout), json.loads(standard.stdout)
    assert a["metrics"] == b["metrics"]
    assert sorted(a["documents"]) == sorted(b["documents"]) and len(a["documents"]) == 2


def test_a_bare_name_that_does_not_match_says_what_was_matched(tmp_path):
    key = _standard_headers(DATA / "ecb.key.conll", tmp_path / "k.conll")
    refused(
        run("score", key, key, "--topic-pattern", r"^\((\d+)_"),
        "document '(1_1ecb); part 000' (matched as '1_1ecb'): its name does not match --topic-pattern",
    )


# --- item 11: the shipped UA example shows a real plural -------------------------------

UA_EXAMPLE = REPO / "tests" / "data" / "ua"


@pytest.mark.parametrize("side", ["key", "response"])
@pytest.mark.parametrize("preset", [(), ("--preset", "ua")])
def test_the_shipped_ua_example_scores_100_against_itself(side, preset):
    path = UA_EXAMPLE / f"example.{side}.ua"
    plurals = [cell for line in path.read_text().splitlines() for cell in line.split("\t") if "ElementOf=3" in cell]
    assert len(plurals) >= 2, "the example's plural needs two antecedents or more (docs/ua.md §3)"
    result = run("score", path, path, *preset, "-f", "json")
    assert result.exit_code == 0, result.output
    metrics = json.loads(result.stdout)["metrics"]
    assert {name: metrics[name]["f1"] for name in ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")} == dict.fromkeys(
        ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea"), 1.0
    )


def test_a_plural_with_one_antecedent_scores_its_blanc_link_zero_as_documented(tmp_path):
    """docs/ua.md §3: the split element of a plural whose only antecedent
    is a one-mention entity aligns with F 0 under BLANC, so its
    coreference link scores 0 even against an identical response."""
    text = (UA_EXAMPLE / "example.response.ua").read_text()
    degenerate = tmp_path / "one.ua"
    degenerate.write_text(text.replace("MarkableID=m2|ElementOf=3", "MarkableID=m2"))
    metrics = json.loads(run("score", degenerate, degenerate, "-f", "json").stdout)["metrics"]
    assert metrics["blanc"]["f1"] == pytest.approx((1 / 2 + 14 / 19) / 2)
    assert metrics["muc"]["f1"] == 1.0


# --- item 9: round trips that close ------------------------------------------------------


def test_a_corpus_without_mentions_converts_to_spacy_and_back(tmp_path):
    source = tmp_path / "none.conll"
    source.write_text("#begin document d\nd\t0\t0\tHello\t-\nd\t0\t1\tthere\t-\n\n#end document\n")
    assert run("convert", source, tmp_path / "none.spacy").exit_code == 0
    for target in ("back.conll", "back.jsonlines"):
        result = run("convert", tmp_path / "none.spacy", tmp_path / target)
        assert result.exit_code == 0, result.output
    assert (tmp_path / "back.conll").read_text() == source.read_text()
    result = run("score", source, tmp_path / "none.spacy", "-f", "json")
    assert result.exit_code == 0 and "⚠" not in result.stderr, result.output


GUM = REPO / "tests" / "data" / "corpora" / "gum-corefud.40docs.conllu.gz"


def _gum_document(index: int) -> str:
    import gzip

    text = gzip.open(GUM, "rt", encoding="utf8").read()
    header = next(line for line in text.splitlines() if line.startswith("# global.Entity"))
    document = "# newdoc id" + text.split("# newdoc id")[index + 1]
    return document.replace("\n", f"\n{header}\n", 1) if header not in document else document


@pytest.mark.parametrize("middle", ["conll", "jsonlines", "spacy", "ua"])
def test_conllu_through_any_format_and_back_scores_against_its_source(tmp_path, middle):
    source = tmp_path / "g.conllu"
    source.write_text(_gum_document(1), encoding="utf8")
    converted = run("convert", source, tmp_path / f"g.{middle}")
    assert converted.exit_code == 0, converted.output
    assert "sent_ids not kept" in converted.stderr
    assert run("convert", tmp_path / f"g.{middle}", tmp_path / "back.conllu").exit_code == 0
    result = run("score", source, tmp_path / "back.conllu", "-f", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["metrics"]["conll"]["f1"] == 1.0


def test_conllu_gz_to_conllu_keeps_sent_ids_or_is_refused_like_plain_to_plain(tmp_path):
    import gzip

    plain = tmp_path / "g.conllu"
    plain.write_text(_gum_document(1), encoding="utf8")
    packed = tmp_path / "g.conllu.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    assert run("convert", packed, tmp_path / "out.conllu").exit_code == 0
    ids = [line for line in (tmp_path / "out.conllu").read_text().splitlines() if line.startswith("# sent_id")]
    assert ids == [line for line in plain.read_text().splitlines() if line.startswith("# sent_id")]
    refused(run("convert", plain, tmp_path / "again.conllu"), "nothing to convert")
    empty = tmp_path / "z.conllu"
    empty.write_text(_gum_document(0), encoding="utf8")
    packed.write_bytes(gzip.compress(empty.read_bytes()))
    refused(run("convert", packed, tmp_path / "z2.conllu"), "empty node(s) written as words", "(de)compress the file with gzip instead")
    refused(run("convert", empty, tmp_path / "z2.conllu"), "nothing to convert")
    converted = run("convert", empty, tmp_path / "z.conll")
    assert converted.exit_code == 0 and "empty node(s) written as words" in converted.stderr


# --- item 8: the --errors-list table -----------------------------------------------------


def _long_entity_pair(tmp_path: Path, n: int = 300) -> tuple:
    """A key whose one entity has ``n`` mentions, and a response that
    divides it in two and conflates it with nothing."""
    rows_key, rows_response = [], []
    for i in range(n):
        rows_key.append(f"d\t0\t{i}\tword{i}\t(1)")
        rows_response.append(f"d\t0\t{i}\tword{i}\t({1 + i % 2})")
    key, response = tmp_path / "k.conll", tmp_path / "r.conll"
    key.write_text("#begin document d\n" + "\n".join(rows_key) + "\n\n#end document\n")
    response.write_text("#begin document d\n" + "\n".join(rows_response) + "\n\n#end document\n")
    return key, response


def test_the_errors_list_table_cuts_long_lists_and_pads_no_row(tmp_path):
    key, response = _long_entity_pair(tmp_path)
    result = run("score", key, response, "--errors-list")
    assert result.exit_code == 0, result.output
    listing = result.stdout[result.stdout.index("Document") :]
    lines = listing.splitlines()
    assert not [line for line in lines if line != line.rstrip()]
    divided = next(line for line in lines if "divided entity" in line)
    assert "more" in divided and len(divided) < 300
    assert "… " in divided and divided.endswith("more")
    whole = json.loads(run("score", key, response, "--errors-list", "-f", "json").stdout)["errors_list"]["d"]
    assert sum(len(p["mentions"]) for p in whole["divided_entities"][0]["parts"]) == 300


# --- item 12a: one text per document, whatever the format --------------------------------


def test_evaluate_gives_a_conll_key_the_text_convert_gives_its_docbin(tmp_path):
    import importlib.util
    import os
    import subprocess
    import sys

    import spacy

    root = REPO
    script = root / "scripts" / "replay_coref.py"
    spec = importlib.util.spec_from_file_location("replay_coref_for_test", script)
    spec.loader.exec_module(importlib.util.module_from_spec(spec))  # registers the replay_coref factory
    for name, source in (("key", KEY), ("response", RESPONSE)):
        assert run("convert", source, tmp_path / f"{name}.spacy").exit_code == 0
    nlp = spacy.blank("en")
    nlp.add_pipe("replay_coref", config={"predictions": str(tmp_path / "response.spacy")})
    nlp.to_disk(tmp_path / "pipeline")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    metrics = []
    for key in (tmp_path / "key.spacy", KEY):
        out = tmp_path / f"{key.suffix[1:]}.json"
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "spacy_coref_eval",
                "evaluate",
                str(tmp_path / "pipeline"),
                str(key),
                "--code",
                str(script),
                "--output",
                str(out),
            ],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr
        metrics.append(json.loads(out.read_text())["metrics"])
    assert metrics[0]["conll"]["f1"] > 0.5
    assert metrics[0] == metrics[1]


# --- item 12c: metrics undefined on a stratum ---------------------------------------------


def test_muc_and_conll_are_undefined_on_a_stratum_of_singletons(tmp_path):
    path = tmp_path / "s.conll"
    _alice_met_bob(path, ("(1)", "-", "(2)", "-", "(1)", "(3)"))
    data = json.loads(run("score", path, path, "--by", "chain-length", "-f", "json").stdout)
    strata = data["strata"]["chain-length"]
    assert strata["1"]["undefined"] == ["muc", "conll"]
    assert strata["2-5"]["undefined"] == []
    assert set(strata["6+"]["undefined"]) == set(strata["6+"]["metrics"])
    table = run("score", path, path, "--by", "chain-length").stdout
    row = next(line for line in table.splitlines() if line.startswith("1 "))
    assert row.split()[4] == "n/a" and row.split()[-1] == "n/a" and " 0.00" not in row and "66.67" not in row
    assert "n/a = undefined" in table
    macro = json.loads(run("score", path, path, "--macro", "-f", "json").stdout)
    assert macro["macro"]["muc"]["n_documents"] == 1


# --- item 12d: an LLM text file named .txt -------------------------------------------------


def test_a_tagged_text_file_named_txt_gets_the_text2text_hint(tmp_path):
    import gzip

    gold = REPO / "tests" / "data" / "text2text" / "gold.t2t.txt.gz"
    tagged = tmp_path / "llm.txt"
    tagged.write_bytes(gzip.decompress(gold.read_bytes()).split(b"\n")[0] + b"\n")
    refused(run("score", KEY, tagged), "looks like CRAC 2025 LLM-track tagged text", "--response-format text2text")
    plain = tmp_path / "plain.txt"
    plain.write_text("hello world\n")
    line = refused(run("score", KEY, plain), "token line outside")
    assert "|text2text" in line and "looks like" not in line


# --- item 12e: --strict --------------------------------------------------------------------


def _one_document(tmp_path: Path) -> Path:
    """The demo response without its second document (a warning: scored as empty)."""
    text = RESPONSE.read_text()
    path = tmp_path / "one.conll"
    path.write_text(text[: text.index("#begin document", 10)])
    return path


@pytest.mark.parametrize("command", ["score", "report", "compare"])
def test_strict_turns_any_warning_into_exit_code_1_and_still_writes(tmp_path, command):
    """The demo pair warns: one document missing (score), two documents too
    few for resampling (report, compare)."""
    out = tmp_path / ("r.html" if command == "report" else "r.json")
    args = {
        "score": ("score", KEY, _one_document(tmp_path), "-o", out),
        "report": ("report", KEY, RESPONSE, "-o", out),
        "compare": ("compare", KEY, RESPONSE, RESPONSE, "-o", out, "--rounds", "100"),
    }[command]
    lenient = run(*args)
    assert lenient.exit_code == 0 and "⚠" in lenient.stderr, lenient.output
    out.unlink()
    strict = run(*args, "--strict")
    assert strict.exit_code == 1, strict.output
    assert out.exists()
    assert strict.stderr.strip().splitlines()[-1].startswith("✘ --strict: ")
    assert run("score", KEY, RESPONSE, "--strict").exit_code == 0


# --- item 12f: warnings from Python name documents, one line each --------------------------


def test_spacy_side_warnings_use_the_reference_docs_names():
    import warnings

    from spacy.training import Example
    from spacy.vocab import Vocab

    from spacy_coref_eval import read_conll
    from spacy_coref_eval.formats.docbin.docs import conll_to_docs
    from spacy_coref_eval.pipeline.scorers import score_examples

    vocab = Vocab()
    references = list(conll_to_docs(read_conll(KEY, with_words=True).values(), vocab))
    second = references[1]
    second.spans["coref_clusters_99"] = [second[0:1], second[0:1]]  # a repeated mention in the key
    predicted = list(conll_to_docs(read_conll(RESPONSE, with_words=True).values(), vocab))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = score_examples([Example(p, r) for p, r in zip(predicted, references)])
    assert list(result.names) == ["(demo/alice); part 000", "(demo/storm); part 000"]
    messages = [str(w.message) for w in caught]
    assert any("'(demo/storm); part 000': " in m and "repeated mention" in m for m in messages), messages
    assert not any("example 1" in m for m in messages)


def test_python_warnings_point_at_the_callers_line_and_print_one_line():
    import warnings

    from spacy_coref_eval import evaluate_corpus
    from spacy_coref_eval.analysis.statistics import compare

    result = evaluate_corpus(KEY, RESPONSE).result
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compare(result, result, n_rounds=10)
    assert caught and all(w.filename == __file__ for w in caught), [w.filename for w in caught]
    shown = warnings.formatwarning(caught[0].message, caught[0].category, caught[0].filename, caught[0].lineno)
    assert shown == f"CorefEvalWarning: {caught[0].message}\n"
    other = warnings.formatwarning("x", DeprecationWarning, "f.py", 3, "line()")
    assert other.startswith("f.py:3: DeprecationWarning: x")


# --- item 12b: entities by the file's ids ------------------------------------------------------


def test_the_errors_list_names_entities_by_the_key_files_ids(tmp_path):
    key = tmp_path / "k.conll"
    _alice_met_bob(key, ("(104)", "-", "(7)", "-", "(104)", "-"))
    response = tmp_path / "r.conll"
    _alice_met_bob(response, ("(9)", "-", "(9)", "-", "-", "-"))
    listing = json.loads(run("score", key, response, "--errors-list", "-f", "json").stdout)["errors_list"]["d"]
    assert listing["missing_mentions"] == [{"span": [4, 5], "text": "she", "entity": 1, "entity_id": "104", "entity_missing": False}]
    conflated = listing["conflated_entities"][0]
    assert conflated["entity_id"] == "9"
    assert [part["key_entity_id"] for part in conflated["parts"]] == ["104", "7"]
    table = run("score", key, response, "--errors-list").stdout
    assert '#104 [4, 5) "she"' in table and '#104: [0, 1) "Alice"; #7: [2, 3) "Bob"' in table


def test_the_errors_list_names_conllu_entities_by_their_eids(tmp_path):
    source = _gum_document(1)
    key = tmp_path / "k.conllu"
    key.write_text(source, encoding="utf8")
    first = next(line for line in source.splitlines() if "Entity=(" in line and "\t" in line)
    eid = first.split("Entity=(", 1)[1].split("-", 1)[0].split(")", 1)[0]
    response = tmp_path / "r.conllu"
    response.write_text(source.replace(first, first.replace(f"Entity=({eid}", "Entity=(zz1")), encoding="utf8")
    listing = json.loads(run("score", key, response, "--errors-list", "-f", "json").stdout)["errors_list"]
    divided = [entry for kinds in listing.values() for entry in kinds["divided_entities"]]
    assert [entry["entity_id"] for entry in divided] == [eid]
    assert "zz1" in [part["response_entity_id"] for part in divided[0]["parts"]]


def test_the_html_report_labels_key_entities_by_the_files_ids(tmp_path):
    key = tmp_path / "k.conll"
    _alice_met_bob(key, ("(104)", "-", "(7)", "-", "(104)", "-"))
    response = tmp_path / "r.conll"
    _alice_met_bob(response, ("(9)", "-", "(8)", "-", "-", "(9)"))
    assert run("report", key, response, "-o", tmp_path / "r.html").exit_code == 0
    page = (tmp_path / "r.html").read_text()
    import re

    legend_end = page.index("have no twin on the other side")
    labels = re.findall(r'<sub class="l">([^<]*)</sub>', page[legend_end:])
    assert set(labels) == {"104", "7"}, labels


def test_empty_nodes_turned_into_words_are_named_when_scored_against_the_source(tmp_path):
    source = tmp_path / "z.conllu"
    source.write_text(_gum_document(0), encoding="utf8")
    assert run("convert", source, tmp_path / "z.conll").exit_code == 0
    assert run("convert", tmp_path / "z.conll", tmp_path / "back.conllu").exit_code == 0
    refused(
        run("score", source, tmp_path / "back.conllu"),
        "the response has a word for each of the key's empty nodes",
        "convert wrote them as words",
    )


def test_the_errors_list_names_ua_entities_by_their_entity_ids():
    listing = json.loads(
        run("score", UA_EXAMPLE / "example.key.ua", UA_EXAMPLE / "example.response.ua", "--errors-list", "-f", "json").stdout
    )["errors_list"]["example"]
    assert {e["entity_id"] for e in listing["missing_entities"]} == {"5", "6"}
    conflated = listing["conflated_entities"][0]
    assert conflated["entity_id"] == "2" and [p["key_entity_id"] for p in conflated["parts"]] == ["1", "2"]
