"""The oracle against numbers verified by hand or published with the papers."""

import json
import math
import re

import pytest

from tests.conftest import data_path
from tests.support.oracle import naive_counts, naive_policy_counts, naive_rates, partition


def token(index):
    """A single-token mention."""
    return (index, index + 1)


def tokens(*indices):
    """An entity of single-token mentions."""
    return [token(i) for i in indices]


LUO_KEY = [tokens(0, 1, 2, 3, 4), tokens(5, 6), tokens(7, 8, 9, 10, 11)]
LUO_RESPONSES = {
    "a": [tokens(0, 1, 2, 3, 4), tokens(5, 6, 7, 8, 9, 10, 11)],
    "b": [tokens(0, 1, 2, 3, 4, 7, 8, 9, 10, 11), tokens(5, 6)],
    "c": [tokens(*range(12))],
    "d": [tokens(i) for i in range(12)],
}
LUO_F1 = {
    "muc": {"a": 0.947, "b": 0.947, "c": 0.900, "d": 0.0},
    "bcub": {"a": 0.865, "b": 0.737, "c": 0.545, "d": 0.400},
    "ceafm": {"a": 0.833, "b": 0.583, "c": 0.417, "d": 0.250},
    "ceafe": {"a": 0.733, "b": 0.667, "c": 0.294, "d": 0.178},
}


@pytest.mark.parametrize("metric", sorted(LUO_F1))
@pytest.mark.parametrize("response", sorted(LUO_RESPONSES))
def test_luo_2005_figure_1(metric, response):
    """Luo (2005), Figure 1 / Tables 1-2: F1 of responses (a)-(d)."""
    scores = naive_rates(naive_counts(LUO_KEY, LUO_RESPONSES[response]))
    assert round(scores[metric]["f1"], 3) == LUO_F1[metric][response]


def test_lea_moosavi_strube_2016_section_5():
    """Moosavi & Strube (2016) §5: key {a,b,c},{d,e,f,g}; response
    {a,b},{c,d},{f,g,h,i}: LEA R = (3·1/3 + 4·1/6)/7, P = (2·1 + 2·0 + 4·1/6)/8."""
    key = [tokens(0, 1, 2), tokens(3, 4, 5, 6)]
    response = [tokens(0, 1), tokens(2, 3), tokens(5, 6, 7, 8)]
    lea = naive_counts(key, response)["lea"]
    assert math.isclose(lea["recall_num"], 5 / 3) and lea["recall_den"] == 7
    assert math.isclose(lea["precision_num"], 8 / 3) and lea["precision_den"] == 8
    scores = naive_rates(naive_counts(key, response))["lea"]
    assert round(scores["recall"], 2) == 0.24 and round(scores["precision"], 2) == 0.33


def test_blanc_counts_by_hand():
    """Key {a,b,c},{d}; response {a,b},{c,e}: C_K = {ab,ac,bc}, C_R = {ab,ce},
    N_K = {ad,bd,cd}, N_R = {ac,ae,bc,be}; only a-b and nothing split on both
    sides is shared (d and e are twinless)."""
    a, b, c, d, e = (token(i) for i in range(5))
    blanc = naive_counts([[a, b, c], [d]], [[a, b], [c, e]])["blanc"]
    assert blanc["coref_links"] == {"recall_num": 1.0, "recall_den": 3.0, "precision_num": 1.0, "precision_den": 2.0}
    assert blanc["noncoref_links"] == {"recall_num": 0.0, "recall_den": 3.0, "precision_num": 0.0, "precision_den": 4.0}


def test_muc_counts_missing_mentions_form_own_parts():
    """Vilain et al. (1995): key {a,b,c,d}, response {a,b},{e}: p(k) =
    {a,b},{c},{d}, so recall (4 − 3)/3; precision on {a,b} alone is 1/1."""
    a, b, c, d, e = (token(i) for i in range(5))
    muc = naive_counts([[a, b, c, d]], [[a, b], [e]])["muc"]
    assert muc == {"recall_num": 1.0, "recall_den": 3.0, "precision_num": 1.0, "precision_den": 1.0}


def test_lea_singleton_needs_singleton_response():
    """Moosavi & Strube (2016): a key singleton is resolved only by a
    response singleton, not by sitting in a larger response entity."""
    a, b = token(0), token(1)
    assert naive_counts([[a], [b]], [[a], [b]])["lea"]["recall_num"] == 2.0
    assert naive_counts([[a], [b]], [[a, b]])["lea"]["recall_num"] == 0.0


def test_mention_identification():
    """Twinned key mentions / key mentions and twinned response mentions /
    response mentions, with nested spans as distinct mentions."""
    counts = naive_counts([[(0, 3), (1, 2)], [(5, 6)]], [[(0, 3)], [(0, 2), (5, 6)]])
    assert counts["mentions"] == {"recall_num": 2.0, "recall_den": 3.0, "precision_num": 2.0, "precision_den": 3.0}


def test_empty_sides_count_nothing():
    """0/0 everywhere when both sides are empty, and only denominators otherwise."""
    a, b = token(0), token(1)
    both_empty = naive_counts([], [])
    assert all(value == 0.0 for value in _values(both_empty))
    only_key = naive_counts([[a, b]], [])
    assert only_key["bcub"] == {"recall_num": 0.0, "recall_den": 2.0, "precision_num": 0.0, "precision_den": 0.0}
    assert naive_rates(only_key)["conll"]["f1"] == 0.0


def test_repeated_mention_is_rejected():
    with pytest.raises(ValueError):
        partition([[token(0)], [token(0), token(1)]])


# Key {a,b}, response {a,c}: b is a twinless key mention, c a twinless
# response mention in a non-singleton entity. B³ (num, den) by hand.
A, B, C = token(0), token(1), token(2)
POLICY_B3 = {
    # conll: a contributes 1/2 on both sides; b and c contribute 0.
    "conll": ((0.5, 2.0), (0.5, 2.0)),
    # b3all: recall on ({a,b}; {a,c},{b}) gives a 1/2, b 1/2; precision on
    # ({a,b},{c}; {a,c}) gives a 1/2, c 1/2.
    "b3all": ((1.0, 2.0), (1.0, 2.0)),
    # b30: c discarded; recall a 1/2, b 0; precision on response {a}: 1/1.
    "b30": ((0.5, 2.0), (1.0, 1.0)),
    # sys: recall on ({a,b}; {a},{b}) gives 1/2 + 1/2; precision on
    # ({a,b},{c}; {a,c},{b}) gives a 1/2, c 1/2, b 1 over 3 mentions.
    "sys": ((1.0, 2.0), (2.0, 3.0)),
}


@pytest.mark.parametrize("policy", sorted(POLICY_B3))
def test_twinless_policies_b3_by_hand(policy):
    """docs/metrics.md §4 rewrites (Stoyanov et al. 2009; Cai & Strube 2010) on B³."""
    bcub = naive_policy_counts([[A, B]], [[A, C]], policy)["bcub"]
    (recall_num, recall_den), (precision_num, precision_den) = POLICY_B3[policy]
    assert (bcub["recall_num"], bcub["recall_den"]) == (recall_num, recall_den)
    assert (bcub["precision_num"], bcub["precision_den"]) == (precision_num, precision_den)
    assert naive_policy_counts([[A, B]], [[A, C]], policy)["mentions"] == {
        "recall_num": 1.0,
        "recall_den": 2.0,
        "precision_num": 1.0,
        "precision_den": 2.0,
    }


def test_sys_drops_twinless_response_singletons():
    """Cai & Strube (2010): key {a,b}, response {a},{c}. The singleton c is
    discarded from precision, b is added to the response as a singleton, so
    precision on ({a,b}; {a},{b}) is 2/2."""
    bcub = naive_policy_counts([[A, B]], [[A], [C]], "sys")["bcub"]
    assert (bcub["precision_num"], bcub["precision_den"]) == (2.0, 2.0)
    assert (bcub["recall_num"], bcub["recall_den"]) == (1.0, 2.0)


def _values(nested):
    for value in nested.values():
        if isinstance(value, dict):
            yield from _values(value)
        else:
            yield value


# --- the reference scorer's own counts (tests/data/conformance/expected.json)

MARK = re.compile(r"\((\d+)\)|\((\d+)|(\d+)\)")


def read_conll(path):
    """Entities of a one-document CoNLL-2012 file; tokens numbered across the document."""
    entities, opened, position = {}, {}, 0
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        for single, start, end in MARK.findall(line.split()[-1]):
            if single:
                entities.setdefault(single, []).append(token(position))
            elif start:
                opened.setdefault(start, []).append(position)
            else:
                entities.setdefault(end, []).append((opened[end].pop(), position + 1))
        position += 1
    return list(entities.values())


def reference_cases():
    """Every case of expected.json but A8 and A9, whose repeated response
    mentions the oracle rejects."""
    cases = json.loads(data_path("conformance", "expected.json").read_text())["cases"]
    return [pytest.param(case, id=name) for name, case in cases.items() if name not in ("A8", "A9")]


def _pair(counts):
    return [counts[field] for field in ("recall_num", "recall_den", "precision_num", "precision_den")]


@pytest.mark.parametrize("case", reference_cases())
def test_reference_scorer_counts(case):
    """Counts equal those of the CoNLL reference scorer v8.01 (Pradhan et al. 2014)."""
    counts = naive_counts(read_conll(data_path("conformance", case["key"])), read_conll(data_path("conformance", case["response"])))
    scores = naive_rates(counts)
    for metric, expected in case["counts"].items():
        if metric == "blanc":
            for kind in ("coref_links", "noncoref_links"):
                assert _pair(counts["blanc"][kind]) == pytest.approx(expected[kind]["recall"] + expected[kind]["precision"], rel=1e-9)
            assert [scores["blanc"]["recall"], scores["blanc"]["precision"]] == pytest.approx(
                [expected["blanc"]["recall"][0], expected["blanc"]["precision"][0]], rel=1e-9
            )
        else:
            assert _pair(counts[metric]) == pytest.approx(expected["recall"] + expected["precision"], rel=1e-9), metric
