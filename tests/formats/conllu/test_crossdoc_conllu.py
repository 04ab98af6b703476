"""Cross-document scoring of CorefUD CoNLL-U files (docs/crossdoc.md §1):
``Entity=`` ids shared across ``# newdoc`` documents form one entity, and
the scores equal those of the file with every topic's documents
concatenated into one ``# newdoc``, scored the usual way. GUM documents
(heads, zeros, discontinuous mentions) against a seeded perturbation."""

import re
from typing import Optional

import numpy as np
import pytest
from click.testing import CliRunner

from spacy_coref_eval.cli import app
from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats.topics import compile_topic_pattern, topic_of
from spacy_coref_eval.scoring import evaluate_corpus
from tests.support.gum_pair import write_gum_pair

PATTERNS = (None, r"^GUM_[a-z]+_.(.)")
"""The corpus as one topic; topics by a name's second letter (interleaved:
erasmus and grounded form one, family and lambada another)."""


@pytest.fixture(scope="module")
def gum(tmp_path_factory):
    return write_gum_pair(tmp_path_factory.mktemp("gum"), 8)


def documents(text: str) -> dict[str, list[str]]:
    """Every ``# newdoc`` document's lines, by name, in file order."""
    out: dict[str, list[str]] = {}
    name = None
    for line in text.splitlines():
        found = re.match(r"# newdoc id = (.*)$", line)
        if found:
            name = found.group(1)
            out[name] = []
            continue
        out[name].append(line)
    return out


def concatenated(text: str, pattern: Optional[str]) -> str:
    """The file with one ``# newdoc`` per topic holding its documents' sentences in order."""
    topics: dict[str, list[str]] = {}
    compiled = compile_topic_pattern(pattern)
    for name, lines in documents(text).items():
        topic = topics.setdefault(topic_of(name, compiled), [])
        body = [line for line in lines if not line.startswith("# global.Entity") or not topic]
        topic.extend(body if not body or body[-1] == "" else body + [""])
    return "".join(f"# newdoc id = {topic}\n" + "\n".join(lines).rstrip("\n") + "\n\n" for topic, lines in topics.items())


@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("preset", [None, "corefud"])
def test_scores_equal_the_concatenation(gum, tmp_path, pattern, preset):
    key, response = gum
    joined = []
    for path in (key, response):
        target = tmp_path / f"joined.{path.name}"
        target.write_text(concatenated(path.read_text(encoding="utf-8"), pattern), encoding="utf-8")
        joined.append(target)
    crossdoc = evaluate_corpus(key, response, cross_document=True, topic_pattern=pattern, preset=preset)
    reference = evaluate_corpus(*joined, preset=preset)
    assert crossdoc.result.names == reference.result.names
    assert len(crossdoc.result.names) == (1 if pattern is None else 6)
    np.testing.assert_allclose(crossdoc.result.counts, reference.result.counts, rtol=1e-12, atol=1e-12)
    assert crossdoc.metrics()["muc"]["f1"] < 1


def test_ids_join_entities_across_documents(gum):
    """The corpus as one topic has fewer entities than its documents apart
    (GUM numbers entities from 1 in every document), and keeps etypes."""
    key, response = gum
    apart = evaluate_corpus(key, key, twinning=True).result.twinned
    together = evaluate_corpus(key, key, cross_document=True).result.twinned
    assert len(together.key) == len(apart.key)
    assert together.key.n_entities < apart.key.n_entities
    assert together.key.etypes is not None and "person" in set(together.key.etypes)


def test_within_and_across_links_and_lea_by_type(gum, tmp_path):
    key, response = gum
    weights = tmp_path / "weights.json"
    weights.write_text('{"person": 2, "place": 1}', encoding="utf-8")
    result = CliRunner().invoke(
        app, ["score", str(key), str(response), "--topic-pattern", PATTERNS[1], "--format", "json", "--metrics", "muc,blanc,lea"]
    )
    assert result.exit_code == 0, result.output
    assert '"across"' in result.output
    typed = CliRunner().invoke(
        app,
        [
            "score",
            str(key),
            str(response),
            "--cross-document",
            "--metrics",
            "lea",
            "--lea-importance",
            "entity-type",
            "--lea-weights",
            str(weights),
        ],
    )
    assert typed.exit_code != 0 and "not by type" in typed.output
    typed = evaluate_corpus(key, response, cross_document=True, metrics=["lea"], lea_importance="entity-type", lea_weights={"person": 2})
    assert 0 < typed.metrics()["lea"]["f1"] < 1


def test_a_conllu_key_needs_a_conllu_response(gum, tmp_path):
    key, _ = gum
    conll = tmp_path / "response.conll"
    assert CliRunner().invoke(app, ["convert", str(key), str(conll)]).exit_code == 0
    with pytest.raises(CorefInputError, match="pairs a CoNLL-U key with a CoNLL-U response"):
        evaluate_corpus(key, conll, cross_document=True)
