"""Mention matchers (docs/metrics.md §3): hand-built documents with the twins written
out, the assignment checked against brute force, candidate generation
against all pairs, option validation and missing heads."""

import json
import subprocess
import sys
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st

from spacy_coref_eval import Clusters, CorefInputError, Settings, count_document, score_pairs
from spacy_coref_eval.assignment import by_block, earliest
from spacy_coref_eval.assignment.by_block import solve_blocks
from spacy_coref_eval.assignment.earliest import best_assignment
from spacy_coref_eval.twinning import MATCHERS, ExactMatcher, HeadMatcher, OverlapMatcher, PartialMatcher, get_matcher
from spacy_coref_eval.twinning.matchers import twin_by_score
from spacy_coref_eval.twinning.spans import exact_twins, overlapping_pairs, twinless_by_span
from tests.support.oracle import earliest_best_twins
from tests.support.strategies import deterministic, key_response_pairs, patched, spans

Span = tuple[int, int]
HEAD, OVERLAP, PARTIAL = HeadMatcher(), OverlapMatcher(), PartialMatcher()
ALL = {"exact": ExactMatcher(), "head": HEAD, "overlap": OVERLAP, "partial": PARTIAL}


def side(mentions: Sequence[tuple[int, int, int]]) -> Clusters:
    """Singleton entities from ``(start, end, head)`` triples."""
    return Clusters.from_entities([[(s, e)] for s, e, _ in mentions], heads=[[h] for _, _, h in mentions])


def twins(matcher, key, response) -> list[int]:
    return matcher(side(key), side(response)).tolist()


# --- the matchers decide differently --------------------------------------------

KEY = [(0, 4, 3), (10, 16, 15), (20, 26, 25), (30, 34, 33), (40, 42, 41)]
RESPONSE = [
    (0, 3, 2),  # one token short, loses the head: Dice 6/7
    (14, 18, 15),  # same head, 2 of 6 tokens: Dice 4/10, not inside
    (25, 26, 25),  # the head alone: Dice 2/7, inside with the head
    (31, 34, 33),  # one token short on the left, keeps the head
    (40, 42, 41),  # identical
]


@pytest.mark.parametrize(
    "name, expected",
    [("exact", [-1, -1, -1, -1, 4]), ("head", [-1, 1, 2, 3, 4]), ("overlap", [0, -1, -1, 3, 4]), ("partial", [-1, -1, 2, 3, 4])],
)
def test_each_matcher_decides_differently(name, expected):
    assert twins(ALL[name], KEY, RESPONSE) == expected


@pytest.mark.parametrize(
    "name, expected",
    [
        ("exact", [-1]),
        # |k ∩ r| / |k|: 3/6 for (0, 6), 2/2 for the nested (0, 2)
        ("head", [1]),
        # Dice: 6/9 for (0, 6), 4/5 for (0, 2)
        ("overlap", [1]),
        # (0, 3) lies inside (0, 6) only
        ("partial", [0]),
    ],
)
def test_nested_key_mentions(name, expected):
    key = [(0, 6, 1), (0, 2, 1)]
    assert twins(ALL[name], key, [(0, 3, 1)]) == expected


def test_off_by_one_overlap_threshold():
    """(0, 4) against (0, 3): Dice 6/7, Jaccard 3/4."""
    key, response = [(0, 4, 3)], [(0, 3, 2)]
    assert twins(OverlapMatcher(6 / 7), key, response) == [0]
    assert twins(OverlapMatcher(0.86), key, response) == [-1]
    assert twins(OverlapMatcher(0.75, "jaccard"), key, response) == [0]
    assert twins(OverlapMatcher(0.76, "jaccard"), key, response) == [-1]


def test_exact_twins_come_first():
    """The response (0, 2) is the exact twin of key (0, 2), although
    twinning it with key (0, 3) would let response (0, 1) take key (0, 2):
    (0, 1) can twin only (0, 2) (Dice 2/3 against 2/4 with (0, 3) under
    θ = 0.6; (0, 3)'s head 1 lies outside it)."""
    key, response = [(0, 2, 0), (0, 3, 1)], [(0, 2, 0), (0, 1, 0)]
    for matcher in (OverlapMatcher(0.6), PARTIAL):
        assert twins(matcher, key, response) == [0, -1]


def test_unknown_head_matches_nothing():
    key, response = [(0, 3, -1)], [(0, 2, -1)]
    assert twins(HEAD, key, response) == [-1]
    assert twins(PARTIAL, key, response) == [-1]


# --- the optimum, not a greedy choice -------------------------------------------


def assignment_total(matcher, key, response) -> float:
    k, r = side(key), side(response)
    found = matcher(k, r)
    chosen = np.flatnonzero(found >= 0)
    return float(matcher.score(k, r, found[chosen], chosen).sum())


@pytest.mark.parametrize(
    "matcher, key, response, expected, greedy_total, best_total",
    [
        # Dice: s(k0,r0) = 1/2, s(k1,r0) = 4/5, s(k1,r1) = 2/3. Greedy gives
        # k1 to r0 (4/5) and leaves k0 with nothing.
        (OVERLAP, [(0, 1, 0), (0, 2, 0)], [(0, 3, 0), (1, 2, 1)], [0, 1], 4 / 5, 1 / 2 + 2 / 3),
        # |k ∩ r| / |k|, head 2: s(k0,r0) = 2/3, s(k0,r1) = 1/3,
        # s(k1,r0) = 3/4, s(k1,r1) = 1/2. Greedy: k1–r0 then k0–r1.
        (HEAD, [(0, 3, 2), (0, 4, 2)], [(1, 4, 2), (2, 4, 2)], [0, 1], 3 / 4 + 1 / 3, 2 / 3 + 1 / 2),
        # |r| / |k|: s(k0,r0) = 1/3, s(k0,r1) = 2/3, s(k1,r1) = 2/4; r0
        # lacks k1's head 1. Greedy gives k0 to r1 and leaves k1 alone.
        (PARTIAL, [(0, 3, 0), (0, 4, 1)], [(0, 1, 0), (0, 2, 0)], [0, 1], 2 / 3, 1 / 3 + 1 / 2),
    ],
)
def test_assignment_beats_greedy(matcher, key, response, expected, greedy_total, best_total):
    assert twins(matcher, key, response) == expected
    assert assignment_total(matcher, key, response) == pytest.approx(best_total)
    assert best_total > greedy_total


# --- ties resolve towards earlier mentions ----------------------------------------


@pytest.mark.parametrize(
    "matcher, key, response, expected",
    [
        # two responses tie for one key: the earlier one wins
        (OVERLAP, [(1, 3, 2)], [(2, 4, 2), (0, 2, 1)], [-1, 0]),
        (HEAD, [(0, 4, 2)], [(1, 4, 2), (0, 3, 2)], [-1, 0]),
        (PARTIAL, [(0, 4, 2)], [(1, 4, 2), (0, 3, 2)], [-1, 0]),
        # one response, two keys tie: the earlier key wins
        (OVERLAP, [(2, 4, 2), (0, 2, 1)], [(1, 3, 2)], [1]),
        (HEAD, [(1, 4, 2), (0, 3, 2)], [(1, 3, 2)], [1]),
        (PARTIAL, [(1, 4, 2), (0, 3, 2)], [(1, 3, 2)], [1]),
    ],
)
def test_equal_scores_go_to_the_earlier_mention(matcher, key, response, expected):
    assert twins(matcher, key, response) == expected


def test_tied_totals_pair_earlier_with_earlier():
    """Every cell scores 1/2, so both perfect assignments total 1: the
    earlier response takes the earlier key."""
    scores = np.full((2, 2), 0.5)
    assert best_assignment(scores) == [(0, 0), (1, 1)]


def test_tied_totals_prefer_twinning_the_earlier_response():
    """r0 and r1 can't both be twinned; either alone totals 1/2."""
    assert best_assignment(np.array([[0.5, 0.5]])) == [(0, 0)]
    assert best_assignment(np.array([[0.5], [0.5]])) == [(0, 0)]


def test_tie_break_never_costs_score():
    """r0 would rather take k0 (earlier), but only r0–k1 + r1–k0 is optimal."""
    scores = np.array([[0.5, 0.5], [0.5, 0.0]])
    assert best_assignment(scores) == [(1, 0), (0, 1)]


# --- brute force: optimal total, then the earliest tie -----------------------------


def fraction_score(name: str, k: tuple[int, int, int], r: tuple[int, int, int], theta=Fraction(1, 2)) -> Fraction:
    """s(k, r) of docs/metrics.md §3, from the definitions, exactly."""
    (ks, ke, kh), (rs, re, rh) = k, r
    common = max(0, min(ke, re) - max(ks, rs))
    if name == "head":
        return Fraction(common, ke - ks) if kh == rh else Fraction(0)
    if name == "overlap":
        dice = Fraction(2 * common, (ke - ks) + (re - rs))
        return dice if dice >= theta else Fraction(0)
    if name == "partial":
        return Fraction(re - rs, ke - ks) if ks <= rs and re <= ke and rs <= kh < re else Fraction(0)
    raise ValueError(name)


def brute_force_twins(name: str, key, response) -> list[int]:
    """Exact twins, then among all one-to-one assignments of the rest with
    the maximum exact total, the lexicographically smallest list of key
    twins of the responses in (start, end) order, keys by (start, end) and
    'no twin' last."""
    result = [-1] * len(response)
    key_spans = {(s, e): i for i, (s, e, _) in enumerate(key)}
    for j, (s, e, _) in enumerate(response):
        result[j] = key_spans.get((s, e), -1)
    free_keys = sorted((i for i in range(len(key)) if i not in result), key=lambda i: key[i][:2])
    free_responses = sorted((j for j in range(len(response)) if result[j] < 0), key=lambda j: response[j][:2])
    for j, i in earliest_best_twins(free_keys, free_responses, lambda i, j: fraction_score(name, key[i], response[j])).items():
        result[j] = i
    return result


@st.composite
def with_heads(draw, mentions: Sequence[Span]) -> list[tuple[int, int, int]]:
    return [(s, e, draw(st.integers(s, e - 1))) for s, e in mentions]


@st.composite
def small_documents(draw, max_mentions=5):
    """Key and response singleton mentions with heads, few enough free ones
    for brute force."""
    key = draw(st.lists(spans(8, 4), max_size=max_mentions, unique=True))
    response = draw(st.lists(spans(8, 4), max_size=max_mentions, unique=True))
    return draw(with_heads(key)), draw(with_heads(response))


@pytest.mark.parametrize("name", ["head", "overlap", "partial"])
@deterministic(max_examples=300)
@given(document=small_documents())
def test_matcher_equals_brute_force(name, document):
    key, response = document
    assert twins(ALL[name], key, response) == brute_force_twins(name, key, response)


@deterministic(max_examples=200)
@given(first=st.lists(spans(30, 8), max_size=12, unique=True), second=st.lists(spans(30, 8), max_size=12, unique=True))
def test_candidates_are_exactly_the_overlapping_pairs(first, second):
    key, response = np.array(first or np.zeros((0, 2))), np.array(second or np.zeros((0, 2)))
    k, r = overlapping_pairs(key[:, 0], key[:, 1], response_starts=response[:, 0], response_ends=response[:, 1])
    found = list(zip(k.tolist(), r.tolist()))
    expected = {(i, j) for i, (ks, ke) in enumerate(first) for j, (rs, re) in enumerate(second) if ks < re and rs < ke}
    assert len(found) == len(set(found)) and set(found) == expected


@deterministic(max_examples=200)
@given(pair=key_response_pairs(max_mentions=12))
def test_scored_matchers_start_from_the_exact_twins_and_the_rest_by_position(pair):
    """One sort of each side by span gives the exact twins and the
    twinless mentions of both sides ordered by (start, end)."""
    key, response = Clusters.from_entities(pair[0]), Clusters.from_entities(pair[1])
    twins, free_keys, free_responses = twinless_by_span(key, response)
    assert twins.tolist() == exact_twins(key, response).tolist()
    paired = {"key": set(twins.tolist()), "response": set(np.flatnonzero(twins >= 0).tolist())}
    for name, side, free in (("key", key, free_keys), ("response", response, free_responses)):
        expected = sorted(set(range(len(side))) - paired[name], key=lambda m: (side.starts[m], side.ends[m]))
        assert free.tolist() == expected


def test_only_overlapping_pairs_are_scored():
    """1000 disjoint key and response mentions, each response overlapping
    one key: 1000 pairs are scored, not 10⁶."""
    key = Clusters.from_entities([[(3 * i, 3 * i + 2)] for i in range(1000)])
    response = Clusters.from_entities([[(3 * i + 1, 3 * i + 3)] for i in range(1000)])
    scored = []

    def spy(k, r, i, j):
        scored.append(len(i))
        return OVERLAP.score(k, r, i, j)

    assert twin_by_score(key, response, spy).tolist() == list(range(1000))
    assert scored == [1000]


def dense_chain(n_tokens: int, rng: np.random.Generator) -> Clusters:
    """Mentions starting at 90% of the tokens, 2–8 tokens long, heads
    inside: overlap matching meets blocks of dozens of mentions whose
    scores tie."""
    starts = np.flatnonzero(rng.random(n_tokens) < 0.9)
    ends = np.minimum(starts + rng.choice([2, 3, 4, 6, 8], size=len(starts)), n_tokens)
    heads = starts + (rng.random(len(starts)) * (ends - starts)).astype(np.int64)
    return Clusters.from_arrays(starts, ends, rng.integers(0, max(len(starts) // 3, 1), size=len(starts)), heads=heads)


@pytest.mark.parametrize("matcher", [OVERLAP, OverlapMatcher(0.3, "jaccard"), HEAD, PARTIAL])
@deterministic(max_examples=40)
@given(seed=st.integers(0, 10_000), n_tokens=st.integers(20, 160))
def test_large_blocks_twin_alike_reduced_or_direct(matcher, seed, n_tokens):
    """Blocks past ``GROUP_NODES`` (here all of them) lose dominated edges,
    are solved by component and searched by strongly connected component;
    below it (here none) they are solved as they come: the same twins."""
    rng = np.random.default_rng(seed)
    key, response = dense_chain(n_tokens, rng), dense_chain(n_tokens, rng)
    with patched((earliest, by_block), "GROUP_NODES", 0):
        reduced = matcher(key, response).tolist()
    with patched((earliest, by_block), "GROUP_NODES", 1 << 30):
        direct = matcher(key, response).tolist()
    assert reduced == direct


def reordered(clusters: Clusters, seed: int) -> Clusters:
    order = np.random.default_rng(seed).permutation(len(clusters))
    heads = None if clusters.heads is None else clusters.heads[order]
    return Clusters.from_arrays(clusters.starts[order], clusters.ends[order], np.arange(len(order)), heads=heads)


def span_pairs(matcher, key: Clusters, response: Clusters) -> set:
    found = matcher(key, response)
    return {
        (int(key.starts[t]), int(key.ends[t]), int(response.starts[j]), int(response.ends[j]))
        for j, t in enumerate(found.tolist())
        if t >= 0
    }


@pytest.mark.parametrize("name", list(ALL))
@deterministic(max_examples=100)
@given(document=small_documents(max_mentions=8), seed=st.integers(0, 1000))
def test_input_order_does_not_change_the_twins(name, document, seed):
    key, response = side(document[0]), side(document[1])
    assert span_pairs(ALL[name], key, response) == span_pairs(ALL[name], reordered(key, seed), reordered(response, seed + 1))


@pytest.mark.parametrize("measure", ["dice", "jaccard"])
@deterministic(max_examples=200)
@given(pair=key_response_pairs(max_mentions=10))
def test_full_overlap_is_exact_matching(measure, pair):
    key, response = Clusters.from_entities(pair[0]), Clusters.from_entities(pair[1])
    assert OverlapMatcher(1.0, measure)(key, response).tolist() == exact_twins(key, response).tolist()


# --- mention identification follows the matcher -------------------------------------


def test_a_twin_pair_is_a_correct_mention():
    key = Clusters.from_entities([[(0, 4), (10, 12)]], heads=[[3, 11]])
    response = Clusters.from_entities([[(1, 4), (20, 22)]], heads=[[3, 21]])
    exact = count_document(key, response, Settings()).as_dict()["mentions"]
    for name in ("head", "overlap", "partial"):
        mentions = count_document(key, response, Settings.from_options(match=name)).as_dict()["mentions"]
        assert mentions == {"recall_num": 1, "recall_den": 2, "precision_num": 1, "precision_den": 2}
    assert exact["recall_num"] == 0


# --- options, names, configuration ---------------------------------------------------


@pytest.mark.parametrize("theta", [0, -0.5, 1.01, "0.5", None, True, float("nan")])
def test_min_overlap_is_checked(theta):
    with pytest.raises(ValueError, match=r"min_overlap must be a number in \(0, 1\]"):
        OverlapMatcher(min_overlap=theta)


def test_overlap_measure_is_checked():
    with pytest.raises(ValueError, match="overlap measure must be one of"):
        OverlapMatcher(overlap_measure="cosine")


def test_matchers_by_name():
    assert set(MATCHERS) == {"exact", "head", "overlap", "partial"}
    assert get_matcher(None) == get_matcher("exact") == ExactMatcher()
    assert get_matcher("head") == HeadMatcher()
    assert get_matcher("partial") == PartialMatcher()
    assert get_matcher("overlap", min_overlap=0.7, overlap_measure="jaccard") == OverlapMatcher(0.7, "jaccard")
    custom = OverlapMatcher(0.9)
    assert get_matcher(custom) is custom


def test_bad_matcher_names_and_options():
    with pytest.raises(ValueError, match="unknown matcher 'fuzzy'"):
        get_matcher("fuzzy")
    with pytest.raises(ValueError, match="'exact' matcher takes no option"):
        get_matcher("exact", min_overlap=0.5)
    with pytest.raises(ValueError, match="need a matcher name"):
        get_matcher(OverlapMatcher(), min_overlap=0.5)


def test_check_asks_for_the_heads_a_matcher_reads():
    without = Clusters.from_entities([[(0, 2)]])
    needs = {}
    for name, matcher in ALL.items():
        try:
            matcher.check(without, without)
            needs[name] = False
        except CorefInputError:
            needs[name] = True
    assert needs == {"exact": False, "head": True, "overlap": False, "partial": True}


@pytest.mark.parametrize(
    "settings, echoed",
    [
        (Settings(), {"match": "exact"}),
        (Settings.from_options(match="exact", twinless="conll", singletons="keep"), {"match": "exact"}),
        (Settings.from_options(match="head"), {"match": "head"}),
        (Settings.from_options(match="partial"), {"match": "partial"}),
        (Settings.from_options(match="overlap"), {"match": "overlap", "min_overlap": 0.5, "overlap_measure": "dice"}),
        (
            Settings.from_options(match="overlap", min_overlap=1, overlap_measure="jaccard"),
            {"match": "overlap", "min_overlap": 1.0, "overlap_measure": "jaccard"},
        ),
        (Settings(match=OverlapMatcher(0.8)), {"match": "overlap", "min_overlap": 0.8, "overlap_measure": "dice"}),
    ],
)
def test_settings_echo_the_matcher(settings, echoed):
    out = settings.to_dict()
    assert {key: out[key] for key in out if key in ("match", "min_overlap", "overlap_measure")} == echoed


def test_explicit_conll_settings_are_the_default():
    assert Settings.from_options(match="exact", twinless="conll", singletons="keep") == Settings()


def test_overlap_options_need_the_overlap_matcher():
    with pytest.raises(ValueError, match="'head' matcher takes no option"):
        Settings.from_options(match="head", min_overlap=0.5)


# --- missing heads -----------------------------------------------------------------------


def test_head_matcher_needs_heads_on_both_sides():
    with_heads_ = Clusters.from_entities([[(0, 2)]], heads=[[1]])
    without = Clusters.from_entities([[(0, 2)]])
    with pytest.raises(CorefInputError, match="needs mention heads, but the key has none"):
        HEAD(without, with_heads_)
    with pytest.raises(CorefInputError, match="needs mention heads, but the response has none"):
        HEAD(with_heads_, without)


def test_partial_matcher_needs_key_heads_only():
    with_heads_ = Clusters.from_entities([[(0, 3)]], heads=[[1]])
    without = Clusters.from_entities([[(1, 2)]])
    assert PARTIAL(with_heads_, without).tolist() == [0]
    with pytest.raises(CorefInputError, match="but the key has none"):
        PARTIAL(without, with_heads_)


def test_empty_documents_need_no_heads():
    key = Clusters.from_entities([[(0, 2)]], heads=[[1]])
    assert HEAD(key, Clusters()).tolist() == []
    assert HEAD(Clusters(), Clusters.from_entities([[(0, 2)]], heads=[[1]])).tolist() == [-1]


def test_missing_heads_error_names_document_side_and_fix():
    key = Clusters.from_entities([[(0, 2)]], heads=[[1]])
    response = Clusters.from_entities([[(0, 2)]])
    with pytest.raises(CorefInputError) as caught:
        score_pairs([("doc/a", key, response)], Settings.from_options(match="head"))
    message = str(caught.value)
    assert "document 'doc/a'" in message
    assert "the response has none" in message
    assert ".spacy corpus" in message and "head span group" in message


# --- spaCy registry -------------------------------------------------------------------------

REGISTRY_PROBE = """
import json, sys
from spacy.util import registry
assert "spacy_coref_eval" not in sys.modules
config = {
    "exact": {"@misc": "spacy_coref_eval.exact_matcher.v1"},
    "head": {"@misc": "spacy_coref_eval.head_matcher.v1"},
    "overlap": {"@misc": "spacy_coref_eval.overlap_matcher.v1", "min_overlap": 0.7, "overlap_measure": "jaccard"},
    "partial": {"@misc": "spacy_coref_eval.partial_matcher.v1"},
}
resolved = registry.resolve(config)
print(json.dumps({name: matcher.config() for name, matcher in resolved.items()}))
"""


def test_registered_matchers_resolve_through_entry_points():
    """A fresh process that never imported spacy_coref_eval finds the
    matchers through the ``spacy_misc`` entry points (the package must be
    installed, e.g. ``pip install -e .``)."""
    run = subprocess.run([sys.executable, "-c", REGISTRY_PROBE], capture_output=True, text=True, cwd="/")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {
        "exact": {"match": "exact"},
        "head": {"match": "head"},
        "overlap": {"match": "overlap", "min_overlap": 0.7, "overlap_measure": "jaccard"},
        "partial": {"match": "partial"},
    }


@deterministic(max_examples=300)
@given(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2 / 3, 1 / 3]), min_size=4, max_size=4))
def test_two_by_two_blocks_follow_best_assignment(cells):
    """The vectorised rule for 2 x 2 blocks equals :func:`best_assignment`,
    ties and missing cells included."""
    scores = np.array(cells).reshape(2, 2)
    rows, cols = np.nonzero(scores > 0)
    assume(len(rows) >= 3)
    got = set(zip(*(side.tolist() for side in solve_blocks(rows, cols, scores[rows, cols], n_rows=2, n_cols=2))))
    assert got == set(best_assignment(scores))


def test_settings_can_be_replaced_field_by_field():
    from dataclasses import replace

    settings = Settings.from_options(match="overlap", min_overlap=0.6, overlap_measure="jaccard")
    changed = replace(settings, twinless="sys")
    assert changed.match == settings.match
    assert changed.to_dict() == {**settings.to_dict(), "twinless": "sys"}
