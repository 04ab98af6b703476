"""The vectorised CoNLL reader gives exactly what the line reader gives."""

import gzip
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st

from spacy_coref_eval import Clusters, CorefInputError
from spacy_coref_eval.formats.conll.read import parse_conll, read_conll
from spacy_coref_eval.formats.conll.vectorised import parse_simple, tabbed_columns
from tests.conftest import data_path
from tests.support.strategies import deterministic

MARK = st.sampled_from(["({})", "({}", "{})"])
JUNK = st.one_of(st.just("-"), st.sampled_from(["_", "|", "(1+2)", "(3+45)", "x", "\x00", "\xa0", " ", "(", ")", "(01)", "(x1)", "1", "+"]))
EMPTY = st.sampled_from(["_", "|", "--", "-|-"])


@st.composite
def random_marks(draw, n_tokens: int):
    """Marks for every token (often unbalanced), in any order."""
    return [[draw(MARK).format(draw(st.integers(0, 3))) for _ in range(draw(st.integers(0, 3)))] for _ in range(n_tokens)]


@st.composite
def balanced_marks(draw, n_tokens: int):
    """Marks of random mentions, in any order on each token."""
    marks = [[] for _ in range(n_tokens)]
    for _ in range(draw(st.integers(0, 2 * n_tokens))):
        start = draw(st.integers(0, n_tokens - 1))
        last = draw(st.integers(start, min(start + 3, n_tokens - 1)))
        entity = draw(st.integers(0, 3))
        if start == last:
            marks[start].append(f"({entity})")
        else:
            marks[start].append(f"({entity}")
            marks[last].append(f"{entity})")
    return [draw(st.permutations(token_marks)) for token_marks in marks]


@st.composite
def field(draw, marks, junk: bool) -> str:
    """``marks`` joined by '|' or concatenated; with ``junk``, sometimes
    other text among them or instead of them."""
    marks = list(marks)
    if junk and draw(st.integers(0, 11)) == 0:
        marks.insert(draw(st.integers(0, len(marks))), draw(JUNK))
    if junk and draw(st.integers(0, 49)) == 0:
        return draw(EMPTY)
    joiner = draw(st.sampled_from(["|", ""]))
    if any(a[:1] == "(" and a[-1:] != ")" and b[:1] not in ("(", "") for a, b in zip(marks, marks[1:])):
        joiner = "|"  # '(1' and '2)' concatenated are one mark, '(12)'
    return joiner.join(marks) or "-"


@st.composite
def conll_texts(draw, junk: bool = False):
    """Documents of random or balanced marks, blank lines between
    sentences; with ``junk``, also fields of other text, fields after a space
    in lines separated by tabs, and trailing white space."""
    lines = []
    for doc in range(draw(st.integers(0, 3))):
        lines.append(f"#begin document (d{doc}); part 000")
        sep = draw(st.sampled_from(["\t", " "]))
        n_tokens = draw(st.integers(0, 12))
        kinds = [random_marks(n_tokens)] + [balanced_marks(n_tokens)] * (3 if junk else 1)
        marks = draw(st.one_of(kinds)) if n_tokens else []
        for token, token_marks in enumerate(marks):
            if draw(st.booleans()) and token:
                lines.append("")
            last_sep, trailing = sep, ""
            if junk:
                last_sep = draw(st.sampled_from([sep] * 9 + [" "]))
                trailing = draw(st.sampled_from([""] * 9 + [" ", "\t"]))
            columns = sep.join([f"d{doc}", "0", str(token), f"w{token}"])
            lines.append(columns + last_sep + draw(field(token_marks, junk)) + trailing)
        lines.append("#end document")
    return "\n".join(lines) + "\n"


def same(fast, slow) -> bool:
    return [name for name, _, *_ in fast] == list(slow) and all(
        clusters.entities() == slow[name].clusters.entities()
        and clusters.repeated == slow[name].clusters.repeated
        and n_tokens == slow[name].n_tokens
        and line == slow[name].line
        for name, line, clusters, n_tokens in fast
    )


def both_readers(text):
    """What the vectorised and the line reader make of ``text``; the line
    reader's ``None`` means it refused the text, and then so must the
    vectorised one."""
    fast = parse_simple(text.encode())
    try:
        return fast, parse_conll(text, source="<t>")
    except CorefInputError:
        assert fast is None
        return fast, None


@deterministic(max_examples=400)
@given(text=conll_texts())
def test_vectorised_reader_equals_line_reader(text):
    fast, slow = both_readers(text)
    if slow is None:
        return
    assert fast is not None
    assert slow.warnings == []
    assert same(fast, slow)


@deterministic(max_examples=200)
@given(text=conll_texts(junk=True))
def test_vectorised_reader_declines_what_the_line_reader_refuses_or_warns_about(text):
    fast, slow = both_readers(text)
    if slow is None:
        return
    if slow.warnings:
        assert fast is None
    if fast is not None:
        assert same(fast, slow)


def test_real_files_take_the_vectorised_path_and_agree():
    conformance = data_path("conformance")
    files = [data_path("corpora", "litbank.key.conll.gz")]
    files += sorted((conformance / "conll-reference").iterdir()) + sorted((conformance / "seed-examples").iterdir())
    taken = 0
    for path in files:
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
        fast = parse_simple(data)
        slow = parse_conll(data.decode(), source=str(path))
        if fast is not None:
            taken += 1
            assert same(fast, slow), path
    assert taken >= 20


def test_unusual_files_fall_back_to_the_line_reader(tmp_path):
    cases = {
        "trailing white space": "#begin document (a)\nd 0 0 w (1)\t\n#end document\n",
        "non-numeric id": "#begin document (a)\nd 0 0 w (x1)\n#end document\n",
        "leading zero": "#begin document (a)\nd 0 0 w (01)\n#end document\n",
        "comment line": "#begin document (a)\n# note\nd 0 0 w (1)\n#end document\n",
        "windows line ends": "#begin document (a)\r\nd 0 0 w (1)\r\n#end document\r\n",
        "dash after a mark": "#begin document (a)\nd\t0\t0\tw\t(1)-\n#end document\n",
        "space before the field of a tab line": "#begin document (a)\nd\t0\t0\tw (1)\n#end document\n",
    }
    for label, text in cases.items():
        assert parse_simple(text.encode()) is None, label
        path = tmp_path / "x.conll"
        path.write_bytes(text.encode())
        from_file, from_text = read_conll(path), parse_conll(text, source=str(path))
        assert from_file["(a)"].clusters.entities() == from_text["(a)"].clusters.entities() == (((0, 1),),), label
        assert from_file.warnings == from_text.warnings, label


@deterministic(max_examples=150)
@given(text=conll_texts())
def test_words_read_beside_the_vectorised_reader_equal_the_line_reader(text):
    """With words, a file in the simple form keeps its vectorised clusters
    and takes words, sentences and parts of speech from one pass over its
    lines: all as the line reader gives them."""
    import tempfile
    from pathlib import Path

    try:
        slow = parse_conll(text, source="<t>", with_words=True)
    except CorefInputError:
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.conll"
        path.write_text(text, encoding="utf8")
        fast = read_conll(path, with_words=True)
    assert list(fast) == list(slow)
    for name in slow:
        a, b = fast[name], slow[name]
        assert (a.words, a.sentence_starts, a.pos, a.n_tokens, a.line) == (b.words, b.sentence_starts, b.pos, b.n_tokens, b.line)
        assert a.clusters.entities() == b.clusters.entities()


WORDS = st.text(st.sampled_from("ab\u00e9\u201c\u4e2d_-("), min_size=0, max_size=3)
ODD = st.integers(0, 39).flatmap(lambda n: st.sampled_from(["\xa0", "\u2003", " ", "\t", "\x0b", "\x85"]) if n == 0 else st.just(""))


@st.composite
def tabbed_texts(draw):
    """Files whose token lines have their fields separated by tabs, mostly
    the same number of fields on every line (5 or 12), with words that are
    sometimes empty or hold white space beyond ASCII, spaces or tabs."""
    n_fields = draw(st.sampled_from([5, 12, 4]))
    lines = []
    for doc in range(draw(st.integers(1, 3))):
        lines.append(f"#begin document (d{doc}); part 000")
        for token in range(draw(st.integers(0, 6))):
            if token and draw(st.booleans()):
                lines.append("")
            fields = [f"d{doc}", "0", str(token), "w" + draw(WORDS) + draw(ODD), "P" + draw(WORDS)][: n_fields - 1]
            fields += ["x"] * (n_fields - 1 - len(fields))
            if draw(st.integers(0, 29)) == 0:
                fields.append(draw(st.sampled_from(["y", ""])))
            lines.append("\t".join(fields + [f"({token % 3})" if token % 2 else "-"]))
        lines.append("#end document")
    return "\n".join(lines) + "\n"


@deterministic(max_examples=300)
@given(text=tabbed_texts())
def test_tabbed_words_equal_the_line_reader(text, tmp_path_factory):
    """Words at a stride of the tabs where every line has the same number,
    and the line by line reading of them wherever white space or a missing
    field would make str.split differ."""
    try:
        slow = parse_conll(text, source="<t>", with_words=True)
    except CorefInputError:
        return
    path = tmp_path_factory.mktemp("tabbed") / "t.conll"
    path.write_text(text, encoding="utf8")
    fast = read_conll(path, with_words=True)
    assert list(fast) == list(slow)
    for name in slow:
        a, b = fast[name], slow[name]
        assert (a.words, a.sentence_starts, a.pos, a.n_tokens) == (b.words, b.sentence_starts, b.pos, b.n_tokens)


def test_tabbed_files_take_the_stride_and_invalid_utf8_is_refused_as_before(tmp_path):
    lines = ["#begin document (a); part 000", "a\t0\t0\tCafé\t-", "a\t0\t1\t“x”\t(1)", "#end document", ""]
    data = "\n".join(lines).encode()
    assert tabbed_columns(data, parse_simple(data)) == [(["Café", "“x”"], [0], None)]
    path = tmp_path / "bad.conll"
    path.write_bytes(data.replace("é".encode(), b"\xe9"))
    assert tabbed_columns(path.read_bytes(), parse_simple(path.read_bytes())) is None
    for with_words in (True, False):
        with pytest.raises(CorefInputError, match=r"bad\.conll:2: not UTF-8 text: 'utf-8' codec can't decode byte 0xe9"):
            read_conll(path, with_words=with_words)


def test_the_wide_spaces_are_those_str_split_splits_at():
    from spacy_coref_eval.formats.conll.vectorised import _WIDE_SPACE

    wide = {chr(code) for code in range(0x80, 0x110000) if chr(code).isspace()}
    assert {c for c in map(chr, range(0x80, 0x110000)) if _WIDE_SPACE.match(c)} == wide


@deterministic(max_examples=200)
@given(
    mentions=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4), st.integers(1, 3), st.integers(0, 4)), max_size=25),
    n_docs=st.integers(4, 6),
)
def test_clusters_of_all_documents_at_once_equal_one_at_a_time(mentions, n_docs):
    """Repeated spans, labels out of order and empty documents included."""
    mentions = sorted(mentions, key=lambda m: m[0])
    doc, starts, lengths, labels = (np.array([m[i] for m in mentions], dtype=np.int64) for i in range(4))
    together = Clusters.per_document(doc, starts, starts + lengths, labels=labels, n_docs=n_docs)
    for d, clusters in enumerate(together):
        alone = Clusters.from_arrays(starts[doc == d], (starts + lengths)[doc == d], labels[doc == d])
        assert clusters.entities() == alone.entities() and clusters.repeated == alone.repeated
        assert clusters.n_entities == alone.n_entities and clusters.entity.tolist() == alone.entity.tolist()


def test_control_characters_in_words_keep_the_vectorised_path():
    text = "#begin document (a); part 000\na\t0\t0\tx\x0cy\t(1)\na\t0\t1\tz\x00\t-\n#end document\n"
    fast = parse_simple(text.encode())
    assert fast is not None and fast[0][2].entities() == (((0, 1),),)


@deterministic(max_examples=300)
@given(st.lists(st.sampled_from([b"a", b"\n", b"\xc3\xa9", b"\xe2\x80\x9c", b"\xc3", b"\x80", b"\xe9", b"\xf0\x9f\x98\x80"]), max_size=30))
def test_the_utf8_check_refuses_what_decoding_refuses_at_the_same_byte(pieces):
    from spacy_coref_eval.formats.inputs import check_utf8

    data = b"".join(pieces)
    try:
        data.decode("utf8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        with pytest.raises(CorefInputError, match=rf"f:{line}: not UTF-8 text: .* in position {err.start}: "):
            check_utf8(data, Path("f"))
    else:
        check_utf8(data, Path("f"))
