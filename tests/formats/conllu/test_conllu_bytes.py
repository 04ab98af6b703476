"""The CoNLL-U reader on random files, and the byte routines it reads
with: every random file, malformed or not, is read or refused with one
line naming the file and line, never an exception of another kind."""

import gzip

import numpy as np
from hypothesis import given, strategies as st

from spacy_coref_eval.arrays import pair_brackets
from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats.conllu.document import ConlluFile
from spacy_coref_eval.formats.conllu.parse import FileParser
from spacy_coref_eval.formats.conllu.vectorised import byte_words, gather_lines, numbers, starts_with
from tests.conftest import REPO
from tests.support.conllu_generator import conllu_texts
from tests.support.strategies import deterministic

DATA = REPO / "tests" / "data"
GUM = DATA / "corpora" / "gum-corefud.40docs.conllu.gz"


def outcome(data: bytes):
    """The file read, or the message of the error it raised."""
    try:
        return FileParser(data, "t.conllu").parse()
    except CorefInputError as err:
        return str(err)


@deterministic(max_examples=300, shrink=False)
@given(text=conllu_texts(junk=True))
def test_random_files_are_read_or_refused_naming_file_and_line(text):
    read = outcome(text.encode())
    assert isinstance(read, ConlluFile) or read.startswith("t.conllu:"), read


@deterministic(max_examples=100, shrink=False)
@given(text=conllu_texts())
def test_mentions_lie_on_their_document_s_nodes(text):
    read = outcome(text.encode())
    if isinstance(read, str):
        return
    for document in read.documents.values():
        zero, head = document.mention_zero, document.mention_head
        assert (document.mention_start <= document.mention_end).all()
        assert (head >= 0).all()
        assert (head[zero] < len(document.empty_nodes)).all() and (head[~zero] < len(document.words)).all()


def test_mentions_over_empty_nodes():
    """A zero (head on an empty node), a mention of one empty node and one
    spanning a word, an empty node and a multiword range."""

    def row(ident, misc):
        return "\t".join([ident, "w", "_", "X", "x", "_", "0", "_", "_" if "." not in ident else "1:nsubj", misc])

    text = (
        "\n".join(
            [
                "# newdoc id = d",
                "# global.Entity = eid-etype-head",
                row("1", "Entity=(e1-person-2-"),
                row("1.1", "Entity=e1)(e2-thing-1)"),
                row("2-3", "_"),
                row("2", "Entity=(e3-x-3-"),
                row("2.1", "_"),
                row("3", "Entity=e3)"),
                "",
            ]
        )
        + "\n"
    )
    (document,) = outcome(text.encode()).documents.values()
    assert document.mention_zero.tolist() == [True, True, False]
    assert document.mention_empty == {0: (0,), 1: (0,), 2: (1,)}
    assert document.mention_head.tolist() == [0, 0, 2]


def test_gum_reads_three_documents_with_mentions_over_empty_nodes():
    read = outcome(gzip.decompress(GUM.read_bytes()))
    assert len(read.documents) == 40
    assert sum(bool(document.mention_empty) for document in read.documents.values()) == 3


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
@given(
    words=st.lists(st.sampled_from(["", "a", "e1", "e12", "12345678", "123456789", "ünï", "a_long_identifier"]), min_size=1, max_size=12)
)
def test_gathered_lines_and_prefixes(words):
    data = ("\n".join(words) + "\n").encode()
    starts, ends, at = [], [], 0
    for word in words:
        starts.append(at)
        ends.append(at + len(word.encode()))
        at += len(word.encode()) + 1
    text = np.frombuffer(data, dtype=np.uint8)
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
