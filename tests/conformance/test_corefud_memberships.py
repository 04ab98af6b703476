"""The CorefUD preset's membership tables (docs/corefud.md §10) against a
naive oracle written from the official scorer's list-based definitions, on
random partitions where some mentions are also given in other entities.
Under exact matching with no zeros the alignment twins equal spans, so
each membership is looked up by its own span; the oracle walks the entity
lists as the scorer does (the mention's entity on the other side is the
last one holding it; CEAF counts it in every entity holding it; BLANC's
numerators come from the key side)."""

from itertools import combinations

import pytest
from hypothesis import given, strategies as st

from spacy_coref_eval import Settings
from spacy_coref_eval.model.clusters import Clusters
from spacy_coref_eval.scoring import count_document
from tests.support.oracle import ceafe_side, ceafm_side
from tests.support.strategies import deterministic, key_response_pairs

METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")


@st.composite
def with_repeats(draw, entities):
    """``entities`` with some mentions also put into another entity."""
    out = [list(entity) for entity in entities]
    if len(out) < 2:
        return out
    mentions = [m for entity in out for m in entity]
    for mention in draw(st.lists(st.sampled_from(mentions), max_size=4)):
        target = draw(st.integers(0, len(out) - 1))
        if mention not in out[target]:
            out[target].insert(draw(st.integers(0, len(out[target]))), mention)
    return out


@st.composite
def repeated_pairs(draw):
    key, response = draw(key_response_pairs(max_mentions=9))
    return draw(with_repeats(key)), draw(with_repeats(response))


def _last_entity(entities):
    return {m: i for i, entity in enumerate(entities) for m in entity}


def _muc(side, to):
    num = den = 0
    for entity, found in zip(side, to):
        den += len(entity) - 1
        if len(entity) > 1:
            num += len(entity) - found.count(None) - len({x for x in found if x is not None})
    return num, den


def _bcub(side, to):
    num = den = 0.0
    for entity, found in zip(side, to):
        num += sum(found.count(x) ** 2 for x in set(found) if x is not None) / len(entity)
        den += len(entity)
    return num, den


def _lea(side, to, other):
    num = den = 0.0
    for entity, found in zip(side, to):
        if len(entity) == 1:
            common, links = float(found[0] is not None and len(other[found[0]]) == 1), 1.0
        else:
            links = len(entity) * (len(entity) - 1) / 2
            common = sum(1 for a, b in combinations(found, 2) if a is not None and a == b)
        num += len(entity) * common / links
        den += len(entity)
    return num, den


def naive_corefud_counts(key, response):
    """(recall_num, recall_den, precision_num, precision_den) per metric."""
    sigma = [[_last_entity(response).get(m) for m in entity] for entity in key]
    kappa = [[_last_entity(key).get(m) for m in entity] for entity in response]
    quads = {}
    for name, side in (("muc", _muc), ("bcub", _bcub)):
        quads[name] = (*side(key, sigma), *side(response, kappa))
    quads["lea"] = (*_lea(key, sigma, response), *_lea(response, kappa, key))
    key_sets, response_sets = [frozenset(e) for e in key], [frozenset(e) for e in response]
    for name, side in (("ceafm", ceafm_side), ("ceafe", ceafe_side)):
        num, key_den = side(key_sets, response_sets)
        quads[name] = (num, key_den, num, side(response_sets, response_sets)[1])
    coref = sum(1 for found in sigma for a, b in combinations(found, 2) if a is not None and a == b)
    noncoref = sum(
        1 for i, j in combinations(range(len(key)), 2) for a in sigma[i] for b in sigma[j] if a is not None and b is not None and a != b
    )
    n_key, n_response = sum(map(len, key)), sum(map(len, response))
    key_links = sum(len(e) * (len(e) - 1) // 2 for e in key)
    response_links = sum(len(e) * (len(e) - 1) // 2 for e in response)
    quads["blanc"] = (
        (coref, key_links, coref, response_links),
        (noncoref, n_key * (n_key - 1) // 2 - key_links, noncoref, n_response * (n_response - 1) // 2 - response_links),
    )
    return quads


def _without_singletons(entities):
    return [entity for entity in entities if len(entity) > 1]


@pytest.mark.parametrize("singletons", ["keep", "remove"])
@deterministic(max_examples=150)
@given(pair=repeated_pairs())
def test_membership_tables_equal_the_list_based_oracle(singletons, pair):
    key, response = pair
    settings = Settings.from_options(METRICS, "exact", singletons=singletons, preset="corefud")
    got = count_document(Clusters.from_entities(key), Clusters.from_entities(response), settings)
    if singletons == "remove":
        key, response = _without_singletons(key), _without_singletons(response)
    expected = naive_corefud_counts(key, response)
    for name in METRICS:
        if name == "blanc":
            pairs = [("blanc_coref", expected[name][0]), ("blanc_noncoref", expected[name][1])]
        else:
            pairs = [(name, expected[name])]
        for block, quad in pairs:
            assert list(got.block(block)) == pytest.approx([float(x) for x in quad], rel=1e-9, abs=1e-12), block


def test_a_repeat_outside_the_preset_keeps_its_first_copy():
    """SPEC example a1: K e1={1,3} e2={5,7}; R e1={1,3} e2={3,5,7}. Under the
    preset MUC is R 1/2, P 2/3 (the official numbers); without it the
    second copy of {3} is dropped, so R e2 = {5,7} and MUC is 1/2, 1/1."""
    key = [[(1, 2), (3, 4)], [(5, 6), (7, 8)]]
    response = [[(1, 2), (3, 4)], [(3, 4), (5, 6), (7, 8)]]
    preset = count_document(key, response, Settings.from_options(["muc"], "exact", singletons="keep", preset="corefud"))
    assert preset.block("muc") == (1, 2, 2, 3)
    plain = count_document(key, response, Settings.from_options(["muc"], "exact"))
    assert plain.block("muc") == (2, 2, 2, 2)
