"""LitBank scale: the command line's JSON on the whole corpus against a
perturbed copy equals the naive oracle, document by document, summed."""

import json

import pytest
from click.testing import CliRunner

from benchmarks.perturb import perturb_corpus
from spacy_coref_eval.cli import app
from spacy_coref_eval.formats.conll.read import read_conll
from spacy_coref_eval.formats.conll.write import write_conll
from tests.conftest import data_path
from tests.support.oracle import add_counts, assert_counts_close, naive_counts

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("seed", [11])
def test_cli_on_litbank_equals_the_oracle(tmp_path, seed):
    documents = read_conll(data_path("corpora", "litbank.key.conll.gz"), with_words=True)
    key = {name: doc.clusters for name, doc in documents.items()}
    response = perturb_corpus(key, {name: doc.n_tokens for name, doc in documents.items()}, seed=seed)
    paths = {side: tmp_path / f"{side}.conll" for side in ("key", "response")}
    for side, clusters in (("key", key), ("response", response)):
        write_conll(paths[side], [(n, d.words, clusters[n], d.sentence_starts) for n, d in documents.items()])
    result = CliRunner().invoke(app, ["score", str(paths["key"]), str(paths["response"]), "-f", "json"])
    assert result.exit_code == 0, result.output
    metrics = json.loads(result.stdout)["metrics"]
    expected = None
    for name in documents:
        counts = naive_counts(key[name].entities(), response[name].entities())
        expected = counts if expected is None else add_counts(expected, counts)
    engine = {metric: {f: metrics[metric][f] for f in expected[metric]} for metric in expected if metric != "blanc"}
    engine["blanc"] = {part: {f: metrics["blanc"][part][f] for f in expected["blanc"][part]} for part in expected["blanc"]}
    assert_counts_close(engine, expected)
    assert metrics["mentions"]["recall_den"] == 29103
