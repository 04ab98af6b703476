"""Issue "Nothing silent, round three": each finding of this part (items
1, 5, 6, 7, 13 and the SIGHUP and ``report`` parts of 11) as a test that
fails before its fix."""
import json
import signal
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.perturb import perturb_corpus
from spacy_coref_eval import score_documents
from spacy_coref_eval.formats.conll.read import read_conll
from spacy_coref_eval.report.json import score_json as result_json
from spacy_coref_eval.scoring import CorpusResult
from spacy_coref_eval.shards import merge_results

from .conftest import data_path

LITBANK = data_path("corpora", "litbank.key.conll.gz")

WRITER = """
import os, signal, sys
from spacy_coref_eval.files import open_output
with open_output(sys.argv[1], "w") as out:
    out.write("new")
    out.flush()
    os.kill(os.getpid(), getattr(signal, sys.argv[2]))
"""


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


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_shards_merged_in_any_partition_and_order_give_the_whole_bytes(litbank_result, data):
    """Item 5: any partition of the documents into shards, merged in any
    order, gives the whole run's bytes."""
    whole = litbank_result
    n = len(whole.names)
    order = data.draw(st.permutations(range(n)))
    cuts = sorted(data.draw(st.sets(st.integers(1, n - 1), max_size=6)))
    parts = [order[a:b] for a, b in zip([0, *cuts], [*cuts, n])]
    shards = [CorpusResult(whole.settings, tuple(whole.names[i] for i in part), whole.counts[list(part)], whole.warnings if not at else [])
              for at, part in enumerate(parts)]
    merged = merge_results(shards)
    assert json.dumps(result_json(merged)) == json.dumps(result_json(whole))
