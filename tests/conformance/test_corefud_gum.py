"""The official CorefUD scorer's numbers on a real corpus: GUM documents in
CorefUD CoNLL-U against a seeded perturbation of them
(:mod:`benchmarks.perturb_corefud`), under its three matchings with singletons
kept and removed, all seven metrics. The official numbers are its output
on the same files (tests/data/corefud-rerun/gum_perturbed.json, with how
they were made) on 31 documents, and on all 40 with another seed, whose
response gives some node sets in two entities (counted in both, as the
official scorer does; docs/corefud.md §10), with the zero score too
(tests/data/corefud-rerun/gum_repeats.json)."""

import gzip
import json
import math

import pytest

from benchmarks.perturb_corefud import keep_documents, perturb_corefud
from spacy_coref_eval import Settings
from spacy_coref_eval.formats.corpus import read_corpus
from spacy_coref_eval.scoring import score_pairs
from tests.conftest import data_path

OFFICIAL = json.loads(data_path("corefud-rerun", "gum_perturbed.json").read_text())
REPEATS = json.loads(data_path("corefud-rerun", "gum_repeats.json").read_text())
METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mor")


@pytest.fixture(scope="module")
def pairs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gum")
    key = gzip.open(data_path("corpora", "gum-corefud.40docs.conllu.gz"), "rt", encoding="utf-8").read()
    response = perturb_corefud(key, OFFICIAL["seed"])
    (folder / "key.conllu").write_text(keep_documents(key, OFFICIAL["documents"]), encoding="utf-8")
    (folder / "response.conllu").write_text(keep_documents(response, OFFICIAL["documents"]), encoding="utf-8")
    corpus = read_corpus(folder / "key.conllu", folder / "response.conllu")
    loaded, _ = corpus.pairs, corpus.warnings
    assert [name for name, *_ in loaded] == OFFICIAL["documents"]
    return loaded


@pytest.mark.parametrize("setting", sorted(OFFICIAL["scores"]))
def test_gum_scores_equal_the_official_scorer_s(pairs, setting):
    match, singletons = setting.split("-")
    settings = Settings.from_options(METRICS, match, singletons=singletons, preset="corefud")
    got = score_pairs(pairs, settings).metrics()
    for metric in METRICS:
        ours = tuple(got[metric][rate] for rate in ("recall", "precision", "f1"))
        assert all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) for a, b in zip(ours, OFFICIAL["scores"][setting][metric])), (
            metric,
            ours,
            OFFICIAL["scores"][setting][metric],
        )


def test_the_perturbation_changes_what_each_matching_forgives(pairs):
    f1 = {setting: scores["muc"][2] for setting, scores in OFFICIAL["scores"].items()}
    assert f1["exact-keep"] < f1["partial-keep"] < 1 and f1["exact-keep"] < f1["head-keep"]


@pytest.fixture(scope="module")
def all_pairs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gum_all")
    key = gzip.open(data_path("corpora", "gum-corefud.40docs.conllu.gz"), "rt", encoding="utf-8").read()
    (folder / "key.conllu").write_text(key, encoding="utf-8")
    (folder / "response.conllu").write_text(perturb_corefud(key, REPEATS["seed"]), encoding="utf-8")
    pairs = read_corpus(folder / "key.conllu", folder / "response.conllu").pairs
    assert sum(pair.response.memberships is not None for pair in pairs) > 0
    return pairs


@pytest.mark.slow
@pytest.mark.parametrize("setting", sorted(REPEATS["scores"]))
def test_all_gum_documents_with_repeats_equal_the_official_scorer_s(all_pairs, setting):
    match, singletons = setting.split("-")
    metrics = (*METRICS, "zero")
    settings = Settings.from_options(metrics, match, singletons=singletons, preset="corefud")
    got = score_pairs(all_pairs, settings).metrics()
    for metric in metrics:
        ours = tuple(got[metric][rate] for rate in ("recall", "precision", "f1"))
        expected = REPEATS["scores"][setting][metric]
        assert all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) for a, b in zip(ours, expected)), (metric, ours, expected)
