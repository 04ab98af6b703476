"""Bad CoNLL-2012 input found by fuzzing: each kind is read as the reference
scorer reads it (with one warning per file) or refused with a short
CorefInputError naming the file, line and document, quickly and within a
bounded amount of memory."""

import gzip
import os
import re
import signal
from contextlib import contextmanager

import pytest
from hypothesis import given, strategies as st

from spacy_coref_eval import CorefInputError
from spacy_coref_eval.formats.conll import read as conll
from spacy_coref_eval.formats.conll.read import ConllFile, Marks, parse_conll, read_conll, read_marks
from tests.support.strategies import deterministic

NAME = "(a); part 000"
BIG = 10**6


def document(fields, name: str = NAME) -> str:
    lines = [f"#begin document {name}"]
    lines += ["\t".join(["d", "0", str(i), f"w{i}", field]) for i, field in enumerate(fields)]
    return "\n".join(lines + ["#end document"]) + "\n"


def write(tmp_path, text: str, name: str = "x.conll"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf8"))
    return path


# Linear time, short messages


@contextmanager
def hang_guard(seconds: int):
    """Fails a test still running after ``seconds``: a guard against the
    quadratic reader, which took minutes on these fields, not a measure of
    speed (that is benchmarks/' job)."""

    def stop(*_):
        raise AssertionError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize(
    "field, detail",
    [
        ("(" + "1" * BIG + "(", rf"'\(' at character {BIG + 2} is not part of a mark"),
        ("1" * BIG, r"'1111111111111111111111111111111111111111'… \(1000000 characters\) at character 1"),
        ("(1)" + "x" * BIG, r"at character 4 is not part of a mark"),
        ("(" * BIG, r"'\(' at character 1 is not part of a mark"),
    ],
    ids=["unclosed-opening", "digits", "junk-after-mark", "brackets"],
)
def test_a_huge_malformed_field_fails_fast_with_a_short_message(tmp_path, field, detail):
    path = write(tmp_path, document(["-", field]))
    with pytest.raises(CorefInputError) as error, hang_guard(60):
        read_conll(path)
    message = str(error.value)
    assert len(message) < 400
    assert re.match(
        rf"{re.escape(str(path))}:3: cannot read coreference field '.{{40}}'… \({len(field)} characters\) "
        rf"in document '\(a\); part 000': ",
        message,
    ), message
    assert re.search(detail, message), message


def test_a_huge_id_or_document_name_is_shortened_in_messages():
    with pytest.raises(CorefInputError) as error:
        parse_conll(document(["(" + "7" * BIG]), source="s")
    assert str(error.value) == (f"s:2: mention of entity {'7' * 40}… ({BIG} characters) opens but never closes (document '{NAME}')")
    with pytest.raises(CorefInputError) as error:
        parse_conll("#begin document " + "n" * BIG + "\n", source="s")
    assert str(error.value) == f"s: document '{'n' * 40}'… ({BIG} characters) (line 1) has no '#end document'"


# Fields read as the reference scorer reads them, with one warning


def test_dashes_among_marks_and_double_antecedents_are_read_as_the_reference_scorer_does(tmp_path):
    # The reference scorer (v8.01) prints, for these fields, "Discarded (5+6)"
    # and the entities (0,0) (1,1) and (2,2) (3,4) (inclusive ends).
    fields = ["(1)-", "-|(1)", "(2)|(5+6)", "(2-", "-2)"]
    path = write(tmp_path, document(fields) + document(["(3)-", "(3)"], name="(b)"))
    documents = read_conll(path)
    assert documents[NAME].clusters.entities() == (((0, 1), (1, 2)), ((2, 3), (3, 5)))
    assert documents["(b)"].clusters.entities() == (((0, 1), (1, 2)),)
    assert documents.warnings == [
        f"{path}: 5 coreference field(s) with '-' among marks (the '-' is ignored) and 1 double-antecedent "
        f"mark(s) '(N+M)' (dropped), first at line 2 in document '{NAME}'; read as the CoNLL reference "
        "scorer reads them"
    ]
    assert read_conll(path, with_words=True).warnings == documents.warnings


def test_a_clean_file_has_no_warnings_on_either_path(tmp_path):
    path = write(tmp_path, document(["(1)", "-", "(1)"]))
    for with_words in (False, True):
        documents = read_conll(path, with_words=with_words)
        assert isinstance(documents, ConllFile) and documents.warnings == []
        assert documents[NAME].clusters.entities() == (((0, 1), (2, 3)),)


@pytest.mark.parametrize(
    "field, detail",
    [
        ("(1\x00)", r"'\\x00' at character 3 is not part of a mark"),
        ("(1\x1f)", r"'\\x1f' at character 3 is not part of a mark"),
        ("(1\xa0)", r"'\\xa0' at character 3 is not part of a mark"),
        ("(1)x", r"'x' at character 4 is not part of a mark"),
        ("(1)_", r"'_' at character 4 is not part of a mark"),
        ("(1+23)", r"'\+' at character 3 is not part of a mark"),
        ("(4) -", r"' ' at character 4 is not part of a mark"),
        ("|", r"no mark"),
        ("-|-", r"no mark"),
    ],
)
def test_other_text_in_the_coreference_field_is_refused(tmp_path, field, detail):
    path = write(tmp_path, document(["(1", field, "1)"]))
    with pytest.raises(
        CorefInputError,
        match=rf"^{re.escape(str(path))}:3: cannot read coreference field .* "
        rf"in document '\(a\); part 000': {detail}",
    ):
        read_conll(path)


def test_a_space_separated_field_in_a_tab_separated_line_is_read_when_nothing_before_it_could_be_a_mark(tmp_path):
    path = write(tmp_path, "#begin document (a)\nd\t0\t0\tw (1)\nd\t0\t1\tw x -\n#end document\n")
    assert read_conll(path)["(a)"].clusters.entities() == (((0, 1),),)


# The field reader against the reference scorer's way of reading a field


def reference_reading(field: str):
    """How the reference scorer (v8.01, ``GetCoreference`` in
    ``lib/CorScorer.pm``) reads a field: it deletes, one at a time and
    leftmost first, every double-antecedent mark ``(N+M)``, then every
    ``(N)``, then every ``(N``, then every ``N)``, reading each as it goes,
    and ignores what is left."""
    found = []
    for pattern in (r"\([0-9]+\+[0-9]\)", r"\(([0-9]+)\)", r"\(([0-9]+)", r"([0-9]+)\)"):
        taken = []
        match = re.search(pattern, field)
        while match:
            taken.append(match.group(match.lastindex or 0))
            field = field[: match.start()] + field[match.end() :]
            match = re.search(pattern, field)
        found.append(taken)
    dropped, singles, opens, closes = found
    return singles, opens, closes, len(dropped)


IDS = st.from_regex(r"[0-9]{1,3}", fullmatch=True)
PIECES = st.one_of(
    IDS.map("({})".format),
    IDS.map("({}".format),
    IDS.map("{})".format),
    st.tuples(IDS, st.integers(0, 9)).map(lambda p: f"({p[0]}+{p[1]})"),
    st.just("-"),
)


@st.composite
def mark_fields(draw) -> str:
    """Marks, double-antecedent marks and '-', joined by '|', '-' or
    nothing; never an opening mark concatenated with anything but another
    opening (the case below where the readers differ)."""
    pieces = draw(st.lists(PIECES, min_size=1, max_size=6))
    text = pieces[0]
    for previous, piece in zip(pieces, pieces[1:]):
        joiner = draw(st.sampled_from(["|", "-", ""]))
        if not joiner and previous[:1] == "(" and previous[-1:] != ")" and not (piece[:1] == "(" and piece[-1:] != ")"):
            joiner = "|"
        text += joiner + piece
    return text


@deterministic(max_examples=500)
@given(field=mark_fields())
def test_marks_are_read_as_the_reference_scorer_reads_them(field):
    singles, opens, closes, dropped = reference_reading(field)
    try:
        marks = read_marks(field)
    except ValueError as error:
        assert str(error) == "no mark (a field without marks is '-' or '_')"
        assert (singles, opens, closes, dropped) == ([], [], [], 0)
        return
    assert (marks.singles, marks.opens, marks.closes, marks.dropped) == (singles, opens, closes, dropped)
    assert marks.dashes == field.count("-")


def test_a_one_token_mark_between_an_opening_and_a_closing_is_read_as_written():
    # The reference scorer deletes "(2)" and then reads "(13)"; see the
    # module docstring of readers.conll.
    assert read_marks("(1(2)3)") == Marks(["2"], ["1"], ["3"], 0, 0)
    assert reference_reading("(1(2)3)") == (["2", "13"], [], [], 0)


# Input too large for memory


def test_a_line_longer_than_the_maximum_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("SPACY_COREF_EVAL_MAX_LINE_BYTES", str(1000))
    header = "#begin document (a)\n"
    longest = "d 0 0 " + "w" * 990 + " (1)"
    assert len(longest) == 1000
    path = write(tmp_path, header + longest + "\n#end document\n")
    assert read_conll(path)["(a)"].clusters.entities() == (((0, 1),),)
    path = write(tmp_path, header + "d 0 0 w -\n" + longest + "-\n#end document\n")
    with pytest.raises(
        CorefInputError,
        match=rf"^{re.escape(str(path))}:3: line longer than the maximum line "
        r"length \(1000 bytes; raise it with the environment variable "
        r"SPACY_COREF_EVAL_MAX_LINE_BYTES\)$",
    ):
        read_conll(path)


def test_an_input_larger_than_the_maximum_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("SPACY_COREF_EVAL_MAX_INPUT_BYTES", str(10_000))
    small = document(["(1)", "(1)"])
    assert len(small.encode()) < 10_000
    assert read_conll(write(tmp_path, small))[NAME].clusters.entities() == (((0, 1), (1, 2)),)
    path = write(tmp_path, document(["-"] * 1000))
    with pytest.raises(
        CorefInputError,
        match=rf"^{re.escape(str(path))}: larger than the maximum input size "
        r"\(10000 bytes; raise it with the environment variable "
        r"SPACY_COREF_EVAL_MAX_INPUT_BYTES\)$",
    ):
        read_conll(path)


def gzip_bomb(path, byte: bytes, members: int) -> None:
    """``members`` gzip members of 8 MiB of ``byte`` each (about 8 KiB
    apiece once compressed)."""
    member = gzip.compress(byte * (8 << 20))
    path.write_bytes(member * members)


def test_a_gzip_bomb_is_refused_after_reading_a_little(tmp_path, monkeypatch):
    monkeypatch.setenv("SPACY_COREF_EVAL_MAX_LINE_BYTES", str(1 << 16))
    monkeypatch.setenv("SPACY_COREF_EVAL_MAX_INPUT_BYTES", str(1 << 20))
    zeros, newlines = tmp_path / "zeros.conll.gz", tmp_path / "newlines.conll.gz"
    gzip_bomb(zeros, b"\0", 16)
    gzip_bomb(newlines, b"\n", 16)
    with pytest.raises(CorefInputError, match=r"zeros\.conll\.gz:1: line longer than the maximum line length"):
        read_conll(zeros)
    with pytest.raises(
        CorefInputError,
        match=r"newlines\.conll\.gz: larger than the maximum input size "
        r"\(1048576 bytes decompressed; raise it",
    ):
        read_conll(newlines)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_endless_stream_is_refused(monkeypatch):
    monkeypatch.setenv("SPACY_COREF_EVAL_MAX_LINE_BYTES", str(1 << 16))
    with pytest.raises(CorefInputError, match=r"^/dev/zero:1: line longer than the maximum line length"):
        read_conll("/dev/zero")


def test_running_out_of_memory_is_an_input_error(tmp_path, monkeypatch):
    path = write(tmp_path, document(["(1)"]))

    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(conll, "parse_columns", no_memory)
    with pytest.raises(CorefInputError, match=rf"^{re.escape(str(path))}: not enough memory to read this file$"):
        read_conll(path)
    monkeypatch.setattr(conll._DocumentReader, "read", no_memory)
    with pytest.raises(CorefInputError, match=r"^s: not enough memory to read this input$"):
        parse_conll(document(["(1)"]), source="s")
