"""The DocBin fast paths against the general ones on random inputs:
:func:`~spacy_coref_eval.formats.docbin.minipack.loads` against srsly,
:func:`~spacy_coref_eval.formats.docbin.batch.batch_groups` against
:func:`~spacy_coref_eval.formats.docbin.groups.decode_groups`, intact and
damaged."""

import math
import struct
import subprocess
import sys

import numpy as np
import pytest
import srsly
from hypothesis import given, strategies as st

from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats.docbin.batch import batch_groups
from spacy_coref_eval.formats.docbin.groups import decode_groups
from spacy_coref_eval.formats.docbin.minipack import Unsupported, loads
from spacy_coref_eval.formats.docbin.table import MsgpackDecoder
from tests.conftest import REPO
from tests.support.strategies import deterministic

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**63), 2**64 - 1), st.floats(allow_nan=False), st.text(max_size=40), st.binary(max_size=300)
)
KEYS = st.one_of(st.text(max_size=5), st.binary(max_size=3), st.integers(-3, 3))
OBJECTS = st.recursive(
    SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=20), st.dictionaries(KEYS, inner, max_size=18)), max_leaves=60
)


def srsly_outcome(data: bytes, use_list: bool):
    try:
        return "ok", srsly.msgpack_loads(data, use_list=use_list)
    except Exception as err:  # any error srsly raises is one the fast path must not hide
        return "error", type(err).__name__


def damaged(data: bytes, how: int, where: int, byte: int) -> bytes:
    if not data:
        return bytes([byte])
    at = where % len(data)
    return [data[:at], data[:at] + bytes([byte]) + data[at + 1 :], data + bytes([byte]), data[:at] + data[at + 1 :]][how]


@deterministic(300)
@given(
    value=OBJECTS,
    use_list=st.booleans(),
    damage=st.one_of(st.none(), st.tuples(st.integers(0, 3), st.integers(0, 10**6), st.integers(0, 255))),
)
def test_minipack_decodes_as_srsly_or_hands_over(value, use_list, damage):
    data = srsly.msgpack_dumps(value)
    if damage is not None:
        data = damaged(data, *damage)
    expected = srsly_outcome(data, use_list)
    try:
        found = loads(data, use_list)
    except Unsupported:
        if damage is None:
            assert expected[0] == "ok"
            assert _outside_subset(expected[1])
        return
    assert expected[0] == "ok" and _same(expected[1], found)


def _outside_subset(value) -> bool:
    """Whether ``value`` holds a map key other than a string."""
    if isinstance(value, dict):
        return any(type(k) is not str for k in value) or any(map(_outside_subset, value.values()))
    if isinstance(value, (list, tuple)):
        return any(map(_outside_subset, value))
    return False


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(map(_same, a, b))
    return a == b


SPAN = struct.Struct(">QQQllll")
NAMES = st.one_of(st.sampled_from(["coref_clusters_1", "coref_clusters_2", "sc", "ñame", "a\nb", "x" * 40, "y" * 300]), st.text(max_size=8))


@st.composite
def group_docs(draw):
    """One document's span group bytes as spaCy writes them (map or list
    layout), now and then with attributes, several keys, a repeated group,
    spans outside the document, or damaged bytes; and its length."""
    n_tokens = draw(st.integers(0, 12))
    groups = []
    for name in draw(st.lists(NAMES, max_size=6)):
        count = draw(st.sampled_from([0, 1, 2, 3, 16, 20]))
        spans = []
        for _ in range(count):
            start = draw(st.integers(-1 if draw(st.integers(0, 30)) == 0 else 0, max(n_tokens, 1)))
            end = start + draw(st.integers(0 if draw(st.integers(0, 20)) else -2, 3))
            spans.append(SPAN.pack(draw(st.integers(0, 3)), 0, draw(st.integers(0, 2**64 - 1)), start, end, 0, 0))
        attrs = {} if draw(st.integers(0, 8)) else {"k": draw(st.integers(0, 3))}
        groups.append(srsly.msgpack_dumps({"name": name, "attrs": attrs, "spans": spans}))
    if groups and draw(st.integers(0, 10)) == 0:
        groups.append(groups[0])
    if draw(st.booleans()):
        layout = []
        for group in groups:
            keys = draw(st.sampled_from([[group_name(group)], [group_name(group)], ["other", "more"], [], [1], "x"]))
            layout.append((group, keys))
        data = _map(layout)
    else:
        data = srsly.msgpack_dumps(groups)
    if draw(st.integers(0, 6)) == 0:
        data = damaged(data, draw(st.integers(0, 3)), draw(st.integers(0, 10**6)), draw(st.integers(0, 255)))
    return data, n_tokens


def group_name(group: bytes) -> str:
    return srsly.msgpack_loads(group)["name"]


def _map(entries) -> bytes:
    """A msgpack map of ``entries`` as written, repeated keys kept."""
    n = len(entries)
    header = bytes([0x80 | n]) if n < 16 else b"\xde" + struct.pack(">H", n)
    return header + b"".join(srsly.msgpack_dumps(key) + srsly.msgpack_dumps(value) for key, value in entries)


def general(data: bytes, n_tokens: int):
    try:
        return decode_groups(MsgpackDecoder(), data, n_tokens)
    except CorefInputError:
        return None


def assert_same_table(fast, slow) -> None:
    assert fast.names == slow.names
    assert fast.rows == slow.rows
    assert fast.spans.tobytes() == slow.spans.tobytes()
    assert np.array_equal(fast.starts, slow.starts) and np.array_equal(fast.ends, slow.ends)


@deterministic(300)
@given(docs=st.lists(group_docs(), min_size=1, max_size=5))
def test_batched_groups_are_decode_groups(docs):
    tables = batch_groups([data for data, _ in docs], np.array([n for _, n in docs], dtype=np.int64))
    for (data, n_tokens), fast in zip(docs, tables):
        if fast is not None:
            slow = general(data, n_tokens)
            assert slow is not None
            assert_same_table(fast, slow)


def test_batched_groups_take_the_common_layout():
    """Groups as spaCy writes them, long names, many spans and groups over
    256 bytes included, are read without a msgpack call."""
    spans = [SPAN.pack(0, 0, 7, i % 5, i % 5 + 1, 0, 0) for i in range(20)]
    groups = {
        srsly.msgpack_dumps({"name": name, "attrs": {}, "spans": spans[:count]}): [name]
        for name, count in (("coref_clusters_1", 2), ("ñ" * 20, 0), ("sc", 20), ("x" * 40, 16))
    }
    docs = [srsly.msgpack_dumps(groups), srsly.msgpack_dumps(list(groups)), b"\x90", b""]
    tables = batch_groups(docs, np.array([5, 5, 0, 0]))
    for data, fast in zip(docs, tables):
        assert fast is not None
        assert_same_table(fast, general(data, 5))
    alone = srsly.msgpack_dumps([srsly.msgpack_dumps({"name": "sc", "attrs": {}, "spans": []})])
    [fast] = batch_groups([alone], np.array([0]))
    assert fast is not None and fast.names == ["sc"] and len(fast.spans) == 0


@pytest.mark.parametrize("corpus", ["demo.key.conll", "ecb.key.conll"])
def test_spacy_files_read_without_srsly_as_with_it(tmp_path, corpus):
    """A ``.spacy`` file in the common layout is read without importing
    srsly, to the same records as with srsly imported (as here)."""
    from spacy.vocab import Vocab

    from spacy_coref_eval import read_conll
    from spacy_coref_eval.formats.docbin.docs import conll_to_doc, write_docbin
    from spacy_coref_eval.formats.docbin.records import read_docbin_records

    path = tmp_path / "corpus.spacy"
    vocab = Vocab()
    source = REPO / "spacy_coref_eval" / "data" / corpus
    write_docbin(path, (conll_to_doc(doc, vocab) for doc in read_conll(source, with_words=True).values()))
    digest = (
        "[(r.name, r.span_groups, r.clusters.starts.tolist(), r.clusters.ends.tolist(), r.clusters.entity.tolist(), "
        "r.sentence_starts) for r in read_docbin_records(path)]"
    )
    code = (
        "import sys\n"
        "from spacy_coref_eval.formats.docbin.records import read_docbin_records\n"
        f"path = {str(path)!r}\n"
        f"print(repr({digest}))\n"
        "print('srsly' in sys.modules)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    records, imported = run.stdout.strip().split("\n")
    assert imported == "False"
    assert records == repr(eval(digest, {"read_docbin_records": read_docbin_records, "path": path}))


def test_a_bad_span_of_a_replaced_group_is_one_line():
    """In the list layout a later group of the same name replaces an
    earlier one; a span outside the document in the earlier is still
    damage, named without a key."""
    bad = srsly.msgpack_dumps({"name": "sc", "attrs": {}, "spans": [SPAN.pack(0, 0, 0, 0, 9, 0, 0)]})
    good = srsly.msgpack_dumps({"name": "sc", "attrs": {}, "spans": []})
    data = srsly.msgpack_dumps([bad, good])
    assert batch_groups([data], np.array([2]))[0] is None
    try:
        decode_groups(MsgpackDecoder(), data, 2)
    except CorefInputError as err:
        assert "replaced by a later one" in str(err) and "outside the document" in str(err)
    else:
        raise AssertionError("no error")
