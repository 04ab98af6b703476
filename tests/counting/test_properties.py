"""Properties every correct scorer has, checked on the fast engine."""

import math
from functools import reduce

import numpy as np
from hypothesis import given, strategies as st

from spacy_coref_eval import Counts, Settings, count_document, score_documents
from tests.support.oracle import POLICIES, add_counts, assert_counts_close, flatten, naive_counts, naive_rates
from tests.support.strategies import corpora, deterministic, key_response_pairs, partitions, same_mention_pairs, shuffled

RATES = ("recall", "precision", "f1")


def total_counts(counts) -> Counts:
    """The sum of per-document counts."""
    counts = list(counts)
    return Counts(counts[0].metrics, np.sum([c.array for c in counts], axis=0))


def engine_counts(key, response, policy="conll"):
    """The engine's counts of one document as a nested dict."""
    return count_document(key, response, settings=Settings(twinless=policy)).as_dict()


def swap_sides(counts):
    """The counts with recall and precision fields exchanged."""
    swapped = {}
    for name, value in counts.items():
        if "recall_num" in value:
            swapped[name] = {
                "recall_num": value["precision_num"],
                "recall_den": value["precision_den"],
                "precision_num": value["recall_num"],
                "precision_den": value["recall_den"],
            }
        else:
            swapped[name] = swap_sides(value)
    return swapped


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


@deterministic(max_examples=100)
@given(key=partitions(min_mentions=1, max_mentions=10))
def test_perfect_response_scores_one(key):
    """A response equal to the key scores 1 on every metric, except where the
    key gives the metric nothing to find: MUC with no coreference link
    (Vilain et al. 1995) and BLANC with fewer than two mentions (no link of
    either kind, docs/metrics.md §2); those are 0/0 = 0."""
    counts = flatten(count_document(key, key).as_dict())
    for path, value in counts.items():
        assert value == counts[path[:-1] + (path[-1].replace("num", "den"),)], path
        assert value == counts[path[:-1] + (path[-1].replace("recall", "precision"),)], path

    scores = score_documents({"doc": key}, {"doc": key}).metrics()
    has_link = any(len(entity) > 1 for entity in key)
    mention_count = sum(len(entity) for entity in key)
    expected = {
        "mentions": 1.0,
        "bcub": 1.0,
        "ceafm": 1.0,
        "ceafe": 1.0,
        "lea": 1.0,
        "muc": 1.0 if has_link else 0.0,
        "blanc": 1.0 if mention_count > 1 else 0.0,
    }
    for metric, value in expected.items():
        assert [scores[metric][rate] for rate in RATES] == [value] * 3, metric
    assert close(scores["conll"]["f1"], (expected["muc"] + 2.0) / 3)


@deterministic(max_examples=100)
@given(pair=key_response_pairs(max_mentions=10), policy=st.sampled_from(POLICIES), data=st.data())
def test_order_of_entities_and_mentions_is_irrelevant(pair, policy, data):
    """Partitions are sets of sets: reordering changes no count."""
    key, response = pair
    reordered_key, reordered_response = data.draw(shuffled(key)), data.draw(shuffled(response))
    assert_counts_close(engine_counts(reordered_key, reordered_response, policy), engine_counts(key, response, policy))


@deterministic(max_examples=60)
@given(corpus=corpora(max_documents=4, max_mentions=8))
def test_corpus_counts_are_the_sum_of_document_counts(corpus):
    """docs/metrics.md §1: a corpus score sums document counts before dividing."""
    keys, responses = corpus
    result = score_documents(keys, responses)
    assert set(result.documents) == set(keys)
    singles = {name: count_document(keys[name], responses[name]) for name in keys}
    for name, counts in singles.items():
        assert_counts_close(result.documents[name].as_dict(), counts.as_dict(), f"{name}: ")
    assert_counts_close(result.total.as_dict(), total_counts(result.documents.values()).as_dict())
    assert_counts_close(result.total.as_dict(), total_counts(singles.values()).as_dict())
    oracle_total = reduce(add_counts, (naive_counts(keys[n], responses[n]) for n in keys))
    assert_counts_close(result.total.as_dict(), oracle_total)


@deterministic(max_examples=100)
@given(pair=key_response_pairs(max_mentions=10), policy=st.sampled_from(["conll", "b3all"]))
def test_swapping_key_and_response_swaps_recall_and_precision(pair, policy):
    """Every metric's precision is its recall with key and response swapped
    (MUC, B³, CEAFm, CEAFe, BLANC both link kinds, LEA, mentions). b3all
    is symmetric too: its recall and precision rewrites mirror each other
    (Stoyanov et al. 2009); b30 and sys are not."""
    key, response = pair
    assert_counts_close(engine_counts(response, key, policy), swap_sides(engine_counts(key, response, policy)))


@deterministic(max_examples=100)
@given(pair=same_mention_pairs(max_mentions=10))
def test_policies_agree_without_twinless_mentions(pair):
    """docs/metrics.md §4 rewrites only touch twinless mentions."""
    key, response = pair
    conll = engine_counts(key, response, "conll")
    for policy in POLICIES:
        assert_counts_close(engine_counts(key, response, policy), conll, f"{policy}: ")


def expected_metrics(counts):
    """Oracle rates, with the count fields beside them as in ``metrics()``."""
    expected = naive_rates(counts)
    for metric, fields in counts.items():
        if metric == "blanc":
            for kind in fields:
                expected["blanc"][kind].update(fields[kind])
        else:
            expected[metric].update(fields)
    return expected


@deterministic(max_examples=60)
@given(corpus=corpora(max_documents=3, max_mentions=8))
def test_metrics_equal_oracle_rates(corpus):
    """Micro-averaged recall, precision and F1 of every metric, BLANC combined
    as in docs/metrics.md §2 and the CoNLL average, against ``naive_rates``, with the
    summed counts beside each rate."""
    keys, responses = corpus
    metrics = flatten(score_documents(keys, responses).metrics())
    oracle_counts = reduce(add_counts, (naive_counts(keys[n], responses[n]) for n in keys))
    expected = flatten(expected_metrics(oracle_counts))
    assert set(expected) <= set(metrics), sorted(set(expected) - set(metrics))
    wrong = {path: (metrics[path], expected[path]) for path in expected if not close(metrics[path], expected[path])}
    assert not wrong, wrong
