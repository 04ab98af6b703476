"""Long documents and what a score hides (issue #33, docs/long-documents.md):
strata by spread, link recall by antecedent distance, windows, partial
gold, link difficulty and the string-match baseline, each checked against
the corpus scores it must add up to or equal."""

import gzip
import json
from collections import defaultdict
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

from benchmarks.perturb import perturb_corpus
from spacy_coref_eval import Clusters, read_conll
from spacy_coref_eval.analysis.registry import registered_analyses, resolve
from spacy_coref_eval.cli import app
from spacy_coref_eval.formats.conll.write import write_conll
from tests.conftest import data_path
from tests.support.strategies import deterministic

runner = CliRunner()
LITBANK = data_path("corpora", "litbank.key.conll.gz")
N_DOCUMENTS = 12


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """The first LitBank documents and a perturbed response, as CoNLL files."""
    folder = tmp_path_factory.mktemp("long")
    documents = read_conll(LITBANK, with_words=True)
    names = list(documents)[:N_DOCUMENTS]
    key = {name: documents[name].clusters for name in names}
    response = perturb_corpus(key, {name: documents[name].n_tokens for name in names}, seed=5)
    files = {}
    for side, clusters in (("key", key), ("response", response)):
        path = folder / f"{side}.conll"
        write_conll(path, [(n, documents[n].words, clusters[n], documents[n].sentence_starts) for n in names])
        files[side] = path
    return files["key"], files["response"]


def score(*args):
    result = runner.invoke(app, ["score", *map(str, args), "-f", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("attribute", ["spread", "spread-sentences"])
def test_spread_strata_add_up_to_the_corpus(pair, attribute):
    data = score(*pair, "--by", attribute)
    strata = data["strata"][attribute]
    assert len(strata) == 5
    mentions, bcub = data["metrics"]["mentions"], data["metrics"]["bcub"]
    assert sum(entry["key_mentions"] for entry in strata.values()) == mentions["recall_den"]
    assert sum(entry["response_mentions"] for entry in strata.values()) == mentions["precision_den"]
    for field in ("recall_den", "precision_den"):
        assert sum(entry["metrics"]["bcub"][field] for entry in strata.values()) == pytest.approx(bcub[field], abs=1e-9)


@pytest.mark.parametrize("attribute", ["spread", "spread-sentences"])
def test_one_spread_stratum_equals_the_corpus(pair, attribute):
    data = score(*pair, "--by", attribute, "--spreads", "0+")
    assert data["strata"][attribute]["0+"]["metrics"] == data["metrics"]


def test_spreads_are_refused_when_they_leave_a_gap(pair):
    result = runner.invoke(app, ["score", *map(str, pair), "--by", "spread", "--spreads", "1-5,6+"])
    assert result.exit_code != 0
    assert "without gaps" in result.output


def test_antecedent_links_are_the_muc_recall_links(pair):
    data = score(*pair, "--antecedents")
    block = data["antecedent_distance"]
    assert block["total"]["links"] == data["metrics"]["muc"]["recall_den"]
    assert sum(entry["links"] for entry in block["buckets"].values()) == block["total"]["links"]
    assert sum(entry["found"] for entry in block["buckets"].values()) == block["total"]["found"]


def test_antecedent_distance_on_a_hand_made_document(tmp_path):
    key = tmp_path / "key.conll"
    response = tmp_path / "response.conll"
    words = [f"w{i}" for i in range(40)]
    # key entity: mentions at 0, 5, 30 (links of distance 5 and 25); response joins 0 and 5 only
    write_conll(key, [("d", words, Clusters.from_entities([[(0, 1), (5, 6), (30, 31)]]), [0])])
    write_conll(response, [("d", words, Clusters.from_entities([[(0, 1), (5, 6)], [(30, 31)]]), [0])])
    block = score(key, response, "--antecedents", "--distances", "0-9,10+")["antecedent_distance"]
    assert block["buckets"] == {"0-9": {"links": 1, "found": 1, "recall": 1.0}, "10+": {"links": 1, "found": 0, "recall": 0.0}}


def test_a_window_longer_than_every_document_equals_the_whole(pair):
    data = score(*pair, "--window", "1000000")
    assert data["windows"]["size"] == 1000000
    assert data["windows"]["metrics"] == data["metrics"]


def test_windows_per_document(pair):
    result = runner.invoke(app, ["score", *map(str, pair), "-f", "json", "--per-doc", "--window", "500"])
    data = json.loads(result.stdout)
    documents = data["windows"]["documents"]
    assert list(documents) == list(data["documents"])
    assert sum(len(windows) for windows in documents.values()) == data["windows"]["n_windows"]
    assert data["windows"]["metrics"] != data["metrics"]


def sentence_bound_pair(folder: Path):
    """Documents of 6-token sentences whose entities (key and response)
    lie within one sentence each."""
    words = [f"t{i}" for i in range(60)]
    key = Clusters.from_entities(
        [[(6 * s, 6 * s + 1), (6 * s + 3, 6 * s + 5)] for s in range(10)] + [[(6 * s + 2, 6 * s + 3)] for s in range(0, 10, 3)]
    )
    response = Clusters.from_entities(
        [[(6 * s, 6 * s + 1), (6 * s + 3, 6 * s + 5), (6 * s + 2, 6 * s + 3)] for s in range(0, 10, 2)]
        + [[(6 * s, 6 * s + 1)] for s in range(1, 10, 2)]
        + [[(6 * s + 3, 6 * s + 4)] for s in range(1, 10, 2)]
    )
    sentences = list(range(0, 60, 6))
    paths = folder / "s.key.conll", folder / "s.response.conll"
    write_conll(paths[0], [("doc", words, key, sentences)])
    write_conll(paths[1], [("doc", words, response, sentences)])
    return paths


def test_one_sentence_windows_equal_the_whole_when_entities_lie_within_sentences(tmp_path):
    """Every metric but BLANC's non-coreference links adds up over
    entities; those links across windows are not counted in windows."""
    data = score(*sentence_bound_pair(tmp_path), "--window-sentences", "1", "--metrics", "muc,bcub,ceafm,ceafe,lea")
    assert data["windows"]["unit"] == "sentences"
    assert data["windows"]["n_windows"] == 10
    assert data["windows"]["metrics"] == data["metrics"]
    blanc = score(*sentence_bound_pair(tmp_path), "--window-sentences", "1", "--metrics", "blanc")
    assert blanc["windows"]["metrics"]["blanc"]["coref_links"] == blanc["metrics"]["blanc"]["coref_links"]


def partial_files(folder: Path):
    """The demo key, and a response holding it exactly plus three entities
    on tokens no key mention touches."""
    from spacy_coref_eval.cli.score import DATA

    documents = read_conll(DATA / "demo.key.conll", with_words=True)
    key_path, response_path = folder / "partial.key.conll", folder / "partial.response.conll"
    write_conll(key_path, [(n, d.words, d.clusters, d.sentence_starts) for n, d in documents.items()])
    responses, extra = [], 0
    for name, document in documents.items():
        clusters = document.clusters
        used = {t for s, e in zip(clusters.starts.tolist(), clusters.ends.tolist()) for t in range(s, e)}
        free = [t for t in range(document.n_tokens) if t not in used]
        spans = [
            [(s, e) for s, e in zip(clusters.starts[clusters.entity == g].tolist(), clusters.ends[clusters.entity == g].tolist())]
            for g in range(clusters.n_entities)
        ]
        added = [[(free[0], free[0] + 1), (free[1], free[1] + 1)]] if len(free) >= 2 else []
        if len(free) >= 3:
            added.append([(free[2], free[2] + 1)])
        extra += len(added)
        responses.append((name, document.words, Clusters.from_entities(spans + added), document.sentence_starts))
    write_conll(response_path, responses)
    return key_path, response_path, extra


def test_partial_gold_sets_aside_entities_the_key_does_not_annotate(tmp_path):
    key, response, extra = partial_files(tmp_path)
    assert extra >= 3
    plain = score(key, response)
    partial = score(key, response, "--partial-gold")
    assert any(block["f1"] < 1 for block in plain["metrics"].values())
    assert all(block["f1"] == 1.0 for block in partial["metrics"].values())
    block = partial["partial_gold"]
    assert block["entities"] == extra
    assert sum(len(entries) for entries in block["documents"].values()) == extra
    assert all(mention["text"] for entries in block["documents"].values() for entry in entries for mention in entry["mentions"])


def test_partial_gold_leaves_a_response_without_extra_entities_alone(pair):
    from spacy_coref_eval.cli.score import DATA

    key, response = DATA / "demo.key.conll", DATA / "demo.key.conll"
    assert score(key, response, "--partial-gold")["metrics"] == score(key, response)["metrics"]


def test_link_classes_add_up_to_blanc_coreference_links(pair):
    data = score(*pair, "--links")
    links, coref = data["links"], data["metrics"]["blanc"]["coref_links"]
    assert set(links) == {"surface", "other"}
    for field in ("recall_num", "recall_den", "precision_num", "precision_den"):
        assert links["surface"][field] + links["other"][field] == coref[field]
    assert 0 < links["surface"]["recall_den"] < coref["recall_den"]


def test_train_equal_to_the_key_sees_every_key_link(pair):
    key, _ = pair
    links = score(*pair, "--links", "--train", key)["links"]
    assert links["seen"]["recall_den"] == links["surface"]["recall_den"] + links["other"]["recall_den"]
    assert links["unseen"]["recall_den"] == 0
    assert links["seen"]["recall_num"] + links["unseen"]["recall_num"] == links["surface"]["recall_num"] + links["other"]["recall_num"]


def test_an_empty_training_file_sees_no_link(pair, tmp_path):
    empty = tmp_path / "train.conll"
    empty.write_text("", encoding="utf8")
    links = score(*pair, "--links", "--train", empty)["links"]
    assert links["seen"]["recall_den"] == links["seen"]["precision_den"] == 0
    assert links["unseen"]["recall_den"] == links["surface"]["recall_den"] + links["other"]["recall_den"]


def test_link_classes_have_bootstrap_intervals(pair):
    links = score(*pair, "--links", "--ci", "0.9", "--n-resamples", "50")["links"]
    for entry in links.values():
        low, high = entry["intervals"]["f1"]
        assert low <= entry["f1"] <= high or entry["recall_den"] == 0


def reference_baseline(path: Path):
    """The string-match baseline written from scratch: per document, the
    key's mentions grouped by their lowercased words joined by one space."""
    documents, words, open_spans, spans = {}, [], defaultdict(list), []
    with gzip.open(path, "rt", encoding="utf8") as handle:
        for line in handle:
            if line.startswith("#begin"):
                name, words, open_spans, spans = line[len("#begin document ") :].strip(), [], defaultdict(list), []
            elif line.startswith("#end"):
                groups = defaultdict(set)
                for start, end in spans:
                    groups[" ".join(w.lower() for w in words[start:end])].add((start, end))
                documents[name] = {frozenset(group) for group in groups.values()}
            elif line.strip():
                cols = line.split()
                words.append(cols[3])
                for part in cols[-1].split("|") if cols[-1] != "-" else ():
                    entity = part.strip("()")
                    if part.startswith("("):
                        open_spans[entity].append(len(words) - 1)
                    if part.endswith(")"):
                        spans.append((open_spans[entity].pop(), len(words)))
    return documents


@pytest.mark.slow
def test_the_baseline_equals_a_reference_implementation_on_litbank(tmp_path):
    out = tmp_path / "baseline.conll"
    result = runner.invoke(app, ["baseline", str(LITBANK), "-o", str(out)])
    assert result.exit_code == 0, result.output
    written = read_conll(out)
    expected = reference_baseline(LITBANK)
    assert list(written) == list(expected)
    for name, document in written.items():
        clusters = document.clusters
        got = {
            frozenset(zip(clusters.starts[clusters.entity == g].tolist(), clusters.ends[clusters.entity == g].tolist()))
            for g in range(clusters.n_entities)
        }
        assert got == expected[name], name


def test_score_baseline_equals_scoring_the_written_baseline(pair, tmp_path):
    key, response = pair
    out = tmp_path / "baseline.conll"
    assert runner.invoke(app, ["baseline", str(key), "-o", str(out)]).exit_code == 0
    beside = score(key, response, "--baseline")
    assert list(beside["baseline"]) == ["string"]
    assert beside["baseline"]["string"]["metrics"] == score(key, out)["metrics"]


def test_the_table_shows_every_long_document_analysis(pair):
    result = runner.invoke(
        app, ["score", *map(str, pair), "--by", "spread", "--antecedents", "--window", "2000", "--links", "--baseline", "--partial-gold"]
    )
    assert result.exit_code == 0, result.output
    for title in (
        "F1 by spread",
        "antecedent distance",
        "Windows of 2000 tokens",
        "Coreference links by difficulty",
        "string-match baseline",
        "Partial gold",
    ):
        assert title in result.stdout


def test_the_html_report_shows_every_long_document_analysis(pair, tmp_path):
    page = tmp_path / "r.html"
    result = runner.invoke(
        app,
        [
            "report",
            *map(str, pair),
            "-o",
            str(page),
            "--n-resamples",
            "20",
            "--no-waterfall",
            "--by",
            "spread",
            "--antecedents",
            "--window",
            "2000",
            "--links",
            "--baseline",
        ],
    )
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf8")
    for section in ("strata", "antecedent-distance", "windows", "links", "baseline"):
        assert f'<section id="{section}">' in html


def test_every_registered_path_resolves():
    for analysis in registered_analyses():
        for path in (
            analysis.compute,
            analysis.check,
            analysis.json,
            analysis.document_json,
            analysis.table,
            analysis.html,
            analysis.spacy_keys,
            analysis.adjust,
        ):
            if path:
                assert callable(resolve(path)), (analysis.name, path)


TYPED_RESPONSE = """# newdoc id = d
# global.Entity = eid-etype-head-other
# sent_id = d-1
1	Anna	_	_	_	_	_	_	_	Entity=(e1-person-1)
2	met	_	_	_	_	_	_	_	_
3	the	_	_	_	_	_	_	_	Entity=(e2-animal-2
4	dog	_	_	_	_	_	_	_	Entity=e2)
5	.	_	_	_	_	_	_	_	_

# sent_id = d-2
1	She	_	_	_	_	_	_	_	Entity=(e1-person-1)
2	fed	_	_	_	_	_	_	_	Entity=(e4-person-1)
3	it	_	_	_	_	_	_	_	Entity=(e2-animal-1)
4	here	_	_	_	_	_	_	_	Entity=(e3-place-1)

"""


def test_key_types_set_aside_only_entities_of_types_the_key_leaves_out(tmp_path):
    """The key annotates persons only: the unlinked animal and place are
    set aside, the unlinked person stays a precision error."""
    key, response = tmp_path / "k.conllu", tmp_path / "r.conllu"
    key_text = TYPED_RESPONSE.replace("Entity=(e2-animal-2", "_").replace("Entity=e2)", "_")
    key_text = key_text.replace("Entity=(e4-person-1)", "_").replace("Entity=(e2-animal-1)", "_").replace("Entity=(e3-place-1)", "_")
    key.write_text(key_text, encoding="utf8")
    response.write_text(TYPED_RESPONSE, encoding="utf8")
    partial = score(key, response, "--partial-gold")
    assert partial["partial_gold"]["entities"] == 3
    assert all(block["f1"] == 1.0 for block in partial["metrics"].values())
    typed = score(key, response, "--key-types", "person")
    assert typed["partial_gold"]["entities"] == 2
    assert typed["partial_gold"]["key_types"] == ["person"]
    assert typed["metrics"]["mentions"]["precision_den"] == 3
    assert typed["metrics"]["mentions"]["precision"] < 1


def test_the_spacy_scorer_gives_link_window_and_spread_keys():
    import spacy
    from spacy.training import Example

    from spacy_coref_eval.pipeline.scorers import make_coref_scorer

    nlp = spacy.blank("en")
    text = "John Smith met Mary . He gave her a book . Mary thanked him ."
    gold = [[(0, 2), (5, 6), (13, 14)], [(3, 4), (7, 8), (11, 12)], [(8, 10)]]
    predicted = [[(1, 2), (5, 6), (13, 14)], [(3, 4), (11, 12)], [(7, 8), (9, 10)]]

    def doc(entities):
        made = nlp.make_doc(text)
        for index, entity in enumerate(entities, 1):
            made.spans[f"coref_clusters_{index}"] = [made[start:end] for start, end in entity]
        return made

    examples = [Example(doc(predicted), doc(gold))]
    plain = make_coref_scorer()(examples)
    scores = make_coref_scorer(by=["spread"], spreads="0+", links=True, window=1000)(examples)
    # surface: Mary … Mary, found; other: 1 of the key's 5 found, 1 of the response's 4 right
    assert scores["coref_links_surface_f"] == 1.0
    assert (scores["coref_links_other_r"], scores["coref_links_other_p"]) == (pytest.approx(1 / 5), pytest.approx(1 / 4))
    for name in ("muc", "bcub", "lea"):
        assert scores[f"coref_{name}_windows_f"] == plain[f"coref_{name}_f"]
        assert scores[f"coref_{name}_0+_f"] == plain[f"coref_{name}_f"]


def random_entities(rng, n_tokens: int, n_mentions: int, n_entities: int):
    spans = {(int(s), int(s) + int(rng.integers(1, 3))) for s in rng.integers(0, n_tokens - 2, size=n_mentions)}
    entities = defaultdict(list)
    for span in sorted(spans):
        entities[int(rng.integers(0, n_entities))].append(span)
    return [entities[e] for e in sorted(entities)]


def naive_link_counts(twinned, words, train_pairs=None):
    """Every link enumerated pair by pair."""
    from spacy_coref_eval.analysis.links import mention_forms

    out = defaultdict(lambda: [0, 0, 0, 0])
    key_twin = {int(k): r for r, k in enumerate(twinned.twins.tolist()) if k >= 0}
    for side, other_entity, column in (
        (twinned.key, lambda m: twinned.response.entity[key_twin[m]] if m in key_twin else None, 0),
        (twinned.response, lambda m: twinned.key.entity[twinned.twins[m]] if twinned.twins[m] >= 0 else None, 2),
    ):
        texts, heads = mention_forms(side, words)
        for a in range(len(side)):
            for b in range(a + 1, len(side)):
                if side.entity[a] != side.entity[b]:
                    continue
                found = other_entity(a) is not None and other_entity(a) == other_entity(b)
                classes = ["surface" if texts[a] == texts[b] or heads[a] == heads[b] else "other"]
                if train_pairs is not None:
                    classes.append("seen" if tuple(sorted((heads[a], heads[b]))) in train_pairs else "unseen")
                for name in classes:
                    out[name][column] += found
                    out[name][column + 1] += 1
    return {name: [out[name][0], out[name][1], out[name][2], out[name][3]] for name in out}


@deterministic(60)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_link_counts_equal_pairs_enumerated_one_by_one(seed, heads):
    import numpy as np

    from spacy_coref_eval.analysis.links import link_counts, stacked_words
    from spacy_coref_eval.scoring import Settings, score_pairs

    rng = np.random.default_rng(seed)
    names, pairs, words = [], [], {}
    for d in range(int(rng.integers(1, 4))):
        n_tokens = 30
        name = f"d{d}"
        words[name] = [str(w) for w in rng.choice(["A", "a", "b", "the"], size=n_tokens)]
        key = Clusters.from_entities(random_entities(rng, n_tokens, 12, 4))
        response = Clusters.from_entities(random_entities(rng, n_tokens, 12, 4))
        if heads:
            key = Clusters(key.starts, key.ends, key.entity, key.n_entities, heads=key.starts.copy())
            response = Clusters(response.starts, response.ends, response.entity, response.n_entities, heads=response.starts.copy())
        names.append(name)
        from spacy_coref_eval.model.clusters import Pair

        pairs.append(Pair(name, key, response, n_tokens))
    result = score_pairs(pairs, Settings.from_options(match="head" if heads else "exact"))
    twinned = result.twinned
    stacked = stacked_words(twinned, names, words)
    train = [["a", "b"], ["the", "the"], ["a"]]
    counts = link_counts(twinned, stacked, train)
    seen = {("a", "b"), ("the", "the")}
    naive = naive_link_counts(twinned, stacked, seen)
    for name in ("surface", "other", "seen", "unseen"):
        assert counts[name].sum(axis=0).tolist() == [float(v) for v in naive.get(name, [0, 0, 0, 0])], name


@deterministic(60)
@given(st.integers(0, 2**32 - 1))
def test_antecedent_links_equal_a_naive_walk(seed):
    import numpy as np

    from spacy_coref_eval.analysis.antecedents import antecedent_links
    from spacy_coref_eval.model.clusters import Pair
    from spacy_coref_eval.scoring import Settings, score_pairs

    rng = np.random.default_rng(seed)
    pairs = [
        Pair(f"d{d}", Clusters.from_entities(random_entities(rng, 40, 14, 4)), Clusters.from_entities(random_entities(rng, 40, 14, 4)), 40)
        for d in range(int(rng.integers(1, 4)))
    ]
    twinned = score_pairs(pairs, Settings()).twinned
    distance, linked = antecedent_links(twinned)
    key, response = twinned.key, twinned.response
    twin_of = {int(k): r for r, k in enumerate(twinned.twins.tolist()) if k >= 0}
    expected = []
    for m in range(len(key)):
        before = [
            a for a in range(len(key)) if key.entity[a] == key.entity[m] and (key.starts[a], key.ends[a]) < (key.starts[m], key.ends[m])
        ]
        if not before:
            continue
        a = max(before, key=lambda i: (key.starts[i], key.ends[i]))
        found = m in twin_of and a in twin_of and response.entity[twin_of[m]] == response.entity[twin_of[a]]
        expected.append((int(key.starts[m] - key.starts[a]), bool(found)))
    assert sorted(zip(distance.tolist(), linked.tolist())) == sorted(expected)


def test_an_analysis_registered_once_reaches_the_json_and_the_table(pair, monkeypatch):
    """One module (here the test's functions) and one registration: JSON
    and table render it with nothing else changed."""
    from spacy_coref_eval.analysis import registry
    from spacy_coref_eval.analysis.summary import Breakdowns, analyse
    from spacy_coref_eval.report.text import render
    from spacy_coref_eval.scoring import evaluate_corpus

    monkeypatch.setattr(registry, "REGISTRY", registry.REGISTRY)
    monkeypatch.setattr(registry, "_BY_NAME", dict(registry._BY_NAME))
    registry.register_analysis(
        registry.Analysis(
            "n_mentions",
            "tests.analysis.test_long_documents:count_mentions",
            table="tests.analysis.test_long_documents:mentions_text",
            needs=frozenset({"twinning"}),
        )
    )
    with pytest.raises(ValueError, match="already registered"):
        registry.register_analysis(registry.Analysis("n_mentions", "tests.analysis.test_long_documents:count_mentions"))
    run = evaluate_corpus(*pair)
    computed = analyse(run.result, breakdowns=Breakdowns(n_mentions=True), corpus=run.corpus)
    data = json.loads(render(run.result, "json", False, analyses=computed))
    mentions = data["metrics"]["mentions"]
    assert data["n_mentions"] == {"key": mentions["recall_den"], "response": mentions["precision_den"]}
    table = render(run.result, "table", False, analyses=computed)
    assert table.split("\nSettings: ")[0].endswith("Mentions counted by a registered analysis\n")


def count_mentions(context):
    return {"key": len(context.result.twinned.key), "response": len(context.result.twinned.response)}


def mentions_text(value, result, per_doc, analyses):
    return ["Mentions counted by a registered analysis\n"]
