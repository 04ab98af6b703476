"""``spacy_coref_eval.score``: Python lists, dicts, spaCy docs and paths
give the command line's JSON document; malformed input is one
``CorefInputError`` naming the document and cluster."""

import json
import math
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

import spacy_coref_eval
from spacy_coref_eval import Clusters, CorefInputError, score, score_documents
from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.score import DATA
from tests.support.litbank import litbank, litbank_files as written_litbank

TOLERANCE = 1e-12


def as_lists(clusters: Clusters) -> list[list[tuple]]:
    return [[(int(s), int(e)) for s, e in entity] for entity in clusters.entities()]


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    return written_litbank(tmp_path_factory.mktemp("api"))


def cli_json(files: dict[str, Path], *extra: str) -> dict[str, Any]:
    run = CliRunner().invoke(app, ["score", str(files["key"]), str(files["response"]), "-f", "json", *extra])
    assert run.exit_code == 0, run.output
    return json.loads(run.stdout)


def assert_close(ours: Any, theirs: Any, where: str = "") -> None:
    """Same structure; numbers equal to 1e-12."""
    if isinstance(theirs, dict):
        assert isinstance(ours, dict) and list(ours) == list(theirs), where
        for name in theirs:
            assert_close(ours[name], theirs[name], f"{where}/{name}")
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), where
        for index, (a, b) in enumerate(zip(ours, theirs)):
            assert_close(a, b, f"{where}[{index}]")
    elif isinstance(theirs, float) and not isinstance(ours, bool):
        assert math.isclose(ours, theirs, rel_tol=0, abs_tol=TOLERANCE), (where, ours, theirs)
    else:
        assert ours == theirs, (where, ours, theirs)


@pytest.fixture(scope="module")
def cli_litbank(files) -> dict[str, Any]:
    return cli_json(files, "--per-doc")


def test_lists_by_name_give_the_command_lines_json(cli_litbank):
    corpus = litbank()
    key = {name: as_lists(clusters) for name, clusters in corpus.key.items()}
    response = {name: as_lists(clusters) for name, clusters in corpus.system.items()}
    assert_close(score(key, response).to_dict(), cli_litbank)


def test_lists_by_position_give_the_command_lines_metrics(cli_litbank):
    corpus = litbank()
    names = list(corpus.key)
    scores = score([as_lists(corpus.key[n]) for n in names], [as_lists(corpus.system[n]) for n in names])
    ours = scores.to_dict()
    assert_close(ours["metrics"], cli_litbank["metrics"])
    assert_close(ours["settings"], cli_litbank["settings"])
    assert list(ours["documents"]) == [str(i) for i in range(len(names))]
    assert_close(list(ours["documents"].values()), list(cli_litbank["documents"].values()))


def test_inclusive_ends_give_the_same_scores(cli_litbank):
    corpus = litbank()
    inclusive = {
        side: {name: [[(s, e - 1) for s, e in entity] for entity in as_lists(c)] for name, c in clusters.items()}
        for side, clusters in (("key", corpus.key), ("response", corpus.system))
    }
    assert_close(score(inclusive["key"], inclusive["response"], span_end="inclusive").to_dict(), cli_litbank)


def test_paths_give_the_command_lines_json(files, cli_litbank):
    assert score(files["key"], files["response"]).to_dict() == cli_litbank
    assert score(str(files["key"]), str(files["response"]), per_doc=False).to_dict() == {
        name: value for name, value in cli_litbank.items() if name != "documents"
    }


def test_spacy_docs_give_the_command_lines_json(cli_litbank):
    from spacy.training import Example
    from spacy.vocab import Vocab

    from spacy_coref_eval.formats.docbin.docs import conll_to_doc, words_to_doc

    corpus, vocab = litbank(), Vocab()
    key = [conll_to_doc(document, vocab) for document in corpus.documents.values()]
    response = [
        words_to_doc(d.name, d.words, corpus.system[d.name], sentence_starts=d.sentence_starts, vocab=vocab)
        for d in corpus.documents.values()
    ]
    ours = score(key, response).to_dict()
    assert_close(ours["metrics"], cli_litbank["metrics"])
    assert_close(list(ours["documents"].values()), list(cli_litbank["documents"].values()))
    examples = [Example(predicted, reference) for predicted, reference in zip(response, key)]
    assert_close(score(examples).to_dict(), ours)
    assert_close(score(examples, response).to_dict(), ours)


def test_options_are_the_command_lines(files):
    corpus = litbank()
    key = {name: as_lists(clusters) for name, clusters in corpus.key.items()}
    response = {name: as_lists(clusters) for name, clusters in corpus.system.items()}
    extra = ["--per-doc", "--singletons", "remove", "--twinless", "b3all", "--metrics", "muc,bcub,ceafe,lea,mor", "--macro", "--errors"]
    ours = score(key, response, singletons="remove", twinless="b3all", metrics="muc,bcub,ceafe,lea,mor", macro=True, errors=True)
    assert_close(ours.to_dict(), cli_json(files, *extra))
    with_ci = score(key, response, ci=0.9, n_resamples=50, seed=3, per_doc=False, metrics=["muc"])
    assert_close(with_ci.to_dict(), cli_json(files, "--ci", "0.9", "--n-resamples", "50", "--seed", "3", "--metrics", "muc"))


def test_quick_access_and_package_exports():
    scores = spacy_coref_eval.score([[[(0, 1), (2, 3)]]], [[[(0, 1), (2, 3)]]])
    assert isinstance(scores, spacy_coref_eval.Scores)
    assert scores.conll == 1.0 and scores.metrics["muc"]["f1"] == 1.0
    assert list(scores.documents) == ["0"]
    assert score([[[(0, 1)]]], [[[(0, 1)]]], metrics="muc").conll is None


def test_to_frame():
    import pandas as pd

    key = {"a": [[(0, 2), (5, 6)], [(8, 9), (11, 12)]], "b": [[(0, 1), (3, 4)]]}
    response = {"a": [[(0, 2), (5, 6), (8, 9)]], "b": [[(0, 1), (3, 4)]]}
    scores = score(key, response)
    frame = scores.to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == ["recall", "precision", "f1"]
    assert list(frame.index) == ["mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll"]
    assert frame.loc["muc", "f1"] == scores.metrics["muc"]["f1"]
    assert frame.loc["conll", "f1"] == scores.conll and math.isnan(frame.loc["conll", "recall"])
    documents = scores.to_frame(documents=True)
    assert documents.index.names == ["document", "metric"]
    assert documents.loc[("b", "lea"), "f1"] == 1.0
    assert documents.loc[("a", "muc"), "recall"] == scores.documents["a"]["muc"]["recall"]


def test_repr_and_html_are_small_tables():
    scores = score({"<doc>": [[(0, 2), (5, 6)]]}, {"<doc>": [[(0, 2), (5, 6)]]})
    text = repr(scores)
    assert text.splitlines()[0] == "Scores (1 document)"
    assert "MUC       100.00  100.00  100.00" in text and len(text) < 1000
    html = scores._repr_html_()
    assert html.startswith("<table>") and html.endswith("</table>")
    assert "<tr><th>MUC</th><td>100.00</td><td>100.00</td><td>100.00</td></tr>" in html
    assert html.count("<tr>") == 9


def test_a_missing_response_document_scores_empty_with_a_warning():
    scores = score({"a": [[(0, 1), (2, 3)]], "b": [[(0, 1), (2, 3)]]}, {"a": [[(0, 1), (2, 3)]]})
    assert scores.metrics["muc"]["recall"] == 0.5
    assert scores.warnings == ["document 'b': no response document; scored as an empty response"]
    assert "1 warning(s)" in repr(scores)


def test_mention_ids_pair_across_sides():
    scores = score([[["a", "b", "c"], ["d"]]], [[["a", "b"], ["c", "d"]]], metrics="muc,bcub")
    expected = score([[[(0, 1), (1, 2), (2, 3)], [(3, 4)]]], [[[(0, 1), (1, 2)], [(2, 3), (3, 4)]]], metrics="muc,bcub")
    assert scores.metrics == expected.metrics


@pytest.mark.parametrize(
    "key, response, options, message",
    [
        ([[[(0, 2)]]], [[[(3, 1)]]], {}, "document '0', response cluster 0: span (3, 1) ends before it starts"),
        (
            [[[(0, 2)]]],
            [[[(3, 3)]]],
            {},
            "document '0', response cluster 0: span (3, 3) is empty (end is exclusive: pass span_end='inclusive')",
        ),
        ([[[(-1, 2)]]], [[]], {}, "document '0', key cluster 0: span (-1, 2) before the first token"),
        ({"x": [[(0, 2)], [(1, 2, 3)]]}, {"x": []}, {}, "document 'x', key cluster 1: a span is (start, end), not [1, 2, 3]"),
        ({"x": [[(0, 2)], [(1.5, 2)]]}, {"x": []}, {}, "document 'x', key cluster 1: span (1.5, 2) must hold two integers"),
        ({"x": [[(0, 2), "m1"]]}, {"x": []}, {}, "document 'x', key cluster 0: mixes (start, end) spans and mention ids"),
        ({"x": [[(0, 2)]]}, {"x": [["m"]]}, {}, "document 'x': one side gives (start, end) spans and the other mention ids"),
        ({"x": [[0.5]]}, {"x": []}, {}, "document 'x', key cluster 0: a mention is a (start, end) span or an id (int or str), not float"),
        ({"x": "abc"}, {"x": []}, {}, "document 'x': the key must be a list of clusters, not str"),
        ({"x": [[None]]}, {"x": []}, {}, "key cluster 0: a mention is a (start, end) span or an id (int or str), not NoneType"),
        ({"x": [7]}, {"x": []}, {}, "document 'x', key cluster 0: a cluster is a list of mentions, not int 7"),
        ([[], []], [[]], {}, "the key has 2 document(s) and the response 1: lists pair by position"),
        ([[]], {"a": []}, {}, "key and response must both be lists of documents or both dicts"),
        ({1: []}, {"a": []}, {}, "the key's document names must be strings, not int 1"),
        ([[[(0, 1)]]], [[]], {"classes": True}, "resolution classes and mention-type strata read the key's words and tags: give"),
        ([[[(0, 1)]]], [[]], {"cross_document": True}, "cross_document reads entity ids shared across documents: give the key"),
        (
            [[[(0, 1)]]],
            [[]],
            {"np_only": True},
            "the coval preset (mina, np_only, remove_nested) reads CoNLL-2012 files as coval does: give",
        ),
        ([[]], "response.conll", {}, "give key and response as files, spaCy docs or system records, or both as Python lists"),
    ],
)
def test_malformed_input_is_one_error_naming_document_and_cluster(key, response, options, message):
    with pytest.raises(CorefInputError) as raised:
        score(key, response, **options)
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)


def test_unknown_options_and_span_ends_are_refused():
    with pytest.raises(TypeError, match="unknown option\\(s\\) singleton; the scoring options are metrics, "):
        score([[]], [[]], singleton="remove")
    with pytest.raises(ValueError, match="span_end must be one of"):
        score([[]], [[]], span_end="closed")
    options = spacy_coref_eval.api.OPTIONS
    assert "np_only" in options and "words" not in options and len(set(options)) == len(options)


SPANS = st.tuples(st.integers(0, 30), st.integers(1, 6)).map(lambda p: (p[0], p[0] + p[1]))
DOCUMENT = st.lists(st.lists(SPANS, min_size=1, max_size=5), max_size=6)


@given(st.lists(st.tuples(DOCUMENT, DOCUMENT), min_size=1, max_size=4), st.sampled_from(["conll", "b3all", "sys"]))
def test_lists_score_as_clusters_do(documents, twinless):
    """Random documents as lists equal ``score_documents`` on
    :class:`Clusters` (every metric, every count)."""
    from spacy_coref_eval import Settings

    key = {f"d{i}": k for i, (k, _) in enumerate(documents)}
    response = {f"d{i}": r for i, (_, r) in enumerate(documents)}
    settings = Settings.from_options(twinless=twinless, metrics=["muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mor"])
    expected = score_documents(
        {n: Clusters.from_entities(d) for n, d in key.items()}, {n: Clusters.from_entities(d) for n, d in response.items()}, settings
    )
    ours = score(key, response, twinless=twinless, metrics="muc,bcub,ceafm,ceafe,blanc,lea,mor")
    assert ours.metrics == expected.metrics()
    assert ours.documents == expected.document_metrics()
    assert ours.warnings == expected.warnings


@pytest.fixture(scope="module")
def fastcoref(files, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("records") / "response.jsonl"
    run = CliRunner().invoke(app, ["convert", str(files["response"]), str(path), "--output-format", "fastcoref"])
    assert run.exit_code == 0, run.output
    return path


def test_system_records_score_as_their_file(files, fastcoref, cli_litbank):
    """fastcoref's character offsets, as dicts in memory: what the same
    records in a file give (alignment report included), the CLI's numbers."""
    records = [json.loads(line) for line in fastcoref.read_text(encoding="utf-8").splitlines()]
    assert set(records[0]) >= {"text", "clusters"}
    from_file = score(files["key"], fastcoref).to_dict()
    assert score(files["key"], records).to_dict() == from_file
    assert "alignment" in from_file
    assert_close(from_file["metrics"], cli_litbank["metrics"])
    maverick = [
        {"doc_key": r["doc_key"], "text": r["text"], "clusters_char_offsets": [[[s, e - 1] for s, e in c] for c in r["clusters"]]}
        for r in records
    ]
    assert_close(score(files["key"], maverick).metrics, cli_litbank["metrics"])


def test_bad_records_name_the_records_not_a_temporary_file(files, fastcoref):
    records = [json.loads(line) for line in fastcoref.read_text(encoding="utf-8").splitlines()]
    records[2] = {**records[2], "clusters": [[[5, 2]]]}
    with pytest.raises(CorefInputError) as raised:
        score(files["key"], records)
    message = str(raised.value)
    assert message.startswith("response records, line 3: document ") and "spacy-coref-eval-" not in message


DEMO = DATA


@pytest.mark.parametrize(
    "options, extra",
    [
        ({"waterfall": True}, ["--waterfall"]),
        ({"errors_list": True}, ["--errors-list"]),
        ({"by": ["chain-length"], "chain_lengths": "1,2+"}, ["--by", "chain-length", "--chain-lengths", "1,2+"]),
        ({"by": "mention-type"}, ["--by", "mention-type"]),
        ({"variants": True}, ["--variants"]),
        ({"classes": True}, ["--classes"]),
        ({"match": "overlap", "min_overlap": 0.4}, ["--match", "overlap", "--min-overlap", "0.4"]),
        ({"lea_importance": "uniform", "metrics": ["lea", "muc"]}, ["--lea-importance", "uniform", "--metrics", "lea,muc"]),
    ],
)
def test_analyses_and_options_give_the_command_lines_json(options, extra):
    key, response = DEMO / "demo.key.conll", DEMO / "demo.response.conll"
    expected = cli_json({"key": key, "response": response}, "--per-doc", *extra)
    assert score(key, response, **options).to_dict() == expected
    if not {"classes", "by"} & set(options) or options.get("by") == ["chain-length"]:
        from spacy_coref_eval import read_conll

        lists = [{n: as_lists(d.clusters) for n, d in read_conll(path).items()} for path in (key, response)]
        ours = score(*lists, **options).to_dict()
        assert ("errors_list" in ours) == ("errors_list" in expected)
        without_words = {name: value for name, value in expected.items() if name != "errors_list"}
        assert_close({name: value for name, value in ours.items() if name != "errors_list"}, without_words)
