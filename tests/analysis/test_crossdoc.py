"""Cross-document scoring (docs/crossdoc.md) equals the reference scorer's
numbers on the concatenated file, one ``#begin document`` per topic or
for the whole corpus: the oracle here writes that file and scores it the
package's usual way (whose default settings reproduce the reference
scorer, tests/conformance/test_conformance.py)."""

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Optional

import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

from spacy_coref_eval.cli import app
from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats.topics import CORPUS_TOPIC, topic_of
from spacy_coref_eval.scoring import evaluate_corpus
from tests.conftest import REPO
from tests.support.strategies import deterministic

DATA = REPO / "spacy_coref_eval" / "data"
KEY, RESPONSE = DATA / "ecb.key.conll", DATA / "ecb.response.conll"
TOPICS = r"^(\d+)_"
Mention = tuple[int, int, str]


def blocks(text: str) -> dict[str, list[str]]:
    """The token lines (blank lines kept) of every document of a CoNLL file."""
    out: dict[str, list[str]] = {}
    name = None
    for line in text.split("\n"):
        if line.startswith("#begin document "):
            name = line[len("#begin document ") :]
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
    topics: dict[str, list[str]] = {}
    for name in order:
        topic = re.search(pattern, name).group(1) if pattern else CORPUS_TOPIC
        lines = [line for line in documents.get(name, []) if line.strip()] or []
        topics.setdefault(topic, []).extend(lines)
    return "".join(f"#begin document {topic}\n" + "\n".join(lines) + "\n#end document\n" for topic, lines in topics.items())


def oracle(key: Path, response: Path, pattern: Optional[str], tmp: Path, **names) -> dict:
    order = list(blocks(key.read_text()))
    paths = []
    for side, path in (("key", key), ("response", response)):
        paths.append(tmp / f"oracle.{side}.conll")
        paths[-1].write_text(concatenated(path.read_text(), order, pattern))
    run = evaluate_corpus(*paths, **names)
    return {"corpus": run.metrics(), "documents": run.result.document_metrics()}


def crossdoc(key: Path, response: Path, pattern: Optional[str], **names) -> dict:
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


def write_conll(path: Path, documents: Sequence[tuple[str, int, Sequence[Mention]]]) -> None:
    """Documents ``(name, n_tokens, mentions)`` with their entity ids as given."""
    out = []
    for name, n_tokens, mentions in documents:
        marks: list[list[str]] = [[] for _ in range(n_tokens)]
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


def written(folder: Path, corpus) -> tuple[Path, Path]:
    """A drawn corpus's key and response as CoNLL files in ``folder``."""
    key, response = folder / "key.conll", folder / "response.conll"
    write_conll(key, corpus[0])
    write_conll(response, corpus[1])
    return key, response


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


@deterministic(60)
@given(corpora(), st.sampled_from([None, TOPICS]))
def test_random_corpora_equal_their_concatenation(tmp_path_factory, corpus, pattern):
    key, response = written(tmp_path_factory.mktemp("xdoc"), corpus)
    tmp = key.parent
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
    assert other.exit_code == 1 and "CoNLL-2012 and CorefUD CoNLL-U files only" in other.output


def links_oracle(key, response, parts):
    """Naive within/across counts of one topic under exact matching and the
    conll policy, by enumerating pairs of mentions: ``key`` and ``response``
    map spans to entities, ``parts`` gives the document of a span."""
    from itertools import combinations

    def side_entities(side):
        out = {}
        for span, entity in side.items():
            out.setdefault(entity, []).append(span)
        return list(out.values())

    def recall(gold, system):
        muc = [0, 0, 0, 0]
        lea = [0.0, 0.0, 0.0, 0.0]
        coref = [0, 0, 0, 0]
        for entity in side_entities(gold):
            pieces = {}
            for span in entity:
                pieces.setdefault(parts(span), []).append(span)
            for piece in pieces.values():
                cells = {system.get(span, ("alone", span)) for span in piece}
                muc[0] += len(piece) - len(cells)
                muc[1] += len(piece) - 1
            parent = {p: p for p in pieces}

            def root(p):
                while parent[p] != p:
                    p = parent[p]
                return p

            for a, b in combinations(entity, 2):
                if a in system and b in system and system[a] == system[b]:
                    parent[root(parts(a))] = root(parts(b))
            muc[2] += len(pieces) - len({root(p) for p in pieces})
            muc[3] += len(pieces) - 1
            size = len(entity)
            if size == 1:
                span = entity[0]
                found = span in system and sum(1 for s in system if system[s] == system[span]) == 1
                lea[0] += found
                lea[1] += 1
                continue
            links = size * (size - 1) / 2
            for a, b in combinations(entity, 2):
                same = parts(a) == parts(b)
                found = a in system and b in system and system[a] == system[b]
                lea[0 if same else 2] += size * found / links
                lea[1 if same else 3] += size / links
                coref[0 if same else 2] += found
                coref[1 if same else 3] += 1
        return muc, lea, coref

    def noncoref(gold, system):
        out = [0, 0, 0, 0]
        for a, b in combinations(sorted(gold), 2):
            if gold[a] == gold[b]:
                continue
            across = 2 * (parts(a) != parts(b))
            out[across + 1] += 1
            out[across] += a in system and b in system and system[a] != system[b]
        return out

    result = {}
    for index, name in enumerate(("muc", "lea", "blanc_coref")):
        r, p = recall(key, response)[index], recall(response, key)[index]
        result[name] = {"within": (r[0], r[1], p[0], p[1]), "across": (r[2], r[3], p[2], p[3])}
    r, p = noncoref(key, response), noncoref(response, key)
    result["blanc_noncoref"] = {"within": (r[0], r[1], p[0], p[1]), "across": (r[2], r[3], p[2], p[3])}
    return result


def spans_of(clusters):
    return {(int(s), int(e)): int(k) for s, e, k in zip(clusters.starts, clusters.ends, clusters.entity)}


@deterministic(60)
@given(corpora(), st.sampled_from([None, TOPICS]))
def test_links_within_and_across_equal_a_naive_oracle(tmp_path_factory, corpus, pattern):
    from spacy_coref_eval.analysis.crossdoc import PARTS, cross_document
    from spacy_coref_eval.counting.counts import BLOCK_INDEX

    key, response = written(tmp_path_factory.mktemp("links"), corpus)
    run = evaluate_corpus(key, response, cross_document=True, topic_pattern=pattern)
    split = cross_document(run.result, run.corpus.key_documents)
    for index, (pair, document) in enumerate(zip(run.corpus.pairs, run.corpus.key_documents)):
        expected = links_oracle(spans_of(pair.key), spans_of(pair.response), lambda span: int(document.part_of(span[0])))
        for block, parts in expected.items():
            for p, part in enumerate(PARTS):
                got = split.counts[index, p, BLOCK_INDEX[block]]
                assert got.tolist() == pytest.approx(list(parts[part]), abs=1e-9), (block, part)
        for block in ("blanc_coref", "blanc_noncoref", "lea"):
            whole = run.result.documents[pair.name].block(block)
            assert split.counts[index, :, BLOCK_INDEX[block]].sum(axis=0).tolist() == pytest.approx(list(whole), abs=1e-9)


@pytest.mark.parametrize("twinless", ["conll", "b3all", "b30", "sys"])
@pytest.mark.parametrize("match", ["exact", "overlap"])
def test_within_and_across_add_up_under_every_policy(twinless, match):
    from spacy_coref_eval.analysis.crossdoc import cross_document
    from spacy_coref_eval.counting.counts import BLOCK_INDEX

    run = evaluate_corpus(KEY, RESPONSE, cross_document=True, topic_pattern=TOPICS, twinless=twinless, match=match)
    split = cross_document(run.result, run.corpus.key_documents)
    for index, name in enumerate(run.result.names):
        for block in ("blanc_coref", "blanc_noncoref", "lea"):
            whole = run.result.documents[name].block(block)
            assert split.counts[index, :, BLOCK_INDEX[block]].sum(axis=0).tolist() == pytest.approx(list(whole))


def test_within_equals_the_documents_scored_apart():
    """MUC and BLANC within documents are the documents' own scores (exact
    matching: the same twins)."""
    within = evaluate_corpus(KEY, RESPONSE, topic_pattern=TOPICS, cross_document=True)
    from spacy_coref_eval.analysis.crossdoc import cross_document

    block = cross_document(within.result, within.corpus.key_documents).to_dict()["within"]
    alone = evaluate_corpus(KEY, RESPONSE).metrics()
    same(block["muc"], alone["muc"])
    same(block["blanc"], alone["blanc"])


def test_json_and_table_show_links_and_mentions_apart():
    import json

    runner = CliRunner()
    result = runner.invoke(app, ["score", str(KEY), str(RESPONSE), "--topic-pattern", TOPICS, "-f", "json", "--per-doc"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data["cross_document"]) == {"within", "across", "documents"}
    assert set(data["cross_document"]["within"]) == {"muc", "blanc", "lea"}
    assert set(data["cross_document"]["documents"]) == {"1", "2"}
    assert "mentions" in data["metrics"]
    table = runner.invoke(app, ["score", str(KEY), str(RESPONSE), "--cross-document", "--metrics", "muc"])
    assert "MUC across" in table.output and "Mention detection is scored apart from linking" in table.output
    assert re.search(r"^Mentions +\d", table.output, re.MULTILINE)


def test_ids_compare_alike_whichever_reader_reads_them(tmp_path):
    """A directory of two files, one read by the vectorised reader (ids as
    numbers) and one by the line reader (CRLF lines: ids as strings), each
    holding one document of every topic, gives what the two files joined
    into one file give."""
    documents = blocks(KEY.read_text())
    names = list(documents)
    folder = tmp_path / "key"
    folder.mkdir()

    def text(chosen):
        return "".join(f"#begin document {n}\n" + "\n".join(documents[n]) + "\n#end document\n" for n in chosen)

    (folder / "a.conll").write_text(text(names[0::2]))
    (folder / "b.conll").write_bytes(text(names[1::2]).replace("\n", "\r\n").encode())
    joined = tmp_path / "joined.conll"
    joined.write_text(text(names[0::2] + names[1::2]))
    from spacy_coref_eval.formats.conll.read import read_conll_documents

    kinds = {n: d.mentions.ids.dtype.kind for n, d in read_conll_documents(folder, with_ids=True).items()}
    assert kinds == {names[0]: "i", names[2]: "i", names[1]: "U", names[3]: "U"}
    for pattern in (None, TOPICS):
        same(crossdoc(folder, RESPONSE, pattern), crossdoc(joined, RESPONSE, pattern))
