"""udapi's entity order (docs/corefud.md §2), computed for every document
of a file at once, equals a plain per-entity sort: on random files (eids
reused across documents, ``GRP`` and ``eid`` headers, eids ranked by
earlier batches) and on GUM with both kinds of ids."""

import gzip
from typing import Optional

from hypothesis import given, strategies as st

from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats.conllu import parse as parse_module
from spacy_coref_eval.formats.conllu.document import ConlluFile, CorefUDDocument
from spacy_coref_eval.formats.conllu.parse import FileParser
from tests.conftest import REPO
from tests.support.conllu_generator import EIDS, conllu_texts
from tests.support.strategies import deterministic, patched

GUM = REPO / "tests" / "data" / "corpora" / "gum-corefud.40docs.conllu.gz"


def mention_key(document: CorefUDDocument, m: int) -> tuple[int, int, int]:
    """udapi's place of mention ``m``: line of its first node, minus its
    number of nodes, its last word."""
    words = document.words_of(m)
    n_nodes = len(words) + len(document.mention_empty.get(m, ()))
    last = words[-1] if words else int(document.mention_end[m]) - 1
    return int(document.mention_line[m]), -n_nodes, last


def oracle_order(read: ConlluFile, per_document: bool, seen: Optional[dict[str, int]]) -> dict[str, tuple]:
    """Every document's entities sorted one by one by their first mention
    (in the document for ``GRP`` ids, else in the file, an eid of ``seen``
    first by rank), then eid."""
    in_file: dict[str, tuple[int, int, int]] = {}
    firsts = {}
    for name, document in read.documents.items():
        first: dict[str, tuple[int, int, int]] = {}
        for m in range(len(document)):
            eid = document.entities[int(document.mention_entity[m])]
            key = mention_key(document, m)
            first[eid] = min(first.get(eid, key), key)
            in_file[eid] = min(in_file.get(eid, key), key)
        firsts[name] = first
    if seen:
        in_file.update({eid: (rank - len(seen), 0, 0) for eid, rank in seen.items() if eid in in_file})
    out = {}
    for name, document in read.documents.items():
        keys = firsts[name] if per_document else in_file
        entities = tuple(sorted(document.entities, key=lambda eid: (keys[eid], eid)))
        out[name] = (entities, [entities.index(document.entities[int(e)]) for e in document.mention_entity])
    return out


def check(data: bytes, seen: Optional[dict[str, int]] = None) -> None:
    try:
        parser = FileParser(data, "t.conllu", seen=None if seen is None else dict(seen))
        ordered = parser.parse()
    except CorefInputError as err:
        with patched(parse_module, "_entities_in_file_order", lambda *args: None):
            try:
                FileParser(data, "t.conllu").parse()
            except CorefInputError as unordered_err:
                assert str(unordered_err) == str(err)
                return
        raise
    with patched(parse_module, "_entities_in_file_order", lambda *args: None):
        unordered = FileParser(data, "t.conllu").parse()
    expected = oracle_order(unordered, parser.per_document, None if parser.per_document else seen)
    assert list(ordered.documents) == list(expected)
    for name, document in ordered.documents.items():
        assert (document.entities, document.mention_entity.tolist()) == expected[name], name
        assert document.mention_entity.dtype.kind == "i"


@deterministic(max_examples=300, shrink=False)
@given(text=conllu_texts(), before=st.integers(0, 300), ranked=st.lists(st.sampled_from(EIDS), unique=True, max_size=4))
def test_entities_sorted_at_once_as_one_by_one(text, before, ranked):
    """``seen`` holds ``before`` eids of no document here, then ``ranked``."""
    seen = [f"elsewhere{i}" for i in range(before)] + ranked
    check(text.encode(), {eid: rank for rank, eid in enumerate(seen)} if seen else None)


def test_gum_entities_sorted_as_one_by_one():
    """GUM as released (``GRP``: each document's order its own) and with
    ``eid`` ids (an eid's first mention in the file counts)."""
    data = gzip.decompress(GUM.read_bytes())
    check(data)
    check(data.replace(b"# global.Entity = GRP-", b"# global.Entity = eid-"))
