"""The vectorised CoNLL reader gives exactly what the line reader gives."""
import glob

from hypothesis import given
from hypothesis import strategies as st

from spacy_coref_eval import CorefInputError
from spacy_coref_eval.readers.conll import parse_conll, read_conll
from spacy_coref_eval.readers.conll_vectorised import parse_simple

from .conftest import data_path
from .strategies import deterministic

MARK = st.sampled_from(["({})", "({}", "{})"])


@st.composite
def conll_texts(draw):
    """Documents whose fields hold random marks (often unbalanced), in any
    order, joined by '|' or concatenated; blank lines between sentences."""
    lines = []
    for doc in range(draw(st.integers(0, 3))):
        lines.append(f"#begin document (d{doc}); part 000")
        for token in range(draw(st.integers(0, 12))):
            if draw(st.booleans()) and token:
                lines.append("")
            marks = [draw(MARK).format(draw(st.integers(0, 3))) for _ in range(draw(st.integers(0, 3)))]
            field = draw(st.sampled_from(["|", ""])).join(marks) or "-"
            lines.append(f"d{doc}\t0\t{token}\tw{token}\t{field}")
        lines.append("#end document")
    return "\n".join(lines) + "\n"


def same(fast, slow) -> bool:
    return [name for name, _, _, _ in fast] == list(slow) and all(
        clusters.entities() == slow[name].clusters.entities()
        and clusters.repeated == slow[name].clusters.repeated
        and n_tokens == slow[name].n_tokens
        and line == slow[name].line
        for name, line, clusters, n_tokens in fast
    )


@deterministic(max_examples=400)
@given(text=conll_texts())
def test_vectorised_reader_equals_line_reader(text):
    fast = parse_simple(text.encode())
    try:
        slow = parse_conll(text, source="<t>")
    except CorefInputError:
        assert fast is None
        return
    assert fast is not None
    assert same(fast, slow)


def test_real_files_take_the_vectorised_path_and_agree():
    files = [data_path("corpora", "litbank.key.conll.gz")]
    files += sorted(map(type(files[0]), glob.glob(str(data_path("conformance")) + "/*/*")))
    taken = 0
    for path in files:
        if path.suffix == ".json":
            continue
        data = path.read_bytes()
        if path.suffix == ".gz":
            import gzip

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
    }
    for label, text in cases.items():
        assert parse_simple(text.encode()) is None, label
        path = tmp_path / "x.conll"
        path.write_bytes(text.encode())
        assert read_conll(path)["(a)"].clusters.entities() == parse_conll(text, source="x").get("(a)").clusters.entities(), label
