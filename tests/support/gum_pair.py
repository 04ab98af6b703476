"""GUM documents (CorefUD CoNLL-U, with heads, zeros and discontinuous
mentions) against a seeded perturbation of them, as files, for the
analyses' tests."""

import gzip
import json
from pathlib import Path

from benchmarks.perturb_corefud import keep_documents, perturb_corefud
from tests.conftest import data_path


def write_gum_pair(folder: Path, n_documents: int = 8) -> tuple[Path, Path]:
    """The first ``n_documents`` documents of tests/data/corefud-rerun's
    GUM selection and their perturbation, written to ``folder``."""
    official = json.loads(data_path("corefud-rerun", "gum_perturbed.json").read_text())
    key = gzip.open(data_path("corpora", "gum-corefud.40docs.conllu.gz"), "rt", encoding="utf-8").read()
    response = perturb_corefud(key, official["seed"])
    documents = official["documents"][:n_documents]
    key_path, response_path = folder / "key.conllu", folder / "response.conllu"
    key_path.write_text(keep_documents(key, documents), encoding="utf-8")
    response_path.write_text(keep_documents(response, documents), encoding="utf-8")
    return key_path, response_path
