"""The annotation tools' exports: brat (ChEMU-style relations, equivalences,
LitBank labels), LitBank TSV, INCEpTION/WebAnno TSV 3, Label Studio,
Prodigy and doccano, closed into entities with a closure report."""

import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st

from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats import format_of, get_format
from spacy_coref_eval.formats.annotation import close
from spacy_coref_eval.formats.corpus import read_side
from spacy_coref_eval.model.clusters import Clusters
from spacy_coref_eval.scoring import evaluate_corpus
from tests.conftest import REPO, SHARED
from tests.support.strategies import deterministic

DATA = REPO / "tests" / "data" / "annotation"
LITBANK_CONLL = REPO / "tests" / "data" / "corpora" / "litbank.key.conll.gz"
ALICE = {frozenset({"Alice", "She"}), frozenset({"Bob", "him", "Bob#2"}), frozenset({"warmly"})}


def entities(document):
    """Every entity as the set of its mentions' texts on the document's own
    words (a repeated text numbered ``#2``), discontinuous mentions joined."""
    clusters, words = document.clusters, document.words
    seen = {}
    out = {}
    nodes = clusters.node_sets()
    for m in range(len(clusters)):
        text = " ".join(words[t] for t in nodes.of(m).tolist())
        seen[text] = seen.get(text, 0) + 1
        label = text if seen[text] == 1 else f"{text}#{seen[text]}"
        out.setdefault(int(clusters.entity[m]), set()).add(label)
    return {frozenset(entity) for entity in out.values()}


def only(side):
    assert len(side.documents) == 1
    return side.documents[0]


@pytest.mark.parametrize(
    "path, fmt",
    [
        (DATA / "alice.ann", "brat"),
        (DATA / "alice.webanno.tsv", "webanno"),
        (DATA / "alice.labelstudio.json", "labelstudio"),
        (DATA / "alice.prodigy.jsonl", "prodigy"),
        (DATA / "alice.doccano.jsonl", "doccano"),
    ],
)
def test_one_annotation_gives_the_same_entities_in_every_tool(path, fmt):
    document = only(read_side(path, get_format(fmt)))
    assert document.name == "alice"
    assert entities(document) == ALICE
    assert not document.closure.noteworthy()
    if fmt == "webanno":
        assert document.sentence_starts == [0, 4]


@pytest.mark.parametrize("path", [DATA / "alice.prodigy.jsonl", DATA / "alice.doccano.jsonl"])
def test_jsonl_exports_are_recognised_by_their_members(path):
    side = read_side(path)
    assert side.format.name in ("prodigy", "doccano")
    assert entities(only(side)) == ALICE


@pytest.mark.parametrize("other", ["alice.webanno.tsv", "alice.labelstudio.json", "alice.prodigy.jsonl", "alice.doccano.jsonl"])
def test_tools_score_100_against_each_other(other):
    fmt = {"webanno.tsv": "webanno", "labelstudio.json": "labelstudio", "prodigy.jsonl": "prodigy", "doccano.jsonl": "doccano"}
    response_format = fmt[other.split(".", 1)[1]]
    run = evaluate_corpus(DATA / "alice.ann", DATA / other, response_format=response_format)
    scores = run.metrics()
    assert scores["conll"]["f1"] == 1.0 and scores["mentions"]["f1"] == 1.0


def test_chemu_relations_close_to_hand_built_entities():
    side = read_side(DATA / "chemu" / "reaction.ann")
    document = only(side)
    assert entities(document) == {
        frozenset({"The title compound", "the product", "a white solid"}),
        frozenset({"The mixture", "The resulting solution"}),
        frozenset({"THF"}),
        frozenset({"the residue"}),
    }
    counts = document.closure.to_dict()["counts"]
    assert counts == {
        "mentions": 7,
        "entities": 4,
        "chains": 0,
        "links": 5,
        "merged_chains": 0,
        "cycles": 1,
        "missing": 1,
        "unknown_types": 1,
    }
    assert document.closure.types == {"Transformed": 1}
    assert len(side.warnings) == 1
    assert "1 link(s) between mentions already in one entity (cycles)" in side.warnings[0]
    assert "1 link(s) or chain member(s) naming no mention" in side.warnings[0]
    assert "Transformed 1" in side.warnings[0]


def test_chains_sharing_a_mention_are_merged_and_counted():
    side = read_side(DATA / "chains.ann")
    document = only(side)
    assert entities(document) == {frozenset({"Ann", "Ann#2", "Ann#3"}), frozenset({"Beth", "Beth#2"}), frozenset({"the two sisters"})}
    assert document.closure.merged_chains == 1 and document.closure.chains == 3
    assert "1 chain(s) merged with another through a shared mention" in side.warnings[0]


def test_relation_types_a_project_names():
    from spacy_coref_eval.formats.brat import brat_format

    document = only(brat_format({"Transformed"}).read(DATA / "chemu" / "reaction.ann", None))
    assert frozenset({"The resulting solution", "the residue"}) in entities(document)


def test_litbank_labels_cop_and_discontinuous_spans():
    side = read_side(DATA / "litbank" / "bell_brat.ann")
    document = only(side)
    assert entities(document) == {
        frozenset({"Mr. Bell", "The doctor", "Bell", "He", "his"}),
        frozenset({"a doctor"}),
        frozenset({"town"}),
        frozenset({"his wife"}),
        frozenset({"He wife"}),
    }
    assert document.clusters.scattered().sum() == 1
    assert document.sentence_starts == [0, 6, 15]
    assert document.closure.types == {"appos": 1, "cop": 1}


def test_a_folder_of_pairs_reads_as_brat():
    assert format_of(DATA / "litbank").name == "brat"
    assert format_of(DATA / "chemu").name == "brat"
    assert format_of(REPO / "tests" / "data" / "demo-shards").name == "conll"


def test_litbank_tsv_lines():
    from spacy_coref_eval.formats.litbank_tsv.read import tsv_document

    text = "Mr. Bell was a doctor .\nHe smiled .\n"
    lines = [
        "MENTION\tT1\t0\t0\t0\t1\tMr. Bell\tPER\tPROP",
        "MENTION\tT2\t0\t3\t0\t4\ta doctor\tPER\tNOM",
        "MENTION\tT3\t1\t0\t1\t0\tHe\tPER\tPRON",
        "COREF\tT1\tBell-0",
        "COREF\tT3\tBell-0",
        "COP\tT1\tT2",
    ]
    document = tsv_document("bell", text, lines, path=Path("bell.ann"))
    assert entities(document) == {frozenset({"Mr. Bell", "He"}), frozenset({"a doctor"})}
    assert document.closure.types == {"cop": 1}


def test_bad_lines_name_file_and_line(tmp_path):
    (tmp_path / "x.txt").write_text("Some text .")
    (tmp_path / "x.ann").write_text("T1\tMention 0 4\tSome\nX1\twhat\n")
    with pytest.raises(CorefInputError, match=r"x.ann, line 2"):
        read_side(tmp_path / "x.ann")
    (tmp_path / "x.ann").write_text("T1\tMention 0 400\tSome\n")
    with pytest.raises(CorefInputError, match=r"line 1: offsets 0 400 lie outside the text"):
        read_side(tmp_path / "x.ann")
    (tmp_path / "y.ann").write_text("T1\tMention 0 4\tSome\n")
    with pytest.raises(CorefInputError, match="no y.txt beside it"):
        read_side(tmp_path / "y.ann")


def test_close_reports_every_kind():
    labels, report = close(
        ["a", "b", "c", "d"],
        chains=[["a", "b"], ["b", "c"], ["x"]],
        links=[("Coref", "a", "c"), ("Bridging", "a", "d"), ("Coref", "d", "y")],
    )
    assert labels.tolist() == [0, 0, 0, 1]
    assert (report.merged_chains, report.cycles, report.missing, report.unknown_types) == (1, 1, 2, 1)


LITBANK_FULL = os.environ.get("LITBANK_COREF") or next(
    (str(folder) for folder in [SHARED / "corpora" / "litbank-coref"] if (folder / "brat").is_dir()), None
)
"""The ``coref`` folder of a checkout of https://github.com/dbamman/litbank
(not committed here): LITBANK_COREF=/path/to/litbank/coref, or the shared
data beside the repository (``../shared/corpora/litbank-coref``) where it
holds LitBank's ``brat``, ``tsv`` and ``conll`` folders."""
LITBANK = Path(LITBANK_FULL) if LITBANK_FULL else DATA.parent / "litbank-coref"
"""The full corpus where it is there, else the four documents bundled in
``tests/data/litbank-coref`` (its README says which and why)."""
LITBANK_DOCUMENTS, LITBANK_MENTIONS = (100, 29103) if LITBANK_FULL else (4, 1207)
DIFFERING = "(1400_great_expectations_brat); part 000"
"""The one document where LitBank's CoNLL file and its brat and TSV files
disagree: five mentions of repeated strings ('the sea', 'the river', 'the
churchyard') sit in other chains in the CoNLL file than the brat and TSV
files (which agree with each other) put them."""


@pytest.fixture(scope="module")
def litbank_key(tmp_path_factory):
    """LitBank's CoNLL file, or for the bundled subset the CoNLL file's
    documents that the subset holds, in the file's order."""
    if LITBANK_FULL:
        return LITBANK_CONLL
    import gzip

    names = {path.stem for path in (LITBANK / "brat").glob("*.ann")}
    kept, keep = [], False
    with gzip.open(LITBANK_CONLL, "rt", encoding="utf8") as lines:
        for line in lines:
            if line.startswith("#begin document ("):
                keep = line[len("#begin document (") :].split(")")[0] in names
            if keep:
                kept.append(line)
    assert sum(line.startswith("#begin document") for line in kept) == len(names) == LITBANK_DOCUMENTS
    path = tmp_path_factory.mktemp("litbank") / "litbank.key.conll"
    path.write_text("".join(kept), encoding="utf8")
    return path


@pytest.mark.parametrize("folder", ["brat", "tsv"])
def test_litbank_brat_and_tsv_against_its_conll(folder, litbank_key):
    run = evaluate_corpus(litbank_key, LITBANK / folder, twinning=False)
    assert len(run.result.names) == LITBANK_DOCUMENTS
    documents = run.result.document_metrics()
    for name, scores in documents.items():
        assert scores["mentions"]["recall_den"] == scores["mentions"]["precision_den"] == scores["mentions"]["recall_num"]
        if name != DIFFERING:
            assert scores["conll"]["f1"] == 1.0, name
    assert run.metrics()["mentions"]["f1"] == 1.0


def test_litbank_brat_equals_its_tsv():
    run = evaluate_corpus(LITBANK / "brat", LITBANK / "tsv", twinning=False)
    assert run.metrics()["conll"]["f1"] == 1.0 and run.metrics()["mentions"]["f1"] == 1.0


def test_score_and_report_carry_the_closure(tmp_path):
    from click.testing import CliRunner

    from spacy_coref_eval.cli import app

    reaction = DATA / "chemu" / "reaction.ann"
    out, page = tmp_path / "scores.json", tmp_path / "report.html"
    run = CliRunner().invoke(app, ["score", str(reaction), str(reaction), "-o", str(out)])
    assert run.exit_code == 0, run.output
    data = __import__("json").loads(out.read_text())
    assert data["closure"]["response"]["counts"]["cycles"] == 1
    assert data["closure"]["response"]["ignored_types"] == {"Transformed": 1}
    assert data["closure"]["response"]["documents"]["reaction"]["missing"] == 1
    assert any("closing links into entities" in line for line in data["warnings"])
    run = CliRunner().invoke(app, ["report", str(reaction), str(reaction), "-o", str(page)])
    assert run.exit_code == 0, run.output
    assert "Closure of links into entities" in page.read_text()


def test_agree_across_tools(tmp_path):
    from click.testing import CliRunner

    from spacy_coref_eval.cli import app

    out = tmp_path / "agree.json"
    files = [DATA / "alice.ann", DATA / "alice.prodigy.jsonl", DATA / "alice.webanno.tsv", DATA / "alice.labelstudio.json"]
    run = CliRunner().invoke(app, ["agree", *map(str, files), "--formats", ",,webanno,labelstudio", "--ci", "0", "-o", str(out)])
    assert run.exit_code == 0, run.output
    data = __import__("json").loads(out.read_text())
    assert data["alpha"]["masi"] == 1.0 and data["mean_pairwise"]["conll"] == 1.0
    assert data["closure"]["alice.webanno.tsv"]["counts"]["chains"] == 3


def test_part_zero_names_pair_with_bare_names_both_ways():
    from spacy_coref_eval.formats.corpus import match_names

    assert match_names(["(a); part 000", "(b); part 001"], ["a", "b"]) == {"(a); part 000": "a"}
    assert match_names(["a", "b"], ["(a); part 000", "(b); part 001"]) == {"a": "(a); part 000"}
    assert match_names(["a"], ["a", "(a); part 000"]) == {"a": "a"}


def test_agree_points_at_the_litbank_document_that_differs(litbank_key):
    from spacy_coref_eval.analysis.agreement import agreement, read_annotation
    from spacy_coref_eval.scoring import Options

    options = Options.from_names()
    files = {"brat": LITBANK / "brat", "tsv": LITBANK / "tsv", "conll": litbank_key}
    result = agreement([read_annotation(path, name, options) for name, path in files.items()], options, level=None)
    data = result.to_dict()
    assert data["pairwise"]["conll"][0][1] == 1.0 and data["pairwise"]["conll"][0][2] < 1.0
    assert data["alpha"]["units"] == LITBANK_MENTIONS
    assert {entry["document"] for entry in data["disagreements"]} == {"1400_great_expectations_brat"}


def test_webanno_chains_stacked_on_one_mention_are_merged(tmp_path):
    lines = [
        "#FORMAT=WebAnno TSV 3.3",
        "#T_CH=de.tudarmstadt.ukp.dkpro.core.api.coref.type.CoreferenceLink|referenceType|referenceRelation",
        "",
        "",
        "#Text=Ann met Ann and her .",
        "1-1\t0-3\tAnn\tnam[1]\tcoref->1-1",
        "1-2\t4-7\tmet\t_\t_",
        "1-3\t8-11\tAnn\tnam[1]|nam[2]\t*->1-2|coref->2-1",
        "1-4\t12-15\tand\t_\t_",
        "1-5\t16-19\ther\tpr[2]\t*->2-2",
        "1-6\t20-21\t.\t_\t_",
        "",
    ]
    path = tmp_path / "ann.tsv"
    path.write_text("\n".join(lines))
    document = only(read_side(path, get_format("webanno")))
    assert entities(document) == {frozenset({"Ann", "Ann#2", "her"})}
    assert document.closure.merged_chains == 1


@pytest.mark.parametrize(
    "fmt, text",
    [
        ("prodigy", '{"text": "Ann met Ann.", "spans": [{"end": 3}]}\n'),
        ("doccano", '{"text": "Ann met Ann.", "entities": [{"id": 1, "start_offset": 0}]}\n'),
        ("prodigy", '{"text": "Ann met Ann.", "spans": [{"start": 0, "end": 30}]}\n'),
        ("doccano", "not json\n"),
        ("labelstudio", '[{"data": {"text": "Ann"}, "annotations": [{"result": [1]}]}]'),
        ("webanno", "#FORMAT=Other\n"),
    ],
)
def test_bad_exports_are_one_line_errors(tmp_path, fmt, text):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(CorefInputError, match=str(path)):
        read_side(path, get_format(fmt))


def test_brat_types_on_the_command_line(tmp_path):
    from click.testing import CliRunner

    from spacy_coref_eval.cli import app

    reaction = DATA / "chemu" / "reaction.ann"
    fmt = get_format("brat:Coreference,Transformed")
    assert frozenset({"The mixture", "The resulting solution", "the residue"}) in entities(only(fmt.read(reaction, None)))
    out = tmp_path / "scores.json"
    run = CliRunner().invoke(app, ["score", str(reaction), str(reaction), "--response-format", "brat:Transformed", "-o", str(out)])
    assert run.exit_code == 0, run.output
    data = __import__("json").loads(out.read_text())
    assert data["closure"]["response"]["ignored_types"] == {"Coreference": 5}
    with pytest.raises(CorefInputError, match="takes no options"):
        get_format("conll:x")


def test_litbank_conll_folder_against_brat_folder():
    conll = {d.name: d for d in read_side(LITBANK / "conll", get_format("conll")).documents}
    for document in read_side(LITBANK / "brat").documents:
        key = conll[f"({document.name}); part 0"]
        assert document.words == key.words and list(document.sentence_starts) == list(key.sentence_starts)
    run = evaluate_corpus(LITBANK / "conll", LITBANK / "brat", twinning=False)
    assert len(run.result.names) == LITBANK_DOCUMENTS
    assert run.metrics()["mentions"]["f1"] == 1.0
    differing = [name for name, scores in run.result.document_metrics().items() if scores["conll"]["f1"] != 1.0]
    assert differing == ["(1400_great_expectations_brat); part 0"]


def naive_components(n, pairs):
    """Entities by repeated merging of label sets (the oracle of :func:`close`)."""
    label = list(range(n))
    changed = True
    while changed:
        changed = False
        for a, b in pairs:
            if label[a] != label[b]:
                low, high = sorted((label[a], label[b]))
                label = [low if x == high else x for x in label]
                changed = True
    return {frozenset(m for m in range(n) if label[m] == x) for x in set(label)}


@deterministic(100)
@given(
    st.integers(1, 8).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.lists(st.integers(0, n + 1), min_size=1, max_size=4), max_size=4),
            st.lists(st.tuples(st.sampled_from(["Coref", "Other"]), st.integers(0, n + 1), st.integers(0, n + 1)), max_size=8),
        )
    )
)
def test_close_equals_naive_components(drawn):
    n, chains, links = drawn
    labels, report = close(list(range(n)), chains=chains, links=links)
    pairs = [(a, b) for chain in chains for a in chain for b in chain if a < n and b < n]
    pairs += [(a, b) for kind, a, b in links if kind == "Coref" and a < n and b < n]
    found = {frozenset(m for m in range(n) if labels[m] == x) for x in set(labels.tolist())}
    assert found == naive_components(n, pairs)
    first = [labels.tolist().index(x) for x in sorted(set(labels.tolist()))]
    assert first == sorted(first), "entities are numbered by their first mention"
    missing = sum(m >= n for chain in chains for m in chain) + sum(kind == "Coref" and (a >= n or b >= n) for kind, a, b in links)
    assert report.missing == missing
    assert report.unknown_types == sum(kind == "Other" for kind, _, _ in links)
    assert report.entities == len(found)


@deterministic(60)
@given(
    st.lists(st.sampled_from(["Ann", "met", "her", "sister", ",", "\u201cyes\u201d", "."]), min_size=2, max_size=12).flatmap(
        lambda words: st.tuples(
            st.just(words),
            st.lists(
                st.tuples(
                    st.lists(st.tuples(st.integers(0, len(words) - 1), st.integers(1, 3)), min_size=1, max_size=2), st.integers(0, 2)
                ),
                max_size=5,
            ),
        )
    )
)
def test_character_mentions_on_own_and_key_words(drawn):
    from spacy_coref_eval.formats.annotation import AnnotatedDocument
    from spacy_coref_eval.formats.document import WordsDocument

    words, mentions = drawn
    text = " ".join(words)
    starts = [sum(len(w) + 1 for w in words[:i]) for i in range(len(words))]
    expected = {}
    fragments, labels = [], []
    for parts, label in mentions:
        spans = sorted({(first, min(len(words), first + size)) for first, size in parts})
        tokens = tuple(sorted({t for first, end in spans for t in range(first, end)}))
        if tokens in expected:
            continue
        expected[tokens] = label
        fragments.append([(starts[first], starts[end - 1] + len(words[end - 1])) for first, end in spans])
        labels.append(label)
    document = AnnotatedDocument("d", text, fragments, labels=np.array(labels, dtype=np.int64))
    key = WordsDocument("d", Clusters(), list(words))
    placed = key.paired_with(document).response
    nodes = placed.node_sets()
    got = {tuple(nodes.of(m).tolist()): int(placed.entity[m]) for m in range(len(placed))}
    assert set(got) == set(expected)
    for a in expected:
        for b in expected:
            assert (expected[a] == expected[b]) == (got[a] == got[b])
    own = document.clusters
    assert len(own) == len(expected)
    own_text = {tuple(document.words[t] for t in own.node_sets().of(m).tolist()) for m in range(len(own))}
    assert own_text == {tuple(words[t] for t in tokens) for tokens in expected}


def test_an_export_as_key_takes_a_response_on_other_words(tmp_path):
    words = ["Alice", "met", "Bob", ".", "She", "greeted", "him", "warmly", ",", "and", "Bob", "smiled", "."]
    labels = {0: "(0)", 2: "(1)", 4: "(0)", 6: "(1)", 7: "(2)", 10: "(1)"}
    lines = ["#begin document (alice); part 000"]
    lines += [f"alice\t0\t{i}\t{w}\t{labels.get(i, '-')}" for i, w in enumerate(words)]
    lines += ["", "#end document", ""]
    response = tmp_path / "response.conll"
    response.write_text("\n".join(lines))
    run = evaluate_corpus(DATA / "alice.ann", response)
    assert run.metrics()["conll"]["f1"] == 1.0 and run.metrics()["mentions"]["f1"] == 1.0
    assert run.corpus.alignment["alice"].unit == "characters"
