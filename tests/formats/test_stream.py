"""Streaming (docs/streaming.md): the document index, batches within their
budget, and runs read a batch at a time giving the bytes the whole-file
path gives, on LitBank and on random corpora."""

import gzip
import json
import re
import shutil

import pytest
from hypothesis import assume, given, strategies as st

from spacy_coref_eval import Clusters
from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats import stream
from spacy_coref_eval.formats.conll.write import write_conll
from spacy_coref_eval.formats.corpus import read_side
from spacy_coref_eval.formats.jsonlines.write import write_jsonlines
from spacy_coref_eval.formats.registry import format_of
from spacy_coref_eval.report.json import score_json
from spacy_coref_eval.scoring import Options, evaluate_corpus
from tests.conftest import data_path
from tests.support.strategies import corpora, deterministic, limits_env, patched

pytestmark = pytest.mark.usefixtures("stream_files_of_any_size")


LITBANK = data_path("corpora", "litbank.key.conll.gz")
GUM = data_path("corpora", "gum-corefud.40docs.conllu.gz")


def scored(key, response, streamed, **options):
    """The JSON (per document) and the warnings of a run, and whether it streamed."""
    run = evaluate_corpus(key, response, Options.from_names(twinning=False, stream=streamed, **options))
    return json.dumps(score_json(run.result, per_doc=True), sort_keys=True), run.result.warnings, run.corpus.streamed


def outcome(key, response, streamed, **options):
    """:func:`scored`, or the error's message."""
    try:
        return scored(key, response, streamed, **options)
    except CorefInputError as err:
        return str(err), None, False


def assert_same(key, response, budget, **options):
    whole = outcome(key, response, False, **options)
    with limits_env(batch_bytes=budget):
        streamed = outcome(key, response, True, **options)
    assert streamed[:2] == whole[:2]
    assert not whole[2]
    return streamed[2]


@pytest.fixture(scope="module")
def litbank_pair(tmp_path_factory):
    """LitBank's key decompressed and a perturbed response."""
    from benchmarks.run import litbank_files

    key, response, _ = litbank_files(tmp_path_factory.mktemp("litbank"))
    return key, response


@pytest.mark.parametrize("path", [LITBANK, GUM], ids=["conll", "conllu"])
def test_every_entry_reads_as_its_document_in_the_whole_file(path, tmp_path):
    fmt = format_of(path)
    whole = read_side(path)
    index = stream.index_file(path, fmt, tmp_path)
    assert [entry.name for entry in index.entries] == [document.name for document in whole.documents]
    assert index.entries[0].start == 0 and all(a.end == b.start for a, b in zip(index.entries, index.entries[1:]))
    for i in (0, len(index.entries) // 2, len(index.entries) - 1):
        alone = fmt.parse(index.read([i]), path, stream.ReadOptions("key"))
        assert [d.name for d in alone.documents] == [whole.documents[i].name]
        assert alone.documents[0].n_tokens == whole.documents[i].n_tokens
        assert len(alone.documents[0].clusters) == len(whole.documents[i].clusters)


@pytest.mark.parametrize("fmt", [pytest.param("conll", marks=pytest.mark.slow), "jsonlines"])  # conll: LitBank in 7-byte reads
def test_the_index_does_not_depend_on_how_much_is_read_at_a_time(litbank_pair, tmp_path, fmt):
    path = litbank_pair[1] if fmt == "conll" else litbank_as_jsonlines(litbank_pair[1], tmp_path, "response")
    whole = stream.index_file(path, format_of(path), tmp_path)
    for chunk in (7, 4096):
        with patched(stream, "_CHUNK", chunk):
            assert stream.index_file(path, format_of(path), tmp_path).entries == whole.entries


def test_jsonlines_entries_are_lines(tmp_path):
    path = tmp_path / "x.jsonlines"
    text = '\n{"doc_key": "a\\"b", "sentences": [["x"]], "clusters": []}\n\n{"sentences": [["y"]], "doc_key": "c"}\n'
    path.write_text(text)
    index = stream.index_file(path, format_of(path), tmp_path)
    assert [(e.name, e.start) for e in index.entries] == [('a"b', 0), ("c", text.index('{"sentences"'))]
    assert index.entries[-1].end == path.stat().st_size
    path.write_text('{"doc_key": "a", "sentences": [["x"]], "clusters": []}\n{"sentences": [["y"]]}\n')
    with pytest.raises(stream.Fallback):
        stream.index_file(path, format_of(path), tmp_path)


@given(st.lists(st.integers(0, 50), max_size=30), st.integers(1, 120), st.integers(1, 3))
@deterministic(200)
def test_a_batch_never_holds_more_than_its_budget(sizes, budget, n_process):
    bounds = stream.batches(sizes, budget, n_process)
    assert [i for start, stop in bounds for i in range(start, stop)] == list(range(len(sizes)))
    limit = budget if n_process == 1 else max(1, min(budget, sum(sizes) // (4 * n_process)))
    for start, stop in bounds:
        assert stop - start == 1 or sum(sizes[start:stop]) <= limit


@pytest.mark.parametrize("budget", [1, 300_000, 16 << 20])
def test_litbank_streamed_gives_the_whole_file_bytes(litbank_pair, budget):
    assert assert_same(*litbank_pair, budget)


def test_files_smaller_together_than_stream_from_are_read_whole(litbank_pair):
    """Both LitBank files come to about 20 MB, under the default
    STREAM_FROM: read whole, with the same bytes."""
    assert sum(path.stat().st_size for path in litbank_pair) < 32 << 20
    with limits_env(stream_from=32 << 20):
        assert not assert_same(*litbank_pair, 1 << 20)


def test_litbank_gz_streamed_in_parallel(litbank_pair, tmp_path):
    key = tmp_path / "key.conll.gz"
    with open(litbank_pair[0], "rb") as source, gzip.open(key, "wb") as target:
        shutil.copyfileobj(source, target)
    assert assert_same(key, litbank_pair[1], 1 << 20, n_process=2)


def test_the_response_indexed_in_a_forked_process_gives_the_same_plan(litbank_pair, tmp_path):
    """With --n-process 2 the response is indexed in a forked process (a
    .gz decompressed there): the same plan, the parent's own formats, and
    the response's Fallback raised in the parent."""
    response = tmp_path / "response.conll.gz"
    with open(litbank_pair[1], "rb") as source, gzip.open(response, "wb") as target:
        shutil.copyfileobj(source, target)
    plans = [stream.plan_stream(litbank_pair[0], response, n_process=n) for n in (1, 2)]
    for side in ("key", "response"):
        one, two = (getattr(plan, side) for plan in plans)
        assert (one.entries, one.header, one.seen, one.path) == (two.entries, two.header, two.seen, two.path)
        assert one.format is two.format
        assert two.file.read_bytes() == one.file.read_bytes()
    assert plans[0].triples == plans[1].triples
    for plan in plans:
        plan.__exit__()
    broken = tmp_path / "broken.conll"
    broken.write_text("#begin document (a); part 000\nw 0 0 w - - - - - - -\n")
    with pytest.raises(stream.Fallback, match="end document"):
        stream.plan_stream(litbank_pair[0], broken, n_process=2)


def test_runs_needing_every_document_are_read_whole(litbank_pair):
    run = evaluate_corpus(*litbank_pair, Options(twinning=True))
    assert not run.corpus.streamed and run.result.twinned is not None


def write(path, documents, fmt):
    """``{name: (clusters, n_tokens)}`` as a CoNLL-2012 or jsonlines file."""
    if fmt == "conll":
        write_conll(path, [(name, [f"w{i}" for i in range(n)], c, [0]) for name, (c, n) in documents.items()])
    else:
        write_jsonlines(path, [(name, [[f"w{i}" for i in range(n)]], c) for name, (c, n) in documents.items()])


@given(
    corpora(max_documents=6),
    st.sampled_from(["conll", "jsonlines"]),
    st.randoms(use_true_random=False),
    st.integers(1, 2000),
    st.integers(1, 2),
    st.sampled_from([None, "name", "order"]),
)
@deterministic(40, shrink=False)
def test_random_corpora_streamed_give_the_whole_file_bytes(tmp_path_factory, corpus, fmt, rng, budget, n_process, pair_by):
    keys, responses = corpus
    folder = tmp_path_factory.mktemp("random")
    sizes = {
        name: max([end for entity in keys[name] for _, end in entity] + [end for entity in responses[name] for _, end in entity] + [1])
        + rng.randint(0, 3)
        for name in keys
    }
    key = {name: (Clusters.from_entities(keys[name]), sizes[name]) for name in keys}
    names = [name for name in keys if rng.random() < 0.8] + (["extra"] if rng.random() < 0.3 else [])
    rng.shuffle(names)
    response = {name: (Clusters.from_entities(responses[name]) if name in responses else Clusters(), sizes.get(name, 2)) for name in names}
    if not response:
        return
    suffix = ".conll" if fmt == "conll" else ".jsonlines"
    try:
        write(folder / f"key{suffix}", key, fmt)
        write(folder / f"response{suffix}", response, fmt)
    except CorefInputError:
        assume(False)  # mentions of one entity that cross, which CoNLL-2012 brackets cannot write
    paths = folder / f"key{suffix}", folder / f"response{suffix}"
    streamed = assert_same(*paths, budget, n_process=n_process, pair_by=pair_by)
    assert streamed or outcome(*paths, False, pair_by=pair_by)[1] is None  # else an error, as read whole


def litbank_as_jsonlines(conll, folder, name):
    """A LitBank CoNLL file as jsonlines (its words, sentences and clusters)."""
    from spacy_coref_eval.formats.jsonlines.write import write_side

    path = folder / f"{name}.jsonlines"
    write_side(path, _with_words(conll), [])
    return path


def _with_words(path):
    from spacy_coref_eval.formats.base import ReadOptions

    return format_of(path).read(path, ReadOptions("key", words=True)).documents


@pytest.mark.slow  # LitBank three times, whole and streamed
def test_jsonlines_and_mixed_formats_stream(litbank_pair, tmp_path):
    key, response = (litbank_as_jsonlines(path, tmp_path, name) for path, name in zip(litbank_pair, ("key", "response")))
    assert assert_same(key, response, 1 << 20)
    assert assert_same(litbank_pair[0], response, 1 << 20, n_process=2)
    assert assert_same(key, litbank_pair[1], 1 << 20)


def test_bad_input_in_a_later_batch_gives_the_whole_file_error(litbank_pair, tmp_path):
    text = litbank_pair[1].read_text(encoding="utf8")
    last = text.rindex("#begin document")
    bad = tmp_path / "bad.conll"
    mark = re.search(r"\(([0-9]+)\)\n", text[last:])
    bad.write_text(text[:last] + text[last:].replace(mark.group(), f"({mark.group(1)}\n", 1), encoding="utf8")
    messages = []
    for streamed in (False, True):
        with limits_env(batch_bytes=1 << 20), pytest.raises(CorefInputError) as caught:
            scored(litbank_pair[0], bad, streamed)
        messages.append(str(caught.value))
    assert messages[0] == messages[1] and str(bad) in messages[0]


def test_reader_warnings_read_the_files_whole(litbank_pair, tmp_path):
    text = litbank_pair[1].read_text(encoding="utf8")
    second = text.index("#begin document", 1)
    noted = tmp_path / "noted.conll"
    noted.write_text(text[:second] + text[second:].replace("\n\n", "\n# a comment\n\n", 1), encoding="utf8")
    assert not assert_same(litbank_pair[0], noted, 1 << 20)
    assert any("starting with '#'" in note for note in scored(litbank_pair[0], noted, True)[1])


def test_score_command_prints_the_same_bytes_streamed(litbank_pair):
    from click.testing import CliRunner

    from spacy_coref_eval.cli import app

    outputs = []
    for budget, n_process in ((0, 1), (1 << 20, 1), (1 << 20, 2)):
        with limits_env(batch_bytes=budget):
            result = CliRunner().invoke(app, ["score", *map(str, litbank_pair), "--per-doc", "--n-process", str(n_process)])
        assert result.exit_code == 0, result.output
        outputs.append(result.output)
    assert outputs[0] == outputs[1] == outputs[2]


def test_parallel_streaming_forks_without_scipy(litbank_pair, monkeypatch):
    """The parent imports nothing before forking that the workers do not
    need: exact matching of CoNLL files needs no SciPy."""
    from tests.meta.test_layers import loaded_after

    monkeypatch.setenv("SPACY_COREF_EVAL_STREAM_FROM", "0")

    argv = ["score", *map(str, litbank_pair), "-f", "json", "--n-process", "2"]
    assert loaded_after([argv], "m == 'scipy' or m.startswith('scipy.')") == ""


@given(
    st.lists(st.sampled_from(["\n", "\n\n", "", "# note\n", "stray\n"]), min_size=4, max_size=4),
    st.booleans(),
    st.booleans(),
    st.integers(1, 3000),
)
@deterministic(30, shrink=False)
def test_odd_layouts_stream_or_read_whole_alike(tmp_path_factory, gaps, crlf, last_newline, budget):
    """Lines between documents, CRLF ends, no final newline: the run
    streams or reads whole, and gives the whole-file bytes (or error)."""
    folder = tmp_path_factory.mktemp("odd")
    documents = {f"d{i}": (Clusters.from_entities([[(0, 1), (2, 3)]] if i % 2 else [[(1, 2)]]), 4) for i in range(4)}
    write(folder / "key.conll", documents, "conll")
    text = (folder / "key.conll").read_text()
    parts = text.split("#begin document")
    text = "#begin document".join(gap + part if i else part for i, (gap, part) in enumerate(zip(["", *gaps], parts)))
    text = text.replace("\n", "\r\n") if crlf else text
    (folder / "response.conll").write_text(text if last_newline else text.rstrip("\r\n"), newline="")
    outcomes = []
    for budget_now in (0, budget):
        with limits_env(batch_bytes=budget_now):
            try:
                outcomes.append(scored(folder / "key.conll", folder / "response.conll", budget_now > 0)[:2])
            except CorefInputError as err:
                outcomes.append(str(err))
    assert outcomes[0] == outcomes[1]


def test_bytes_given_for_a_file_keep_its_line_limit(tmp_path):
    from spacy_coref_eval.formats.inputs import check_lines

    path = tmp_path / "x.conll"
    for data, too_long in ((b"abc\nabcde\nab", False), (b"ab\nabcdef\nx", True), (b"abcdef", True), (b"abc\nabcdef", True)):
        if too_long:
            with pytest.raises(CorefInputError, match="line longer"):
                check_lines(data, path, 5)
        else:
            check_lines(data, path, 5)
    assert not path.exists()
