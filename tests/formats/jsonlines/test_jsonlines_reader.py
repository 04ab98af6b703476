"""The jsonlines reader: hand-made lines, field precedence, word pieces,
doc_key pairing, errors, a round trip through a CoNLL file, and clusters
built in one batch against per-document clusters."""

import json

import numpy as np
import pytest

from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats.conll.read import read_conll
from spacy_coref_eval.formats.conll.write import write_conll
from spacy_coref_eval.formats.corpus import document_keys, match_names, read_corpus
from spacy_coref_eval.formats.jsonlines import read as jsonlines_module
from spacy_coref_eval.formats.jsonlines.read import parse_jsonlines, read_jsonlines
from spacy_coref_eval.formats.jsonlines.write import write_jsonlines
from spacy_coref_eval.model.clusters import Clusters
from tests.conftest import data_path


def _line(**fields) -> str:
    return json.dumps(fields)


def test_inclusive_ends_become_exclusive():
    text = _line(doc_key="a", sentences=[["A", "b"], ["c", "d", "e"]], clusters=[[[0, 1], [3, 3]], [[4, 4]]])
    doc = parse_jsonlines(text, role="key")["a"]
    assert doc.words == ["A", "b", "c", "d", "e"]
    assert doc.sentence_starts == [0, 2]
    assert doc.clusters.entities() == (((0, 2), (3, 4)), ((4, 5),))
    assert doc.field == "clusters"


def test_field_precedence_and_option():
    text = _line(doc_key="a", sentences=[["x", "y", "z"]], clusters=[[[0, 0], [1, 1]]], predicted_clusters=[[[2, 2], [0, 1]]])
    assert parse_jsonlines(text)["a"].clusters.entities() == (((2, 3), (0, 2)),)
    assert parse_jsonlines(text, role="key")["a"].clusters.entities() == (((0, 1), (1, 2)),)
    assert parse_jsonlines(text, field="clusters")["a"].field == "clusters"
    gold_only = _line(doc_key="b", sentences=[["x"]], clusters=[[[0, 0]]])
    assert parse_jsonlines(gold_only)["b"].field == "clusters"
    with pytest.raises(CorefInputError, match=r"f:1: document 'b': no 'predicted_clusters' field"):
        parse_jsonlines(gold_only, source="f", field="predicted_clusters")


def test_subtoken_map_maps_pieces_to_words():
    text = _line(
        doc_key="a",
        sentences=[["[CLS]", "The", "Ġcat", "s", "Ġsat", "[SEP]"], ["[CLS]", "It", "Ġpurr", "ed", "[SEP]"]],
        subtoken_map=[0, 0, 1, 1, 2, 2, 2, 3, 4, 4, 4],
        sentence_map=[0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1],
        predicted_clusters=[[[1, 3], [7, 7]], [[8, 9]]],
    )
    doc = parse_jsonlines(text)["a"]
    assert doc.words == ["The", "cats", "sat", "It", "purred"]
    assert doc.sentence_starts == [0, 2]
    assert doc.clusters.entities() == (((0, 2), (3, 4)), ((4, 5),))
    assert len(doc.pieces) == 11


def test_pairing_with_conll_names():
    assert document_keys("(bc/cctv/00/cctv_0000); part 003") == ("(bc/cctv/00/cctv_0000); part 003", "bc/cctv/00/cctv_0000_3")
    assert document_keys("plain name") == ("plain name",)
    pairs = match_names(["(a); part 000", "(a); part 001", "b", "c"], ["a_0", "a_1", "b"])
    assert pairs == {"(a); part 000": "a_0", "(a); part 001": "a_1", "b": "b"}
    with pytest.raises(CorefInputError, match="matches two response documents"):
        match_names(["(a); part 000"], ["(a); part 000", "a_0"])


@pytest.mark.parametrize(
    "line, message",
    [
        ("{not json", r"f:2: not a JSON object"),
        (_line(sentences=[["x"]], clusters=[]), r"f:2: no doc_key string"),
        (
            _line(doc_key="d", sentences=[["x"]], clusters=[[[0, 1]]]),
            r"f:2: document 'd': mention \[0, 1\] in clusters\[0\] is reversed or outside",
        ),
        (_line(doc_key="d", sentences=[["x", "y"]], clusters=[[[1, 0]]]), r"f:2: document 'd': mention \[1, 0\]"),
        (_line(doc_key="d", sentences=[["x"]], clusters=[[[0.0, 0]]]), r"f:2: document 'd': mention \[0.0, 0\] in clusters\[0\] is not"),
        (_line(doc_key="d", sentences=[["x"]], clusters=[[[0]]]), r"f:2: document 'd': mention \[0\] in clusters\[0\]"),
        (_line(doc_key="d", sentences=[["x"]], clusters=[5]), r"f:2: document 'd': clusters\[0\] must be a list"),
        (_line(doc_key="d", sentences="x", clusters=[]), r"f:2: document 'd': 'sentences' must be"),
        (_line(doc_key="d", sentences=[["x"]], clusters=[], subtoken_map=[0, 1]), r"f:2: document 'd': 'subtoken_map'"),
        (_line(doc_key="k", sentences=[["x"]], clusters=[]), r"f:2: doc_key 'k' appears twice \(first at line 1\)"),
    ],
)
def test_errors_name_file_line_and_doc_key(line, message):
    text = _line(doc_key="k", sentences=[["x"]], clusters=[]) + "\n" + line + "\n"
    with pytest.raises(CorefInputError, match=message):
        parse_jsonlines(text, source="f", role="key")


def test_round_trip_through_a_conll_file(tmp_path):
    documents = list(read_conll(data_path("corpora", "litbank.key.conll.gz"), with_words=True).values())[:8]
    conll = tmp_path / "subset.conll"
    write_conll(conll, [(d.name, d.words, d.clusters, d.sentence_starts) for d in documents])
    key = read_conll(conll, with_words=True)
    lines = tmp_path / "subset.jsonlines"
    rows = []
    for doc in key.values():
        bounds = doc.sentence_starts + [doc.n_tokens]
        rows.append((doc.name, [doc.words[a:b] for a, b in zip(bounds, bounds[1:])], doc.clusters))
    write_jsonlines(lines, rows, field="predicted_clusters")
    read = read_jsonlines(lines)
    assert list(read) == list(key)
    for name, doc in key.items():
        assert read[name].words == doc.words
        assert read[name].sentence_starts == doc.sentence_starts
        assert read[name].clusters.entities() == doc.clusters.entities()
        assert read[name].field == "predicted_clusters"
    assert sum(len(d.clusters) for d in read.values()) == sum(len(d.clusters) for d in documents)


def test_empty_and_repeated_clusters_read():
    text = _line(doc_key="a", sentences=[["x", "y", "z"]], clusters=[[[0, 0], [1, 2]], [], [[0, 0], [2, 2]]]) + "\n"
    document = parse_jsonlines(text, role="key")["a"]
    assert document.clusters.entities() == (((0, 1), (1, 3)), ((2, 3),))
    assert document.clusters.repeated == 1


@pytest.mark.parametrize(
    "clusters",
    [
        "[[[0, 1],]]",
        "[[[01, 1]]]",
        "[[[0 1]]]",
        "[[[0, 1][1, 1]]]",
        "[[0, 1]]",
        "[[[0, 1, 1]]]",
        "[[[]]]",
        "[[[0, --1]]]",
        "[[[0, 1]]]]",
        "[[[0, 1.0]]]",
        "[[[true, 1]]]",
        "[[[0, 1]], ]",
        "[[[0, 1e0]]]",
        "[[[-1, 1]]]",
        "[[[1, 0]]]",
        "[[[0, 5]]]",
        "[[[0, 12345678901234567890]]]",
        "[[[0, 1]]] x",
        '[[["0", 1]]]',
    ],
)
def test_odd_clusters_text_fails_with_its_line_or_reads(clusters):
    text = '{"doc_key": "d", "sentences": [["a", "b"]], "clusters": ' + clusters + "}\n"
    try:
        entities = parse_jsonlines(text, source="f", role="key")["d"].clusters.entities()
    except CorefInputError as err:
        assert str(err).startswith("f:1: ")
    else:
        assert entities == (((0, 2),),)


def test_sentences_read_as_the_clusters_field_are_checked_as_sentences():
    text = '{"doc_key": "a", "sentences": [[[0, 0]], [[0, 0]]], "clusters": [[[0, 1]]]}\n'
    with pytest.raises(CorefInputError) as caught:
        parse_jsonlines(text, source="f", field="sentences")
    assert str(caught.value) == ("f:1: document 'a': 'sentences'[0][0] is [0, 0] (JSON array); every token must be a non-empty string")


def test_clusters_built_in_one_batch_equal_those_built_alone():
    rng = np.random.default_rng(0)
    mentions, expected = [], []
    for _ in range(30):
        n = int(rng.integers(0, 40))
        count = int(rng.integers(0, 12)) if n else 0
        starts = rng.integers(0, max(n, 1), size=count)
        ends = np.minimum(starts + rng.integers(1, 4, size=count), n)
        labels = np.sort(rng.integers(0, 5, size=count))
        mentions.append((np.column_stack((starts, ends)).astype(np.int64), labels.astype(np.int64)))
        expected.append(Clusters.from_arrays(starts, ends, labels) if count else Clusters())
    built = jsonlines_module._clusters_by_document(mentions)
    assert len(built) == len(expected)
    for got, want in zip(built, expected):
        assert [got.starts.tolist(), got.ends.tolist(), got.entity.tolist(), got.n_entities, got.repeated] == [
            want.starts.tolist(),
            want.ends.tolist(),
            want.entity.tolist(),
            want.n_entities,
            want.repeated,
        ]


def test_the_first_error_in_the_file_is_reported():
    outside = _line(doc_key="a", sentences=[["x"]], clusters=[[[0, 0]], [[0, 3]]])
    fine = _line(doc_key="b", sentences=[["x"]], clusters=[[[0, 0]]])
    for later in ("{not json", _line(doc_key="a", sentences=[["x"]], clusters=[])):
        with pytest.raises(CorefInputError, match=r"^f:1: document 'a': mention \[0, 3\] in clusters\[1\] is reversed"):
            parse_jsonlines("\n".join([outside, fine, later]), source="f", role="key")
    with pytest.raises(CorefInputError, match=r"^f:3: not a JSON object"):
        parse_jsonlines("\n".join([fine, fine.replace('"b"', '"c"'), "{not json", outside]), source="f", role="key")


def test_pairing_two_files_with_the_same_or_other_sentences(tmp_path):
    sentences = [["A", "cat", "sat", "."], ["It", "purred"]]
    key, response, other = tmp_path / "k.jsonlines", tmp_path / "r.jsonlines", tmp_path / "o.jsonlines"
    key.write_text(_line(doc_key="d", sentences=sentences, clusters=[[[0, 1], [4, 4]]]) + "\n")
    response.write_text(_line(doc_key="d", predicted_clusters=[[[1, 1], [4, 4]]], sentences=sentences) + "\n")
    loaded = read_corpus(key, response)
    assert loaded.pairs[0].response.entities() == (((1, 2), (4, 5)),)
    corpus = read_corpus(key, response)
    pairs, _ = corpus.pairs, corpus.warnings
    assert [pair[2].entities() for pair in pairs] == [(((1, 2), (4, 5)),)]
    other.write_text(_line(doc_key="d", sentences=[["A", "cat", "sat", "!"], ["It", "purred"]], clusters=[]) + "\n")
    with pytest.raises(CorefInputError, match=r"different words: from word 3 the key reads '\. It purred' and the response '! It"):
        read_corpus(key, other)


@pytest.mark.parametrize("doc_key", ["[1]", "{}", "null", "7"])
def test_a_doc_key_that_is_no_string_is_refused(doc_key):
    line = '{"doc_key": ' + doc_key + ', "sentences": [["a"]], "clusters": []}\n'
    with pytest.raises(CorefInputError, match=r"^f:1: no doc_key string"):
        parse_jsonlines(line, source="f")
