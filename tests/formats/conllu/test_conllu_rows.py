"""The rows of every document of a CoNLL-U file, placed for all documents at
once (multiword ranges, empty nodes, sentences without words, token
columns), equal a row-by-row reading of each document: same words,
sentences, empty nodes and columns, or the same first error, on random
files of several documents whose IDs are sometimes wrong."""

import re
from typing import Union

from hypothesis import given, strategies as st

from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats.conllu.read import parse_conllu
from tests.support.strategies import deterministic

Document = tuple[str, list[list[str]]]
"""A document's name and the IDs of the rows of each of its sentences."""


@st.composite
def sentence_ids(draw) -> list[str]:
    """Words, multiword ranges and empty nodes; now and then a range or an
    empty node that is out of place, or a sentence of empty nodes alone."""
    ids: list[str] = []
    n_words = draw(st.integers(0, 4)) if draw(st.integers(0, 9)) == 0 else draw(st.integers(1, 4))
    for minor in range(1, draw(st.integers(0 if n_words else 1, 2)) + 1):
        ids.append(f"0.{minor}")
    for word in range(1, n_words + 1):
        kind = draw(st.integers(0, 11))
        if kind == 0 and word < n_words:
            ids.append(f"{word}-{word + 1}")
        elif kind == 1:
            ids.append(draw(st.sampled_from([f"{word + 1}-{word + 2}", f"{word}-{word - 1}", "x", f"{word}.x"])))
        ids.append(str(word))
        if kind == 2:
            ids.extend(f"{word}.{minor}" for minor in range(1, draw(st.integers(1, 2)) + 1))
        elif kind == 3:
            ids.append(draw(st.sampled_from([f"{word}.0", f"{word - 1}.1", f"{word + 1}.1", f"{word}.2", f"{word}.99999"])))
    return ids


documents = st.lists(
    st.tuples(st.sampled_from(["a", "b", "c", "d"]), st.lists(sentence_ids(), min_size=1, max_size=3)),
    min_size=1,
    max_size=4,
    unique_by=lambda document: document[0],
)


def text_of(files: list[Document]) -> str:
    lines = []
    for name, sentences in files:
        lines.append(f"# newdoc id = {name}")
        for s, ids in enumerate(sentences):
            lines.append(f"# sent_id = {name}{s}")
            lines += ["\t".join([i, f"f{i}", "_", f"U{i}", "_", "_", "0", "_", "_", "_"]) for i in ids]
            lines.append("")
    return "\n".join(lines) + "\n"


def oracle(files: list[Document]) -> Union[str, list]:
    """Each document read row by row: words, sentence starts and lines,
    UPOS, empty nodes; or the first error (a sentence without words, then
    the rows in order)."""
    out = []
    line = 0
    for name, sentences in files:
        line += 1
        starts, sentence_lines, words, upos, empty = [0], [], [], [], []
        error = None
        for s, ids in enumerate(sentences):
            line += 2
            sentence_lines.append(line)
            expected, last = 1, (0, 0)
            for offset, ident in enumerate(ids):
                if error is None:
                    error = _row_error(ident, expected, last, line + offset)
                if ident.isdigit():
                    words.append(f"f{ident}")
                    upos.append(f"U{ident}")
                    expected += 1
                elif re.fullmatch(r"\d+\.\d+", ident):
                    major, minor = map(int, ident.split("."))
                    last = (major, minor)
                    empty.append((s, ident, len(words), f"f{ident}", line + offset))
            if len(words) == starts[-1]:
                return f"{line}: sentence without words"
            starts.append(len(words))
            line += len(ids)
        if error:
            return error
        out.append((name, words, upos, starts, sentence_lines, empty))
    return out


def _row_error(ident: str, expected: int, last: tuple[int, int], line: int) -> str:
    if ident.isdigit():
        return None
    if re.fullmatch(r"\d+-\d+", ident):
        low, high = map(int, ident.split("-"))
        return None if low == expected and high >= low else f"{line}: multiword token {ident} where word {expected} is due"
    if re.fullmatch(r"\d+\.\d+", ident):
        major, minor = map(int, ident.split("."))
        if major != expected - 1 or minor == 0 or (major, minor) <= last:
            return f"{line}: empty node {ident} out of order (after word {expected - 1})"
        return f"{line}: empty node ID {ident} is too large" if minor >= 1 << 16 else None
    return f"{line}: ID {ident!r} where word {expected} is due"


def read(text: str) -> Union[str, list]:
    try:
        parsed = parse_conllu(text, source="f")
    except CorefInputError as err:
        return str(err).split("f:", 1)[1]
    return [
        (
            name,
            d.words,
            d.upos,
            d.sentence_starts.tolist(),
            d.sentence_lines,
            [(n.sentence, n.id, n.after, n.form, n.line) for n in d.empty_nodes],
        )
        for name, d in parsed.documents.items()
    ]


@deterministic(max_examples=400)
@given(files=documents)
def test_rows_placed_at_once_as_row_by_row(files):
    assert read(text_of(files)) == oracle(files)
