"""Mentions given as strings (``clusters_strings``, ``clusters_text_mentions``):
placed by the documented rule (docs/formats.md, Mention strings) exactly
as a naive oracle places them, on hand-made documents and on LitBank;
strings found nowhere are counted, never an error."""

import json

import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

from spacy_coref_eval import CorefInputError
from spacy_coref_eval.cli import app
from spacy_coref_eval.formats.corpus import read_corpus, read_side
from spacy_coref_eval.formats.registry import get_format
from spacy_coref_eval.formats.sysout.strings import place_strings
from tests.conftest import data_path
from tests.support.strategies import deterministic

runner = CliRunner()
LITBANK = data_path("corpora", "litbank.key.conll.gz")


def oracle(text, clusters):
    """The rule, one character at a time: the text without white space;
    each cluster's strings in order, each at the first free occurrence on
    word boundaries at or after one past the cluster's previous placement,
    else the first before it. ASCII texts without quotes only."""
    chars = [(i, c) for i, c in enumerate(text) if not c.isspace()]
    units = "".join(c for _, c in chars)

    def cut(u):
        if u == 0 or u == len(units):
            return True
        (i, a), (j, b) = chars[u - 1], chars[u]
        return not (a.isalnum() and b.isalnum() and j == i + 1)

    taken, placed, unplaced = set(), [], 0
    for label, cluster in enumerate(clusters):
        after = 0
        for string in cluster:
            needle = "".join(c for c in string if not c.isspace())
            starts = [
                u
                for u in range(len(units) - len(needle) + 1)
                if needle and units[u : u + len(needle)] == needle and cut(u) and cut(u + len(needle)) and (u, u + len(needle)) not in taken
            ]
            found = [u for u in starts if u >= after] + [u for u in starts if u < after]
            if not found:
                unplaced += 1
                continue
            u = found[0]
            taken.add((u, u + len(needle)))
            placed.append((chars[u][0], chars[u + len(needle) - 1][0] + 1, label))
            after = u + 1
    return placed, unplaced


@pytest.mark.parametrize(
    "text, clusters, expected, unplaced",
    [
        (
            "John saw Bill. He waved at the man, and he left.",
            [["John", "He"], ["Bill", "he", "the man"]],
            [("John", 0), ("He", 0), ("Bill", 1), ("he", 1), ("the man", 1)],
            0,
        ),
        ("the cat and the dog", [["he"], ["the"], ["the"]], [("the", 1), ("the", 2)], 1),
        ("A b A b A", [["A", "A", "A", "A"]], [("A", 0), ("A", 0), ("A", 0)], 1),
        ("her and her", [["her"], ["her"]], [("her", 0), ("her", 1)], 0),
        ("Lincoln's Inn   Hall", [["Lincoln", "Inn Hall", "Lincoln 's"]], [("Lincoln", 0), ("Inn   Hall", 0), ("Lincoln's", 0)], 0),
        ("x y", [[""], ["  "], ["z"]], [], 3),
    ],
)
def test_the_rule_on_hand_made_documents(text, clusters, expected, unplaced):
    spans, labels, missing = place_strings(text, clusters)
    assert sorted((text[a:b], label) for (a, b), label in zip(spans.tolist(), labels.tolist())) == sorted(expected)
    assert missing == unplaced
    assert (sorted((a, b, label) for (a, b), label in zip(spans.tolist(), labels.tolist())), missing) == (
        sorted(oracle(text, clusters)[0]),
        oracle(text, clusters)[1],
    )


def test_each_string_goes_to_the_next_occurrence_after_its_cluster_s_previous_one():
    text = "he met him . he left . he came back and he sat"
    spans, labels, _ = place_strings(text, [["he", "him", "he"], ["he", "he"]])
    starts = [a for a, _ in spans.tolist()]
    assert starts == [0, 7, 13, 23, 40]


@st.composite
def documents(draw):
    words = draw(st.lists(st.sampled_from(["a", "ab", "b", "ba", "a-b", "b.", "(a", "ab,"]), max_size=25))
    separators = draw(st.lists(st.sampled_from([" ", "  ", "\n", ""]), min_size=len(words), max_size=len(words)))
    text = "".join(w + s for w, s in zip(words, separators))
    strings = st.one_of(
        st.lists(st.sampled_from(words or ["a"]), min_size=1, max_size=3).map(" ".join), st.sampled_from(["a", "b", "ab", "zz", "", "a b"])
    )
    return text, draw(st.lists(st.lists(strings, max_size=5), max_size=5))


@deterministic(300)
@given(documents())
def test_the_placement_is_the_naive_oracle_s(case):
    text, clusters = case
    spans, labels, unplaced = place_strings(text, clusters)
    got = sorted((a, b, label) for (a, b), label in zip(spans.tolist(), labels.tolist()))
    placed, missing = oracle(text, clusters)
    assert (got, unplaced) == (sorted(placed), missing)


@pytest.fixture(scope="module")
def litbank_strings(tmp_path_factory):
    path = tmp_path_factory.mktemp("strings") / "litbank.strings.jsonl"
    result = runner.invoke(app, ["convert", str(LITBANK), str(path), "--output-format", "mention-strings"])
    assert result.exit_code == 0, result.stderr
    return path


def test_litbank_gold_as_strings_places_every_string_as_the_oracle_does(litbank_strings):
    lines = [json.loads(line) for line in litbank_strings.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 100
    for line in lines[:3]:
        spans, labels, unplaced = place_strings(line["text"], line["clusters_strings"])
        assert unplaced == 0
        got = sorted((a, b, label) for (a, b), label in zip(spans.tolist(), labels.tolist()))
        assert (got, unplaced) == (sorted(oracle(line["text"], line["clusters_strings"])[0]), 0)


def test_litbank_gold_as_strings_scores_as_close_as_the_rule_permits(litbank_strings):
    """Every gold string is in the text, so none is unplaced; only strings
    that occur more than once can land on another occurrence."""
    result = runner.invoke(app, ["score", str(LITBANK), str(litbank_strings), "-f", "json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["alignment"]["total"]["unplaced"] == 0
    assert 0.97 < data["metrics"]["mentions"]["f1"] < 1.0
    assert 0.9 < data["metrics"]["conll"]["f1"] < 1.0


def test_a_string_not_in_the_text_is_counted_never_an_error(tmp_path):
    key = tmp_path / "key.jsonl"
    key.write_text(
        json.dumps({"doc_key": "d", "text": "Anna met Ben . She smiled .", "clusters": [[[0, 4], [15, 18]]]}) + "\n", encoding="utf-8"
    )
    response = tmp_path / "response.jsonl"
    response.write_text(
        json.dumps(
            {"doc_key": "d", "text": "Anna met Ben. She smiled.", "clusters_text_mentions": [["Anna", "She", "Clara"], ["Ben", "him"]]}
        )
        + "\n",
        encoding="utf-8",
    )
    assert read_side(response).format.name == "mention-strings"
    corpus = read_corpus(key, response)
    report = corpus.alignment["d"]
    assert report.unplaced == 2
    assert corpus.pairs[0].response.entities() == (((0, 1), (4, 5)), ((2, 3),))
    result = runner.invoke(app, ["score", str(key), str(response), "-f", "json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["alignment"]["documents"]["d"]["unplaced"] == 2
    assert "2 mentions unplaced" in result.stderr


def test_tokens_are_joined_and_offsets_win_over_strings(tmp_path):
    tokens = tmp_path / "tokens.jsonl"
    tokens.write_text(
        json.dumps({"tokens": [["Anna", "met", "Ben", "."], ["She", "smiled", "."]], "clusters_strings": [["Anna", "She"]]}) + "\n",
        encoding="utf-8",
    )
    side = read_side(tokens)
    assert side.format.name == "mention-strings"
    assert side.documents[0].clusters.entities() == (((0, 1), (4, 5)),)
    both = tmp_path / "both.jsonl"
    both.write_text(json.dumps({"text": "Anna met Ben.", "clusters": [[[0, 4]]], "clusters_strings": [["Anna"]]}) + "\n", encoding="utf-8")
    assert read_side(both).format.name == "fastcoref"


@pytest.mark.parametrize(
    "line, message",
    [
        ({"text": "a b", "clusters_strings": "a"}, "'clusters_strings' must be a list of clusters"),
        ({"text": "a b", "clusters_strings": [["a", 3]]}, "'clusters_strings' must be a list of clusters"),
        ({"doc_key": "d", "clusters_strings": [["a"]], "sentences": 1}, "need the 'text'"),
    ],
)
def test_bad_strings_are_one_line(tmp_path, line, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    with pytest.raises(CorefInputError, match=message) as err:
        read_side(path, get_format("mention-strings"))
    assert "\n" not in str(err.value) and "bad.jsonl:1" in str(err.value)


@deterministic(200)
@given(documents())
def test_the_indexed_lookup_places_as_the_search_does(case):
    """Long texts look strings up in a prefix index; forced on short ones,
    it places every string where the search places it."""
    from spacy_coref_eval.formats.sysout import strings

    text, clusters = case
    searched = place_strings(text, clusters)
    saved, strings.INDEXED_FROM = strings.INDEXED_FROM, 0
    try:
        indexed = place_strings(text, clusters)
    finally:
        strings.INDEXED_FROM = saved
    assert indexed[0].tolist() == searched[0].tolist() and indexed[1].tolist() == searched[1].tolist()
    assert indexed[2] == searched[2]
