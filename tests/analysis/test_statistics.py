"""Macro averages, bootstrap intervals and paired significance tests:
edge cases by hand, the vectorised statistics against naive loops, and the
tests' behaviour on LitBank with seeded systems."""

import numpy as np
import pytest

from benchmarks.perturb import perturb_corpus
from spacy_coref_eval import CorefEvalWarning, CorefInputError, Counts, Settings, score_documents
from spacy_coref_eval.analysis import bootstrap_intervals, compare, macro_average, statistics
from spacy_coref_eval.analysis.statistics import TIE, draw_documents
from spacy_coref_eval.counting.rates import rates, score_arrays
from tests.support.litbank import litbank

RATES = ("recall", "precision", "f1")


@pytest.fixture(scope="module")
def corpus():
    return litbank()


@pytest.fixture(scope="module")
def system(corpus):
    return score_documents(corpus.key, corpus.system)


@pytest.fixture(scope="module")
def damaged(corpus):
    return score_documents(corpus.key, corpus.damaged)


def total_counts(counts, metrics):
    """The sum of per-document counts."""
    return Counts(metrics, np.sum([c.array for c in counts], axis=0))


def flat(scores):
    """``{(metric, rate): value}`` of a ``rates`` or ``compare`` block."""
    return {(m, r): v for m, block in scores.items() for r, v in block.items() if r in RATES}


def ends(intervals):
    """``{(metric, rate, 0 or 1): end}`` of an intervals block, flat for ``pytest.approx``."""
    return {(*key, i): end for key, pair in flat(intervals).items() for i, end in enumerate(pair)}


# --- rates of stacks -------------------------------------------------------


def test_scores_of_a_stack_are_the_rates_of_each_document(system):
    stack = np.stack([c.array for c in system.documents.values()])
    scored = score_arrays(stack, system.settings.metrics)
    for i, counts in enumerate(system.documents.values()):
        single = flat(rates(counts))
        assert {key: value[i] for key, value in flat(scored).items()} == single


# --- macro average ----------------------------------------------------------


def few(analysis, result):
    """``analysis(result)`` on a corpus of a few documents, which warns
    that resampling and averaging so few say little."""
    with pytest.warns(CorefEvalWarning, match="unreliable"):
        return analysis(result)


def test_document_without_links_is_left_out_of_the_muc_macro_average():
    linked = [[(0, 1), (2, 3)]]
    singletons = [[(0, 1)], [(2, 3)]]
    result = score_documents({"linked": linked, "flat": singletons}, {"linked": linked, "flat": linked})
    macro = few(macro_average, result)
    assert macro["muc"] == {"recall": 1.0, "precision": 1.0, "f1": 1.0, "n_documents": 1}
    assert macro["conll"]["n_documents"] == 1
    assert macro["bcub"]["n_documents"] == 2
    flat_bcub = rates(result.documents["flat"])["bcub"]["f1"]
    assert macro["bcub"]["f1"] == pytest.approx((1.0 + flat_bcub) / 2)
    assert result.metrics()["muc"]["precision"] == 0.5


def test_document_without_key_mentions_is_left_out_of_every_metric():
    key = {"some": [[(0, 1), (2, 3)], [(5, 6)]], "none": []}
    result = score_documents(key, {"some": key["some"], "none": [[(0, 1), (4, 5)]]})
    for metric, scores in few(macro_average, result).items():
        assert scores["n_documents"] == 1, metric
        assert scores["f1"] == 1.0, metric


def test_blanc_macro_needs_two_key_mentions_and_follows_the_one_link_kind_rule():
    key = {"one": [[(0, 1)]], "split": [[(0, 1)], [(2, 3)], [(4, 5)]]}
    response = {"one": [[(0, 1)]], "split": [[(0, 1), (2, 3)], [(4, 5)]]}
    result = score_documents(key, response)
    blanc = few(macro_average, result)["blanc"]
    assert blanc["n_documents"] == 1
    noncoref = rates(result.documents["split"])["blanc"]["noncoref_links"]
    assert blanc["f1"] == noncoref["f1"] == pytest.approx(0.8)
    assert few(macro_average, result)["bcub"]["n_documents"] == 2


def test_defined_document_with_an_empty_response_scores_zero():
    key = {"found": [[(0, 1), (2, 3)]], "missed": [[(0, 1), (2, 3)]]}
    result = score_documents(key, {"found": key["found"], "missed": []})
    macro = few(macro_average, result)
    assert macro["muc"] == {"recall": 0.5, "precision": 0.5, "f1": 0.5, "n_documents": 2}


def test_no_document_defined_gives_zeros():
    result = score_documents({"empty": []}, {"empty": [[(0, 1), (1, 2)]]})
    assert few(macro_average, result)["muc"] == {"recall": 0.0, "precision": 0.0, "f1": 0.0, "n_documents": 0}


def test_macro_average_is_the_mean_of_the_per_document_rates(system):
    macro = macro_average(system)
    per_doc = [rates(counts) for counts in system.documents.values()]
    for metric in ("bcub", "ceafe", "lea", "mentions"):
        for rate in RATES:
            expected = np.mean([doc[metric][rate] for doc in per_doc if doc[metric]["recall_den"] > 0])
            assert macro[metric][rate] == pytest.approx(expected, rel=1e-12)
    conll = [doc["conll"]["f1"] for doc in per_doc if doc["muc"]["recall_den"] > 0]
    assert macro["conll"] == {"f1": pytest.approx(np.mean(conll), rel=1e-12), "n_documents": len(conll)}


# --- bootstrap intervals ----------------------------------------------------


def test_bootstrap_is_seeded(system):
    first = bootstrap_intervals(system, n_resamples=300, seed=7)
    assert bootstrap_intervals(system, n_resamples=300, seed=7) == first
    assert bootstrap_intervals(system, n_resamples=300, seed=8) != first


def test_interval_contains_the_corpus_score(system):
    intervals = bootstrap_intervals(system)
    point = flat(system.metrics())
    assert set(intervals) == {"muc", "bcub", "ceafm", "ceafe", "lea", "mentions", "blanc", "conll"}
    assert set(intervals["conll"]) == {"f1"}
    for (metric, rate), (low, high) in flat(intervals).items():
        assert low < point[metric, rate] < high, (metric, rate)


def test_intervals_narrow_with_more_documents(corpus):
    names = list(corpus.key)
    few = score_documents({n: corpus.key[n] for n in names[:20]}, corpus.system)
    many = score_documents(corpus.key, corpus.system)
    few_widths = flat(bootstrap_intervals(few))
    for key, (low, high) in flat(bootstrap_intervals(many)).items():
        assert high - low < (few_widths[key][1] - few_widths[key][0]) * 0.8, key


def test_higher_level_gives_a_wider_interval(system):
    narrow, wide = bootstrap_intervals(system, level=0.8), bootstrap_intervals(system, level=0.99)
    for key, (low, high) in flat(narrow).items():
        assert flat(wide)[key][0] < low and high < flat(wide)[key][1], key


def test_vectorised_bootstrap_equals_a_loop_over_resamples(system):
    n_resamples, seed, level = 200, 3, 0.9
    documents = list(system.documents.values())
    drawn = draw_documents(np.random.default_rng(seed), n_resamples, len(documents))
    resampled = [flat(rates(total_counts([documents[i] for i in row], system.settings.metrics))) for row in drawn]
    intervals = flat(bootstrap_intervals(system, level=level, n_resamples=n_resamples, seed=seed))
    for key, (low, high) in intervals.items():
        expected = np.percentile([scores[key] for scores in resampled], [5, 95])
        assert (low, high) == pytest.approx(tuple(expected), rel=1e-12, abs=1e-15), key


def test_chunked_rounds_give_the_same_results(system, damaged, monkeypatch):
    intervals = bootstrap_intervals(system, n_resamples=300)
    comparison = compare(system, damaged, n_rounds=300, n_resamples=300)
    monkeypatch.setattr(statistics, "CHUNK_CELLS", 700)
    assert statistics._chunks(300, 100) == [7] * 42 + [6]
    assert ends(bootstrap_intervals(system, n_resamples=300)) == pytest.approx(ends(intervals), rel=1e-12)
    assert compare(system, damaged, n_rounds=300, n_resamples=300) == comparison


@pytest.mark.parametrize("level", [0, 1, 1.5, -0.2])
def test_bad_level_is_refused(system, level):
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        bootstrap_intervals(system, level=level)


def test_no_resamples_is_refused(system):
    with pytest.raises(ValueError, match="n_resamples"):
        bootstrap_intervals(system, n_resamples=0)


# --- paired comparison ------------------------------------------------------


def test_identical_systems_are_not_significantly_different(system):
    for metric, entry in compare(system, system).items():
        assert entry["difference"] == 0.0, metric
        assert entry["p_value_randomization"] >= 0.99, metric
        assert entry["p_value_bootstrap"] >= 0.99, metric


def test_a_damaged_copy_is_significantly_worse_on_every_metric(system, damaged):
    comparison = compare(system, damaged)
    assert set(comparison) == {"muc", "bcub", "ceafm", "ceafe", "lea", "mentions", "blanc", "conll"}
    for metric, entry in comparison.items():
        assert entry["a"] == system.metrics()[metric]["f1"]
        assert entry["b"] == damaged.metrics()[metric]["f1"]
        assert entry["difference"] == entry["b"] - entry["a"] < 0, metric
        for name, value in entry.items():
            if name.endswith(("p_value_randomization", "p_value_bootstrap")):
                assert value < 0.01, (metric, name)
    assert set(comparison["conll"]) == {"a", "b", "difference", "p_value_randomization", "p_value_bootstrap"}
    assert len(comparison["muc"]) == 15


def test_swapping_the_systems_negates_the_difference_only(system, damaged):
    forward, backward = compare(system, damaged, n_rounds=500), compare(damaged, system, n_rounds=500)
    for metric in forward:
        for name, value in forward[metric].items():
            if name.endswith("difference"):
                assert backward[metric][name] == -value
            elif "p_value" in name:
                assert backward[metric][name] == value


def naive_randomization(result_a, result_b, n_rounds, seed):
    """Noreen's test written out: every round swaps documents one by one."""
    names = list(result_a.documents)
    metrics = result_a.settings.metrics
    observed_a, observed_b = flat(result_a.metrics()), flat(result_b.metrics())
    swaps = np.random.default_rng(seed).random((n_rounds, len(names))) < 0.5
    reached = dict.fromkeys(observed_a, 0)
    for swap in swaps:
        side_a = [result_b.documents[n] if s else result_a.documents[n] for n, s in zip(names, swap)]
        side_b = [result_a.documents[n] if s else result_b.documents[n] for n, s in zip(names, swap)]
        round_a, round_b = flat(rates(total_counts(side_a, metrics))), flat(rates(total_counts(side_b, metrics)))
        for key in reached:
            reached[key] += abs(round_b[key] - round_a[key]) >= abs(observed_b[key] - observed_a[key]) - TIE
    return {key: (count + 1) / (n_rounds + 1) for key, count in reached.items()}


def naive_paired_bootstrap(result_a, result_b, n_resamples, seed):
    """The paired bootstrap written out, one resample at a time."""
    names = list(result_a.documents)
    metrics = result_a.settings.metrics
    observed_a, observed_b = flat(result_a.metrics()), flat(result_b.metrics())
    drawn = draw_documents(np.random.default_rng(seed), n_resamples, len(names))
    disagree = dict.fromkeys(observed_a, 0)
    for row in drawn:
        resample_a = flat(rates(total_counts([result_a.documents[names[i]] for i in row], metrics)))
        resample_b = flat(rates(total_counts([result_b.documents[names[i]] for i in row], metrics)))
        for key in disagree:
            sign = np.sign(observed_b[key] - observed_a[key])
            disagree[key] += (resample_b[key] - resample_a[key]) * sign <= 0
    return {key: count / n_resamples for key, count in disagree.items()}


def test_vectorised_tests_equal_loops_over_rounds(corpus, system):
    """A system close to the first one, so that rounds fall on both sides of
    the observed difference and the p-values are far from their bounds."""
    close = score_documents(corpus.key, perturb_corpus(corpus.key, corpus.n_tokens, seed=5))
    n_rounds, seed = 150, 11
    comparison = compare(system, close, n_rounds=n_rounds, n_resamples=n_rounds, seed=seed)
    randomization = naive_randomization(system, close, n_rounds, seed)
    bootstrap = naive_paired_bootstrap(system, close, n_rounds, seed)
    for (metric, rate), p in randomization.items():
        prefix = "" if rate == "f1" else f"{rate}_"
        assert comparison[metric][f"{prefix}p_value_randomization"] == p, (metric, rate)
        assert comparison[metric][f"{prefix}p_value_bootstrap"] == bootstrap[metric, rate], (metric, rate)
    assert 0.05 < comparison["conll"]["p_value_randomization"] < 0.95


@pytest.mark.slow  # 40 scorings and 20 comparisons of 1000 rounds
def test_randomization_holds_its_level_under_the_null(corpus):
    """Pairs of systems made by the same process (different seeds) differ
    by chance alone. Their p-values should spread roughly uniformly: with
    20 pairs, 5 or more below 0.05 would have probability < 0.003 for a
    test of the right size."""
    names = list(corpus.key)[:50]
    key = {name: corpus.key[name] for name in names}
    p_values = []
    for pair in range(20):
        a, b = (score_documents(key, perturb_corpus(key, corpus.n_tokens, seed=100 + 2 * pair + i)) for i in (0, 1))
        p_values.append(compare(a, b, n_rounds=1000, n_resamples=1)["conll"]["p_value_randomization"])
    assert sum(p < 0.05 for p in p_values) <= 4
    assert 0.3 < np.mean(p_values) < 0.7


def test_documents_must_match_by_name(system):
    other = score_documents({"x": [[(0, 1), (2, 3)]]}, {"x": []})
    with pytest.raises(CorefInputError, match=r"different documents \(100 only in A: .*; 1 only in B: 'x'\)"):
        compare(system, other)


def test_settings_must_match(corpus, system):
    other = score_documents(corpus.key, corpus.system, Settings(metrics=("muc",)))
    with pytest.raises(CorefInputError, match="different settings"):
        compare(system, other)


@pytest.mark.parametrize("option", ["n_rounds", "n_resamples"])
def test_rounds_must_be_positive(system, option):
    with pytest.raises(ValueError, match=option):
        compare(system, system, **{option: 0})


def test_an_empty_corpus_is_a_clear_error():
    empty = score_documents({}, {})
    with pytest.raises(CorefInputError, match="bootstrap intervals need at least one document"):
        bootstrap_intervals(empty)
    with pytest.raises(CorefInputError, match="cannot compare: no documents"):
        compare(empty, empty)
