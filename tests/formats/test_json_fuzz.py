"""Every JSON reader, fed a valid record with one value replaced by an odd
one (a number, a boolean, null, a list, an object, NaN, a huge number, an
empty string, a line separator), reads it or refuses it with one line:
``score`` and ``convert`` end with exit 0 or 1, never an exception
(issue 34: "no traceback in a re-run of these fuzz shapes")."""

import copy
import json

from click.testing import CliRunner
from hypothesis import given, strategies as st

from spacy_coref_eval.cli import app
from tests.support.strategies import deterministic

ODD = [5, 1.5, None, True, [], {}, [1, "a"], {"a": 1}, float("nan"), 2**70, -1, "", "\u2028"]
RECORDS = {
    "d.jsonlines": {"doc_key": "d", "sentences": [["A", "b", "c"]], "clusters": [[[0, 0], [2, 2]]]},
    "d.fastcoref.jsonl": {"doc_key": "d", "text": "A b c", "clusters": [[[0, 1], [4, 5]]]},
    "d.maverick.jsonl": {"doc_key": "d", "tokens": ["A", "b", "c"], "clusters_token_offsets": [[[0, 0], [2, 2]]]},
    "d.wl.jsonl": {"document_id": "d", "cased_words": ["A", "b", "c"], "sent_id": [0, 0, 0], "span_clusters": [[[0, 1], [2, 3]]]},
    "d.prodigy.jsonl": {
        "text": "A b c",
        "answer": "accept",
        "spans": [{"start": 0, "end": 1, "label": "M"}, {"start": 4, "end": 5, "label": "M"}],
        "relations": [{"label": "COREF", "head_span": {"start": 0, "end": 1}, "child_span": {"start": 4, "end": 5}}],
    },
    "d.doccano.jsonl": {
        "id": 1,
        "text": "A b c",
        "relations": [{"id": 1, "from_id": 1, "to_id": 2, "type": "coref"}],
        "entities": [
            {"id": 1, "start_offset": 0, "end_offset": 1, "label": "M"},
            {"id": 2, "start_offset": 4, "end_offset": 5, "label": "M"},
        ],
    },
    "d.indiscrim.jsonl": {
        "id": "d",
        "text": "A b c",
        "coref_chains": [[[0, 0, 0], [0, 2, 2]]],
        "sentences": [{"id": 0, "tokens": [{"id": 0, "text": "A"}, {"id": 1, "text": "b"}, {"id": 2, "text": "c"}]}],
    },
    "d.labelstudio.json": [
        {
            "id": 1,
            "data": {"text": "A b c"},
            "annotations": [
                {
                    "result": [
                        {"id": "a", "type": "labels", "value": {"start": 0, "end": 1, "labels": ["M"]}},
                        {"id": "b", "type": "labels", "value": {"start": 4, "end": 5, "labels": ["M"]}},
                        {"type": "relation", "from_id": "a", "to_id": "b"},
                    ]
                }
            ],
        }
    ],
}


def places(value, path=()):
    """Every path to a value inside ``value``."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from places(item, (*path, index))


def replaced(value, path, odd):
    if not path:
        return odd
    out = copy.deepcopy(value)
    parent = out
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = odd
    return out


@st.composite
def odd_files(draw):
    name = draw(st.sampled_from(sorted(RECORDS)))
    record = RECORDS[name]
    path = draw(st.sampled_from(list(places(record))))
    return name, replaced(record, path, draw(st.sampled_from(ODD)))


@deterministic(max_examples=300)
@given(case=odd_files())
def test_odd_json_values_are_read_or_refused_in_one_line(tmp_path_factory, case):
    name, record = case
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / name
    if name.endswith(".json"):
        path.write_text(json.dumps(record))
        options = ["--input-format", "labelstudio"]
    else:
        path.write_text(json.dumps(record) + "\n")
        options = []
    for args in (["score", str(path), str(path), *options], ["convert", str(path), str(folder / "out.conll"), *options]):
        result = CliRunner().invoke(app, args)
        assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))
        assert result.exit_code in (0, 1, 2), (args, result.output)
