"""The jsonlines reader: hand-made lines, field precedence, word pieces,
doc_key pairing, errors, and a round trip through a CoNLL file."""
import json

import pytest

from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.readers.conll import read_conll, write_conll
from spacy_coref_eval.readers.jsonlines import (
    conll_doc_keys,
    pair_with_conll,
    parse_jsonlines,
    read_jsonlines,
    write_jsonlines,
)

from .conftest import data_path


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
    assert len(doc.tokens) == 11


def test_pairing_with_conll_names():
    assert conll_doc_keys("(bc/cctv/00/cctv_0000); part 003") == ("(bc/cctv/00/cctv_0000); part 003", "bc/cctv/00/cctv_0000_3")
    assert conll_doc_keys("plain name") == ("plain name",)
    pairs = pair_with_conll(["(a); part 000", "(a); part 001", "b", "c"], ["a_0", "a_1", "b"])
    assert pairs == {"(a); part 000": "a_0", "(a); part 001": "a_1", "b": "b"}
    with pytest.raises(CorefInputError, match="matches two jsonlines doc_keys"):
        pair_with_conll(["(a); part 000"], ["(a); part 000", "a_0"])


@pytest.mark.parametrize(
    "line, message",
    [
        ("{not json", r"f:2: not a JSON object"),
        (_line(sentences=[["x"]], clusters=[]), r"f:2: no doc_key string"),
        (_line(doc_key="d", sentences=[["x"]], clusters=[[[0, 1]]]), r"f:2: document 'd': mention \[0, 1\] in clusters\[0\] is reversed or outside"),
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
