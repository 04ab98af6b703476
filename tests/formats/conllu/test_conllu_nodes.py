"""A CoNLL-U document's nodes as a side's tokens: entity types (taken in
one pass over the mentions) and node forms equal a mention-by-mention and
node-by-node reading, on random files with empty nodes (paired with
another file's empty nodes) and on GUM."""

from typing import Optional

import numpy as np
from hypothesis import given

from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats.conllu.document import CorefUDDocument
from spacy_coref_eval.formats.conllu.nodes import EMPTY_FORM, empty_keys, entity_types, node_forms, node_order
from spacy_coref_eval.formats.conllu.read import parse_conllu, read_conllu
from tests.conftest import REPO
from tests.support.conllu_generator import conllu_texts
from tests.support.strategies import deterministic

GUM = REPO / "tests" / "data" / "corpora" / "gum-corefud.40docs.conllu.gz"


def oracle_types(document: CorefUDDocument) -> Optional[list[Optional[str]]]:
    """The etype of each entity's first mention that gives one."""
    types = {}
    for mention in document.mentions():
        if mention.etype:
            types.setdefault(mention.eid, mention.etype)
    if not types:
        return None
    return [types.get(eid) for eid in document.entities]


def oracle_forms(document: CorefUDDocument, order, other: Optional[CorefUDDocument]) -> list[str]:
    """Node by node: a word's form, else an empty node's of this file, else
    of ``other``, else :data:`EMPTY_FORM`."""
    keys = order.tolist()
    words = dict(zip(document.word_keys().tolist(), document.words))
    empty = {node.key: node.form for node in document.empty_nodes}
    others = {node.key: node.form for node in other.empty_nodes} if other is not None else {}
    return [words.get(key, empty.get(key, others.get(key, EMPTY_FORM))) for key in keys]


def documents(text: str) -> list[CorefUDDocument]:
    try:
        return list(parse_conllu(text).documents.values())
    except CorefInputError:
        return []


def check(document: CorefUDDocument, other: Optional[CorefUDDocument]) -> None:
    types = entity_types(document)
    expected = oracle_types(document)
    assert (types is None and expected is None) or (types.dtype == object and types.tolist() == expected)
    order = node_order(document, empty_keys(other) if other is not None else np.zeros(0, dtype=np.int64))
    assert node_forms(document, order, other) == oracle_forms(document, order, other)


@deterministic(max_examples=200, shrink=False)
@given(text=conllu_texts(), other_text=conllu_texts())
def test_types_and_forms_equal_a_node_by_node_reading(text, other_text):
    others = documents(other_text)
    for i, document in enumerate(documents(text)):
        check(document, None)
        if others:
            check(document, others[i % len(others)])


def test_gum_types_and_forms():
    read = list(read_conllu(GUM).documents.values())
    assert sum(bool(document.empty_nodes) for document in read) == 8
    for document, other in zip(read, read[1:] + read[:1]):
        check(document, None)
        check(document, other)
