"""The CorefUD CoNLL-U writer: GUM and generated nested and crossing
mentions read back as written (by our reader and by udapi), udapi's
chunk order, sentences joined under mentions, token columns, errors."""

import logging
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st

from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats import get_format
from spacy_coref_eval.formats.conll.write import crossing_mentions
from spacy_coref_eval.formats.conllu.read import parse_conllu, read_conllu
from spacy_coref_eval.formats.conllu.write import ConlluDocument, entity_column, write_conllu
from spacy_coref_eval.formats.corpus import read_side
from spacy_coref_eval.model.clusters import Clusters
from spacy_coref_eval.model.tokens import Tokens
from tests.conftest import data_path
from tests.support.strategies import collector_paused, deterministic, entities_over, mention_sets

GUM = data_path("corpora", "gum-corefud.40docs.conllu.gz")

Mention = tuple[int, int, int]


def partition(clusters: Clusters, heads: bool = True) -> list[tuple[Mention, ...]]:
    """The entities as sorted ``(start, end, head)`` tuples, sorted: the
    clusters whatever their order (head -1 when ``heads`` is false)."""
    head = clusters.heads if heads and clusters.heads is not None else np.full(len(clusters), -1)
    return sorted(
        tuple(
            sorted(
                zip(
                    clusters.starts[clusters.entity == k].tolist(),
                    clusters.ends[clusters.entity == k].tolist(),
                    head[clusters.entity == k].tolist(),
                )
            )
        )
        for k in range(clusters.n_entities)
    )


def word_spans(path: Path):
    """The documents of a CoNLL-U file as scored: word-span clusters."""
    return read_side(path, get_format("conllu")).documents


def ours(path: Path) -> dict[str, list[tuple[Mention, ...]]]:
    return {document.name: partition(document.clusters) for document in word_spans(path)}


def udapi_document(path: Path):
    """The file as udapi reads it (test-only reference)."""
    from udapi.block.read.conllu import Conllu
    from udapi.core.document import Document

    document = Document()
    logging.disable(logging.WARNING)
    try:
        with collector_paused():
            Conllu(files=[str(path)]).apply_on_document(document)
        document.coref_entities
    finally:
        logging.disable(logging.NOTSET)
    return document


def udapi_partitions(document) -> dict[str, list[tuple[Mention, ...]]]:
    """The entities of every document of a udapi document, as
    :func:`partition` gives them."""
    position, entities = {}, {}
    for tree in document.trees:
        if tree.newdoc:
            name, count = tree.newdoc, 0
            entities[name] = []
        for node in tree.descendants:
            position[node] = (name, count)
            count += 1
    for entity in document.coref_entities:
        doc = position[entity.mentions[0].words[0]][0]
        entities[doc].append(
            tuple(sorted((position[m.words[0]][1], position[m.words[-1]][1] + 1, position[m.head][1]) for m in entity.mentions))
        )
    return {name: sorted(value) for name, value in entities.items()}


def check_with_udapi(path: Path) -> None:
    """udapi reads the entities we read, and writes back the chunks we
    wrote (its canonical order)."""
    from udapi.core.coref import store_coref_to_misc

    document = udapi_document(path)
    assert ours(path) == udapi_partitions(document)
    written = [node.misc["Entity"] for node in document.nodes]
    store_coref_to_misc(document)
    assert [node.misc["Entity"] for node in document.nodes] == written


def test_gum_reads_back_as_written_by_us_and_by_udapi(tmp_path):
    original = word_spans(GUM)
    written = tmp_path / "gum.conllu"
    documents = [(d.name, d.words, d.clusters, d.sentence_starts, d.tokens()) for d in original]
    assert write_conllu(written, documents) == 0
    back = word_spans(written)
    assert [d.name for d in back] == [d.name for d in original]
    for before, after in zip(original, back):
        assert after.words == before.words
        assert list(after.sentence_starts) == list(before.sentence_starts)
        assert partition(after.clusters) == partition(before.clusters), before.name
    parsed, source = read_conllu(written), read_conllu(GUM)
    for name, document in parsed.documents.items():
        assert document.sentence_ids == source.documents[name].sentence_ids
        empty = source.documents[name].empty_nodes
        assert document.n_words == source.documents[name].n_words + len(empty)
        if not empty:
            assert document.upos == source.documents[name].upos and document.xpos == source.documents[name].xpos
    assert sum(bool(document.empty_nodes) for document in source.documents.values()) > 0, "tokens are nodes: empty nodes become words"
    check_with_udapi(written)


def test_chunks_follow_udapi_order():
    clusters = Clusters.from_entities(
        [[(0, 3), (1, 2)], [(0, 2)], [(2, 5)], [(2, 3)], [(3, 4)], [(2, 4)]], heads=[[2, 1], [0], [4], [2], [3], [2]]
    )
    column = entity_column("d", clusters, 5)
    assert column == ["Entity=(e1--3(e2--1", "Entity=(e1--1)e2)", "Entity=e1)(e3--3(e4--1(e5--1)", "Entity=(e6--1)e4)", "Entity=e3)"]


@st.composite
def documents(draw):
    """Words, sentence starts and clusters of nested and crossing mentions
    (no two of one entity crossing), with heads, unknown heads or none."""
    n_words = draw(st.integers(1, 12))
    spans = [(s, min(e, n_words)) for s, e in draw(mention_sets(0, 10)) if s < n_words]
    entities = draw(entities_over(list(dict.fromkeys(spans))))
    clusters = Clusters.from_entities(entities)
    clusters = clusters.subset(~crossing_mentions(clusters))
    kind = draw(st.sampled_from(["heads", "unknown", "none"]))
    if kind != "none":
        offsets = draw(st.lists(st.integers(0, 11), min_size=len(clusters), max_size=len(clusters)))
        heads = clusters.starts + np.asarray(offsets, dtype=np.int64).reshape(-1) % (clusters.ends - clusters.starts)
        if kind == "unknown":
            heads[::2] = -1
        clusters = Clusters(clusters.starts, clusters.ends, clusters.entity, clusters.n_entities, heads=heads)
    starts = draw(st.lists(st.integers(0, n_words + 1), max_size=4))
    return ConlluDocument("doc one", [f"w{i}" for i in range(n_words)], clusters, starts)


def expected_back(document: ConlluDocument) -> list[tuple[Mention, ...]]:
    """The entities read back: unknown heads become the first word."""
    clusters = document.clusters
    heads = clusters.starts if clusters.heads is None else np.where(clusters.heads < 0, clusters.starts, clusters.heads)
    return partition(Clusters(clusters.starts, clusters.ends, clusters.entity, clusters.n_entities, heads=heads))


@deterministic(200)
@given(st.lists(documents(), min_size=1, max_size=3))
def test_generated_clusters_read_back_as_written(tmp_path_factory, docs):
    docs = [doc._replace(name=f"{doc.name} {index}") for index, doc in enumerate(docs)]
    path = tmp_path_factory.mktemp("written") / "docs.conllu"
    write_conllu(path, docs)
    back = read_conllu(path).documents
    assert list(back) == [doc.name for doc in docs]
    for doc, (_name, parsed) in zip(docs, back.items()):
        starts = parsed.sentence_starts[:-1]
        assert parsed.words == doc.words
        covered = [
            s
            for s in set(doc.sentence_starts)
            if 0 < s < len(doc.words) and any(a < s < b for a, b in zip(doc.clusters.starts.tolist(), doc.clusters.ends.tolist()))
        ]
        assert set(starts.tolist()) == {0} | {s for s in doc.sentence_starts if 0 < s < len(doc.words)} - set(covered)
        read = Clusters.from_arrays(parsed.mention_start, parsed.mention_end, parsed.mention_entity, heads=parsed.mention_head)
        assert partition(read) == expected_back(doc)


@pytest.mark.slow
@deterministic(40)
@given(documents())
def test_udapi_reads_and_writes_generated_files_as_we_do(tmp_path_factory, doc):
    path = tmp_path_factory.mktemp("udapi") / "doc.conllu"
    write_conllu(path, [doc])
    check_with_udapi(path)


def test_sentences_under_a_mention_are_joined(tmp_path):
    clusters = Clusters.from_entities([[(1, 3), (4, 5)]])
    path = tmp_path / "j.conllu"
    assert write_conllu(path, [("j", list("abcde"), clusters, [0, 2, 4])]) == 1
    document = read_conllu(path).documents["j"]
    assert document.sentence_starts.tolist() == [0, 4, 5]
    assert document.sentence_ids == ["j-1", "j-2"]


def test_token_columns_and_odd_words(tmp_path):
    tokens = Tokens(["a b", "", "c"], [0], pos=["NOUN", "", "VERB"], tag=["NN", "-", "VB"], person=["3", "", "1"], gender=["Fem", "", ""])
    path = tmp_path / "t.conllu"
    write_conllu(path, [ConlluDocument("t", ["a b", "", "c"], Clusters(), [], tokens)])
    rows = [line.split("\t") for line in path.read_text().splitlines() if line[:1].isdigit()]
    assert [row[1:6] for row in rows] == [
        ["a_b", "_", "NOUN", "NN", "Gender=Fem|Person=3"],
        ["_", "_", "_", "_", "_"],
        ["c", "_", "VERB", "VB", "Person=1"],
    ]
    assert [row[9] for row in rows] == ["_", "_", "_"]


def test_empty_documents_keep_their_place(tmp_path):
    path = tmp_path / "e.conllu"
    one = Clusters.from_entities([[(0, 1)]])
    write_conllu(path, [("empty", [], Clusters(), []), ("full", ["x"], one, []), ("last", [], Clusters(), [])])
    documents = read_conllu(path).documents
    assert list(documents) == ["empty", "full", "last"]
    assert documents["full"].mention_start.tolist() == [0] and documents["empty"].n_words == 0


@pytest.mark.parametrize(
    "document, message",
    [
        (
            ("c", list("abcd"), Clusters.from_entities([[(0, 2), (1, 3)]]), []),
            r"document 'c': mention \(1, 3\) of entity 0 overlaps another mention of that entity without nesting; CoNLL-U",
        ),
        (
            ("h", list("abc"), Clusters(np.array([0]), np.array([2]), np.array([0]), 1, heads=np.array([2])), []),
            r"document 'h': the head 2 of mention \(0, 2\) lies outside it",
        ),
        (("a\nb", ["x"], Clusters(), []), r"document 'a\\nb': a CoNLL-U document id is one line, not empty"),
        ((" a", ["x"], Clusters(), []), r"document ' a': a CoNLL-U document id is one line"),
        (("", ["x"], Clusters(), []), r"document '': a CoNLL-U document id is one line"),
        (("o", ["x"], Clusters.from_entities([[(0, 2)]]), []), r"document 'o': mention \(0, 2\) ends after the document's 1 words"),
    ],
)
def test_what_cannot_be_written_is_refused(tmp_path, document, message):
    path = tmp_path / "x.conllu"
    with pytest.raises(CorefInputError, match=message):
        write_conllu(path, [document])
    assert not path.exists()


def test_written_text_parses_without_a_file():
    clusters = Clusters.from_entities([[(0, 2)], [(1, 2)]], heads=[[1], [1]])
    from spacy_coref_eval.formats.conllu.write import format_conllu

    lines, _ = format_conllu(ConlluDocument("p", ["a", "b"], clusters), with_header=True)
    document = parse_conllu("\n".join(lines) + "\n").documents["p"]
    assert document.mention_head.tolist() == [1, 1]
    assert lines[-2].endswith("Entity=(e2--1)e1)")
