"""Twinless policies (docs/metrics.md §4) against per-mention B³ values written out
from the papers' definitions: B³all and B³0 (Stoyanov et al. 2009), B³sys
and CEAFsys (Cai & Strube 2010); singleton removal; and properties that
hold under every matcher."""

from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st

from spacy_coref_eval import Clusters, Settings, count_document
from spacy_coref_eval.twinning import POLICIES, twin_corpus
from tests.support.oracle import assert_counts_close
from tests.support.strategies import deterministic, entities_over, mention_sets, same_mention_pairs

M1, M2, M3, M4, M5 = (0, 1), (2, 3), (4, 5), (6, 7), (8, 9)
X, Y, Z = (10, 11), (12, 13), (14, 15)

# Document A: key {m1 m2 m3} {m4 m5}; response {m1 m2 x} {m4 m5}.
# Twinless key mention m3, twinless response mention x (not a singleton).
KEY_A = [[M1, M2, M3], [M4, M5]]
RESPONSE_A = [[M1, M2, X], [M4, M5]]

# Document B: key {m1 m2 m3} {m4 m5}; response {m1 m2} {y} {m4 z}.
# Twinless key mentions m3, m5; twinless response mentions y (a singleton
# response entity, so in T_R¹) and z.
KEY_B = [[M1, M2, M3], [M4, M5]]
RESPONSE_B = [[M1, M2], [Y], [M4, Z]]

# Per-mention B³ recall (over key mentions) and precision (over response
# mentions), |K_m ∩ R_m| / |K_m| and |K_m ∩ R_m| / |R_m| for twinned
# mentions, from the definitions:
#   conll: twinless mentions stay where they are; a mention absent from the
#          other side scores 0.
#   b3all: a twinless key mention has recall 1/|K_m|, a twinless response
#          mention precision 1/|R_m|; all mentions are kept.
#   b30:   twinless response mentions are discarded (also from |R_m|);
#          twinless key mentions have recall 0.
#   sys:   recall: twinless response mentions discarded, twinless key
#          mention recall 1/|K_m|; precision: twinless key mentions enter
#          the response as singletons (precision 1), twinless response
#          singletons are discarded, other twinless response mentions get
#          precision 1/|R_m|.
B3: dict[str, dict[str, dict[str, list[F]]]] = {
    "A": {
        "conll": {
            "recall": [F(2, 3), F(2, 3), F(0), F(1), F(1)],
            "precision": [F(2, 3), F(2, 3), F(0), F(1), F(1)],  # m1 m2 x m4 m5
        },
        "b3all": {"recall": [F(2, 3), F(2, 3), F(1, 3), F(1), F(1)], "precision": [F(2, 3), F(2, 3), F(1, 3), F(1), F(1)]},
        "b30": {
            "recall": [F(2, 3), F(2, 3), F(0), F(1), F(1)],
            "precision": [F(1), F(1), F(1), F(1)],  # m1 m2 m4 m5; x gone
        },
        "sys": {
            "recall": [F(2, 3), F(2, 3), F(1, 3), F(1), F(1)],
            "precision": [F(2, 3), F(2, 3), F(1, 3), F(1), F(1), F(1)],  # + m3 as a singleton
        },
    },
    "B": {
        "conll": {
            "recall": [F(2, 3), F(2, 3), F(0), F(1, 2), F(0)],  # m1 m2 m3 m4 m5
            "precision": [F(1), F(1), F(0), F(1, 2), F(0)],  # m1 m2 y m4 z
        },
        "b3all": {"recall": [F(2, 3), F(2, 3), F(1, 3), F(1, 2), F(1, 2)], "precision": [F(1), F(1), F(1), F(1, 2), F(1, 2)]},
        "b30": {
            "recall": [F(2, 3), F(2, 3), F(0), F(1, 2), F(0)],
            "precision": [F(1), F(1), F(1)],  # m1 m2 m4; y, z gone
        },
        "sys": {
            "recall": [F(2, 3), F(2, 3), F(1, 3), F(1, 2), F(1, 2)],
            # m1 m2 m4 z, then m3 and m5 as singletons; y (in T_R¹) gone
            "precision": [F(1), F(1), F(1, 2), F(1, 2), F(1), F(1)],
        },
    },
}
DOCUMENTS = {"A": (KEY_A, RESPONSE_A), "B": (KEY_B, RESPONSE_B)}


def expected_counts(values: dict[str, list[F]]) -> dict[str, float]:
    return {
        "recall_num": float(sum(values["recall"])),
        "recall_den": float(len(values["recall"])),
        "precision_num": float(sum(values["precision"])),
        "precision_den": float(len(values["precision"])),
    }


@pytest.mark.parametrize("document", list(DOCUMENTS))
@pytest.mark.parametrize("policy", list(POLICIES))
def test_b3_per_mention_values_from_the_papers(document, policy):
    key, response = DOCUMENTS[document]
    counts = count_document(key, response, Settings(twinless=policy)).as_dict()["bcub"]
    expected = expected_counts(B3[document][policy])
    assert counts == pytest.approx(expected, rel=1e-12)


def test_ceaf_under_sys():
    """Document B under sys (Cai & Strube 2010). Recall pair: key {m1 m2 m3}
    {m4 m5} against {m1 m2} {m4} {m3} {m5}; precision pair: key + {z}
    against {m1 m2} {m4 z} {m3} {m5}.

    CEAFm recall: {m1 m2 m3}–{m1 m2} (2) + {m4 m5}–{m4} (1) = 3 of 5 key
    mentions; precision: {m1 m2 m3}–{m1 m2} (2) + {m4 m5}–{m5} (1) +
    {z}–{m4 z} (1) = 4 of 6 response mentions.
    CEAFe recall: 4/5 + 2/3 = 22/15 of 2 key entities; precision:
    4/5 + 2/3 + 2/3 = 32/15 of 4 response entities.
    """
    counts = count_document(KEY_B, RESPONSE_B, Settings(twinless="sys")).as_dict()
    assert counts["ceafm"] == pytest.approx({"recall_num": 3, "recall_den": 5, "precision_num": 4, "precision_den": 6}, rel=1e-12)
    assert counts["ceafe"] == pytest.approx(
        {"recall_num": 22 / 15, "recall_den": 2, "precision_num": 32 / 15, "precision_den": 4}, rel=1e-12
    )


@pytest.mark.parametrize("policy", list(POLICIES))
def test_mention_identification_ignores_the_policy(policy):
    """Twin pairs against all mentions, before any rewrite."""
    counts = count_document(KEY_B, RESPONSE_B, Settings(twinless=policy)).as_dict()["mentions"]
    assert counts == {"recall_num": 3, "recall_den": 5, "precision_num": 3, "precision_den": 5}


def test_removing_singletons():
    """Key {m1 m2} {m3}, response {m1} {m2 m3}: with singletons removed,
    {m1 m2} against {m2 m3}: B³ recall 0 + 1/2, precision 1/2 + 0."""
    key, response = [[M1, M2], [M3]], [[M1], [M2, M3]]
    kept = count_document(key, response, Settings(singletons="keep")).as_dict()["bcub"]
    removed = count_document(key, response, Settings(singletons="remove")).as_dict()["bcub"]
    assert kept == pytest.approx({"recall_num": 2, "recall_den": 3, "precision_num": 2, "precision_den": 3})
    assert removed == pytest.approx({"recall_num": 0.5, "recall_den": 2, "precision_num": 0.5, "precision_den": 2})


# --- properties --------------------------------------------------------------------


def policy_counts(key, response, **settings) -> dict[str, dict]:
    return {policy: count_document(key, response, Settings.from_options(twinless=policy, **settings)).as_dict() for policy in POLICIES}


def assert_all_policies_agree(counts: dict[str, dict]) -> None:
    for policy, value in counts.items():
        assert_counts_close(value, counts["conll"], f"{policy} vs conll: ")


@deterministic(max_examples=150)
@given(pair=same_mention_pairs(max_mentions=10))
def test_without_twinless_mentions_all_policies_agree(pair):
    assert_all_policies_agree(policy_counts(*pair))


@st.composite
def shifted_pairs(draw, max_mentions=8):
    """A key, and a response over the same spans with some ends moved one
    token right, partitioned independently."""
    mentions = draw(mention_sets(0, max_mentions))
    shifted, taken = [], set(mentions)
    for start, end in mentions:
        if draw(st.booleans()) and (start, end + 1) not in taken:
            taken.add((start, end + 1))
            shifted.append((start, end + 1))
        else:
            shifted.append((start, end))
    return draw(entities_over(mentions)), draw(entities_over(shifted))


@pytest.mark.parametrize("matcher", ["overlap", "head"])
@deterministic(max_examples=150)
@given(pair=shifted_pairs())
def test_all_policies_agree_when_a_matcher_twins_everything(matcher, pair):
    key, response = with_start_heads(pair[0]), with_start_heads(pair[1])
    twinned = twin_corpus([(key, response, 0)], Settings.from_options(match=matcher).match).partitions()
    assume(not twinned.twinless_key.any() and not twinned.twinless_response.any())
    assert_all_policies_agree(policy_counts(key, response, match=matcher))


def with_start_heads(entities) -> Clusters:
    """Clusters whose mentions are headed by their first token."""
    return Clusters.from_entities(entities, heads=[[start for start, _ in entity] for entity in entities])


def snapped(key: Clusters, response: Clusters, twins: np.ndarray) -> Clusters:
    """The response with every twinned mention moved onto its key twin's span."""
    starts, ends = response.starts.copy(), response.ends.copy()
    found = twins >= 0
    starts[found], ends[found] = key.starts[twins[found]], key.ends[twins[found]]
    return Clusters.from_arrays(starts, ends, response.entity)


@pytest.mark.parametrize("matcher", ["head", "overlap", "partial"])
@pytest.mark.parametrize("policy", list(POLICIES))
@deterministic(max_examples=60)
@given(key_mentions=mention_sets(0, 8), response_mentions=mention_sets(0, 8), data=st.data())
def test_policies_see_only_the_twins(matcher, policy, key_mentions, response_mentions, data):
    """Scoring under any matcher equals exact scoring of the response
    moved onto the twins' key spans: every metric and every policy works
    on the twinned pair alone."""
    key = with_start_heads(data.draw(entities_over(key_mentions)))
    response = with_start_heads(data.draw(entities_over(response_mentions)))
    settings = Settings.from_options(match=matcher, twinless=policy)
    twins = settings.match(key, response)  # type: ignore[operator]
    assert_counts_close(
        count_document(key, response, settings).as_dict(),
        count_document(key, snapped(key, response, twins), Settings(twinless=policy)).as_dict(),
    )
