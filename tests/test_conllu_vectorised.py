"""The vectorised CoNLL-U reading (``Entity=`` brackets of every simple
document paired at once) gives exactly what the state machine gives, and
leaves to it every document it cannot read: random files with nested,
same-start, one-word and crossing mentions, multiword tokens, empty nodes,
comments, ``# global.Entity`` variants and malformed values, the 40 GUM
documents and the conformance files."""
import dataclasses
import gzip
from pathlib import Path
from typing import List, Optional, Union

import numpy as np
import pytest
from hypothesis import given, strategies as st

from spacy_coref_eval.arrays import pair_brackets
from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats.conllu import parse as parse_module
from spacy_coref_eval.formats.conllu.document import ConlluFile, CorefUDDocument
from spacy_coref_eval.formats.conllu.parse import FileParser
from spacy_coref_eval.formats.conllu.vectorised import _codes, byte_words, gather_lines, numbers, starts_with

from .strategies import deterministic, patched

DATA = Path(__file__).resolve().parent / "data"
GUM = DATA / "corpora" / "gum-corefud.40docs.conllu.gz"
CONFORMANCE = sorted(p for p in (DATA / "conformance" / "corefud").rglob("TC-*") if p.suffix in (".key", ".response"))

HEADERS = [
    "eid-etype-head-other", "GRP-etype-infstat-salience", "eid-etype", "etype-eid-head", "entity-GRP-x-head", "eid",
    "eid-head",
]
EIDS = ["e1", "e2", "e3", "7", "12", "c8", "a_rather_long_entity_id"]
ETYPES = ["person", "", "place", "organization", "ünï"]
HEADS = ["0", "+1", "01", "x", "", "١", "123456789"]
JUNK = [
    "(", ")", "()", "((e1", "e9)", "(e1-x-1-)e1)", "\x00", " ", "(e 1)", "(=)", "(e1[1/2]-x-1)", "(-x-1)",
    "e1-x)", "(e1-x-99-)", "e1)(", "(e1", "[",
]
MISC_OTHER = ["SpaceAfter=No", "Bridge=e1<e2", "SplitAnte=e1<e3", "Split=e2<e3", "MSeg=a-b"]


@st.composite
def mention_chunks(draw, fields: List[str], n_nodes: int, junk: bool):
    """Openings and closings of random mentions over ``n_nodes`` nodes, by
    node: nested, same-start, one-node and crossing ones, sometimes
    discontinuous, heads sometimes odd."""
    openings: List[List[str]] = [[] for _ in range(n_nodes)]
    closings: List[List[str]] = [[] for _ in range(n_nodes)]
    singles: List[List[str]] = [[] for _ in range(n_nodes)]
    for _ in range(draw(st.integers(0, 2 * n_nodes))):
        start = draw(st.integers(0, n_nodes - 1))
        last = draw(st.integers(start, min(start + 4, n_nodes - 1)))
        eid = draw(st.sampled_from(EIDS))
        size = last - start + 1
        head = str(draw(st.integers(1, size)))
        if junk and draw(st.integers(0, 9)) == 0:
            head = draw(st.sampled_from(HEADS + [str(size + 1)]))
        elif draw(st.integers(0, 5)) == 0:
            head = "0" * draw(st.integers(1, 2)) + head
        split = size > 2 and draw(st.integers(0, 14)) == 0
        values = {"eid": eid, "GRP": eid, "etype": draw(st.sampled_from(ETYPES)), "head": head}
        values["entity"] = values["etype"]
        body = [values.get(name, draw(st.sampled_from(["x", "new", "acc:com"]))) for name in fields]
        shortest = 1 if junk else 1 + max(i for i, name in enumerate(fields) if name in ("eid", "GRP"))
        if draw(st.integers(0, 7)) == 0:
            body = body[:draw(st.integers(shortest, len(body)))]
        if split:
            first = "-".join([f"{eid}[1/2]" if f in ("eid", "GRP") else v for f, v in zip(fields, body)])
            second = "-".join([f"{eid}[2/2]" if f in ("eid", "GRP") else v for f, v in zip(fields, body)])
            singles[start].append(f"({first})")
            singles[last].append(f"({second})")
        elif start == last:
            singles[start].append(f"({'-'.join(body)})")
        else:
            openings[start].append(f"({'-'.join(body)}")
            closings[last].insert(0, f"{eid})")
    out = []
    for node in range(n_nodes):
        chunks = closings[node] + openings[node] + singles[node]
        if junk and draw(st.integers(0, 9)) == 0:
            chunks = draw(st.permutations(chunks))
        if junk and draw(st.integers(0, 29)) == 0:
            chunks = list(chunks)
            chunks.insert(draw(st.integers(0, len(chunks))), draw(st.sampled_from(JUNK)))
        out.append("".join(chunks))
    return out


@st.composite
def conllu_texts(draw, junk: bool = False):
    """CoNLL-U files of up to three documents."""
    lines: List[str] = []
    for d in range(draw(st.integers(0, 3))):
        newdoc = draw(st.sampled_from([f"# newdoc id = d{d}", "# newdoc", f"# newdoc id =  d{d} ", None]))
        if newdoc is not None and (d or draw(st.booleans())):
            lines.append(newdoc)
        header = draw(st.sampled_from(HEADERS))
        with_empty = draw(st.booleans())
        if not junk or draw(st.integers(0, 14)):
            lines.append(f"# global.Entity = {header}")
        for s in range(draw(st.integers(1, 3))):
            sent_id = draw(st.sampled_from([f"# sent_id = d{d}s{s}", f"# sent_id=d{d}-{s}", "# sent_id", "#sent_id = z",
                                            f"# sent_id = d{d}s{s} extra", None]))
            if sent_id is not None:
                lines.append(sent_id)
            lines.append(f"# text = sentence {s}")
            rows = _rows(draw, header.split("-"), junk, with_empty)
            lines.extend(rows)
            lines.append("")
    return "\n".join(lines) + ("\n" if draw(st.booleans()) else "")


def _rows(draw, fields: List[str], junk: bool, with_empty: bool) -> List[str]:
    """Token lines of one sentence: words, multiword ranges before some
    words and (``with_empty``) empty nodes after some, with mentions over
    words and empty nodes."""
    n_words = draw(st.integers(1, 6))
    ids = []
    for word in range(1, n_words + 1):
        if word < n_words and draw(st.integers(0, 4)) == 0:
            ids.append(f"{word}-{word + 1}")
        ids.append(str(word))
        for minor in range(1, draw(st.sampled_from([0] * 8 + [1, 2])) + 1 if with_empty else 1):
            ids.append(f"{word}.{minor}")
    nodes = [i for i, ident in enumerate(ids) if "-" not in ident]
    chunks = draw(mention_chunks(fields, len(nodes), junk))
    entity = {row: value for row, value in zip(nodes, chunks)}
    if junk and draw(st.integers(0, 19)) == 0:
        ranges = [i for i, ident in enumerate(ids) if "-" in ident]
        if ranges:
            entity[ranges[0]] = "(e1-x-1-)"
    rows = []
    for i, ident in enumerate(ids):
        items = [f"Entity={entity[i]}"] if entity.get(i) else []
        items += draw(st.lists(st.sampled_from(MISC_OTHER), max_size=2, unique=True))
        items = draw(st.permutations(items))
        misc = "|".join(items) or "_"
        deps = "_" if "." not in ident else draw(st.sampled_from(["_", "1:nsubj", "2.1:obj|1:x"]))
        form = draw(st.sampled_from(["w", "Wort", "ünï", "(", "e1)", "x-y"]))
        rows.append("\t".join([ident, form, "_", "X", "x", "Number=Sing|Case=Nom", "0", "_", deps, misc]))
    if junk and draw(st.integers(0, 199)) == 0:
        rows.insert(draw(st.integers(1, len(rows))), "# comment inside")
    return rows


Outcome = Union[ConlluFile, str]


def outcome(data: bytes, vectorised: bool) -> Outcome:
    """The file read by the vectorised path or by the state machine alone,
    or the message of the error it raised."""
    try:
        return FileParser(data, "t.conllu", vectorised).parse()
    except CorefInputError as err:
        return str(err)


def assert_same(fast: Outcome, slow: Outcome) -> None:
    """The two readings are equal: same error, or same documents field by
    field (arrays with their dtypes)."""
    if isinstance(slow, str) or isinstance(fast, str):
        assert fast == slow
        return
    assert list(fast.documents) == list(slow.documents)
    assert (fast.bridges, fast.split_antecedents) == (slow.bridges, slow.split_antecedents)
    for name in slow.documents:
        a, b = fast.documents[name], slow.documents[name]
        for column in dataclasses.fields(CorefUDDocument):
            x, y = getattr(a, column.name), getattr(b, column.name)
            if isinstance(y, np.ndarray):
                assert x.dtype == y.dtype and np.array_equal(x, y), (name, column.name)
            elif column.name == "token_columns":
                assert (a.upos, a.xpos, a.feats) == (b.upos, b.xpos, b.feats), name
            else:
                assert x == y, (name, column.name)


def vectorised_columns(data: bytes) -> Optional[list]:
    """What the vectorised pairing gave for each document of ``data`` (not
    called: ``None``)."""
    seen = []
    real = parse_module.pair_documents

    def spy(*args):
        seen.append(real(*args))
        return seen[-1]

    with patched(parse_module, "pair_documents", spy):
        outcome(data, True)
    return seen[0] if seen else None


@deterministic(max_examples=300, shrink=False)
@given(text=conllu_texts())
def test_vectorised_reading_equals_the_state_machine(text):
    data = text.encode()
    assert_same(outcome(data, True), outcome(data, False))


@deterministic(max_examples=400, shrink=False)
@given(text=conllu_texts(junk=True))
def test_malformed_documents_are_left_to_the_state_machine(text):
    """Malformed values, odd heads, discontinuous mentions, headers missing,
    Entity= on multiword lines: the same documents, or the same error, as
    the state machine gives alone."""
    data = text.encode()
    assert_same(outcome(data, True), outcome(data, False))


@deterministic(max_examples=100)
@given(text=conllu_texts())
def test_simple_documents_take_the_vectorised_path(text):
    """A document without discontinuous mentions, odd heads or bytes is
    paired by the vectorised reader, with its empty nodes and zeros."""
    columns = vectorised_columns(text.encode())
    read = outcome(text.encode(), False)
    if columns is None or isinstance(read, str):
        return
    for document, taken in zip(read.documents.values(), columns):
        simple = (
            document.mention_contiguous.all()
            and all(not e or " " not in e and "=" not in e for e in document.mention_etype)
        )
        if simple:
            assert taken is not None, document.name


@pytest.mark.parametrize("value, reason", [
    ("(e1-x-1-", "never closed"),
    ("e1)", "never opened"),
    ("(e1-x-1-)e1)", "closing without opening"),
    ("()", "empty bracket"),
    ("(e1-x-1-)x", "text outside brackets"),
    ("(e1[1/2]-x-1-)", "discontinuous"),
    ("(e1-x-5-)", "head past the mention"),
    ("(e1-x-0-)", "head 0"),
    ("(e1-x-+1-)", "head not plain digits"),
    ("(e 1-x-1-)", "space"),
    ("(e1-x=y-1-)", "'=' in a field"),
    ("(-x-1-)", "empty eid"),
    ("(e1-x-1-)e-1)", "closing with a dash"),
])
def test_malformed_values_are_declined(value, reason):
    good = "\t".join(["1", "a", "_", "X", "x", "_", "0", "_", "_", "Entity=(e2-x-1-)"])
    bad = "\t".join(["1", "b", "_", "X", "x", "_", "0", "_", "_", f"Entity={value}"])
    text = (f"# newdoc id = good\n# global.Entity = eid-etype-head-other\n{good}\n\n"
            f"# newdoc id = bad\n{bad}\n\n")
    columns = vectorised_columns(text.encode())
    assert columns[0] is not None and columns[1] is None, reason
    assert_same(outcome(text.encode(), True), outcome(text.encode(), False))


def test_mentions_over_empty_nodes_take_the_vectorised_path():
    """A zero (head on an empty node), a mention of one empty node and one
    spanning a word, an empty node and a multiword range: read by the
    array path as the state machine reads them."""
    def row(ident, misc):
        return "\t".join([ident, "w", "_", "X", "x", "_", "0", "_", "_" if "." not in ident else "1:nsubj", misc])

    text = "\n".join([
        "# newdoc id = d", "# global.Entity = eid-etype-head",
        row("1", "Entity=(e1-person-2-"), row("1.1", "Entity=e1)(e2-thing-1)"), row("2-3", "_"), row("2", "Entity=(e3-x-3-"),
        row("2.1", "_"), row("3", "Entity=e3)"), "",
    ]) + "\n"
    columns = vectorised_columns(text.encode())
    assert columns[0] is not None
    assert columns[0]["mention_zero"].tolist() == [True, True, False]
    assert columns[0]["mention_empty"] == {0: (0,), 1: (0,), 2: (1,)}
    assert columns[0]["mention_head"].tolist() == [0, 0, 2]
    assert_same(outcome(text.encode(), True), outcome(text.encode(), False))


def test_gum_takes_the_vectorised_path_and_agrees():
    """Every GUM document, the three with a mention over an empty node too."""
    data = gzip.decompress(GUM.read_bytes())
    columns = vectorised_columns(data)
    slow = outcome(data, False)
    assert_same(outcome(data, True), slow)
    with_empty = [taken for taken in columns if taken is not None and taken["mention_empty"]]
    assert len(columns) == 40 and all(taken is not None for taken in columns) and len(with_empty) == 3


@pytest.mark.parametrize("path", CONFORMANCE, ids=lambda p: p.name)
def test_conformance_files_agree(path):
    data = path.read_bytes()
    assert_same(outcome(data, True), outcome(data, False))


@deterministic(max_examples=300)
@given(text=st.binary(max_size=12), before=st.binary(max_size=10))
def test_numbers_read_plain_digits_as_int_does(text, before):
    data = before + text + b"\t"
    value, plain = numbers(byte_words(data), np.array([len(before)]), np.array([len(before) + len(text)]))
    expected = 1 <= len(text) <= 8 and all(48 <= b <= 57 for b in text)
    assert bool(plain[0]) == expected
    if expected:
        assert int(value[0]) == int(text)


@deterministic(max_examples=200)
@given(words=st.lists(st.sampled_from(["", "a", "e1", "e12", "12345678", "123456789", "ünï", "a_long_identifier"]),
                      min_size=1, max_size=12))
def test_codes_are_equal_exactly_for_equal_strings(words):
    data = ("\n".join(words) + "\n").encode()
    starts, ends, at = [], [], 0
    for word in words:
        starts.append(at)
        ends.append(at + len(word.encode()))
        at += len(word.encode()) + 1
    text = np.frombuffer(data, dtype=np.uint8)
    codes = _codes(byte_words(data), text, np.array(starts), np.array(ends)).tolist()
    for i, a in enumerate(words):
        for j, b in enumerate(words):
            assert (codes[i] == codes[j]) == (a == b)
    assert gather_lines(text, np.array(starts), np.array(ends)) == data
    for i, word in enumerate(words):
        assert starts_with(byte_words(data), np.array([starts[i]]), word.encode() + b"\n")[0]


@deterministic(max_examples=300)
@given(events=st.lists(st.tuples(st.integers(0, 2), st.booleans()), max_size=30))
def test_pair_brackets_pairs_as_a_stack_per_group(events):
    """Against a stack per group: the latest unclosed opening pairs; a group
    with a closing too many or an opening left is unbalanced."""
    group = np.array([g for g, _ in events], dtype=np.int64)
    opening = np.array([o for _, o in events], dtype=bool)
    opens, closes, balanced = pair_brackets(group, np.arange(len(events)), opening)
    stacks, pairs, bad = {}, set(), set()
    for i, (g, is_open) in enumerate(events):
        if is_open:
            stacks.setdefault(g, []).append(i)
        elif stacks.get(g):
            pairs.add((stacks[g].pop(), i))
        else:
            bad.add(g)
    bad |= {g for g, stack in stacks.items() if stack}
    assert balanced.tolist() == [g not in bad for g, _ in events]
    assert set(zip(opens.tolist(), closes.tolist())) == {(o, c) for o, c in pairs if events[o][0] not in bad}
