"""Cross-document scoring (docs/crossdoc.md) equals the reference scorer's
numbers on the concatenated file, one ``#begin document`` per topic or
for the whole corpus: the oracle here writes that file and scores it the
package's usual way (whose default settings reproduce the reference
scorer, tests/test_conformance.py)."""
import re
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_coref_eval.cli import app
from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats.topics import CORPUS_TOPIC, topic_of
from spacy_coref_eval.scoring import evaluate_corpus

DATA = Path(__file__).resolve().parent.parent / "spacy_coref_eval" / "data"
KEY, RESPONSE = DATA / "ecb.key.conll", DATA / "ecb.response.conll"
TOPICS = r"^(\d+)_"
Mention = Tuple[int, int, str]


def blocks(text: str) -> Dict[str, List[str]]:
    """The token lines (blank lines kept) of every document of a CoNLL file."""
    out: Dict[str, List[str]] = {}
    name = None
    for line in text.split("\n"):
        if line.startswith("#begin document "):
            name = line[len("#begin document "):]
            out[name] = []
        elif line.startswith("#end document"):
            name = None
        elif name is not None:
            out[name].append(line)
    return out


def concatenated(text: str, order: Sequence[str], pattern: Optional[str]) -> str:
    """The documents of ``text`` in ``order``, each topic's one after the
    other in one ``#begin document`` block (one block without a pattern)."""
    documents = blocks(text)
    topics: Dict[str, List[str]] = {}
    for name in order:
        topic = re.search(pattern, name).group(1) if pattern else CORPUS_TOPIC
        lines = [line for line in documents.get(name, []) if line.strip()] or []
        topics.setdefault(topic, []).extend(lines)
    return "".join(f"#begin document {topic}\n" + "\n".join(lines) + "\n#end document\n" for topic, lines in topics.items())


def oracle(key: Path, response: Path, pattern: Optional[str], tmp: Path, **names) -> Dict:
    order = list(blocks(key.read_text()))
    paths = []
    for side, path in (("key", key), ("response", response)):
        paths.append(tmp / f"oracle.{side}.conll")
        paths[-1].write_text(concatenated(path.read_text(), order, pattern))
    run = evaluate_corpus(*paths, **names)
    return {"corpus": run.metrics(), "documents": run.result.document_metrics()}


def crossdoc(key: Path, response: Path, pattern: Optional[str], **names) -> Dict:
    run = evaluate_corpus(key, response, cross_document=True, topic_pattern=pattern, **names)
    return {"corpus": run.metrics(), "documents": run.result.document_metrics()}


def same(a, b) -> None:
    assert a.keys() == b.keys()
    for name in a:
        if isinstance(a[name], dict):
            same(a[name], b[name])
        else:
            assert a[name] == pytest.approx(b[name], rel=1e-12, abs=1e-12), name


@pytest.mark.parametrize("pattern", [None, TOPICS])
@pytest.mark.parametrize("metrics", [None, ["muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mor"]])
def test_the_bundled_example_equals_its_concatenation(tmp_path, pattern, metrics):
    names = {} if metrics is None else {"metrics": metrics}
    assert crossdoc(KEY, RESPONSE, pattern, **names)["documents"].keys() == ({"1", "2"} if pattern else {"corpus"})
    same(crossdoc(KEY, RESPONSE, pattern, **names), oracle(KEY, RESPONSE, pattern, tmp_path, **names))


def test_shared_ids_link_documents():
    """Documents scored apart see no link between them: the example's
    cross-document links change MUC."""
    alone = evaluate_corpus(KEY, RESPONSE).metrics()["muc"]
    together = evaluate_corpus(KEY, RESPONSE, cross_document=True).metrics()["muc"]
    assert (alone["recall_den"], together["recall_den"]) == (5, 9)


def write_conll(path: Path, documents: Sequence[Tuple[str, int, Sequence[Mention]]]) -> None:
    """Documents ``(name, n_tokens, mentions)`` with their entity ids as given."""
    out = []
    for name, n_tokens, mentions in documents:
        marks: List[List[str]] = [[] for _ in range(n_tokens)]
        for start, end, ident in sorted(mentions, key=lambda m: (m[0], -m[1])):
            if end - start == 1:
                marks[start].append(f"({ident})")
            else:
                marks[start].append(f"({ident}")
        for start, end, ident in sorted(mentions, key=lambda m: (-m[0], m[1])):
            if end - start > 1:
                marks[end - 1].append(f"{ident})")
        out.append(f"#begin document {name}")
        out += [f"{name}\t0\t{i}\tw{i}\t{'|'.join(m) or '-'}" for i, m in enumerate(marks)]
        out.append("#end document")
    path.write_text("\n".join(out) + "\n")


@st.composite
def corpora(draw):
    """Key and response documents with ids drawn from one small pool, so that
    entities span documents; ids plain numbers (the vectorised reader) or
    not (the line reader)."""
    prefix = draw(st.sampled_from(["", "e"]))
    ids = st.integers(0, 4).map(lambda i: f"{prefix}{i}")
    n_docs = draw(st.integers(1, 5))
    names = [f"{draw(st.integers(1, 3))}_{index}doc" for index in range(n_docs)]
    sizes = [draw(st.integers(1, 7)) for _ in names]

    def side():
        documents = []
        for name, size in zip(names, sizes):
            spans = st.tuples(st.integers(0, size - 1), st.integers(1, 3)).map(lambda s: (s[0], min(size, s[0] + s[1])))
            mentions = draw(st.lists(st.tuples(spans, ids).map(lambda m: (*m[0], m[1])), max_size=5))
            documents.append((name, size, mentions))
        return documents

    key, response = side(), side()
    return key, draw(st.permutations(response))


@settings(max_examples=60, deadline=None)
@given(corpora(), st.sampled_from([None, TOPICS]))
def test_random_corpora_equal_their_concatenation(tmp_path_factory, corpus, pattern):
    tmp = tmp_path_factory.mktemp("xdoc")
    key, response = tmp / "key.conll", tmp / "response.conll"
    write_conll(key, corpus[0])
    write_conll(response, corpus[1])
    names = {"metrics": ["muc", "bcub", "ceafm", "ceafe", "blanc", "lea"]}
    same(crossdoc(key, response, pattern, **names), oracle(key, response, pattern, tmp, **names))


def test_topic_of():
    pattern = re.compile(TOPICS)
    assert [topic_of(name, pattern) for name in ("12_3ecb", "12_4ecbplus", "3_1ecb")] == ["12", "12", "3"]
    assert topic_of("anything", None) == CORPUS_TOPIC
    assert topic_of("abc_d", re.compile("[a-z]+")) == "abc"
    with pytest.raises(CorefInputError, match="'x_1': its name does not match"):
        topic_of("x_1", pattern)


def test_cli_lists_topics_and_says_why_it_refuses(tmp_path):
    runner = CliRunner()
    result = runner.invoke(app, ["score", str(KEY), str(RESPONSE), "--topic-pattern", TOPICS, "--per-doc"])
    assert result.exit_code == 0, result.output
    assert re.search(r"^1 +\d", result.output, re.MULTILINE) and re.search(r"^2 +\d", result.output, re.MULTILINE)
    bad = runner.invoke(app, ["score", str(KEY), str(RESPONSE), "--topic-pattern", "^(x)"])
    assert bad.exit_code == 1 and "does not match --topic-pattern" in bad.output and "Traceback" not in bad.output
    unclosed = runner.invoke(app, ["score", str(KEY), str(RESPONSE), "--topic-pattern", "("])
    assert unclosed.exit_code == 1 and "is not a regular expression" in unclosed.output
    jsonlines = tmp_path / "r.jsonlines"
    jsonlines.write_text('{"doc_key": "1_1ecb", "sentences": [["a"]], "clusters": []}\n')
    other = runner.invoke(app, ["score", str(KEY), str(jsonlines), "--cross-document"])
    assert other.exit_code == 1 and "CoNLL-2012 files only" in other.output
