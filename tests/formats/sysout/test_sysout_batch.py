"""Character outputs placed on their keys all documents at once
(formats/sysout/batch.py): every document gets what placing it alone
gives (SystemDocument.placed_on without the batch: the mentions, repeats
and the alignment report), on random documents written as systems write
them (white space, quotes, inserted and deleted characters); a document
that cannot be placed so is left to placed_on (its error included)."""

import json
from pathlib import Path

import numpy as np
from hypothesis import given, strategies as st

from spacy_coref_eval.formats.document import Paired, Side, WordMismatch, WordsDocument
from spacy_coref_eval.formats.jsonlines import FORMAT
from spacy_coref_eval.formats.jsonlines.read import parse_jsonlines
from spacy_coref_eval.formats.sysout.batch import CharacterBatch
from spacy_coref_eval.formats.sysout.document import cluster_words, from_text, from_words
from spacy_coref_eval.model.clusters import Clusters
from tests.formats.alignment.test_alignment_fast import PIECES, written
from tests.support.strategies import deterministic

words_lists = st.lists(st.lists(st.sampled_from(PIECES), min_size=1, max_size=3).map("".join), max_size=8)


def alone(document, key):
    """What placing ``document`` alone gives: its pair, or its error."""
    batch, document.batch = document.batch, None
    try:
        paired = document.placed_on(key)
    except WordMismatch as err:
        return str(err)
    finally:
        document.batch = batch
    return described(paired)


def described(paired):
    def clusters(c: Clusters):
        return c.starts.tolist(), c.ends.tolist(), c.entity.tolist(), c.n_entities, c.repeated

    memberships = paired.response.memberships
    return (clusters(paired.response), memberships and clusters(memberships), paired.unmapped, paired.alignment, paired.key)


@st.composite
def corpora(draw):
    """Key words and response documents (text, spans, cluster labels) of
    up to five documents, the key as jsonlines (one line a document, whose
    ``sentences`` are read from their text) or as words."""
    n = draw(st.integers(0, 5))
    keys = [draw(words_lists) for _ in range(n)]
    documents = []
    for d, words in enumerate(keys):
        text = draw(written(words)) if draw(st.integers(0, 4)) else draw(st.sampled_from(["", "x", "a Bc"]))
        spans = draw(st.lists(st.tuples(st.integers(0, len(text)), st.integers(0, len(text))), max_size=6))
        spans = np.array([(min(a, b), max(a, b)) for a, b in spans], dtype=np.int64).reshape(-1, 2)
        labels = np.array(draw(st.lists(st.integers(0, 2), min_size=len(spans), max_size=len(spans))), dtype=np.int64)
        documents.append(from_text(f"d{d}", text, spans, labels=labels, dropped=draw(st.integers(0, 1))))
    if draw(st.booleans()):
        lines = "\n".join(json.dumps({"doc_key": f"d{d}", "sentences": [w[:2], w[2:]], "clusters": []}) for d, w in enumerate(keys))
        key = Side(Path("key.jsonlines"), FORMAT, list(parse_jsonlines(lines, role="key").values()))
    else:
        key = Side(Path("key.txt"), FORMAT, [WordsDocument(f"d{d}", Clusters(), w) for d, w in enumerate(keys)])
    return key, documents


@deterministic(400)
@given(corpora(), st.booleans())
def test_every_document_gets_what_it_gets_alone(corpus, named):
    key, documents = corpus
    if not named:
        for document in documents:
            document.name = None
    batch = CharacterBatch(documents, key)
    for document in documents:
        document.batch = batch
    for document, key_document in zip(documents, key.documents):
        expected = alone(document, key_document)
        found = batch.paired(document, key_document)
        if isinstance(expected, str):
            assert found is None
        elif found is not None:
            assert described(found) == expected
        assert alone(document, key_document) == expected


def test_a_document_paired_with_another_key_is_placed_alone():
    key = Side(Path("key.txt"), FORMAT, [WordsDocument(f"d{d}", Clusters(), ["a", "b"]) for d in range(2)])
    documents = [from_text(f"d{d}", "a b", np.array([[0, 1]]), labels=np.array([0])) for d in range(2)]
    batch = CharacterBatch(documents, key)
    assert batch.paired(documents[0], key.documents[0]) is not None
    assert batch.paired(documents[0], key.documents[1]) is None


spans_lists = st.lists(st.tuples(st.integers(0, 6), st.integers(1, 4), st.integers(0, 3)), max_size=8)


@deterministic(300)
@given(st.lists(spans_lists, min_size=2, max_size=5))
def test_word_outputs_clustered_at_once_are_clustered_alone(documents):
    """Repeated spans and clusters in any order included."""
    outputs = [
        from_words(
            None,
            ["w"] * 10,
            np.array([(a, a + n) for a, n, _ in spans], dtype=np.int64).reshape(-1, 2),
            labels=np.array([label for _, _, label in spans], dtype=np.int64),
        )
        for spans in documents
    ]
    expected = [Clusters.from_arrays(o.spans[:, 0], o.spans[:, 1], o.labels) for o in outputs]
    cluster_words(outputs)
    for output, clusters in zip(outputs, expected):
        assert described(Paired(None, output.clusters)) == described(Paired(None, clusters))


def test_keys_with_bracket_escapes_are_left_out_and_the_rest_placed_at_once():
    lines = "\n".join(
        json.dumps({"doc_key": f"d{d}", "sentences": [words], "clusters": []})
        for d, words in enumerate([["a", "b"], ["-LRB-", "a", "-RRB-"], ["c"], ["d", "e"]])
    )
    key = Side(Path("key.jsonlines"), FORMAT, list(parse_jsonlines(lines, role="key").values()))
    documents = [from_text(f"d{d}", text, np.array([[0, 1]]), labels=np.array([0])) for d, text in enumerate(["a b", "(a)", "c", "d e"])]
    batch = CharacterBatch(documents, key)
    found = [batch.paired(document, k) for document, k in zip(documents, key.documents)]
    assert [paired is not None for paired in found] == [True, False, True, True]
    assert described(found[3]) == alone(documents[3], key.documents[3])
