"""The MISC attributes the CoNLL-U line parser finds with array operations
(``Entity=`` values, ``Bridge=`` and ``SplitAnte=``/``Split=`` counts and
values) are those a line-by-line split at tabs and pipes finds, on random
token lines whose FEATS and MISC hold look-alike attributes, and on GUM."""

import gzip
import re

import pytest
from hypothesis import given, strategies as st

from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats.conllu.parse import FileParser
from tests.conftest import REPO
from tests.support.strategies import deterministic

GUM = REPO / "tests" / "data" / "corpora" / "gum-corefud.40docs.conllu.gz"
ITEMS = [
    "Entity=(e1)",
    "Entity=",
    "Entity=(e2-x-1-",
    "e2)",
    "Bridge=e1<e2",
    "SplitAnte=e1<e2",
    "Split=e2<e3",
    "SplitAntecedent=x",
    "SpaceAfter=No",
    "E",
    "",
    "Entit",
    "BridgeX=1",
    "S=",
    "SplitAnte=",
    "B",
    "Entity=e1)",
    "MSeg=a-b",
    "Xy=1",
]
FEATS = ["_", "Number=Sing", "Style=x|Entity=y", "Bridge=z|Split=w", "SplitAnte=v"]


def oracle(text: str) -> tuple[list[tuple[int, str]], int, int, list[tuple[int, str]]]:
    """``(row, Entity= value)`` of every non-empty value, the numbers of
    ``Bridge=`` and of ``SplitAnte=``/``Split=`` items, and ``(row,
    value)`` of every ``SplitAnte=`` (``Split=`` where a row has none)."""
    entities, splits, bridges, n_splits = [], [], 0, 0
    rows = [line for line in text.split("\n") if line.strip() and not line.startswith("#")]
    for row, line in enumerate(rows):
        items = line.split("\t")[9].split("|")
        entities += [(row, item[7:]) for item in items if item.startswith("Entity=") and item[7:]]
        bridges += sum(item.startswith("Bridge=") for item in items)
        ante = [item[10:] for item in items if item.startswith("SplitAnte=")]
        plain = [item[6:] for item in items if item.startswith("Split=")]
        n_splits += len(ante) + len(plain)
        splits += [(row, value) for value in (ante or plain)]
    return entities, bridges, n_splits, splits


def found(parser: FileParser):
    offsets = parser.entity_offsets.tolist()
    values = [parser.entity_text[a : b - 1].tobytes().decode() for a, b in zip(offsets, offsets[1:])]
    return (
        list(zip(parser.entity_rows.tolist(), values)),
        parser.bridges,
        parser.split_antecedents,
        list(zip(parser.split_rows.tolist(), parser.split_texts)),
    )


@st.composite
def token_lines(draw):
    lines = ["# global.Entity = eid-etype-head"]
    for _s in range(draw(st.integers(1, 3))):
        for word in range(1, draw(st.integers(1, 5)) + 1):
            misc = "|".join(draw(st.lists(st.sampled_from(ITEMS), max_size=4))) or "_"
            lines.append("\t".join([str(word), "w", "_", "X", "_", draw(st.sampled_from(FEATS)), "0", "_", "_", misc]))
        lines.append("")
    return "\n".join(lines) + "\n"


@deterministic(max_examples=300)
@given(text=token_lines())
def test_misc_attributes_found_as_a_line_split_finds_them(text):
    parser = FileParser(text.encode(), "t.conllu")
    try:
        parser.parse()
    except CorefInputError:
        pass
    assert found(parser) == oracle(text)


def test_gum_misc_attributes():
    text = gzip.decompress(GUM.read_bytes()).decode()
    parser = FileParser(text.encode(), "gum.conllu")
    parser.parse()
    assert found(parser) == oracle(text)


SENT_ID_TAILS = [
    "",
    " = s1",
    " = s-1.x",
    "=s2",
    " =  s3 ",
    " = ünï",
    " = a\u00a0b",
    " = a b",
    " = a\x1fb",
    " = \u2003c",
    "  = d",
    " = =e",
    " = f=g",
    "s",
    " = é",
    " = h\x0bi",
    " =",
    " = ~!#",
]


@st.composite
def sent_id_texts(draw):
    """Sentences with ``# sent_id`` lines (none, one or two) of odd forms."""
    lines = []
    for _s in range(draw(st.integers(1, 4))):
        for _ in range(draw(st.integers(0, 2))):
            lines.append("# sent_id" + "".join(draw(st.lists(st.sampled_from(SENT_ID_TAILS), min_size=1, max_size=2))))
        lines.append("\t".join(["1", "w", "_", "X", "_", "_", "0", "_", "_", "_"]))
        lines.append("")
    return "\n".join(lines) + "\n"


def oracle_sentence_ids(text: str) -> list[object]:
    """Each sentence's last ``# sent_id`` line's id: what
    ``^# sent_id\\s*=?\\s*(\\S+)`` matches in the line alone."""
    ids, current = [], None
    for line in text.split("\n"):
        if line.startswith("# sent_id"):
            found = re.match(r"# sent_id\s*=?\s*(\S+)", line)
            current = found.group(1) if found else current
        elif line.startswith("1\t"):
            ids.append(current)
            current = None
    return ids


@deterministic(max_examples=300)
@given(text=sent_id_texts())
def test_sentence_ids_as_a_line_match_finds_them(text):
    (document,) = FileParser(text.encode(), "t.conllu").parse().documents.values()
    assert document.sentence_ids == oracle_sentence_ids(text)


def test_gum_sentence_ids():
    text = gzip.decompress(GUM.read_bytes()).decode()
    documents = FileParser(text.encode(), "gum.conllu").parse().documents.values()
    assert [i for document in documents for i in document.sentence_ids] == oracle_sentence_ids(text)


def test_sent_id_not_utf8_names_its_line():
    row = "\t".join(["1", "w", "_", "X", "_", "_", "0", "_", "_", "_"])
    data = f"# sent_id = s1\n{row}\n\n# sent_id = {'x' * 50}".encode() + b"\xff\n" + f"{row}\n\n".encode()
    with pytest.raises(CorefInputError, match=r"^t\.conllu:4: not UTF-8 text"):
        FileParser(data, "t.conllu").parse()
