"""Mentions as sets of tokens (discontinuous CorefUD mentions, empty nodes,
zeros): the set operations against Python sets, the matchers against a
brute force on sets, ranges given as sets against plain spans, CoNLL-U
files with such mentions, and the CorefUD preset's surfaces."""

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Optional

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

from spacy_coref_eval import Settings
from spacy_coref_eval.cli import app
from spacy_coref_eval.formats.corpus import read_corpus
from spacy_coref_eval.model.clusters import Clusters, NodeSets, common_tokens, holds, same_sets
from spacy_coref_eval.scoring import score_pairs
from spacy_coref_eval.twinning import get_matcher
from tests.conftest import data_path
from tests.support.oracle import earliest_best_twins
from tests.support.strategies import deterministic, key_response_pairs, partitions

runner = CliRunner()
Mention = tuple[frozenset[int], int]
"""A token set and its head."""


def as_clusters(mentions: Sequence[Mention], labels: Optional[Sequence[int]] = None) -> Clusters:
    """Clusters of the given token sets (each its own entity unless ``labels``)."""
    sets = [np.array(sorted(tokens), dtype=np.int64) for tokens, _ in mentions]
    indptr = np.concatenate([[0], np.cumsum([len(s) for s in sets])]).astype(np.int64)
    nodes = NodeSets(indptr, np.concatenate(sets) if sets else np.zeros(0, dtype=np.int64), np.zeros(len(sets), dtype=bool))
    starts = np.array([s[0] for s in sets], dtype=np.int64)
    ends = np.array([s[-1] + 1 for s in sets], dtype=np.int64)
    heads = np.array([head for _, head in mentions], dtype=np.int64)
    labels = np.arange(len(sets)) if labels is None else np.asarray(labels)
    return Clusters.from_arrays(starts, ends, labels, heads=heads, nodes=nodes)


def token_sets(max_token=8, max_size=4):
    return st.frozensets(st.integers(0, max_token - 1), min_size=1, max_size=max_size)


@st.composite
def mentions(draw, max_mentions=5) -> list[Mention]:
    sets = draw(st.lists(token_sets(), max_size=max_mentions, unique=True))
    return [(tokens, draw(st.sampled_from(sorted(tokens)))) for tokens in sets]


# --- the set operations ------------------------------------------------------------


@deterministic(max_examples=200)
@given(key=mentions(), response=mentions())
def test_set_operations_equal_python_sets(key, response):
    if not key or not response:
        return
    k_clusters, r_clusters = as_clusters(key), as_clusters(response)
    k, r = map(np.ravel, np.meshgrid(np.arange(len(key)), np.arange(len(response)), indexing="ij"))
    assert common_tokens(k_clusters, r_clusters, k=k, r=r).tolist() == [
        len(key[i][0] & response[j][0]) for i, j in zip(k.tolist(), r.tolist())
    ]
    assert same_sets(k_clusters, r_clusters, k=k, r=r).tolist() == [key[i][0] == response[j][0] for i, j in zip(k.tolist(), r.tolist())]
    heads = np.array([key[i][1] for i in k.tolist()])
    assert holds(r_clusters, r, heads).tolist() == [key[i][1] in response[j][0] for i, j in zip(k.tolist(), r.tolist())]


def test_node_sets_follow_subset_stack_and_shift():
    clusters = as_clusters([(frozenset({0, 2}), 0), (frozenset({1, 2, 3}), 1), (frozenset({5}), 5)], [0, 0, 1])
    assert clusters.scattered().tolist() == [True, False, False]
    assert clusters.sizes.tolist() == [2, 3, 1]
    kept = clusters.subset(np.array([True, False, True]))
    assert [kept.nodes.of(m).tolist() for m in range(2)] == [[0, 2], [5]]
    stacked, doc = Clusters.stack([clusters, Clusters.from_entities([[(0, 2)]])], [0, 10])
    assert [stacked.nodes.of(m).tolist() for m in range(4)] == [[0, 2], [1, 2, 3], [5], [10, 11]]
    assert doc.tolist() == [0, 0, 0, 1]
    assert clusters.shifted(3).nodes.of(0).tolist() == [3, 5]


def test_a_repeated_set_is_dropped_and_a_different_set_with_the_same_hull_is_not():
    clusters = as_clusters([(frozenset({0, 2}), 0), (frozenset({0, 1, 2}), 0), (frozenset({0, 2}), 2)], [0, 1, 1])
    assert len(clusters) == 2 and clusters.repeated == 1


# --- matchers on sets against brute force ------------------------------------------


def set_score(name: str, k: Mention, r: Mention) -> Fraction:
    """s(k, r) of docs/metrics.md §3 on token sets."""
    (k_tokens, k_head), (r_tokens, r_head) = k, r
    common = len(k_tokens & r_tokens)
    if name == "head":
        return Fraction(common, len(k_tokens)) if k_head == r_head else Fraction(0)
    if name == "overlap":
        dice = Fraction(2 * common, len(k_tokens) + len(r_tokens))
        return dice if dice >= Fraction(1, 2) else Fraction(0)
    return Fraction(len(r_tokens), len(k_tokens)) if r_tokens <= k_tokens and k_head in r_tokens else Fraction(0)


def hull(mention: Mention) -> tuple[int, int]:
    return min(mention[0]), max(mention[0]) + 1


def brute_force_twins(name: str, key: list[Mention], response: list[Mention]) -> list[int]:
    """Equal sets first; then the maximum exact total, ties to the
    lexicographically smallest key twins of the responses in hull order."""
    result = [next((i for i, k in enumerate(key) if k[0] == r[0]), -1) for r in response]
    free_keys = sorted((i for i in range(len(key)) if i not in result), key=lambda i: hull(key[i]))
    free_responses = sorted((j for j in range(len(response)) if result[j] < 0), key=lambda j: hull(response[j]))
    for j, i in earliest_best_twins(free_keys, free_responses, lambda i, j: set_score(name, key[i], response[j])).items():
        result[j] = i
    return result


@pytest.mark.parametrize("name", ["exact", "head", "overlap", "partial"])
@deterministic(max_examples=200)
@given(key=mentions(4), response=mentions(4))
def test_matchers_on_sets_equal_brute_force(name, key, response):
    got = get_matcher(name)(as_clusters(key), as_clusters(response)).tolist()
    expected = brute_force_twins(name, key, response)
    if name == "exact":
        expected = [next((i for i, k in enumerate(key) if k[0] == r[0]), -1) for r in response]
    assert got == expected


def ranges_as_sets(clusters: Clusters) -> Clusters:
    return Clusters(
        clusters.starts,
        clusters.ends,
        clusters.entity,
        clusters.n_entities,
        heads=clusters.starts.copy(),
        nodes=NodeSets.of_ranges(clusters.starts, clusters.ends),
    )


@pytest.mark.parametrize("match", ["exact", "head", "overlap", "partial"])
@deterministic(max_examples=100)
@given(pair=key_response_pairs(max_mentions=10))
def test_ranges_given_as_sets_score_like_spans(match, pair):
    key, response = (Clusters.from_entities(side) for side in pair)
    key, response = (Clusters(c.starts, c.ends, c.entity, c.n_entities, heads=c.starts.copy()) for c in (key, response))
    settings = Settings.from_options(["muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mor"], match)
    as_spans = score_pairs([("d", key, response)], settings).metrics()
    as_sets = score_pairs([("d", ranges_as_sets(key), ranges_as_sets(response))], settings).metrics()
    assert as_sets == as_spans


# --- CoNLL-U files -----------------------------------------------------------------

HEADER = "# global.Entity = eid-etype-head-other\n# newdoc id = d\n# sent_id = 1\n"


def conllu(tmp_path, name: str, rows: Sequence[tuple[str, str, str]]) -> str:
    """A one-sentence document of (ID, FORM, MISC) rows."""
    lines = [
        f"{ident}\t{form}\t_\tX\t_\t_\t{'_' if '.' in ident else 0}\t{'_' if '.' in ident else 'root'}\t"
        f"{'1:nsubj' if '.' in ident else '_'}\t{misc}"
        for ident, form, misc in rows
    ]
    path = tmp_path / name
    path.write_text(HEADER + "\n".join(lines) + "\n\n")
    return str(path)


def metrics_of(key: str, response: str, *options: str) -> dict:
    result = runner.invoke(app, ["score", key, response, "-f", "json", "--metrics", "muc,bcub,mor", *options])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)["metrics"]


def test_a_discontinuous_mention_is_a_set_of_words(tmp_path):
    key = conllu(
        tmp_path,
        "k.conllu",
        [
            ("1", "a", "Entity=(e1[1/2]-x-1-)"),
            ("2", "b", "_"),
            ("3", "c", "Entity=(e1[2/2]-x-1-)|Entity=(e2-x-1)"),
            ("4", "d", "Entity=(e2-x-1)"),
        ],
    )
    whole = conllu(
        tmp_path,
        "whole.conllu",
        [("1", "a", "Entity=(e1-x-1-"), ("2", "b", "_"), ("3", "c", "Entity=e1)(e2-x-1)"), ("4", "d", "Entity=(e2-x-1)")],
    )
    head_only = conllu(
        tmp_path,
        "head.conllu",
        [("1", "a", "Entity=(e1-x-1)"), ("2", "b", "_"), ("3", "c", "Entity=(e2-x-1)"), ("4", "d", "Entity=(e2-x-1)")],
    )
    assert metrics_of(key, key)["mentions"]["f1"] == 1.0
    assert metrics_of(key, whole)["mentions"]["recall_num"] == 2
    assert metrics_of(key, whole, "--match", "head")["mentions"]["recall_num"] == 3
    partial = metrics_of(key, head_only, "--match", "partial")
    assert partial["mentions"]["recall_num"] == 3
    assert partial["mor"]["recall_num"] == 3 and partial["mor"]["recall_den"] == 4


def test_an_empty_node_only_one_file_has_lies_outside_the_other_s_mentions(tmp_path):
    key = conllu(
        tmp_path, "k.conllu", [("1", "a", "Entity=(e1-x-1-"), ("1.1", "he", "_"), ("2", "b", "Entity=e1)"), ("3", "c", "Entity=(e1-x-1)")]
    )
    response = conllu(tmp_path, "r.conllu", [("1", "a", "Entity=(e1-x-1-"), ("2", "b", "Entity=e1)"), ("3", "c", "Entity=(e1-x-1)")])
    exact = metrics_of(key, response)
    assert exact["mentions"]["recall_num"] == 1
    assert exact["mor"]["recall_num"] == 3 and exact["mor"]["recall_den"] == 4
    assert metrics_of(key, response, "--match", "partial")["muc"]["f1"] == 1.0


def test_zero_mentions_are_scored_and_can_be_excluded(tmp_path):
    key = conllu(tmp_path, "k.conllu", [("1", "a", "Entity=(e1-x-1)"), ("1.1", "he", "Entity=(e1-x-1)"), ("2", "b", "Entity=(e1-x-1)")])
    response = conllu(tmp_path, "r.conllu", [("1", "a", "Entity=(e1-x-1)"), ("2", "b", "Entity=(e1-x-1)")])
    assert metrics_of(key, key)["muc"]["f1"] == 1.0
    assert metrics_of(key, response)["muc"]["recall"] == 0.5
    assert metrics_of(key, response, "--zeros", "exclude")["muc"]["f1"] == 1.0


def test_convert_refuses_mentions_that_are_not_spans(tmp_path):
    key = conllu(tmp_path, "k.conllu", [("1", "a", "Entity=(e1[1/2]-x-1-)"), ("2", "b", "_"), ("3", "c", "Entity=(e1[2/2]-x-1-)")])
    result = runner.invoke(app, ["convert", key, str(tmp_path / "k.conll")])
    assert result.exit_code == 1
    assert "document 'd': 1 mention(s) are not token ranges" in result.stderr


# --- the preset's surfaces ---------------------------------------------------------

ZEROS = data_path("conformance", "corefud", "zeros")


def test_the_preset_defaults_and_round_trips_its_settings():
    settings = Settings.from_options(preset="corefud")
    assert settings.to_dict() == {
        "metrics": ["muc", "bcub", "ceafm", "ceafe", "blanc", "lea"],
        "match": "head",
        "zero_match": "dependent",
        "twinless": "conll",
        "singletons": "remove",
        "preset": "corefud",
    }
    assert Settings.from_dict(settings.to_dict()) == settings
    assert Settings.from_options(match="partial", singletons="keep", preset="corefud", zero_match="linear").to_dict()["match"] == "partial"


@pytest.mark.parametrize(
    "options, message",
    [
        (dict(match="overlap", preset="corefud"), "matches mentions by exact, head, partial"),
        (dict(min_overlap=0.5, preset="corefud"), "takes no ['min_overlap']"),
        (dict(zero_match="dependent"), "only under the corefud preset"),
        (dict(preset="no-such-scorer"), "unknown preset"),
        (dict(zeros="drop"), "zeros must be one of"),
    ],
)
def test_bad_preset_settings_are_refused(options, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        Settings.from_options(**options)


def test_the_command_line_gives_the_official_numbers_under_the_preset():
    """TC-ZF-4 (docs/corefud.md §5): the official scorer gives MUC 2/3 and
    2/4 with its default dependent zero matching, 1 and 3/4 matching zeros
    as nodes (peer_rerun.json)."""
    key, response = ZEROS / "TC-ZF.key", ZEROS / "TC-ZF-4.response"
    options = ["--input-format", "conllu", "--preset", "corefud", "--singletons", "keep"]
    dependent = metrics_of(str(key), str(response), *options)["muc"]
    linear = metrics_of(str(key), str(response), *options, "--zero-match", "linear")["muc"]
    assert (dependent["recall"], dependent["precision"]) == (2 / 3, 0.5)
    assert (linear["recall"], linear["precision"]) == (1.0, 0.75)


def test_the_preset_scores_a_conllu_pair_in_one_call():
    corpus = read_corpus(ZEROS / "TC-ZF.key", ZEROS / "TC-ZF-4.response", formats=("conllu", "conllu"))
    pairs, _ = corpus.pairs, corpus.warnings
    result = score_pairs(pairs, Settings.from_options(preset="corefud", singletons="keep"))
    assert result.twinned is not None and result.settings.preset.name == "corefud"


def test_error_kinds_and_the_report_read_sets(tmp_path):
    key = conllu(
        tmp_path,
        "k.conllu",
        [("1", "a", "Entity=(e1[1/2]-x-1-)"), ("1.1", "he", "Entity=(e1-x-1)"), ("2", "b", "_"), ("3", "c", "Entity=(e1[2/2]-x-1-)")],
    )
    response = conllu(tmp_path, "r.conllu", [("1", "a", "Entity=(e1-x-1-"), ("2", "b", "_"), ("3", "c", "Entity=e1)(e2-x-1)")])
    errors = runner.invoke(app, ["score", key, response, "--errors", "-f", "json"])
    assert errors.exit_code == 0, errors.stderr
    assert "errors" in json.loads(errors.stdout)
    report = runner.invoke(app, ["report", key, response, "-o", str(tmp_path / "report.html")])
    assert report.exit_code == 0, report.stderr
    assert "he" in (tmp_path / "report.html").read_text()


def test_saved_counts_merge_under_the_preset_s_blanc_rule(tmp_path):
    """TC-M-3: the key has no non-coreference links but the response has;
    the CorefUD rule keeps that part (at 0), the reference rule drops it.
    Counts saved under the preset merge back under the preset."""
    folder = data_path("conformance", "corefud", "exact-match")
    options = ["--input-format", "conllu", "--match", "exact", "--singletons", "keep", "--metrics", "blanc", "-f", "json"]
    blanc = {}
    for name, preset in (("reference", []), ("corefud", ["--preset", "corefud"])):
        counts = tmp_path / f"{name}.json"
        scored = runner.invoke(
            app, ["score", str(folder / "TC-M.key"), str(folder / "TC-M-3.response"), *options, *preset, "--save-counts", str(counts)]
        )
        merged = runner.invoke(app, ["merge", str(counts), "-f", "json"])
        assert scored.exit_code == 0 and merged.exit_code == 0, scored.stderr + merged.stderr
        blanc[name] = json.loads(scored.stdout)["metrics"]["blanc"]["f1"]
        assert json.loads(merged.stdout)["metrics"]["blanc"]["f1"] == blanc[name]
    assert blanc["corefud"] == pytest.approx(blanc["reference"] / 2)


@deterministic(max_examples=200)
@given(st.lists(st.tuples(partitions(0, 6), st.booleans()), max_size=6))
def test_extents_of_many_parts_equal_each_parts_extent(parts):
    built = []
    for entities, with_heads in parts:
        clusters = Clusters.from_entities(entities)
        if with_heads and len(clusters):
            clusters = Clusters.from_arrays(clusters.starts, clusters.ends, clusters.entity, heads=clusters.ends + 2)
        built.append(clusters)
    assert Clusters.extents(built).tolist() == [part.extent for part in built]
