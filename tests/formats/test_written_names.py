"""Every writer keeps a document's name or refuses it: a name read back
from what a writer wrote is the name written, whatever characters it
holds (new lines and ``#end document`` included), and a writer that cannot
hold a name stops with one line naming the document."""

import string

from hypothesis import given, strategies as st

from spacy_coref_eval import Clusters
from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats import ReadOptions, get_format
from spacy_coref_eval.formats.corpus import read_side
from spacy_coref_eval.formats.document import WordsDocument
from tests.support.strategies import deterministic

NAMES = st.one_of(
    st.text(max_size=12),
    st.text(string.printable, max_size=12),
    st.sampled_from(["a\n#end document\n#begin document (b)", "d ", " d", "d\r", "(a); part 000", "x\x1b[31m", "\u2028d"]),
)
WRITERS = ("conll", "conllu", "jsonlines", "spacy")


@deterministic(max_examples=60)
@given(name=NAMES, writer=st.sampled_from(WRITERS))
def test_a_written_name_reads_back_or_is_refused(tmp_path_factory, name, writer):
    fmt = get_format(writer)
    path = tmp_path_factory.mktemp("names") / f"out{fmt.suffixes[0].lstrip('*')}"
    document = WordsDocument(name, Clusters.from_entities([[(0, 1), (2, 3)]]), ["A", "b", "c"], [0])
    try:
        fmt.write(path, [document], [])
    except CorefInputError as err:
        assert repr(name) in str(err)
        assert not path.exists()
        return
    read = read_side(path, fmt, ReadOptions("key"))
    assert [d.name for d in read.documents] == [name]
    assert read.documents[0].clusters.entities() == (((0, 1), (2, 3)),)
