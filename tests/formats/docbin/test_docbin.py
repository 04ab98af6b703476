"""CoNLL-2012 ↔ spaCy DocBin: convert, export, and scoring ``.spacy`` files."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from spacy.tokens import Doc
from spacy.vocab import Vocab

from spacy_coref_eval import CorefInputError, read_conll, score_documents
from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.score import DATA
from spacy_coref_eval.formats.conll.read import parse_conll
from spacy_coref_eval.formats.corpus import read_corpus
from spacy_coref_eval.formats.docbin.docs import NAME_KEY, conll_to_docs, docs_to_conll, read_docbin, write_docbin
from spacy_coref_eval.formats.docbin.spans import doc_clusters
from spacy_coref_eval.pipeline.registrations import prefixed_span_groups
from spacy_coref_eval.report.json import score_json as result_json
from spacy_coref_eval.scoring import score_pairs
from tests.conftest import data_path

runner = CliRunner()
KEY, RESPONSE = DATA / "demo.key.conll", DATA / "demo.response.conll"


def entity_sets(clusters):
    return {frozenset(entity) for entity in clusters.entities()}


def conll_docs(path: Path):
    return list(conll_to_docs(read_conll(path, with_words=True).values(), Vocab()))


def to_docbin(path: Path, docs) -> Path:
    write_docbin(path, docs)
    return path


def expected_json(key: Path = KEY, response: Path = RESPONSE):
    def clusters(path):
        return {name: doc.clusters for name, doc in read_conll(path).items()}

    return json.loads(json.dumps(result_json(score_documents(clusters(key), clusters(response)), per_doc=True)))


def score_json(key: Path, response: Path):
    result = runner.invoke(app, ["score", str(key), str(response), "-f", "json", "--per-doc"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def split_words(doc: Doc) -> Doc:
    """``doc`` with every word of two or more characters split after its
    first character, spans moved along: same text, other tokens."""
    words, spaces, first, last = [], [], [], []
    for token in doc:
        first.append(len(words))
        pieces = [token.text[:1], token.text[1:]] if len(token) > 1 else [token.text]
        words.extend(pieces)
        spaces.extend([False] * (len(pieces) - 1) + [bool(token.whitespace_)])
        last.append(len(words))
    split = Doc(doc.vocab, words=words, spaces=spaces)
    for name, group in doc.spans.items():
        split.spans[name] = [split[first[span.start] : last[span.end - 1]] for span in group]
    split.user_data.update(doc.user_data)
    return split


@pytest.mark.slow
def test_litbank_convert_then_export_reproduces_every_document(tmp_path):
    litbank = data_path("corpora", "litbank.key.conll.gz")
    spacy_file, conll_file = tmp_path / "litbank.spacy", tmp_path / "litbank.conll"
    for command in (["convert", str(litbank), str(spacy_file)], ["export", str(spacy_file), str(conll_file)]):
        result = runner.invoke(app, command)
        assert result.exit_code == 0, result.output
    original = read_conll(litbank, with_words=True)
    exported = read_conll(conll_file, with_words=True)
    assert list(exported) == list(original)
    assert len(original) == 100
    assert sum(len(doc.clusters) for doc in exported.values()) == 29103
    for name, doc in original.items():
        assert exported[name].words == doc.words, name
        assert exported[name].sentence_starts == doc.sentence_starts, name
        assert entity_sets(exported[name].clusters) == entity_sets(doc.clusters), name


def test_converted_doc_layout():
    document = read_conll(KEY, with_words=True)["(demo/alice); part 000"]
    doc = next(conll_to_docs([document], Vocab()))
    assert doc.text == " ".join(document.words)
    assert [token.text for token in doc] == document.words
    assert [sent.start for sent in doc.sents] == document.sentence_starts == [0, 7, 13]
    assert list(doc.spans) == [f"coref_clusters_{n}" for n in range(1, document.clusters.n_entities + 1)]
    assert doc.user_data[NAME_KEY] == "(demo/alice); part 000"
    assert doc_clusters(doc, prefixed_span_groups()).entities() == document.clusters.entities()


@pytest.mark.parametrize("key_kind,response_kind", [("spacy", "spacy"), ("spacy", "conll"), ("conll", "spacy")])
def test_spacy_files_score_like_the_conll_files(tmp_path, key_kind, response_kind):
    key = to_docbin(tmp_path / "key.spacy", conll_docs(KEY)) if key_kind == "spacy" else KEY
    response = to_docbin(tmp_path / "response.spacy", conll_docs(RESPONSE)) if response_kind == "spacy" else RESPONSE
    assert score_json(key, response) == expected_json()


def test_differently_tokenised_response_scores_the_same(tmp_path):
    key = to_docbin(tmp_path / "key.spacy", conll_docs(KEY))
    split = [split_words(doc) for doc in conll_docs(RESPONSE)]
    assert len(split[0]) > len(conll_docs(RESPONSE)[0])
    response = to_docbin(tmp_path / "split.spacy", split)
    assert score_json(key, response) == expected_json()


def test_spans_inside_key_tokens_are_counted_in_a_warning(tmp_path):
    key = to_docbin(tmp_path / "key.spacy", conll_docs(KEY))
    split = [split_words(doc) for doc in conll_docs(RESPONSE)]
    split[1].spans["coref_clusters_99"] = [split[1][1:2], split[1][3:4]]
    response = to_docbin(tmp_path / "split.spacy", split)
    corpus = read_corpus(key, response)
    pairs, warnings = corpus.pairs, corpus.warnings
    assert len(warnings) == 1
    assert warnings[0].startswith("2 predicted span(s) in 1 document(s) do not start and end on reference token")
    assert warnings[0].endswith("((demo/storm); part 000: 2)")
    assert len(pairs[1][2]) == len(read_conll(RESPONSE)["(demo/storm); part 000"].clusters) + 2
    assert score_pairs(pairs).total.as_dict()["mentions"]["precision_den"] == 20


def unnamed(docs):
    for doc in docs:
        doc.user_data.clear()
    return docs


def test_different_document_counts_name_both_files(tmp_path):
    key = to_docbin(tmp_path / "key.spacy", unnamed(conll_docs(KEY)))
    response = to_docbin(tmp_path / "response.spacy", unnamed(conll_docs(RESPONSE)[:1]))
    with pytest.raises(CorefInputError) as error:
        read_corpus(key, response)
    assert str(error.value) == (
        f"cannot pair {key} (2 documents) with {response} (1 documents): documents without stored names are paired by order"
    )
    result = runner.invoke(app, ["score", str(key), str(response)])
    assert result.exit_code == 1
    assert result.output.strip() == f"✘ {error.value}"


def test_different_texts_name_the_first_differing_document(tmp_path):
    key = to_docbin(tmp_path / "key.spacy", conll_docs(KEY))
    docs = conll_docs(RESPONSE)
    docs[1] = Doc(docs[1].vocab, words=["A", "gale"] + [t.text for t in docs[1][2:]], user_data=docs[1].user_data)
    response = to_docbin(tmp_path / "response.spacy", docs)
    with pytest.raises(CorefInputError) as error:
        read_corpus(key, response)
    message = str(error.value)
    assert message.startswith(f"cannot pair {key} with {response}: document index 1 ('(demo/storm); part 000')")
    assert "from character 2 the key reads 'storm hit the harbour town las'" in message
    assert "the response 'gale hit the harbour town last'" in message


def test_spacy_against_conll_compares_words(tmp_path):
    docs = conll_docs(KEY)
    docs[0] = Doc(docs[0].vocab, words=[t.text for t in docs[0]][:-1] + ["!"])
    key = to_docbin(tmp_path / "key.spacy", docs)
    with pytest.raises(
        CorefInputError,
        match=r"document index 0 \('doc0'\) has different words: from word 25 "
        r"the key reads '!' and the response '\.'",
    ):
        read_corpus(key, RESPONSE)


def test_documents_without_a_stored_name_are_numbered(tmp_path):
    key = to_docbin(tmp_path / "key.spacy", unnamed(conll_docs(KEY)))
    response = to_docbin(tmp_path / "response.spacy", unnamed(conll_docs(RESPONSE)))
    corpus = read_corpus(key, response)
    pairs, _ = corpus.pairs, corpus.warnings
    assert [name for name, *_ in pairs] == ["doc0", "doc1"]
    assert [record[0] for record in docs_to_conll(read_docbin(key))] == ["doc0", "doc1"]


def test_named_spacy_files_pair_by_name_whatever_the_order(tmp_path):
    key = to_docbin(tmp_path / "key.spacy", conll_docs(KEY))
    response = to_docbin(tmp_path / "response.spacy", conll_docs(RESPONSE)[::-1])
    assert score_json(key, response) == expected_json()
    partial = to_docbin(tmp_path / "partial.spacy", conll_docs(RESPONSE)[1:])
    corpus = read_corpus(key, partial)
    pairs, warnings = corpus.pairs, corpus.warnings
    assert [name for name, *_ in pairs] == ["(demo/alice); part 000", "(demo/storm); part 000"]
    assert len(pairs[0][2]) == 0
    assert warnings == ["document '(demo/alice); part 000': no response document; scored as an empty response"]


def test_named_against_unnamed_spacy_files_pair_by_order_with_a_warning(tmp_path):
    """Predictions saved with ``DocBin()`` from ``nlp.pipe`` carry no names:
    they pair by order with a named gold file (the texts must agree, as
    always), unless ``pair_by="name"`` says otherwise."""
    key = to_docbin(tmp_path / "key.spacy", conll_docs(KEY))
    response = to_docbin(tmp_path / "response.spacy", unnamed(conll_docs(RESPONSE)))
    named = to_docbin(tmp_path / "named.spacy", conll_docs(RESPONSE))
    corpus = read_corpus(key, response)
    assert corpus.names == ["(demo/alice); part 000", "(demo/storm); part 000"]
    assert corpus.warnings == [f"{response}: the documents have no stored names, so they are paired by order"]
    assert [pair.response.entities() for pair in corpus.pairs] == [pair.response.entities() for pair in read_corpus(key, named).pairs]
    with pytest.raises(CorefInputError, match=r"cannot pair by name: the documents of .*response.spacy have no stored names"):
        read_corpus(key, response, pair_by="name")
    reversed_named = to_docbin(tmp_path / "reversed.spacy", conll_docs(RESPONSE)[::-1])
    with pytest.raises(CorefInputError, match="document index 0 .* has different text"):
        read_corpus(key, reversed_named, pair_by="order")


def test_export_keeps_columns_for_whitespace_tokens(tmp_path):
    doc = Doc(Vocab(), words=["Hi", "\n\n", "Bob", "left"], spaces=[False, False, True, False])
    doc.spans["coref_clusters_1"] = [doc[2:3], doc[0:1]]
    spacy_file, conll_file = to_docbin(tmp_path / "in.spacy", [doc]), tmp_path / "out.conll"
    result = runner.invoke(app, ["export", str(spacy_file), str(conll_file)])
    assert result.exit_code == 0, result.output
    exported = read_conll(conll_file, with_words=True)["doc0"]
    assert exported.words == ["Hi", "_", "Bob", "left"]
    assert entity_sets(exported.clusters) == {frozenset({(0, 1), (2, 3)})}


def test_convert_reads_a_directory_of_conll_files(tmp_path):
    folder = tmp_path / "litbank"
    folder.mkdir()
    row = "{0}\t0\t{1}\t{2}\t_\t_\t_\t_\t_\t_\t_\t_\t{3}\n"
    (folder / "b_brat.conll").write_text(
        "#begin document (b); part 0\n"
        + row.format("b", 0, "The", "(0")
        + row.format("b", 1, "wall", "0)")
        + row.format("b", 2, ".", "")
        + "\n"
        + row.format("b", 0, "It", "(0)")
        + "#end document\n"
    )
    (folder / "a_brat.conll").write_text("#begin document (a); part 0\n" + row.format("a", 0, "Hi", "") + "#end document\n")
    (folder / "README.md").write_text("not CoNLL\n")
    out = tmp_path / "litbank.spacy"
    result = runner.invoke(app, ["convert", str(folder), str(out)])
    assert result.exit_code == 0, result.output
    docs = read_docbin(out)
    assert [doc.user_data[NAME_KEY] for doc in docs] == ["(a); part 0", "(b); part 0"]
    assert docs[1].text == "The wall . It"
    assert [sent.start for sent in docs[1].sents] == [0, 3]
    assert [[(s.start, s.end) for s in group] for group in docs[1].spans.values()] == [[(0, 2), (3, 4)]]


@pytest.mark.parametrize(
    "command,name,content,message",
    [
        ("convert", "missing.conll", None, "missing.conll: cannot read file: "),
        ("export", "in.spacy", b"not a docbin", "in.spacy: not a spaCy DocBin (.spacy) file"),
        ("convert", "in.conll", b"#begin document (x)\nx 0 0 w 1)\n#end document\n", "in.conll:2: mention of entity 1"),
        ("convert", "in.spacy", b"", "are both spaCy DocBin files; nothing to convert"),
        ("export", "in.conll", b"", "in.conll looks like a CoNLL-2012 file (did you mean 'convert'?)"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_1(tmp_path, command, name, content, message):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    out = tmp_path / ("out.conll" if command == "export" else "out.spacy")
    result = runner.invoke(app, [command, str(path), str(out)])
    assert result.exit_code == 1
    assert result.output.count("\n") == 1
    assert result.output.startswith("✘ ") and message in result.output
    assert not out.exists()


def test_conll_against_conll_still_pairs_by_name(tmp_path):
    response = tmp_path / "response.conll"
    text = RESPONSE.read_text()
    response.write_text(text[text.index("#begin document (demo/storm)") :])
    corpus = read_corpus(KEY, response)
    pairs, warnings = corpus.pairs, corpus.warnings
    assert [name for name, *_ in pairs] == ["(demo/alice); part 000", "(demo/storm); part 000"]
    assert len(pairs[0][2]) == 0
    assert warnings == ["document '(demo/alice); part 000': no response document; scored as an empty response"]
    assert parse_conll(text, source="<string>")["(demo/storm); part 000"].clusters.entities() == pairs[1][2].entities()
