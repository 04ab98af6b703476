"""A naive, obviously-correct scorer written straight from the definitions (docs/metrics.md).

It works on Python sets with explicit loops and exact fractions, and exists
only to be compared against the fast engine. Mentions are hashable
``(start, end)`` tuples matched exactly: the same tuple on both sides is a
twin pair (docs/metrics.md §3, ``exact`` matching). An entity is a set of mentions, a
partition a list of entities; no mention may appear twice on one side.
"""

import math
from fractions import Fraction
from itertools import combinations

import numpy as np
from scipy.optimize import linear_sum_assignment

FIELDS = ("recall_num", "recall_den", "precision_num", "precision_den")
POLICIES = ("conll", "b3all", "b30", "sys")
LINK_KINDS = ("coref_links", "noncoref_links")
SIMPLE_METRICS = ("mentions", "muc", "bcub", "ceafm", "ceafe", "lea")


# --- partitions -------------------------------------------------------------


def partition(entities):
    """The entities as a list of frozensets, empty entities dropped."""
    result = [frozenset(entity) for entity in entities if entity]
    seen = set()
    for entity in result:
        if seen & entity:
            raise ValueError(f"mention repeated on one side: {sorted(seen & entity)}")
        seen |= entity
    return result


def mentions_of(entities):
    """Every mention of a partition."""
    return {mention for entity in entities for mention in entity}


def entity_of(entities, mention):
    """The entity holding ``mention``, or the empty set if there is none."""
    for entity in entities:
        if mention in entity:
            return entity
    return frozenset()


def pair_count(size):
    """Unordered pairs among ``size`` items."""
    return size * (size - 1) // 2


# --- one-sided metric counts: (numerator, denominator) of recall ------------
# Precision of every metric is the same function with key and response
# swapped, which is how ``naive_counts`` builds it.


def mention_side(key, response):
    """Mention identification: twinned key mentions / key mentions (docs/metrics.md §2)."""
    key_mentions = mentions_of(key)
    return len(key_mentions & mentions_of(response)), len(key_mentions)


def muc_side(key, response):
    """MUC recall, Σ(|k| − |p(k)|) / Σ(|k| − 1) (Vilain et al. 1995).

    p(k) is the partition of k induced by the response; a mention of k found in
    no response entity is a part of its own.
    """
    numerator = denominator = 0
    for k in key:
        parts = set()
        for mention in k:
            r = entity_of(response, mention)
            parts.add(k & r if r else frozenset([mention]))
        numerator += len(k) - len(parts)
        denominator += len(k) - 1
    return numerator, denominator


def b3_side(key, response):
    """B³ recall: per key mention m, |K_m ∩ R_m| / |K_m| (Bagga & Baldwin 1998)."""
    numerator = Fraction(0)
    for k in key:
        for mention in k:
            numerator += Fraction(len(k & entity_of(response, mention)), len(k))
    return numerator, sum(len(k) for k in key)


def phi3(k, r):
    """Mention-based CEAF similarity |k ∩ r| (Luo 2005)."""
    return Fraction(len(k & r))


def phi4(k, r):
    """Entity-based CEAF similarity 2|k ∩ r| / (|k| + |r|) (Luo 2005)."""
    return Fraction(2 * len(k & r), len(k) + len(r))


def best_alignment(key, response, phi):
    """Φ*: total φ of the best one-to-one key/response alignment (Luo 2005).

    Kuhn-Munkres on the full dense key × response matrix.
    """
    if not key or not response:
        return Fraction(0)
    matrix = np.array([[float(phi(k, r)) for r in response] for k in key])
    rows, cols = linear_sum_assignment(matrix, maximize=True)
    return sum((phi(key[i], response[j]) for i, j in zip(rows, cols)), Fraction(0))


def ceafm_side(key, response):
    """CEAFm recall, Φ*(φ3) / Σ φ3(k, k) (Luo 2005)."""
    return best_alignment(key, response, phi3), sum(phi3(k, k) for k in key)


def ceafe_side(key, response):
    """CEAFe recall, Φ*(φ4) / Σ φ4(k, k) (Luo 2005)."""
    return best_alignment(key, response, phi4), sum(phi4(k, k) for k in key)


def coref_links(entities):
    """Unordered pairs of mentions in one entity (Recasens & Hovy 2011)."""
    return {frozenset(pair) for entity in entities for pair in combinations(entity, 2)}


def noncoref_links(entities):
    """Unordered pairs of mentions of one side in different entities (Luo et al. 2014)."""
    return {frozenset((a, b)) for first, second in combinations(entities, 2) for a in first for b in second}


def coref_link_side(key, response):
    """BLANC coreference links: |C_K ∩ C_R| / |C_K| (Luo et al. 2014)."""
    key_links = coref_links(key)
    return len(key_links & coref_links(response)), len(key_links)


def noncoref_link_side(key, response):
    """BLANC non-coreference links: |N_K ∩ N_R| / |N_K| (Luo et al. 2014)."""
    key_links = noncoref_links(key)
    return len(key_links & noncoref_links(response)), len(key_links)


def lea_link(entity):
    """link(e) = |e|(|e| − 1)/2, or 1 for a singleton's self-link (Moosavi & Strube 2016)."""
    return pair_count(len(entity)) if len(entity) > 1 else 1


def lea_side(key, response, importance=len):
    """LEA recall, Σ imp(k) · resolved(k) / Σ imp(k) (Moosavi & Strube
    2016; imp(k) = |k| unless another ``importance`` is given).

    resolved(k) = Σ_r link(k ∩ r) / link(k); a singleton key entity {m} is
    resolved exactly when m forms a response entity of size 1.
    """
    numerator = Fraction(0)
    for k in key:
        if len(k) == 1:
            (mention,) = k
            resolved = Fraction(1 if len(entity_of(response, mention)) == 1 else 0)
        else:
            common = sum(pair_count(len(k & r)) for r in response)
            resolved = Fraction(common, lea_link(k))
        numerator += importance(k) * resolved
    return numerator, sum(importance(k) for k in key)


# --- counts -----------------------------------------------------------------


def both_ways(side, key, response):
    """Recall counts from ``side(key, response)``, precision from the swap."""
    recall_num, recall_den = side(key, response)
    precision_num, precision_den = side(response, key)
    return {
        "recall_num": float(recall_num),
        "recall_den": float(recall_den),
        "precision_num": float(precision_num),
        "precision_den": float(precision_den),
    }


def naive_counts(key, response):
    """Every metric's additive counts for one document under exact matching."""
    key, response = partition(key), partition(response)
    return {
        "mentions": both_ways(mention_side, key, response),
        "muc": both_ways(muc_side, key, response),
        "bcub": both_ways(b3_side, key, response),
        "ceafm": both_ways(ceafm_side, key, response),
        "ceafe": both_ways(ceafe_side, key, response),
        "lea": both_ways(lea_side, key, response),
        "blanc": {"coref_links": both_ways(coref_link_side, key, response), "noncoref_links": both_ways(noncoref_link_side, key, response)},
    }


# --- twinless policies (docs/metrics.md §4) ---------------------------------------------


def singletons(mentions):
    """Each mention as an entity of its own."""
    return [frozenset([mention]) for mention in sorted(mentions)]


def without(entities, mentions):
    """The partition with ``mentions`` removed; emptied entities disappear."""
    return [entity - mentions for entity in entities if entity - mentions]


def rewrite(key, response, policy):
    """The (recall pair, precision pair) of a twinless policy, as in docs/metrics.md §4.

    conll: Pradhan et al. 2014; b3all and b30: Stoyanov et al. 2009;
    sys: Cai & Strube 2010.
    """
    key, response = partition(key), partition(response)
    key_mentions, response_mentions = mentions_of(key), mentions_of(response)
    twinless_key = key_mentions - response_mentions
    twinless_response = response_mentions - key_mentions
    twinless_singletons = {m for m in twinless_response if frozenset([m]) in response}
    if policy == "conll":
        return (key, response), (key, response)
    if policy == "b3all":
        return ((key, response + singletons(twinless_key)), (key + singletons(twinless_response), response))
    if policy == "b30":
        pair = (key, without(response, twinless_response))
        return pair, pair
    if policy == "sys":
        return (
            (key, without(response, twinless_response) + singletons(twinless_key)),
            (key + singletons(twinless_response - twinless_singletons), without(response, twinless_singletons) + singletons(twinless_key)),
        )
    raise ValueError(f"unknown twinless policy {policy!r}")


def naive_policy_counts(key, response, policy):
    """Counts under a twinless policy: recall fields from the recall pair,
    precision fields from the precision pair, mention identification from
    the pair as given (docs/metrics.md §4)."""
    recall_pair, precision_pair = rewrite(key, response, policy)
    from_recall = naive_counts(*recall_pair)
    from_precision = naive_counts(*precision_pair)

    def merge(recall_side, precision_side):
        return {
            "recall_num": recall_side["recall_num"],
            "recall_den": recall_side["recall_den"],
            "precision_num": precision_side["precision_num"],
            "precision_den": precision_side["precision_den"],
        }

    result = {metric: merge(from_recall[metric], from_precision[metric]) for metric in SIMPLE_METRICS}
    result["blanc"] = {kind: merge(from_recall["blanc"][kind], from_precision["blanc"][kind]) for kind in LINK_KINDS}
    result["mentions"] = naive_counts(key, response)["mentions"]
    return result


# --- rates --------------------------------------------------------------------


def ratio(numerator, denominator):
    """numerator / denominator, with 0/0 = 0 (docs/metrics.md §1)."""
    return numerator / denominator if denominator else 0.0


def f1(recall, precision):
    """Harmonic mean, 0 when both are 0 (docs/metrics.md §1)."""
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def rates(counts):
    """Recall, precision and F1 of one metric's four counts."""
    recall = ratio(counts["recall_num"], counts["recall_den"])
    precision = ratio(counts["precision_num"], counts["precision_den"])
    return {"recall": recall, "precision": precision, "f1": f1(recall, precision)}


def blanc_rates(counts):
    """BLANC: mean of the coreference and non-coreference link scores
    (Recasens & Hovy 2011; Luo et al. 2014), or the one part whose key side
    has links (docs/metrics.md §2)."""
    coref = rates(counts["coref_links"])
    noncoref = rates(counts["noncoref_links"])
    has_coref = counts["coref_links"]["recall_den"] != 0
    has_noncoref = counts["noncoref_links"]["recall_den"] != 0
    if has_coref and has_noncoref:
        combined = {name: (coref[name] + noncoref[name]) / 2 for name in coref}
    elif has_coref:
        combined = dict(coref)
    elif has_noncoref:
        combined = dict(noncoref)
    else:
        combined = {"recall": 0.0, "precision": 0.0, "f1": 0.0}
    return {**combined, "coref_links": coref, "noncoref_links": noncoref}


def naive_rates(counts):
    """Recall/precision/F1 of every metric, BLANC and the CoNLL average
    (mean of MUC, B³ and CEAFe F1; Pradhan et al. 2014)."""
    result = {metric: rates(counts[metric]) for metric in SIMPLE_METRICS}
    result["blanc"] = blanc_rates(counts["blanc"])
    conll = (result["muc"]["f1"] + result["bcub"]["f1"] + result["ceafe"]["f1"]) / 3
    result["conll"] = {"f1": conll}
    return result


# --- helpers for comparing nested count dicts -----------------------------------


def flatten(nested, prefix=()):
    """{("blanc", "coref_links", "recall_num"): value, ...} of a nested dict."""
    flat = {}
    for name, value in nested.items():
        if isinstance(value, dict):
            flat.update(flatten(value, prefix + (name,)))
        else:
            flat[prefix + (name,)] = value
    return flat


def add_counts(first, second):
    """Field-wise sum of two nested count dicts (a corpus is a sum of documents)."""
    return {name: add_counts(value, second[name]) if isinstance(value, dict) else value + second[name] for name, value in first.items()}


def assert_counts_close(actual, expected, context=""):
    """Same nested fields, every value within rel_tol 1e-9 (abs_tol 1e-12)."""
    actual_flat, expected_flat = flatten(actual), flatten(expected)
    assert set(actual_flat) == set(expected_flat), (
        f"{context}fields differ: missing {sorted(set(expected_flat) - set(actual_flat))}, "
        f"unexpected {sorted(set(actual_flat) - set(expected_flat))}"
    )
    wrong = {
        "/".join(path): (actual_flat[path], expected_flat[path])
        for path in expected_flat
        if not math.isclose(actual_flat[path], expected_flat[path], rel_tol=1e-9, abs_tol=1e-12)
    }
    assert not wrong, f"{context}(actual, expected) differ at {wrong}"


# --- twinning by score ------------------------------------------------------------


def earliest_best_twins(free_keys, free_responses, score):
    """Twins of the responses ``free_responses`` among the keys
    ``free_keys`` (both in the order ties follow), by brute force: of all
    one-to-one assignments whose pairs all score > 0, the one of maximum
    exact total (``score(key, response)`` a Fraction), ties to the
    lexicographically smallest list of key positions ('no twin' last).
    Returns ``{response: key}``."""
    from itertools import product

    best, choice = None, ()
    for option in product(range(len(free_keys) + 1), repeat=len(free_responses)):
        used = [o for o in option if o < len(free_keys)]
        if len(used) != len(set(used)):
            continue
        scores = [score(free_keys[o], free_responses[j]) for j, o in enumerate(option) if o < len(free_keys)]
        if any(s == 0 for s in scores):
            continue
        rank = (-sum(scores, Fraction(0)), option)
        if best is None or rank < best:
            best, choice = rank, option
    return {free_responses[j]: free_keys[o] for j, o in enumerate(choice) if o < len(free_keys)}
