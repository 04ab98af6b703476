"""Error kinds (Kummerfeld & Klein 2013): each kind on a document written
out by hand, exact against overlap matching, the vectorised counts against
a naive set-based count, and corpus totals against the counting stage."""

import pytest

from spacy_coref_eval import Clusters, CorefInputError, Settings, score_documents, score_pairs
from spacy_coref_eval.analysis import ERROR_KINDS, corpus_error_counts, error_counts
from tests.support.litbank import litbank

EXACT, OVERLAP = Settings(), Settings.from_options(match="overlap")
A, B, C, D, E = (0, 1), (2, 3), (4, 5), (6, 7), (8, 9)


def errors(key, response, settings=EXACT, **expected):
    """The error counts of one document, and ``expected`` with every kind
    not named in it 0."""
    found = error_counts(Clusters.from_entities(key), Clusters.from_entities(response), settings)
    return found, {kind: expected.get(kind, 0) for kind in ERROR_KINDS}


@pytest.mark.parametrize(
    "key, response, expected",
    [
        pytest.param([[A, B, C]], [[A, B, C]], {}, id="perfect"),
        pytest.param([[A, B, C]], [[A, B]], {"missing_mentions": 1}, id="missing mention"),
        pytest.param([[A, B]], [[A, B, C]], {"extra_mentions": 1}, id="extra mention"),
        pytest.param([[A, B], [C, D]], [[A, B]], {"missing_mentions": 2, "missing_entities": 1}, id="missing entity"),
        pytest.param([[A, B]], [[A, B], [C, D]], {"extra_mentions": 2, "extra_entities": 1}, id="extra entity"),
        pytest.param([[A, B, C, D]], [[A, B], [C, D]], {"divided_entities": 1}, id="divided"),
        pytest.param([[A, B, C, D, E]], [[A, B], [C, D], [E]], {"divided_entities": 1}, id="divided in three"),
        pytest.param([[A, B], [C, D]], [[A, B, C, D]], {"conflated_entities": 1}, id="conflated"),
        pytest.param([[A, B], [C, D]], [[A, C], [B, D]], {"divided_entities": 2, "conflated_entities": 2}, id="crossed"),
        pytest.param([[A], [B]], [[A, B]], {"conflated_entities": 1}, id="singletons joined"),
        pytest.param([[A, B]], [[A], [C]], {"missing_mentions": 1, "extra_mentions": 1, "extra_entities": 1}, id="half found"),
        pytest.param([], [[A, B]], {"extra_mentions": 2, "extra_entities": 1}, id="empty key"),
        pytest.param([[A, B]], [], {"missing_mentions": 2, "missing_entities": 1}, id="empty response"),
    ],
)
def test_each_error_kind(key, response, expected):
    found, wanted = errors(key, response, **expected)
    assert found == wanted


def test_shifted_mention_is_a_span_error_only_under_overlap_matching():
    key, response = [[(0, 3), D]], [[(0, 2), D]]
    found, wanted = errors(key, response, EXACT, missing_mentions=1, extra_mentions=1)
    assert found == wanted
    found, wanted = errors(key, response, OVERLAP, span_errors=1)
    assert found == wanted


def test_all_kinds_in_one_document():
    key = [[(0, 2), (5, 6), (8, 9)], [(10, 11), (12, 13)], [(20, 21)], [(30, 31), (32, 33)]]
    response = [[(0, 2), (5, 6)], [(8, 9), (10, 11), (12, 13)], [(40, 41)], [(50, 51), (52, 53)], [(30, 32)]]
    found, wanted = errors(
        key,
        response,
        EXACT,
        missing_mentions=3,
        extra_mentions=4,
        missing_entities=2,
        extra_entities=3,
        divided_entities=1,
        conflated_entities=1,
    )
    assert found == wanted
    found, wanted = errors(
        key,
        response,
        OVERLAP,
        span_errors=1,
        missing_mentions=2,
        extra_mentions=3,
        missing_entities=1,
        extra_entities=2,
        divided_entities=1,
        conflated_entities=1,
    )
    assert found == wanted


def test_removed_singletons_are_no_errors():
    key, response = [[A, B], [C]], [[A, B], [D]]
    found, _ = errors(key, response)
    assert found["missing_entities"] == found["extra_entities"] == 1
    found, wanted = errors(key, response, Settings(singletons="remove"))
    assert found == wanted


def test_a_document_named_total_is_refused():
    with pytest.raises(CorefInputError, match="'total'"):
        corpus_error_counts(score_pairs([("total", [[A, B]], [[A, B]])], EXACT))


def naive_counts(key: Clusters, response: Clusters):
    """The entity kinds under exact matching, from sets of spans."""
    key_entities = [set(entity) for entity in key.entities()]
    response_entities = [set(entity) for entity in response.entities()]
    found = set().union(*key_entities) & set().union(*response_entities)
    response_of = {span: j for j, entity in enumerate(response_entities) for span in entity}
    key_of = {span: i for i, entity in enumerate(key_entities) for span in entity}
    return {
        "span_errors": 0,
        "missing_mentions": len(key) - len(found),
        "extra_mentions": len(response) - len(found),
        "missing_entities": sum(not entity & found for entity in key_entities),
        "extra_entities": sum(not entity & found for entity in response_entities),
        "divided_entities": sum(len({response_of[s] for s in entity & found}) > 1 for entity in key_entities),
        "conflated_entities": sum(len({key_of[s] for s in entity & found}) > 1 for entity in response_entities),
    }


@pytest.fixture(scope="module")
def pairs():
    corpus = litbank()
    return [(name, corpus.key[name], corpus.system[name]) for name in corpus.key]


def test_corpus_counts_equal_naive_counts_document_by_document(pairs):
    counts = corpus_error_counts(score_pairs(pairs, EXACT))
    assert list(counts) == [name for name, *_ in pairs] + ["total"]
    for name, key, response, *_ in pairs:
        assert counts[name] == naive_counts(key, response), name
    assert counts[pairs[0][0]] == error_counts(pairs[0][1], pairs[0][2], EXACT)


@pytest.mark.parametrize("settings", [EXACT, OVERLAP], ids=["exact", "overlap"])
def test_totals_are_sums_and_mentions_agree_with_the_counts(pairs, settings):
    counts = corpus_error_counts(score_pairs(pairs, settings))
    total = counts.pop("total")
    assert set(total) == set(ERROR_KINDS)
    assert total == {kind: sum(doc[kind] for doc in counts.values()) for kind in ERROR_KINDS}
    found, key_mentions, _, response_mentions = score_documents(
        {n: k for n, k, _ in pairs}, {n: r for n, _, r in pairs}, settings
    ).total.block("mentions")
    assert total["missing_mentions"] == key_mentions - found
    assert total["extra_mentions"] == response_mentions - found
    assert all(value > 0 for kind, value in total.items() if kind != "span_errors" or settings is OVERLAP)


def test_overlap_matching_turns_missing_and_extra_pairs_into_span_errors(pairs):
    exact, overlap = corpus_error_counts(score_pairs(pairs, EXACT))["total"], corpus_error_counts(score_pairs(pairs, OVERLAP))["total"]
    assert exact["span_errors"] == 0 < overlap["span_errors"]
    assert exact["missing_mentions"] - overlap["missing_mentions"] == overlap["span_errors"]
    assert exact["extra_mentions"] - overlap["extra_mentions"] == overlap["span_errors"]
