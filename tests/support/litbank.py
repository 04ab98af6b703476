"""LitBank with seeded system responses, read and perturbed once per test
run: a system with the perturbation's default error rates and a clearly
damaged copy of it (the system perturbed again at high rates)."""

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from benchmarks.perturb import Errors, perturb_corpus
from spacy_coref_eval import Clusters, read_conll
from spacy_coref_eval.formats.conll.read import ConllDocument
from spacy_coref_eval.formats.conll.write import write_conll
from tests.conftest import data_path

DAMAGE = Errors(drop=0.3, add=0.3, shift=0.3, split=0.3, merge=0.2)


@dataclass(frozen=True)
class Corpus:
    documents: dict[str, ConllDocument]
    key: dict[str, Clusters]
    system: dict[str, Clusters]
    damaged: dict[str, Clusters]

    @property
    def n_tokens(self) -> dict[str, int]:
        return {name: doc.n_tokens for name, doc in self.documents.items()}


@cache
def litbank() -> Corpus:
    documents = read_conll(data_path("corpora", "litbank.key.conll.gz"), with_words=True)
    key = {name: doc.clusters for name, doc in documents.items()}
    n_tokens = {name: doc.n_tokens for name, doc in documents.items()}
    system = perturb_corpus(key, n_tokens, seed=1)
    return Corpus(documents, key, system, perturb_corpus(system, n_tokens, seed=2, errors=DAMAGE))


def litbank_files(folder: Path) -> dict[str, Path]:
    """LitBank's key and its seeded system response written to ``folder``
    as CoNLL-2012 files, by side (``key``, ``response``)."""
    corpus = litbank()
    paths = {"key": folder / "key.conll", "response": folder / "response.conll"}
    for side, clusters in (("key", corpus.key), ("response", corpus.system)):
        write_conll(paths[side], [(n, d.words, clusters[n], d.sentence_starts) for n, d in corpus.documents.items()])
    return paths
