"""Reading CoNLL-2012 files, and every kind of bad or odd input."""

import gzip

import pytest

from spacy_coref_eval import Clusters, CorefInputError, read_conll, score_documents
from spacy_coref_eval.formats.conll.read import parse_conll
from spacy_coref_eval.formats.conll.write import format_conll
from spacy_coref_eval.formats.document import conll_column


def doc(name: str, marks, sep: str = "\t") -> str:
    lines = [f"#begin document {name}"]
    for i, mark in enumerate(marks):
        lines.append("" if mark is None else sep.join(["d", "0", str(i), f"w{i}", mark]))
    lines.append("#end document")
    return "\n".join(lines) + "\n"


def parse(text: str):
    return parse_conll(text, source="<string>")


def entities(text: str, name: str = "(a); part 000"):
    return parse(text)[name].clusters.entities()


def test_nested_single_and_concatenated_marks():
    text = doc("(a); part 000", ["(1(3", "-", "3)|(2)", "1)", "(1)", "(2", "2)"])
    assert entities(text) == (((0, 4), (4, 5)), ((0, 3),), ((2, 3), (5, 7)))


def test_space_separated_fields_and_blank_lines():
    text = doc("(a); part 000", ["(0", None, "0)", "(0)"], sep=" ")
    assert entities(text) == (((0, 2), (2, 3)),)


def test_tokens_numbered_through_the_document():
    text = doc("(a); part 000", ["-", None, "-", None, "(7)"])
    parsed = parse(text)["(a); part 000"]
    assert parsed.n_tokens == 3
    assert parsed.clusters.entities() == (((2, 3),),)


def test_several_documents_and_trailing_space_in_names():
    text = doc("(a); part 000 ", ["(1)"]) + doc("(b); part 001", ["(1)", "(1)"])
    docs = parse(text)
    assert list(docs) == ["(a); part 000", "(b); part 001"]
    assert docs["(b); part 001"].clusters.entities() == (((0, 1), (1, 2)),)


def test_entities_ordered_by_first_opening_and_mentions_by_close():
    text = doc("(a); part 000", ["(5(9", "(9)", "9)", "5)"])
    assert entities(text) == (((0, 4),), ((1, 2), (0, 3)))


def test_close_without_open_names_file_line_and_entity(tmp_path):
    path = tmp_path / "bad.conll"
    path.write_text(doc("(a); part 000", ["-", "4)"]))
    with pytest.raises(CorefInputError, match=r"bad\.conll:3: mention of entity 4 closes but was never opened"):
        read_conll(path)


def test_open_without_close_names_the_opening_line(tmp_path):
    path = tmp_path / "bad.conll"
    path.write_text(doc("(a); part 000", ["-", "(12", "-"]))
    with pytest.raises(CorefInputError, match=r"bad\.conll:3: mention of entity 12 opens but never closes"):
        read_conll(path)


def test_unreadable_mark_field():
    with pytest.raises(CorefInputError, match=r"<string>:2: cannot read coreference field '\(1\(\)'"):
        parse(doc("(a); part 000", ["(1()"]))


def test_missing_end_document():
    with pytest.raises(CorefInputError, match=r"document '\(a\)' \(line 1\) has no '#end document'"):
        parse("#begin document (a)\nd 0 0 w (1)\n")


def test_begin_inside_document():
    with pytest.raises(CorefInputError, match=r"<string>:3: '#begin document' inside document"):
        parse("#begin document (a)\nd 0 0 w -\n#begin document (b)\n")


def test_token_line_outside_document():
    with pytest.raises(CorefInputError, match=r"<string>:1: token line outside"):
        parse("d 0 0 w (1)\n")


def test_document_named_twice():
    with pytest.raises(CorefInputError, match=r"<string>:4: document '\(a\)' appears twice \(first at line 1\)"):
        parse(doc("(a)", ["-"]) + doc("(a)", ["-"]))


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(CorefInputError, match="cannot read file"):
        read_conll(tmp_path / "nope.conll")


def test_gzip_is_read_transparently(tmp_path):
    path = tmp_path / "k.conll.gz"
    with gzip.open(path, "wt") as out:
        out.write(doc("(a)", ["(1)", "(1)"]))
    assert read_conll(path)["(a)"].clusters.entities() == (((0, 1), (1, 2)),)


def test_repeated_mentions_keep_first_copy_in_reference_order():
    text = doc("(a); part 000", ["(1(3(3", "-", "3)3)1)", "(3)"])
    clusters = parse(text)["(a); part 000"].clusters
    assert clusters.entities() == (((0, 3),), ((3, 4),))
    assert clusters.repeated == 2


def test_repeated_mentions_in_key_and_response_are_warned():
    key = {"a": parse(doc("a", ["(1)(2)", "(1)"]))["a"].clusters}
    response = {"a": parse(doc("a", ["(1)(1)", "(2)"]))["a"].clusters}
    result = score_documents(key, response)
    assert result.warnings == [
        "document 'a': 1 repeated mention(s) in the key dropped (first copy kept)",
        "document 'a': 1 repeated mention(s) in the response dropped (first copy kept)",
    ]
    assert result.total.as_dict()["mentions"]["recall_den"] == 2


def test_missing_and_extra_documents():
    key = {"a": [[(0, 1), (1, 2)]], "b": [[(0, 1)]]}
    response = {"a": [[(0, 1), (1, 2)]], "c": [[(0, 1)]]}
    result = score_documents(key, response)
    assert result.warnings == [
        "document 'b': no response document; scored as an empty response",
        "1 response document(s) not in the key, ignored: 'c'",
    ]
    assert list(result.documents) == ["a", "b"]
    mentions = result.total.as_dict()["mentions"]
    assert (mentions["recall_num"], mentions["recall_den"], mentions["precision_den"]) == (2, 3, 2)


def test_empty_documents_score_zero():
    text = doc("(a)", []) + doc("(b)", ["-", "-"])
    docs = {name: d.clusters for name, d in parse(text).items()}
    result = score_documents(docs, docs)
    assert result.warnings == []
    for metric, scores in result.metrics().items():
        assert all(value == 0 for value in scores.values() if isinstance(value, float)), metric


def test_format_conll_round_trip():
    clusters = Clusters.from_entities([[(0, 3), (3, 4), (0, 4)], [(2, 3), (5, 7), (0, 1)]])
    text = "\n".join(format_conll("(x); part 000", [f"w{i}" for i in range(7)], clusters, sentence_starts=[0, 4])) + "\n"
    parsed = parse(text)["(x); part 000"]
    assert {frozenset(e) for e in parsed.clusters.entities()} == {frozenset(e) for e in clusters.entities()}


def test_conll_column_is_how_words_are_written():
    words = ["New York", "\n", "", "a \t\u3000b", "ok"]
    assert [conll_column(word) for word in words] == ["New_York", "_", "_", "a_b", "ok"]
    clusters = Clusters.from_entities([[(0, 1), (4, 5)]])
    text = "\n".join(format_conll("(x)", words, clusters)) + "\n"
    read_back = parse_conll(text, source="<string>", with_words=True)["(x)"]
    assert read_back.words == [conll_column(word) for word in words]
    assert read_back.clusters.entities() == clusters.entities()


def test_crossing_mentions_of_one_entity_cannot_be_written():
    crossing = Clusters.from_entities([[(0, 3), (2, 5), (6, 7)], [(1, 4)]])
    with pytest.raises(CorefInputError, match=r"mention \(2, 5\) of entity 0 overlaps another mention of that entity"):
        list(format_conll("(x)", ["w"] * 8, crossing))
    nested = Clusters.from_entities([[(0, 5), (2, 5), (0, 2), (3, 4)], [(1, 4)]])
    text = "\n".join(format_conll("(x)", ["w"] * 8, nested)) + "\n"
    read_back = parse(text)["(x)"].clusters.entities()
    assert [set(entity) for entity in read_back] == [set(entity) for entity in nested.entities()]


def test_spans_before_the_first_token_are_refused():
    with pytest.raises(CorefInputError, match=r"mention \(-3, -1\) is empty, reversed or before the first token"):
        score_documents({"a": [[(3, 5)]], "b": [[(-3, -1)]]}, {"a": [[(3, 5)]], "b": [[(0, 1)]]})
