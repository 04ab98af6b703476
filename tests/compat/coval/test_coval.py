"""coval's minimum spans (MINA), NP_only and remove_nested, against coval's
own outputs at commit 87071a6 (tests/data/coval/PROVENANCE.md)."""

import pytest
from hypothesis import given

from spacy_coref_eval import CorefInputError
from spacy_coref_eval.compat.coval.mentions import CovalMention, np_only, remove_nested
from spacy_coref_eval.compat.coval.score import COVAL_METRICS, CovalOptions, coval_counts, coval_sides
from spacy_coref_eval.model.parse_tree import partial_tree, render
from spacy_coref_eval.twinning.minimum import minimum_span
from tests.support.coval_fixtures import (
    DATA,
    as_fixture,
    combo,
    coval_pair,
    edge_cases,
    final_entities,
    fixtures,
    generated,
    read_pair,
    written,
)
from tests.support.strategies import deterministic, key_response_pairs

# coval merges a document name given twice into one document (as the
# preset's reader does, docs/coval.md §1, checked by the entity and count
# tests below); the common reader this test reads with does not.
WITH_TREES = generated() + [p for p in edge_cases() if p["mina"] and p["id"] != "edge:repeated_document_name"]


def _trees(tmp_path, pair):
    keys, responses, bits = read_pair(tmp_path, pair)
    for name, sides in pair["mina"].items():
        key = keys[name]
        for side, entities in sides.items():
            if entities is None:
                continue
            words = (key if side == "key" else responses[name]).words
            for entity in entities:
                for mention in entity:
                    sentence, start, end = mention["span"]
                    a = key.sentence_starts[sentence] + start
                    b = key.sentence_starts[sentence] + end + 1
                    tree = partial_tree(key.words[a:b], key.pos[a:b], bits[name][a:b], first=start)
                    yield mention, tree, minimum_span(tree, words[a:b])


@pytest.mark.parametrize("pair", WITH_TREES, ids=lambda p: p["id"])
def test_trees_and_minimum_spans_equal_covals(tmp_path, pair):
    seen = 0
    for mention, tree, span in _trees(tmp_path, pair):
        assert render(tree) == mention["tree"], mention
        assert (None if tree is None else tree.label) == mention["root"]
        assert sorted([list(x) for x in span or ()], key=lambda x: (x[1], x[0])) == mention["min_span"], mention
        assert (tree is not None and tree.label == "VP") == mention["np_only_drops"]
        seen += 1
    assert seen > 0


def test_every_fixture_mention_is_checked(tmp_path):
    total = 0
    for i, pair in enumerate(WITH_TREES):
        (tmp_path / str(i)).mkdir()
        total += sum(1 for _ in _trees(tmp_path / str(i), pair))
    assert total == 4233  # coval's 4,245 less the 12 of the repeated-name case


@pytest.mark.parametrize("pair", generated() + edge_cases(), ids=lambda p: p["id"])
def test_np_only_and_remove_nested_leave_covals_entities(tmp_path, pair):
    keys, responses = coval_pair(tmp_path, pair)
    checked = 0
    for name, result in pair["results"].items():
        if "error" in result:
            continue
        final = final_entities(keys, responses, combo(name))
        mine = {doc: {side: as_fixture(entities) for side, entities in sides.items()} for doc, sides in final.items()}
        assert mine == result["clusters"], name
        checked += 1
    assert checked or pair["id"] in ("edge:concatenated_open", "edge:missing_response_document")


def test_remove_nested_keeps_an_entity_that_would_be_a_singleton():
    entity = [CovalMention(0, 2, 3, ("span", 0, 2, 3), "NP"), CovalMention(0, 0, 4, ("span", 0, 0, 4), "NP")]
    assert remove_nested([entity], keep_singletons=True) == [entity]
    assert remove_nested([entity], keep_singletons=False) == []


def test_np_only_drops_an_entity_left_with_one_mention():
    verb = CovalMention(0, 1, 1, ("span", 0, 1, 1), "VP")
    noun = CovalMention(1, 0, 1, ("span", 1, 0, 1), "NP")
    untouched = [CovalMention(2, 0, 0, ("span", 2, 0, 0), "S")]
    assert np_only([[verb, noun], untouched]) == [untouched]


def _missing(doc):
    raise CorefInputError(f"document {doc!r} is not in the response")


def _close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _options(name):
    o = combo(name)
    return CovalOptions(o["min_span"], o["NP_only"], o["remove_nested"], o["keep_singletons"])


def _assert_covals_sums(keys, responses, options, result, case):
    """The corpus sums of every metric equal coval's (CEAFm: its similarity)."""
    totals = {m: [0.0] * 4 for m in COVAL_METRICS}
    for doc, key in keys.items():
        for m, quad in coval_counts(*coval_sides(key, responses[doc], options)).items():
            totals[m] = [a + b for a, b in zip(totals[m], quad)]
    for m, expected in result["metrics"].items():
        got = dict(zip(("r_num", "r_den", "p_num", "p_den"), totals[m]))
        fields = ("r_num", "p_num") if m == "ceafm" else tuple(got)
        assert all(_close(got[f], expected[f]) for f in fields), (case, m, got, expected)


@pytest.mark.parametrize("pair", generated() + edge_cases(), ids=lambda p: p["id"])
def test_counts_equal_covals_in_every_combination(tmp_path, pair):
    keys, responses = coval_pair(tmp_path, pair)
    for name, result in pair["results"].items():
        options = _options(name)
        if "error" in result:
            with pytest.raises(CorefInputError):
                for doc, key in keys.items():
                    coval_counts(*coval_sides(key, responses.get(doc) or _missing(doc), options))
            continue
        _assert_covals_sums(keys, responses, options, result, name)


def _coval_test_cases():
    suite = fixtures()["coval_tests"]
    return [(c["key"], c["response"], c["results"]) for c in suite["cases"]]


def test_covals_own_test_files(tmp_path):
    files = fixtures()["coval_tests"]["files"]
    runs = crashes = 0
    for i, (key_name, response_name, results) in enumerate(_coval_test_cases()):
        pair = {"key": files[key_name], "response": files[response_name]}
        (tmp_path / str(i)).mkdir()
        keys, responses = coval_pair(tmp_path / str(i), pair)
        for name, result in results.items():
            options = _options(name)
            if "error" in result:
                with pytest.raises(CorefInputError, match="no parse column"):
                    for doc, key in keys.items():
                        coval_sides(key, responses[doc], options)
                crashes += 1
                continue
            _assert_covals_sums(keys, responses, options, result, (key_name, response_name, name))
            runs += 1
    assert (runs, crashes) == (464, 1344)  # 113 pairs × 16; coval stops on 1,344 (no parse column)


def test_the_preset_through_evaluate_corpus_equals_coval_in_every_combination(tmp_path):
    from spacy_coref_eval.scoring import evaluate_corpus

    pair = next(p for p in generated() if p["id"] == "gen-1000")
    key, response = written(tmp_path, pair)
    for name, result in pair["results"].items():
        o = combo(name)
        run = evaluate_corpus(
            key,
            response,
            preset="coval",
            mina=o["min_span"],
            np_only=o["NP_only"],
            remove_nested=o["remove_nested"],
            singletons="keep" if o["keep_singletons"] else "remove",
            metrics=["muc", "bcub", "ceafe", "lea"],
        )
        scores = run.metrics()
        for m in ("mentions", "muc", "bcub", "ceafe", "lea"):
            assert _close(scores[m]["f1"], result["metrics"][m]["f1"]), (name, m)
        assert _close(scores["conll"]["f1"], result["conll"]), name


def test_the_command_line_prints_covals_numbers():
    from click.testing import CliRunner

    from spacy_coref_eval.cli import app

    out = CliRunner().invoke(
        app,
        [
            "score",
            str(DATA / "gen-1000.key.conll"),
            str(DATA / "gen-1000.response.conll"),
            "--mina",
            "--np-only",
            "--remove-nested",
            "--singletons",
            "remove",
        ],
    )
    assert out.exit_code == 0, out.output
    rows = {line.split()[0]: line.split()[1:4] for line in out.output.splitlines() if line[:1].isalpha()}
    # coval's scorer.py on the same files: mentions 73.33 70.97 72.13, muc 45.00 44.44 44.72,
    # bcub 51.01 57.07 53.87, ceafe 70.77 61.33 65.71, lea 36.36 45.45 40.40, CoNLL 54.77
    assert rows["Mentions"] == ["73.33", "70.97", "72.13"]
    assert rows["MUC"] == ["45.00", "44.44", "44.72"]
    assert rows["B³"] == ["51.01", "57.07", "53.87"]
    assert rows["CEAFe"] == ["70.77", "61.33", "65.71"]
    assert rows["LEA"] == ["36.36", "45.45", "40.40"]
    assert rows["CoNLL"] == ["54.77"]


@pytest.mark.parametrize(
    "names, message",
    [
        (dict(preset="corefud", mina=True), "options of the coval preset"),
        (dict(preset="coval", metrics=["blanc"]), "coval has no blanc"),
        (dict(mina=True, twinless="sys"), "no --twinless"),
    ],
)
def test_what_the_preset_refuses(names, message):
    from spacy_coref_eval.scoring import Settings

    with pytest.raises(ValueError, match=message):
        Settings.from_options(**names)


def test_minimum_spans_need_the_keys_parse(tmp_path):
    from spacy_coref_eval.scoring import evaluate_corpus

    key = tmp_path / "key.conll"
    key.write_text("#begin document (d); part 000\nd\t0\t0\tJohn\t(0)\nd\t0\t1\the\t(0)\n\n#end document\n")
    with pytest.raises(CorefInputError, match="no parse column"):
        evaluate_corpus(key, key, mina=True)
    assert evaluate_corpus(key, key, preset="coval").metrics()["muc"]["f1"] == 1.0


def test_clusters_cannot_be_scored_under_the_preset():
    from spacy_coref_eval.scoring import Settings, score_documents

    with pytest.raises(ValueError, match="CoNLL-2012 files"):
        score_documents({"d": [[(0, 1), (2, 3)]]}, {"d": [[(0, 1), (2, 3)]]}, Settings.from_options(preset="coval"))


@deterministic(150)
@given(key_response_pairs(max_mentions=12))
def test_without_repeats_covals_counts_are_the_contingency_tables(pair):
    """Partitions of distinct spans: coval's own tables give the counts of
    the one contingency table (CEAFm over mentions included)."""
    from spacy_coref_eval.scoring import Settings, count_document

    key, response = pair

    def side(entities):
        return [[CovalMention(0, s, e - 1, ("span", 0, s, e - 1), None) for s, e in entity] for entity in entities]

    theirs = coval_counts(side(key), side(response))
    ours = count_document(key, response, Settings.from_options(metrics=["muc", "bcub", "ceafm", "ceafe", "lea"]))
    for metric in COVAL_METRICS:
        assert all(_close(a, b) for a, b in zip(theirs[metric], ours.block(metric))), metric


def test_all_4245_fixture_mentions_through_covals_reading(tmp_path):
    """The preset's own reading (repeated document names merged, as coval
    does) gives coval's tree and minimum span for every fixture mention."""
    total = 0
    for i, pair in enumerate(p for p in generated() + edge_cases() if p["mina"]):
        (tmp_path / str(i)).mkdir()
        keys, responses = coval_pair(tmp_path / str(i), pair)
        for name, sides in pair["mina"].items():
            key = keys[name]
            for side, entities in sides.items():
                own = key if side == "key" else responses.get(name)
                for mention in (m for entity in entities or () for m in entity):
                    sentence, start, end = mention["span"]
                    columns = (key.column(sentence, field, start=start, end=end) for field in (3, 4, 5))
                    tree = partial_tree(*columns, first=start)
                    span = minimum_span(tree, own.column(sentence, 3, start=start, end=end))
                    assert render(tree) == mention["tree"]
                    assert sorted([list(x) for x in span or ()], key=lambda x: (x[1], x[0])) == mention["min_span"]
                    total += 1
    assert total == 4245
