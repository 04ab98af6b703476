"""Offsets members of system outputs (formats/sysout/read.py parse_lines
and spans_of): mentions that are not plain pairs, offsets too large, and
which bad line is reported."""

import json
import re

import pytest

from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats.sysout.read import parse_fastcoref, parse_lines


def test_offsets_that_are_not_plain_pairs_are_read():
    """``None`` mentions (fastcoref's, on special tokens) are dropped and
    counted; an offset too large for any document is refused."""
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
    """The lines are all read before their documents are parsed: an error
    still names the first line that has one."""
    with pytest.raises(CorefInputError, match=re.escape(error)):
        parse_lines("\n".join(lines), "f.jsonl", parse_fastcoref)
