"""The CorefUD CoNLL-U reader: conformance files and GUM against udapi (the
library the official CorefUD scorer reads files with), hand-made cases,
errors, key/response alignment, and a round-trip property."""

import gzip
import logging
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats.conllu.document import check_aligned, node_key
from spacy_coref_eval.formats.conllu.read import parse_conllu, read_conllu
from tests.conftest import REPO
from tests.support.strategies import collector_paused, deterministic

DATA = REPO / "tests" / "data"
CONFORMANCE = DATA / "conformance" / "corefud"
GUM = DATA / "corpora" / "gum-corefud.40docs.conllu.gz"
CONFORMANCE_FILES = sorted(p for p in CONFORMANCE.rglob("TC-*") if p.suffix in (".key", ".response"))

NodeKey = tuple[int, int, int]
MentionView = tuple[str, tuple[NodeKey, ...], NodeKey]


def _split_key(key: int) -> NodeKey:
    return key >> 40, (key >> 16) & ((1 << 24) - 1), key & 0xFFFF


def our_mentions(path: Path) -> dict[str, set[MentionView]]:
    """Every mention as (eid, node keys, head key) by document."""
    out = {}
    for name, doc in read_conllu(path).documents.items():
        keys = doc.word_keys()
        out[name] = {
            (
                doc.entities[int(doc.mention_entity[m])],
                tuple(_split_key(k) for k in doc.node_keys_of(m, keys)),
                _split_key(doc.head_key_of(m, keys)),
            )
            for m in range(len(doc))
        }
    return out


def udapi_mentions(path: Path) -> dict[str, set[MentionView]]:
    """The same, as udapi reads them (test-only reference)."""
    from udapi.block.read.conllu import Conllu
    from udapi.core.document import Document

    text = gzip.open(path, "rt").read() if path.suffix == ".gz" else path.read_text()
    plain = Path(pytest.tmp_dir) / (path.name.replace(".gz", "") + ".conllu")
    plain.write_text(text)
    document = Document()
    logging.disable(logging.WARNING)
    try:
        with collector_paused():
            Conllu(files=[str(plain)]).apply_on_document(document)
        entities = document.coref_entities
    finally:
        logging.disable(logging.NOTSET)
    place = {}
    out: dict[str, set[MentionView]] = {}
    name, ordinal, index = None, 0, 0
    for tree in document.trees:
        if tree.newdoc:
            ordinal += 1
            name = tree.newdoc.strip() if tree.newdoc is not True else str(ordinal)
            out[name] = set()
            index = 0
        place[tree] = (name, index)
        index += 1

    def key(node, sentence: int) -> NodeKey:
        if isinstance(node.ord, float):
            major, minor = str(node.ord).split(".")
            return sentence, int(major), int(minor)
        return sentence, int(node.ord), 0

    for entity in entities:
        eid = entity.eid.split(".", 1)[1] if "GRP" in document.meta["global.Entity"] else entity.eid
        for mention in entity.mentions:
            doc_name, sentence = place[mention.words[0].root]
            nodes = tuple(sorted(key(w, sentence) for w in mention.words))
            out[doc_name].add((eid, nodes, key(mention.head, sentence)))
    return out


@pytest.fixture(autouse=True)
def _tmp(tmp_path):
    pytest.tmp_dir = str(tmp_path)


@pytest.mark.parametrize("path", CONFORMANCE_FILES, ids=lambda p: p.name)
def test_conformance_file_matches_udapi(path):
    ours = our_mentions(path)
    assert ours == udapi_mentions(path)
    assert sum(len(m) for m in ours.values()) > 0 or path.suffix == ".response"


def test_gum_matches_udapi():
    ours = our_mentions(GUM)
    assert len(ours) == 40
    assert ours == udapi_mentions(GUM)


def test_gum_words_sentences_and_warning():
    text = gzip.open(GUM, "rt", encoding="utf8").read()
    lines = text.split("\n")
    word_lines = [line.split("\t") for line in lines if line[:1].isdigit() and line.split("\t")[0].isdigit()]
    empty_lines = [line for line in lines if line[:1].isdigit() and "." in line.split("\t")[0]]
    parsed = read_conllu(GUM)
    docs = list(parsed.documents.values())
    assert [w for d in docs for w in d.words] == [f[1] for f in word_lines]
    assert [u for d in docs for u in d.upos] == [f[3] for f in word_lines]
    assert [x for d in docs for x in d.xpos] == [f[4] for f in word_lines]
    assert [x for d in docs for x in d.feats] == [f[5] for f in word_lines]
    assert sum(len(d.empty_nodes) for d in docs) == len(empty_lines)
    assert [s for d in docs for s in d.sentence_ids] == [line.split("=", 1)[1].strip() for line in lines if line.startswith("# sent_id")]
    assert list(parsed.documents) == [line.split("=", 1)[1].strip() for line in lines if line.startswith("# newdoc id")]
    bridges = sum(item.startswith("Bridge=") for line in lines if line[:1].isdigit() for item in line.split("\t")[-1].split("|"))
    splits = sum(item.startswith("SplitAnte=") for line in lines if line[:1].isdigit() for item in line.split("\t")[-1].split("|"))
    assert (parsed.bridges, parsed.split_antecedents) == (bridges, splits)
    assert f"{bridges} Bridge= and {splits} SplitAnte=" in parsed.warnings()[0]
    for doc in docs:
        assert doc.word_ords.tolist() == [
            o for s in range(doc.n_sentences) for o in range(1, int(doc.sentence_starts[s + 1] - doc.sentence_starts[s]) + 1)
        ]


def _sentence(rows: list[str], sent_id: str = "s1", doc: str = "d", header: str = "eid-etype-head-other") -> str:
    head = [f"# newdoc id = {doc}"] if doc else []
    if header:
        head.append(f"# global.Entity = {header}")
    head.append(f"# sent_id = {sent_id}")
    lines = []
    for row in rows:
        ident, _, misc = row.partition(" ")
        lines.append("\t".join([ident, f"w{ident}", "_", "X", "x", "_", "0", "_", "_", misc or "_"]))
    return "\n".join(head + lines) + "\n\n"


def test_discontinuous_mention_is_a_word_set_with_head_over_all_parts():
    text = _sentence(["1", "2 Entity=(e1[1/2]-x-4-", "3 Entity=e1[1/2])", "4", "5 Entity=(e1[2/2]-x-4-", "6 Entity=e1[2/2])"])
    (m,) = parse_conllu(text).documents["d"].mentions()
    assert (m.eid, m.words, m.head, m.contiguous, m.zero) == ("e1", (1, 2, 4, 5), 5, False, False)


def test_zero_mention_and_head_counting_empty_nodes():
    text = _sentence(["1 Entity=(e1-x-2-", "1.1", "2 Entity=e1)", "3", "3.1 Entity=(e2-x-1-)", "4 Entity=(e2-x-1-)"])
    doc = parse_conllu(text).documents["d"]
    outer, zero, word = doc.mentions()
    assert (outer.words, outer.empty, outer.head, outer.zero, outer.contiguous) == ((0, 1), (0,), 0, True, True)
    assert (zero.words, zero.empty, zero.head, zero.zero) == ((), (1,), 1, True)
    assert (int(doc.mention_start[1]), int(doc.mention_end[1])) == (3, 3)
    assert (word.words, word.head, word.zero) == ((3,), 3, False)
    assert [e.id for e in doc.empty_nodes] == ["1.1", "3.1"]
    assert [e.after for e in doc.empty_nodes] == [1, 3]
    assert doc.empty_nodes[1].key == node_key(0, 3, 1)
    assert doc.words == ["w1", "w2", "w3", "w4"]


def test_head_defaults_to_first_word_without_head_field_and_grp_is_the_eid():
    text = _sentence(["1 Entity=(7-person-x", "2", "3 Entity=7)", "4 Entity=(7-person-y)"], header="GRP-etype-infstat")
    doc = parse_conllu(text).documents["d"]
    assert [(m.eid, m.etype, m.words, m.head) for m in doc.mentions()] == [("7", "person", (0, 1, 2), 0), ("7", "person", (3,), 3)]


def test_multiword_tokens_are_not_words():
    text = _sentence(["1-2 Entity=", "1 Entity=(e1-x-2-", "2 Entity=e1)", "3"])
    text = text.replace("1-2\tw1-2\t_\tX\tx\t_\t0\t_\t_\tEntity=", "1-2\tdon't\t_\t_\t_\t_\t_\t_\t_\t_")
    doc = parse_conllu(text).documents["d"]
    assert doc.words == ["w1", "w2", "w3"]
    assert [(m.words, m.head) for m in doc.mentions()] == [((0, 1), 1)]


def test_same_entity_nesting_closes_latest_first():
    text = _sentence(["1 Entity=(e1-x-1-", "2 Entity=(e1-x-1-", "3 Entity=e1)", "4 Entity=e1)"])
    doc = parse_conllu(text).documents["d"]
    assert sorted(m.words for m in doc.mentions()) == [(0, 1, 2, 3), (1, 2)]


def test_documents_without_id_are_numbered_and_bridges_counted():
    text = (
        _sentence(["1 Entity=(e1-x-1-)|Bridge=e1<e2", "2"], doc="")
        + "# newdoc\n"
        + _sentence(["1 SplitAnte=e1<e3,e2<e3", "2"], doc="", header="")
    )
    parsed = parse_conllu(text)
    assert list(parsed.documents) == ["1", "2"]
    assert (parsed.bridges, parsed.split_antecedents) == (1, 1)


@pytest.mark.parametrize(
    "rows, header, message",
    [
        (["1 Entity=(e1-x-1-", "2"], "eid-etype-head", "line 4: mention of entity e1 opened here is never closed"),
        (["1", "2 Entity=e5)"], "eid-etype-head", "line 5: entity e5: a mention closes here that was never opened"),
        (["1 Entity=(e1-x-1-)"], "etype-head", "line 2: '# global.Entity = etype-head' names no eid"),
        (["1 Entity=e1(x"], "eid-etype-head", "line 4: malformed Entity=e1(x"),
        (["1 Entity=(e1-x-3-", "2 Entity=e1)"], "eid-etype-head", "line 4: entity e1: head index 3 outside"),
        (["1 Entity=(e1-x-h-)"], "eid-etype-head", "line 4: entity e1: head index 'h' is not a number"),
        (["1 Entity=(e1[2/2]-x-1-)"], "eid-etype-head", "line 4: entity e1: subspan [2/2] opens"),
        (["1 Entity=(e1[1/2]-x-1-)", "2"], "eid-etype-head", "line 4: discontinuous mention of entity e1 opened here has 1 of its 2"),
        (["1 Entity=(=-x-1-)"], "eid-etype-head", "line 4: entity id '=' contains a character"),
        (["1 Entity=(e1-x-1-)"], "", "line 3: Entity= annotation but no '# global.Entity' header"),
    ],
)
def test_errors_name_line_and_entity(rows, header, message):
    text = _sentence(rows, header=header)
    with pytest.raises(CorefInputError) as err:
        parse_conllu(text, source="f.conllu")
    assert f"f.conllu:{message.split('line ', 1)[1]}" in str(err.value) if message.startswith("line ") else message in str(err.value)


def test_more_errors():
    crossing = _sentence(["1 Entity=(e1-x-1-", "2"]) + _sentence(["1 Entity=e1)"], sent_id="s2", doc="")
    with pytest.raises(CorefInputError, match=r"f:4: mention of entity e1 opened here closes at line 9, in another sentence"):
        parse_conllu(crossing, source="f")
    with pytest.raises(CorefInputError, match=r"f:4: 9 tab-separated field\(s\)"):
        parse_conllu(_sentence(["1"]).replace("\t_\tX", "\tX", 1), source="f")
    with pytest.raises(CorefInputError, match=r"f:5: comment line inside a sentence"):
        parse_conllu(_sentence(["1", "2"]).replace("\n2\t", "\n# c\n2\t"), source="f")
    with pytest.raises(CorefInputError, match=r"f:\d+: document 'd' appears twice"):
        parse_conllu(_sentence(["1"]) + _sentence(["1"]), source="f")
    with pytest.raises(CorefInputError, match=r"f:5: ID 3 where word 2 is due"):
        parse_conllu(_sentence(["1", "3"]), source="f")
    with pytest.raises(CorefInputError, match=r"f:4: Entity= on a multiword token line"):
        parse_conllu(_sentence(["1-2 Entity=(e1-x-1-)", "1", "2"]), source="f")


def test_check_aligned_names_the_first_differing_sentence():
    key = parse_conllu(_sentence(["1", "2"]) + _sentence(["1", "2"], sent_id="s2", doc=""), "key").documents["d"]
    same = parse_conllu(_sentence(["1", "1.1", "2"]) + _sentence(["1", "2"], sent_id="s2", doc=""), "r").documents["d"]
    check_aligned(key, same)
    other = parse_conllu(_sentence(["1", "2"]) + _sentence(["1"], sent_id="s2", doc=""), "r").documents["d"]
    with pytest.raises(CorefInputError, match=r"r:9: document 'd', sentence 2 \(sent_id s2\): 1 word\(s\), the key's has 2"):
        check_aligned(key, other)
    renamed = parse_conllu(_sentence(["1", "2"]) + _sentence(["1", "2"], sent_id="x", doc=""), "r").documents["d"]
    check_aligned(key, renamed)  # sentence ids change no score (a file converted through CoNLL-2012 has new ones)
    renamed_other = parse_conllu(_sentence(["1", "2"]) + _sentence(["1"], sent_id="x", doc=""), "r").documents["d"]
    with pytest.raises(CorefInputError, match=r"sentence 2 \(sent_id x\): 1 word\(s\), the key's has 2"):
        check_aligned(key, renamed_other)
    shorter = parse_conllu(_sentence(["1", "2"]), "r").documents["d"]
    with pytest.raises(CorefInputError, match="has 1 sentence"):
        check_aligned(key, shorter)


def _write(sentences: list[list[tuple[str, list[str]]]]) -> str:
    """CoNLL-U text from sentences of (ID, Entity chunks) rows."""
    out = ["# newdoc id = p", "# global.Entity = eid-etype-head-other"]
    for s, rows in enumerate(sentences):
        out.append(f"# sent_id = {s}")
        for ident, chunks in rows:
            misc = "Entity=" + "".join(chunks) if chunks else "_"
            out.append("\t".join([ident, "w", "_", "_", "_", "_", "0", "_", "_", misc]))
        out.append("")
    return "\n".join(out) + "\n"


@st.composite
def _documents(draw):
    """Sentences with words, empty nodes and well-nested mentions (one
    subspan each) and the expected (node keys, head key) of each mention."""
    sentences, expected = [], []
    for s in range(draw(st.integers(1, 3))):
        nodes = []
        for word in range(1, draw(st.integers(1, 6)) + 1):
            nodes.append((str(word), (s, word, 0)))
            for minor in range(1, draw(st.integers(0, 1)) + 1):
                nodes.append((f"{word}.{minor}", (s, word, minor)))
        chunks = [[[], []] for _ in nodes]
        spans = []
        for _ in range(draw(st.integers(0, 4))):
            a = draw(st.integers(0, len(nodes) - 1))
            b = draw(st.integers(a, len(nodes) - 1))
            if any(x < a <= y < b or a < x <= b < y for x, y in spans) or (a, b) in spans:
                continue
            spans.append((a, b))
        for _n, (a, b) in enumerate(sorted(spans, key=lambda span: (span[0], -span[1]))):
            head = draw(st.integers(1, b - a + 1))
            eid = f"e{draw(st.integers(0, 2))}"
            if a == b:
                chunks[a][0].append(f"({eid}-t-{head}-)")
            else:
                chunks[a][0].append(f"({eid}-t-{head}-")
                chunks[b][1].insert(0, f"{eid})")
            expected.append((eid, tuple(key for _, key in nodes[a : b + 1]), nodes[a + head - 1][1]))
        sentences.append([(ident, close + open_) for (ident, _), (open_, close) in zip(nodes, chunks)])
    return sentences, expected


@deterministic(max_examples=150)
@given(_documents())
def test_round_trip_of_written_mentions(case):
    sentences, expected = case
    doc = parse_conllu(_write(sentences)).documents["p"]
    keys = doc.word_keys()
    got = [
        (
            doc.entities[int(doc.mention_entity[m])],
            tuple(_split_key(k) for k in doc.node_keys_of(m, keys)),
            _split_key(doc.head_key_of(m, keys)),
        )
        for m in range(len(doc))
    ]
    assert sorted(got) == sorted(expected)
    for m in range(len(doc)):
        words = doc.words_of(m)
        assert list(words) == list(range(int(doc.mention_start[m]), int(doc.mention_end[m])))
        assert bool(doc.mention_zero[m]) == (got[m][2][2] > 0)
