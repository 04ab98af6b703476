"""CoNLL-2012 files in the simple form are read, paired and twinned as
columns (docs/formats.md, Columns): the counts, the twinning and the JSON
must be those of the per-document path, on random corpora (repeated
spans, empty documents, differing token counts, any matcher the columns
take) and on LitBank."""

import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st

from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats.conll import FORMAT
from spacy_coref_eval.formats.conll.read import read_conll
from spacy_coref_eval.formats.conll.write import write_conll
from spacy_coref_eval.formats.corpus import StackedPairs, pair_sides
from spacy_coref_eval.formats.document import Side
from spacy_coref_eval.model.clusters import Clusters, ClustersBatch
from spacy_coref_eval.report.json import score_json
from spacy_coref_eval.scoring import CorpusResult, Options, evaluate_corpus, score_pairs
from tests.conftest import data_path
from tests.support.litbank import litbank
from tests.support.strategies import deterministic, limits_env

pytestmark = pytest.mark.usefixtures("stream_files_of_any_size")

Mention = tuple[int, int, int]
OPTIONS = (
    {},
    {"match": "overlap"},
    {"singletons": "remove"},
    {"twinless": "b3all"},
    {"match": "head"},
    {"metrics": ("muc", "bcub", "ceafe", "blanc", "lea", "mor")},
)


@st.composite
def documents(draw) -> tuple[int, list[Mention]]:
    """A document's token count and mentions ``(start, end, id)``, spans
    given twice (in one entity or two) included."""
    n_tokens = draw(st.integers(0, 6))
    if n_tokens == 0:
        return 0, []
    span = st.integers(0, n_tokens - 1).flatmap(lambda s: st.tuples(st.just(s), st.integers(s + 1, min(n_tokens, s + 3))))
    mentions = draw(st.lists(st.tuples(span, st.integers(0, 3)), max_size=6))
    return n_tokens, [(start, end, ident) for (start, end), ident in mentions]


def conll_text(corpus: list[tuple[int, list[Mention]]], names: list[str]) -> str:
    """The corpus as a CoNLL-2012 file in the simple form (one-token
    mentions as ``(N)``, others as ``(N`` ... ``N)``)."""
    lines = []
    for name, (n_tokens, mentions) in zip(names, corpus):
        marks: list[list[str]] = [[] for _ in range(n_tokens)]
        for start, end, ident in mentions:
            if end - start == 1:
                marks[start].append(f"({ident})")
            else:
                marks[start].append(f"({ident}")
                marks[end - 1].append(f"{ident})")
        lines.append(f"#begin document {name}")
        lines += [f"{name}\t0\t{t}\tw{t}\t{'|'.join(marks[t]) or '-'}" for t in range(n_tokens)]
        lines += ["", "#end document"]
    return "\n".join(lines) + "\n"


@st.composite
def corpus_pairs(draw) -> tuple[str, str]:
    n_docs = draw(st.integers(1, 5))
    names = [f"(d{index}); part 000" for index in range(n_docs)]
    key = [draw(documents()) for _ in range(n_docs)]
    response = [draw(documents()) for _ in range(n_docs)]
    order = draw(st.permutations(range(n_docs)))
    return conll_text(key, names), conll_text([response[i] for i in order], [names[i] for i in order])


def per_document(key: Path, response: Path, options: Options) -> CorpusResult:
    """The per-document path: every document read into its own objects."""
    return per_document_run(key, response, options)[0]


def per_document_run(key: Path, response: Path, options: Options) -> tuple[CorpusResult, list[str]]:
    """:func:`per_document`'s result and the response's document names."""
    sides = [Side(path, FORMAT, list(read_conll(path).values())) for path in (key, response)]
    corpus = pair_sides(*sides, positional=True)
    assert isinstance(corpus.pairs, list)
    return score_pairs(corpus.pairs, options.settings, corpus.warnings), corpus.response_names


def same_twinning(a: CorpusResult, b: CorpusResult) -> None:
    for name in ("key_doc", "response_doc", "offsets", "twins"):
        np.testing.assert_array_equal(getattr(a.twinned, name), getattr(b.twinned, name))
    assert (a.twinned.n_docs, a.twinned.size) == (b.twinned.n_docs, b.twinned.size)
    for side in ("key", "response"):
        same_clusters(getattr(a.twinned, side), getattr(b.twinned, side))


def same_clusters(mine: Clusters, theirs: Clusters) -> None:
    for name in ("starts", "ends", "entity", "n_entities", "repeated", "nodes", "etypes"):
        np.testing.assert_array_equal(getattr(mine, name), getattr(theirs, name))
        assert type(getattr(mine, name)) is type(getattr(theirs, name))
        assert np.asarray(getattr(mine, name)).dtype == np.asarray(getattr(theirs, name)).dtype
    assert (mine.heads is None) == (theirs.heads is None)
    if mine.heads is not None:
        np.testing.assert_array_equal(mine.heads, theirs.heads)


def as_json(result: CorpusResult) -> str:
    return json.dumps(score_json(result, per_doc=True), sort_keys=True)


@given(pair=corpus_pairs(), chosen=st.sampled_from(OPTIONS))
@deterministic(max_examples=120)
def test_columns_score_as_documents(tmp_path_factory, pair, chosen):
    folder = tmp_path_factory.mktemp("small")
    key, response = folder / "key.conll", folder / "response.conll"
    key.write_text(pair[0], encoding="utf8")
    response.write_text(pair[1], encoding="utf8")
    options = Options.from_names(**chosen, stream=False)
    try:
        expected, response_names = per_document_run(key, response, options)
    except CorefInputError as err:
        with pytest.raises(CorefInputError, match=re.escape(str(err))):
            evaluate_corpus(key, response, options)
        return
    run = evaluate_corpus(key, response, options)
    assert isinstance(run.corpus.pairs, StackedPairs)
    assert run.corpus.response_names == response_names
    np.testing.assert_array_equal(run.result.counts, expected.counts)
    assert run.result.warnings == expected.warnings
    assert as_json(run.result) == as_json(expected)
    same_twinning(run.result, expected)
    with limits_env(batch_bytes=64):
        streamed = evaluate_corpus(key, response, Options.from_names(**chosen, twinning=False))
    assert streamed.corpus.streamed
    assert as_json(streamed.result) == as_json(expected)


@given(data=st.data())
@deterministic(max_examples=200)
def test_batch_splits_as_from_arrays(data):
    n_docs = data.draw(st.integers(0, 5))
    row = st.tuples(st.integers(0, max(n_docs - 1, 0)), st.integers(0, 5), st.integers(1, 3), st.integers(0, 3))
    rows = data.draw(st.lists(row, max_size=20 if n_docs else 0))
    rows.sort(key=lambda row: row[0])
    doc, starts, widths, labels = (np.array([row[i] for row in rows], dtype=np.int64) for i in range(4))
    batch = ClustersBatch.build(doc, starts, starts + widths, labels=labels, n_docs=n_docs)
    split = batch.split()
    assert len(split) == n_docs
    order = data.draw(st.permutations(range(n_docs)))
    taken = batch.take(np.array(order, dtype=np.int64)).split()
    for d, index in enumerate(order):
        same_clusters(taken[d], split[index])
    for d in range(n_docs):
        mine = doc == d
        oracle = Clusters.from_arrays(starts[mine], starts[mine] + widths[mine], labels[mine])
        for built in (split[d], batch.document(d)):
            same_clusters(built, oracle)
            assert (built.memberships is None) == (oracle.memberships is None)


def test_litbank_columns_as_documents(tmp_path):
    key, response = data_path("corpora", "litbank.key.conll.gz"), tmp_path / "system.conll"
    corpus = litbank()
    write_conll(response, [(n, d.words, corpus.system[n], d.sentence_starts) for n, d in corpus.documents.items()])
    for chosen in ({}, {"match": "overlap"}):
        options = Options.from_names(**chosen, stream=False)
        run = evaluate_corpus(key, response, options)
        assert isinstance(run.corpus.pairs, StackedPairs)
        expected = per_document(key, response, options)
        assert as_json(run.result) == as_json(expected)
        same_twinning(run.result, expected)


def test_other_pairings_fall_back(tmp_path):
    """Documents missing from the response, or paired by order under
    other names, pair document by document, as before."""
    key, response, shuffled = tmp_path / "key.conll", tmp_path / "response.conll", tmp_path / "shuffled.conll"
    corpus = [(3, [(0, 1, 0), (2, 3, 0)]), (2, [(0, 2, 1)])]
    key.write_text(conll_text(corpus, ["a", "b"]), encoding="utf8")
    response.write_text(conll_text(corpus[:1], ["a"]), encoding="utf8")
    shuffled.write_text(conll_text(corpus[::-1], ["b", "a"]), encoding="utf8")
    run = evaluate_corpus(key, response, Options.from_names(stream=False))
    assert isinstance(run.corpus.pairs, list)
    assert as_json(run.result) == as_json(per_document(key, response, Options.from_names()))
    by_order = evaluate_corpus(key, shuffled, Options.from_names(stream=False, pair_by="order"))
    assert isinstance(by_order.corpus.pairs, list)
    by_name = evaluate_corpus(key, shuffled, Options.from_names(stream=False))
    assert isinstance(by_name.corpus.pairs, StackedPairs)
    assert by_name.corpus.response_names == ["b", "a"]
    assert as_json(by_name.result) == as_json(per_document(key, shuffled, Options.from_names()))


def test_a_name_given_twice_is_the_line_readers_error(tmp_path):
    """The vectorised reader declines a file that names two documents
    alike, so that the line reader names the line (it once kept the last)."""
    path = tmp_path / "twice.conll"
    path.write_text(conll_text([(1, [(0, 1, 0)])] * 2, ["a", "a"]), encoding="utf8")
    with pytest.raises(CorefInputError, match=r"twice.conll:5: document 'a' appears twice \(first at line 1\)"):
        evaluate_corpus(path, path, Options.from_names(stream=False))
