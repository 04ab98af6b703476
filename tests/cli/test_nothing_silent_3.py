"""Issue "Nothing silent, round three": each finding of this part (items
1, 5, 6, 7, 13 and the SIGHUP and ``report`` parts of 11) as a test that
fails before its fix."""

import gzip
import json
import re
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

from benchmarks.perturb import perturb_corpus
from spacy_coref_eval import score_documents
from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.score import DATA
from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats.conll.read import read_conll
from spacy_coref_eval.formats.inputs import InputLimits
from spacy_coref_eval.report.json import score_json as result_json
from spacy_coref_eval.scoring import CorpusResult, Options, evaluate_corpus
from spacy_coref_eval.shards import load_counts, merge_results, save_counts
from tests.cli.test_outputs import WRITER
from tests.conftest import data_path
from tests.support.strategies import deterministic

LITBANK = data_path("corpora", "litbank.key.conll.gz")
GUM = data_path("corpora", "gum-corefud.40docs.conllu.gz")
DEMO_KEY = DATA / "demo.key.conll"


def test_a_hung_up_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    run = subprocess.run([sys.executable, "-c", WRITER, str(target), "SIGHUP"], capture_output=True, text=True)
    assert run.returncode not in (0, -signal.SIGHUP)
    assert target.read_text() == "old"
    assert [path.name for path in tmp_path.iterdir()] == ["out.txt"]


@pytest.fixture(scope="module")
def litbank_result():
    """LitBank scored against a perturbed response, every metric."""
    documents = read_conll(LITBANK, with_words=True)
    key = {name: doc.clusters for name, doc in documents.items()}
    response = perturb_corpus(key, {name: doc.n_tokens for name, doc in documents.items()}, seed=0)
    return score_documents(key, response)


@deterministic(40)
@given(data=st.data())
def test_shards_merged_in_any_partition_and_order_give_the_whole_bytes(litbank_result, data):
    """Item 5: any partition of the documents into shards, merged in any
    order, gives the whole run's bytes."""
    whole = litbank_result
    n = len(whole.names)
    order = data.draw(st.permutations(range(n)))
    cuts = sorted(data.draw(st.sets(st.integers(1, n - 1), max_size=6)))
    parts = [order[a:b] for a, b in zip([0, *cuts], [*cuts, n])]
    shards = [
        CorpusResult(whole.settings, tuple(whole.names[i] for i in part), whole.counts[list(part)], whole.warnings if not at else [])
        for at, part in enumerate(parts)
    ]
    merged = merge_results(shards)
    assert json.dumps(result_json(merged)) == json.dumps(result_json(whole))


MARKS = ["-", "-", "-", "(1)", "(2)", "(1", "1)", "(2", "2)", "(1)|(2)", "(1)-", "(3)"]


@st.composite
def conll_documents(draw, prefix):
    """A few CoNLL-2012 documents, some with unclosed or malformed marks
    and ``#`` token lines (errors and warnings of the reader)."""
    names = draw(st.lists(st.sampled_from("abcdef"), min_size=1, max_size=4, unique=True))
    blocks = []
    for name in names:
        lines = [f"#begin document ({prefix}{name}); part 000"]
        for i in range(draw(st.integers(1, 6))):
            comment = "#" if draw(st.integers(0, 15)) == 0 else ""
            lines.append(f"{comment}{name}\t0\t{i}\tw{i}\t{draw(st.sampled_from(MARKS))}")
        lines.append("#end document")
        blocks.append("\n".join(lines) + "\n")
    return blocks


def run_cli(args, environment):
    result = CliRunner().invoke(app, [*map(str, args)], env=environment)
    return result.exit_code, result.stdout, result.stderr


@deterministic(60)
@given(
    key=conll_documents(""),
    shared=st.lists(st.booleans(), min_size=4, max_size=4),
    extra=conll_documents("x"),
    budget=st.integers(1, 400),
    form=st.sampled_from(["table", "json"]),
)
def test_output_does_not_depend_on_file_size(tmp_path_factory, key, shared, extra, budget, form):
    """Item 1: the same stdout bytes, exit status and warnings whether the
    files are read whole or streamed with any batch budget, response
    documents the key lacks (broken or warned) included."""
    folder = tmp_path_factory.mktemp("pair")
    (folder / "k.conll").write_text("".join(key))
    response = [block for block, keep in zip(key, shared) if keep] + extra
    (folder / "r.conll").write_text("".join(response))
    args = ["score", folder / "k.conll", folder / "r.conll", "-f", form]
    whole = run_cli(args, {"SPACY_COREF_EVAL_BATCH_BYTES": "0"})
    streamed = run_cli(args, {"SPACY_COREF_EVAL_STREAM_FROM": "0", "SPACY_COREF_EVAL_BATCH_BYTES": str(budget)})
    assert streamed == whole


def gum_pair(folder, broken):
    """GUM's first document as the key; as the response, it and the second
    (its ``Entity=`` broken with ``broken``), as in the reproducer."""
    text = gzip.decompress(GUM.read_bytes()).decode("utf8")
    first = text.index("# newdoc id", 10)
    second = text.index("# newdoc id", first + 10)
    (folder / "k.conllu").write_text(text[:first], encoding="utf8")
    extra = text[first:second]
    if broken:
        at = extra.index("Entity=(")
        extra = extra[:at] + "Entity=(((" + extra[at + 8 :]
    (folder / "r.conllu").write_text(text[:first] + extra, encoding="utf8")
    return folder / "k.conllu", folder / "r.conllu"


def run_process(args, environment):
    """A true end-to-end run: a new process reads the environment."""
    import os

    done = subprocess.run(
        [sys.executable, "-m", "spacy_coref_eval", *map(str, args)], capture_output=True, text=True, env={**os.environ, **environment}
    )
    return done.returncode, done.stdout, done.stderr


UNPAIRED = {
    "unclosed": "b\t0\t0\tx\t(1\nb\t0\t1\ty\t(2)\n",
    "token-comment": "#b\t0\t0\tx\t(1)\nb\t0\t1\ty\t(1)\n",
    "dash-mark": "b\t0\t0\tx\t(1)-\nb\t0\t1\ty\t(1)|(1)\n",
}


@pytest.mark.parametrize("extra", list(UNPAIRED))
def test_conll_response_documents_the_key_lacks_are_read_when_streamed(tmp_path, extra):
    """Item 1 (the reproducer): a response document the key lacks, with an
    error or a reader warning, reported as read whole."""
    key = "#begin document (a); part 000\na\t0\t0\tx\t(1)\na\t0\t1\ty\t(1)\n#end document\n"
    (tmp_path / "k.conll").write_text(key)
    (tmp_path / "r.conll").write_text(key + "#begin document (b); part 000\n" + UNPAIRED[extra] + "#end document\n")
    args = ["score", tmp_path / "k.conll", tmp_path / "r.conll", "-f", "json"]
    whole = run_process(args, {"SPACY_COREF_EVAL_BATCH_BYTES": "0"})
    assert whole[0] == (1 if extra == "unclosed" else 0)
    assert run_process(args, {"SPACY_COREF_EVAL_STREAM_FROM": "0", "SPACY_COREF_EVAL_BATCH_BYTES": "1"}) == whole


@pytest.mark.parametrize("broken", [False, True], ids=["valid", "broken-extra"])
def test_conllu_response_documents_the_key_lacks_are_read_when_streamed(tmp_path, broken):
    """Item 1 on CoNLL-U with GRP ids: the Bridge= count of the warning, and
    an error in a document the key lacks, as read whole."""
    key, response = gum_pair(tmp_path, broken)
    args = ["score", key, response, "-f", "json"]
    whole = run_process(args, {"SPACY_COREF_EVAL_BATCH_BYTES": "0"})
    assert whole[0] == (1 if broken else 0)
    assert broken or "Bridge=" in whole[1]
    for budget in (1, 50_000):
        assert run_process(args, {"SPACY_COREF_EVAL_STREAM_FROM": "0", "SPACY_COREF_EVAL_BATCH_BYTES": str(budget)}) == whole


def test_a_run_streams_by_the_limits_it_is_given(tmp_path):
    """The settings object, not a module constant, decides streaming."""
    key, response = gum_pair(tmp_path, False)
    for limits, streamed in ((InputLimits(), False), (InputLimits(stream_from=0, batch_bytes=1), True)):
        run = evaluate_corpus(key, response, Options(twinning=False, limits=limits))
        assert run.corpus.streamed is streamed


@pytest.mark.parametrize(
    "variable, value",
    [
        ("SPACY_COREF_EVAL_STREAM_FROM", "abc"),
        ("SPACY_COREF_EVAL_BATCH_BYTES", "8 MB"),
        ("SPACY_COREF_EVAL_MAX_LINE_BYTES", "0"),
        ("SPACY_COREF_EVAL_MAX_LINE_BYTES", "-1"),
        ("SPACY_COREF_EVAL_MAX_INPUT_BYTES", "1.5"),
    ],
)
def test_a_bad_environment_value_is_one_line_naming_the_variable(variable, value):
    """Item 4 (its environment part): one line naming the variable, not
    ``invalid literal for int()`` or every file read as empty."""
    code, _, stderr = run_cli(["score", DEMO_KEY, DEMO_KEY], {variable: value})
    assert code == 1
    assert stderr.strip().count("\n") == 0 and variable in stderr and "Traceback" not in stderr


def test_sizes_may_be_written_with_a_unit():
    limits = InputLimits.from_environ({"SPACY_COREF_EVAL_BATCH_BYTES": "8M", "SPACY_COREF_EVAL_MAX_LINE_BYTES": "64KiB"})
    assert (limits.batch_bytes, limits.max_line_bytes) == (8 << 20, 64 << 10)


def one_line_bomb(path, size):
    with gzip.open(path, "wb", compresslevel=1) as out:
        for _ in range(size >> 20):
            out.write(b"\0" * (1 << 20))


def newline_bomb(path, size):
    with gzip.open(path, "wb", compresslevel=1) as out:
        for _ in range(size >> 20):
            out.write(b"\n" * (1 << 20))


@pytest.mark.parametrize("stream_from", ["0", str(1 << 40)], ids=["streamed", "whole"])
def test_a_gzip_bomb_is_refused_before_it_is_inflated(tmp_path, stream_from):
    """Item 7: a one-line gzip bomb is refused at the line limit, a newline
    bomb at the input limit once a line's worth is read, on both paths,
    inflating neither (the memory a run holds stays far below the limit)."""
    import tracemalloc

    one_line_bomb(tmp_path / "zeros.conll.gz", 48 << 20)
    newline_bomb(tmp_path / "newlines.conll.gz", 48 << 20)
    environment = {
        "SPACY_COREF_EVAL_STREAM_FROM": stream_from,
        "SPACY_COREF_EVAL_MAX_LINE_BYTES": str(1 << 20),
        "SPACY_COREF_EVAL_MAX_INPUT_BYTES": str(32 << 20),
    }
    for name, says in (
        ("zeros", r"zeros\.conll\.gz:1: line longer than the maximum line length \(1048576 bytes"),
        ("newlines", r"newlines\.conll\.gz: larger than the maximum input size \(33554432 bytes"),
    ):
        tracemalloc.start()
        code, _, stderr = run_cli(["score", DEMO_KEY, tmp_path / f"{name}.conll.gz"], environment)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert code == 1 and re.search(says, stderr), stderr
        assert peak < 8 << 20


LOADED = """
import sys
from spacy_coref_eval.cli import main
sys.argv = ["spacy-coref-eval", "score", sys.argv[1], sys.argv[2], "--n-process", "2", "-f", "json"]
try:
    main()
except SystemExit:
    pass
print("scipy.optimize" in sys.modules, "scipy.sparse.csgraph" in sys.modules, file=sys.stderr)
"""


def test_n_process_with_exact_matching_imports_no_scipy(litbank_files):
    """Item 13: the parent no longer imports SciPy's solvers before forking
    when the settings cannot reach them (exact matching)."""
    import os

    done = subprocess.run(
        [sys.executable, "-c", LOADED, *map(str, litbank_files)],
        capture_output=True,
        text=True,
        env={**os.environ, "SPACY_COREF_EVAL_PARALLEL_FROM": "0"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.split()[-2:] == ["False", "False"]


def test_n_process_below_the_size_where_workers_pay_runs_one_process(litbank_files, monkeypatch):
    """Item 13: a LitBank-size pair with --n-process 2 starts no pool
    (InputLimits.parallel_from), with the bytes of one process."""
    import concurrent.futures

    one = run_cli(["score", *litbank_files, "-f", "json"], {})

    def refused(*args, **kwargs):
        raise AssertionError("a process pool was started")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", refused)
    assert run_cli(["score", *litbank_files, "-f", "json", "--n-process", "2"], {}) == one
    with pytest.raises(AssertionError, match="pool was started"):
        evaluate_corpus(*litbank_files, Options(n_process=2, twinning=False, limits=InputLimits(parallel_from=0)))


@pytest.fixture(scope="module")
def litbank_files(tmp_path_factory):
    from benchmarks.run import litbank_files as files

    key, response, _ = files(tmp_path_factory.mktemp("litbank"))
    return key, response


def saved_counts(tmp_path, litbank_result):
    path = tmp_path / "c.json"
    save_counts(litbank_result, path)
    return path, json.loads(path.read_text())


@pytest.mark.parametrize(
    "metric, field, value, says",
    [
        ("muc", "recall_num", 4.5, "muc recall_num (4.5) is not a whole number"),
        ("bcub", "recall_den", 50_000.0, "bcub recall_den (50000.0) is more than the document's mentions allow"),
        ("ceafe", "precision_den", 50_000.0, "ceafe precision_den (50000.0) is more than the document's mentions allow"),
    ],
)
def test_merge_refuses_counts_a_document_cannot_give(tmp_path, litbank_result, metric, field, value, says):
    """Item 6: a MUC fraction in a document without split antecedents
    (default settings score them), a B3 or CEAF denominator above the
    document's mentions: refused, naming file, document and field."""
    path, data = saved_counts(tmp_path, litbank_result)
    assert data["version"] == 2 and data["split_antecedents"] == []
    name = next(iter(data["documents"]))
    data["documents"][name][metric][field] = value
    path.write_text(json.dumps(data))
    with pytest.raises(CorefInputError, match=re.escape(f"{path}: document {name!r}: {says}")):
        load_counts(path)


def test_counts_files_of_version_1_still_load(tmp_path, litbank_result):
    path, data = saved_counts(tmp_path, litbank_result)
    data["version"] = 1
    del data["split_antecedents"]
    path.write_text(json.dumps(data))
    loaded = load_counts(path)
    assert loaded.splits is None and json.dumps(result_json(loaded)) == json.dumps(result_json(litbank_result))
