"""The numpy reader of CoNLL-UA (formats/ua/vectorised.py) gives exactly
the documents and warnings of the line reader (formats/ua/parse.py, the
oracle) or declines; and the clusters of a layer without split antecedents
built at once equal those of the general construction (model/ua/view.py)."""

import pytest
from hypothesis import given, strategies as st

from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats.ua.parse import parse_ua
from spacy_coref_eval.formats.ua.vectorised import parse_simple
from spacy_coref_eval.model.ua.modes import Modes
from spacy_coref_eval.model.ua.view import _grouped, ua_clusters_of
from tests.support.strategies import deterministic
from tests.support.ua_generator import generate_pair


def same_as_line_reader(text: str):
    """What the numpy reader gives for ``text``, checked against the line
    reader: equal documents, token lines and warnings, or ``None``; never
    documents where the line reader refuses the text."""
    try:
        expected = parse_ua(text, "f.ua")
    except CorefInputError:
        expected = None
    read = parse_simple(text.encode("utf8"), "f.ua")
    if read is None:
        return None
    assert expected is not None, "the numpy reader read what the line reader refuses"
    assert read.documents == expected.documents
    assert read.warnings == expected.warnings
    assert [d.lines for d in read.documents] == [d.lines for d in expected.documents]
    assert [d.words for d in read.documents] == [d.words for d in expected.documents]
    return read


@deterministic(max_examples=60, shrink=False)
@given(
    seed=st.integers(0, 10**6),
    plural_rate=st.sampled_from([0.0, 0.12, 0.3]),
    p_same_span=st.sampled_from([0.0, 0.1]),
    p_pseudo=st.sampled_from([0.0, 0.1]),
    n_docs=st.integers(1, 3),
    sep=st.sampled_from(["tab", "space", "mixed"]),
)
def test_generated_documents_read_as_the_line_reader_reads_them(seed, plural_rate, p_same_span, p_pseudo, n_docs, sep):
    for text in generate_pair(
        seed, n_tokens=60, n_docs=n_docs, plural_rate=plural_rate, p_same_span=p_same_span, p_pseudo=p_pseudo, sep=sep
    )[:2]:
        read = same_as_line_reader(text)
        if sep == "tab":
            assert read is not None, "tab-separated generated documents are the common case"


_NOISE = [
    "(",
    ")",
    "|",
    "=",
    "_",
    " ",
    "\t",
    "\n",
    "#",
    "x",
    "(EntityID=9|MarkableID=z)",
    ")(",
    "\n# newdoc id = d\n",
    "Min=3",
    "|ElementOf=1",
    "é",
    "\u00a0",
    "\r",
]


@deterministic(max_examples=150, shrink=False)
@given(seed=st.integers(0, 10**6), edits=st.lists(st.tuples(st.floats(0, 1), st.sampled_from(_NOISE)), min_size=1, max_size=3))
def test_damaged_documents_are_read_as_the_line_reader_reads_them_or_declined(seed, edits):
    text = generate_pair(seed, n_tokens=40, n_docs=2, sep="tab")[0]
    for at, noise in edits:
        cut = int(at * len(text))
        text = text[:cut] + noise + text[cut:]
    same_as_line_reader(text)


def test_a_bridging_column_and_comments_in_the_common_case():
    text = generate_pair(3, n_tokens=80, n_docs=2, sep="tab", bridging_rate=0.4)[0]
    text = "# a comment = with a value\n" + text.replace("# sent_id", "# text = words\n# sent_id", 3)
    read = same_as_line_reader(text)
    assert read is not None and any(d.identity.bridging for d in read.documents)


_PLAIN_EDITS = ["space", "fewer cells", "empty cell", "parenthesis in FORM", "tab in a comment"]


@deterministic(max_examples=80, shrink=False)
@given(seed=st.integers(0, 10**6), edits=st.lists(st.tuples(st.floats(0, 1), st.sampled_from(_PLAIN_EDITS)), min_size=1, max_size=4))
def test_token_lines_without_a_parenthesis_are_not_looked_into(seed, edits):
    """As the line reader, the numpy reader reads only the token lines with
    a parenthesis: the others may have spaces, other numbers of cells or
    empty cells (and then the marked lines' tabs are looked up line by line)."""
    lines = generate_pair(seed, n_tokens=60, n_docs=2, sep="tab", bridging_rate=0.2)[0].split("\n")
    plain = [i for i, line in enumerate(lines) if line[:1].isdigit() and "(" not in line and ")" not in line]
    for at, edit in edits:
        i = plain.pop(int(at * (len(plain) - 1)))
        cells = lines[i].split("\t")
        if edit == "space":
            cells[1] += " x"
        elif edit == "fewer cells":
            cells = cells[:3]
        elif edit == "empty cell":
            cells.insert(2, "")
        elif edit == "parenthesis in FORM":
            cells[1] = "("
        else:
            lines[i - 1] += "\n# text = a\tb"
        lines[i] = "\t".join(cells)
    assert same_as_line_reader("\n".join(lines)) is not None


@pytest.mark.parametrize("body", ["1\tw\t_\n2\tx\n", "1\tw\t_\n2\tx\t_\n", "1\tw\n2\tx\n", "1\tw\t_\n2\tx\t_\t_\t_\n"])
def test_documents_without_a_parenthesis(body):
    text = "# global.columns = ID FORM IDENTITY BRIDGING\n# newdoc id = a\n" + body
    read = same_as_line_reader(text)
    assert read is not None and read.documents[0].n_tokens == 2 and not read.documents[0].identity.markables


def test_a_space_in_a_token_line_with_a_parenthesis_is_declined():
    text = generate_pair(5, n_tokens=40, n_docs=1, sep="tab")[0]
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line[:1].isdigit() and "(" in line)
    cells = lines[at].split("\t")
    cells[1] += " x"
    lines[at] = "\t".join(cells)
    assert same_as_line_reader("\n".join(lines)) is None


@pytest.mark.parametrize(
    "text",
    [
        "1\tw\t_\n",
        "# newdoc id = a\n1\tw\t(EntityID=1|MarkableID=m)\n# newdoc id = a\n1\tw\t_\n",
        "# newdoc id = a\n1\tw\t(EntityID=1|MarkableID=m\n",
        "# newdoc id = a\n1\tw\t(EntityID=1|MarkableID=m)\n2\tw\t(EntityID=1|MarkableID=m)\n",
        "# newdoc id = a\n1\tw\t(EntityID=1)\n",
        "# newdoc id = a\n1\tw\tx(EntityID=1|MarkableID=m)\n",
    ],
)
def test_input_the_line_reader_refuses_is_declined(text):
    text = "# global.columns = ID FORM IDENTITY\n" + text
    with pytest.raises(CorefInputError):
        parse_ua(text, "f.ua")
    assert parse_simple(text.encode(), "f.ua") is None


@deterministic(max_examples=40, shrink=False)
@given(
    seed=st.integers(0, 10**6),
    p_same_span=st.sampled_from([0.0, 0.1]),
    p_pseudo=st.sampled_from([0.0, 0.2]),
    plural_rate=st.sampled_from([0.0, 0.2]),
    mode=st.sampled_from([Modes(), Modes("remove"), Modes(discourse_deixis=True)]),
)
def test_clusters_built_at_once_equal_the_general_construction(seed, p_same_span, p_pseudo, plural_rate, mode):
    text = generate_pair(seed, n_tokens=80, n_docs=3, plural_rate=plural_rate, p_same_span=p_same_span, p_pseudo=p_pseudo)[0]
    documents = parse_ua(text, "f.ua").documents
    for document, fast in zip(documents, ua_clusters_of(documents, mode)):
        layer = document.deixis if mode.discourse_deixis else document.identity
        general = _grouped(document, layer, mode, splits=layer.splits() if mode.split_antecedents == "keep" else {})
        for name in ("starts", "ends", "entity"):
            assert getattr(fast, name).tolist() == getattr(general, name).tolist()
        assert (fast.n_entities, fast.repeated, fast.listed, fast.dropped) == (
            general.n_entities,
            general.repeated,
            general.listed,
            general.dropped,
        )
        assert fast.splits == general.splits and fast.modes == general.modes
        assert fast.entity_spans == general.entity_spans and fast.entity_mins == general.entity_mins


def test_text_that_is_not_utf8_is_declined_and_refused_naming_the_line(tmp_path):
    from pathlib import Path

    from spacy_coref_eval.formats import ReadOptions, get_format

    text = generate_pair(4, n_tokens=40, n_docs=1, sep="tab")[0].encode("utf8")
    assert parse_simple(text, "f.ua") is not None
    lines = text.split(b"\n")
    at = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    lines[at] = lines[at].replace(b"\t", b"\xff\t", 1)
    data = b"\n".join(lines)
    assert parse_simple(data, "f.ua") is None
    path = Path(tmp_path) / "f.ua"
    path.write_bytes(data)
    with pytest.raises(CorefInputError, match=rf"f\.ua:{at + 1}: not UTF-8 text"):
        get_format("ua").read(path, ReadOptions("key"))
