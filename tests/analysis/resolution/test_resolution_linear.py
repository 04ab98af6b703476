"""Resolution classes in memory linear in tokens and mentions
(docs/resolution_classes.md §5): deeply nested and long crossing mentions
classified as the naive classifier (tests/support/oracle_rc.py) classifies them,
the pieces that replace per-token work (merged spans, exact substring ids,
batched content-word walks) against brute force, and the memory of a
deeply nested document bounded."""

import tracemalloc

import numpy as np
import pytest
from hypothesis import given, strategies as st

from spacy_coref_eval import Clusters
from spacy_coref_eval.analysis.resolution import RESOLUTION_CLASSES, classify_mentions
from spacy_coref_eval.analysis.resolution.strings import _span_hashes, exact_repeats, merged_spans, shares_content_word, substring_ids
from spacy_coref_eval.model.tokens import Tokens
from tests.support.oracle_rc import naive_classes
from tests.support.strategies import deterministic, entities_over

WORDS = ["the", "Kate", "house", "of", "he", ",", "London", "old", "who", "It", "'s", "man", "Man"]


def classify(words, sentences, entities, heads=None):
    clusters = Clusters.from_entities(entities, heads)
    found = classify_mentions(clusters, Tokens(words, sentences))
    spans = zip(clusters.starts.tolist(), clusters.ends.tolist())
    return {span: RESOLUTION_CLASSES[c] if c >= 0 else None for span, c in zip(spans, found.tolist())}


@st.composite
def piled_documents(draw, max_tokens=40):
    """(words, sentence starts, entities, heads or None) with deep nesting
    ((i, n - i) spans), long crossing spans and short ones, over a small
    vocabulary so that words repeat."""
    n = draw(st.integers(2, max_tokens))
    words = draw(st.lists(st.sampled_from(WORDS[: draw(st.integers(2, len(WORDS)))]), min_size=n, max_size=n))
    sentences = sorted({0} | set(draw(st.lists(st.integers(0, n - 1), max_size=5))))
    depth = draw(st.integers(0, n // 2))
    spans = {(i, n - i) for i in range(depth)}
    spans |= {
        tuple(sorted(pair))
        for pair in draw(st.lists(st.tuples(st.integers(0, n), st.integers(0, n)).filter(lambda p: p[0] != p[1]), max_size=12))
    }
    entities = draw(entities_over(sorted(spans), max_entities=draw(st.integers(1, 6))))
    heads = None
    if draw(st.booleans()):
        heads = [[draw(st.sampled_from([-1, s, e - 1])) for s, e in entity] for entity in entities]
    return words, sentences, entities, heads


@deterministic(max_examples=400)
@given(piled_documents())
def test_piled_up_mentions_classify_as_the_naive_classifier(document):
    words, sentences, entities, heads = document
    assert classify(words, sentences, entities, heads) == naive_classes(entities, words, sentences, heads)


def test_a_deeply_nested_document_classifies_in_bounded_memory():
    """1,000 mentions nested in 2,000 tokens: expanding every mention's
    tokens, as the classifier once did, holds a million token rows (some
    130 MB); by mention boundaries it takes well under 16 MB."""
    depth, n = 1000, 2000
    tokens = Tokens([WORDS[t % 8] for t in range(n)], list(range(0, n, 25)))
    nested = Clusters.from_arrays(np.arange(depth), n - np.arange(depth), np.arange(depth) % 2)
    tracemalloc.start()
    try:
        classes = classify_mentions(nested, tokens)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 * 2**20
    assert ((classes < 0) == (nested.starts < 2)).all(), "every mention but the two outermost has a class"


def thue_morse(n):
    return [bin(i).count("1") % 2 for i in range(n)]


def test_exact_repeats_are_exact_where_the_hash_collides():
    """A Thue-Morse run and its complement, 2,048 words each, have the same
    polynomial hash modulo 2^64 for any odd base, and different words."""
    bits = thue_morse(2048)
    word = np.array(bits + [1 - b for b in bits], dtype=np.int64)
    starts, ends = np.array([0, 2048]), np.array([2048, 4096])
    hashes = _span_hashes(word, starts, ends)
    assert hashes[0] == hashes[1]
    assert exact_repeats(np.zeros(2, dtype=np.int64), starts, ends, rank=np.arange(2), word=word).tolist() == [False, False]
    twice = np.concatenate([word, word[:2048]])
    thirds = np.array([0, 2048, 4096])
    assert exact_repeats(np.zeros(3, dtype=np.int64), thirds, thirds + 2048, rank=np.arange(3), word=twice).tolist() == [False, False, True]
    found = classify(["x" if b else "y" for b in word.tolist()], [0], [[(0, 2048), (2048, 4096)]])
    assert found[(2048, 4096)] == "CN-p"


@deterministic(max_examples=300)
@given(st.lists(st.integers(0, 2), min_size=1, max_size=30), st.data())
def test_substring_ids_tell_equal_spans_exactly(words, data):
    word = np.array(words, dtype=np.int64)
    n = len(word)
    spans = data.draw(
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(1, n)).map(lambda p: (p[0], min(n, p[0] + p[1]))), min_size=1, max_size=12)
    )
    starts = np.array([s for s, _ in spans])
    lengths = np.array([e - s for s, e in spans])
    first, last = substring_ids(word, starts, lengths)
    for i, (a, b) in enumerate(spans):
        for j, (c, d) in enumerate(spans):
            if b - a == d - c:
                assert (first[i] == first[j] and last[i] == last[j]) == (words[a:b] == words[c:d])


@deterministic(max_examples=300)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 30), st.integers(1, 12)), max_size=15))
def test_merged_spans_are_each_entitys_union(triples):
    entity = np.array([e for e, _, _ in triples], dtype=np.int64)
    starts = np.array([s for _, s, _ in triples], dtype=np.int64)
    ends = starts + np.array([length for _, _, length in triples], dtype=np.int64)
    merged = merged_spans(entity, starts, ends)
    covered = {(e, t) for e, s, end in zip(entity.tolist(), starts.tolist(), ends.tolist()) for t in range(s, end)}
    assert {(e, t) for e, s, end in zip(*(part.tolist() for part in merged)) for t in range(s, end)} == covered
    pieces = list(zip(*(part.tolist() for part in merged)))
    assert pieces == sorted(pieces)
    assert all(a[0] != b[0] or a[2] < b[1] for a, b in zip(pieces, pieces[1:])), "disjoint and apart"


@pytest.mark.parametrize("budget", [1, 5, 0])
@deterministic(max_examples=150)
@given(piled_documents())
def test_content_words_are_walked_alike_in_batches_of_any_size(budget, document):
    words, _, entities, _ = document
    clusters = Clusters.from_entities(entities)
    word = np.array([WORDS.index(w.lower()) if w.lower() in WORDS else 99 for w in words])
    content = np.array([w.lower() not in ("the", "of", "he", ",", "who", "it", "'s") for w in words])
    rank = np.lexsort((clusters.ends, clusters.starts)).argsort()
    wanted = np.ones(len(clusters), dtype=bool)
    found = shares_content_word(
        clusters.entity, clusters.starts, clusters.ends, rank=rank, word=word, content=content, wanted=wanted, budget=budget
    )
    for m in range(len(clusters)):
        own = {word[t] for t in range(clusters.starts[m], clusters.ends[m]) if content[t]}
        earlier = [o for o in range(len(clusters)) if clusters.entity[o] == clusters.entity[m] and rank[o] < rank[m]]
        expected = any(own & {word[t] for t in range(clusters.starts[o], clusters.ends[o]) if content[t]} for o in earlier)
        assert found[m] == expected
