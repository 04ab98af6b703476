"""Offsets members read from their JSON text (formats/sysout/read.py
parse_lines keeps a member that is plainly lists of ``[int, int]`` as its
text, and spans_of parses it without decoding): the same spans, cluster
indices and errors as from the decoded lists (the line decoded whole by
json.loads), on random clusters."""

import json
import re

import pytest
from hypothesis import given, strategies as st

from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats.jsonlines.read import SpanText
from spacy_coref_eval.formats.sysout import read
from spacy_coref_eval.formats.sysout.read import parse_fastcoref, parse_lines, spans_of
from tests.support.strategies import deterministic, patched

clusters_lists = st.lists(st.lists(st.lists(st.integers(-3, 40), min_size=2, max_size=2), max_size=4), max_size=5)


TEXT = "The cat sat on the mat and the dog sat on the log."


def outcome(reader, *args, **options):
    try:
        spans, labels, dropped = reader(*args, **options)
    except CorefInputError as err:
        return str(err)
    return spans.tolist(), labels.tolist(), dropped


def from_line(line):
    document = parse_lines(line, "f.jsonl", parse_fastcoref)[0]
    return document.spans, document.labels, document.dropped


@deterministic(300)
@given(clusters_lists, st.sampled_from([(", ", ": "), (",", ":"), (" ,\n", " : ")]), st.booleans())
def test_offsets_read_from_their_text_are_those_decoded(clusters, separators, inclusive):
    dumped = json.dumps(clusters, separators=separators)
    decoded = outcome(spans_of, clusters, "clusters", "f:1", limit=len(TEXT), unit="character", inclusive=inclusive, missing=True)
    assert (
        outcome(spans_of, SpanText(dumped), "clusters", "f:1", limit=len(TEXT), unit="character", inclusive=inclusive, missing=True)
        == decoded
    )
    line = json.dumps({"text": TEXT, "clusters": clusters}, separators=separators)
    with patched(read, "line_members", lambda *args, **options: None):
        whole = outcome(from_line, line)
    assert outcome(from_line, line) == whole


def test_offsets_that_are_not_plain_pairs_are_decoded():
    """``None`` mentions (fastcoref's, on special tokens) and offsets too
    long for the text reading are decoded and read as before."""
    text = "The cat sat."
    document = parse_lines(json.dumps({"text": text, "clusters": [[[0, 7], None, [8, 11]]]}), "f", parse_fastcoref)[0]
    assert document.spans.tolist() == [[0, 7], [8, 11]] and document.dropped == 1
    with pytest.raises(CorefInputError, match="holds an offset too large"):
        parse_lines('{"text": "a", "clusters": [[[0, 1234567890123456789012]]]}', "f", parse_fastcoref)


@pytest.mark.parametrize(
    "lines,error",
    [
        (['{"text": "a b", "clusters": [[[0, 9]]]}', "not json"], "f.jsonl:1: mention [0, 9]"),
        (['{"text": "a b", "clusters": [[[0, 1]]]}', "not json", '{"text": "a", "clusters": [[[0, 9]]]}'], "f.jsonl:2: not a JSON object"),
        (['{"text": "a b", "clusters": [[[0, 1]]]}', "[1]"], "f.jsonl:2: a line must hold a JSON object"),
    ],
)
def test_the_first_bad_line_is_the_one_reported(lines, error):
    """The offsets of all lines are parsed at once, after the lines are
    read: an error still names the first line that has one."""
    with pytest.raises(CorefInputError, match=re.escape(error)):
        parse_lines("\n".join(lines), "f.jsonl", parse_fastcoref)
