"""The fast engine's counts equal the naive oracle's on random documents."""

import pytest
from hypothesis import example, given

from spacy_coref_eval import Settings, count_document
from tests.support.oracle import POLICIES, assert_counts_close, naive_counts, naive_policy_counts
from tests.support.strategies import deterministic, key_response_pairs

EDGE_CASES = [
    ([], []),
    ([], [[(0, 1), (1, 2)], [(3, 4)]]),
    ([[(0, 1), (1, 2)], [(3, 4)]], []),
    ([[(0, 1)]], [[(0, 1)]]),
    ([[(0, 4), (1, 2), (1, 3)], [(2, 5)]], [[(0, 4), (2, 5)], [(1, 2)], [(0, 2), (1, 3)]]),
    ([[(0, 1), (1, 2)], [(2, 3)]], [[(0, 1)], [(5, 6)], [(1, 2), (7, 8)]]),
]


def assert_engine_matches_oracle(key, response, policy):
    engine = count_document(key, response, settings=Settings(twinless=policy)).as_dict()
    assert_counts_close(engine, naive_policy_counts(key, response, policy), f"{policy}: ")


def with_edge_cases(test):
    """Always try the listed corner cases besides the generated ones."""
    for key, response in EDGE_CASES:
        test = example(pair=(key, response))(test)
    return test


@pytest.mark.parametrize("policy", POLICIES)
@deterministic(max_examples=150)
@with_edge_cases
@given(pair=key_response_pairs(max_mentions=10))
def test_engine_matches_oracle_under_each_policy(policy, pair):
    """Every count field, under each twinless policy of docs/metrics.md §4."""
    assert_engine_matches_oracle(*pair, policy)


@pytest.mark.parametrize("policy", POLICIES)
@deterministic(max_examples=25, shrink=False)
@given(pair=key_response_pairs(min_mentions=12, max_mentions=30, max_entities=6))
def test_engine_matches_oracle_on_tangled_documents(policy, pair):
    """Fewer, larger entities, so the CEAF alignment has blocks of several
    key and several response entities (Luo 2005). Not shrunk: a failure here
    is reported as generated."""
    assert_engine_matches_oracle(*pair, policy)


@deterministic(max_examples=100)
@with_edge_cases
@given(pair=key_response_pairs(max_mentions=10))
def test_default_settings_are_conll(pair):
    """Without settings the engine scores as the CoNLL reference (no rewrite)."""
    key, response = pair
    assert_counts_close(count_document(key, response).as_dict(), naive_counts(key, response))


@deterministic(max_examples=100)
@with_edge_cases
@given(pair=key_response_pairs(max_mentions=10))
def test_lea_with_uniform_importance_equals_the_oracle(pair):
    """LEA with every entity weighing 1 (``--lea-importance uniform``)."""
    from tests.support.oracle import both_ways, lea_side, partition

    key, response = pair
    counts = count_document(key, response, settings=Settings.from_options(["lea"], lea_importance="uniform")).as_dict()
    expected = both_ways(lambda k, r: lea_side(k, r, importance=lambda entity: 1), partition(key), partition(response))
    assert_counts_close({"lea": counts["lea"]}, {"lea": expected})
