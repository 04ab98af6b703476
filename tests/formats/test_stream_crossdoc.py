"""Cross-document scoring of two CoNLL-2012 files read a batch of documents
at a time (docs/streaming.md §1): each document kept as its mentions with
ids, the topics and every output the same as reading both files whole."""

import json

import pytest
from hypothesis import given, strategies as st

from spacy_coref_eval.analysis.summary import Breakdowns, analyse
from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats import stream
from spacy_coref_eval.report.json import score_json
from spacy_coref_eval.scoring import Options, evaluate_corpus
from tests.analysis.test_crossdoc import KEY, RESPONSE, TOPICS, corpora, written
from tests.support.strategies import deterministic, limits_env, patched

pytestmark = pytest.mark.usefixtures("stream_files_of_any_size")


def outcome(key, response, streamed, budget=1, **names):
    """The JSON, warnings and cross-document links of a run, and whether
    its files were read a batch at a time."""
    calls = []
    original = stream.stream_topic_sides

    def recorded(*args, **kwargs):
        calls.append(original(*args, **kwargs))
        return calls[-1]

    options = Options.from_names(cross_document=True, stream=streamed, **names)
    with limits_env(batch_bytes=budget), patched(stream, "stream_topic_sides", recorded):
        run = evaluate_corpus(key, response, options)
    links = analyse(run.result, breakdowns=Breakdowns(cross_document=True), corpus=run.corpus).cross_document
    out = json.dumps([score_json(run.result, per_doc=True), links.to_dict()], sort_keys=True)
    documents = [(d.parts, d.offsets.tolist(), d.sentence_starts) for d in run.corpus.key_documents]
    return out, run.result.warnings, documents, any(c is not None for c in calls)


def failure_or_outcome(*args, **names):
    """:func:`outcome`, or the error's message."""
    try:
        return outcome(*args, **names)
    except CorefInputError as err:
        return str(err), None, None, False


@pytest.mark.parametrize("pattern", [None, TOPICS])
@pytest.mark.parametrize("budget", [1, 200, 1 << 20])
def test_the_bundled_example_streams_as_it_reads_whole(pattern, budget):
    whole = outcome(KEY, RESPONSE, False, budget, topic_pattern=pattern)
    streamed = outcome(KEY, RESPONSE, True, budget, topic_pattern=pattern)
    assert streamed[:3] == whole[:3]
    assert (whole[3], streamed[3]) == (False, True)


@deterministic(max_examples=40)
@given(corpora(), st.sampled_from([None, TOPICS]), st.sampled_from([1, 300]), st.sampled_from([None, "order"]))
def test_random_corpora_stream_as_they_read_whole(tmp_path_factory, corpus, pattern, budget, pair_by):
    key, response = written(tmp_path_factory.mktemp("xdoc-stream"), corpus)
    names = {"topic_pattern": pattern, "pair_by": pair_by, "metrics": ["muc", "bcub", "ceafe", "blanc", "lea"]}
    whole = failure_or_outcome(key, response, False, budget, **names)
    streamed = failure_or_outcome(key, response, True, budget, **names)
    assert streamed[:3] == whole[:3]
    assert streamed[3] or whole[1] is None


def test_each_topic_is_the_topic_read_whole():
    with limits_env(batch_bytes=1):
        corpus = stream.stream_topic_sides(KEY, RESPONSE, pattern=TOPICS)
    whole = evaluate_corpus(KEY, RESPONSE, Options.from_names(cross_document=True, topic_pattern=TOPICS, stream=False)).corpus
    assert len(corpus.pairs) == 2
    for streamed, read in zip(corpus.pairs, whole.pairs):
        assert (streamed.name, streamed.n_tokens) == (read.name, read.n_tokens)
        assert streamed.key.entities() == read.key.entities()
        assert streamed.response.entities() == read.response.entities()


def test_conllu_and_small_files_are_read_whole(tmp_path):
    from tests.conftest import data_path

    gum = data_path("corpora", "gum-corefud.40docs.conllu.gz")
    with limits_env(batch_bytes=1):
        assert stream.stream_topic_sides(gum, gum) is None
    with limits_env(stream_from=1 << 30):
        assert stream.stream_topic_sides(KEY, RESPONSE) is None
