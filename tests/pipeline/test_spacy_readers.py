"""Cluster readers on spaCy docs: registered names, span group layouts,
empty docs and spans repeated across clusters."""

import re
import warnings

import pytest
import spacy
from hypothesis import given, strategies as st
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import registry

from spacy_coref_eval import CorefInputError
from spacy_coref_eval.formats.docbin.spans import PrefixedSpanGroups, doc_clusters
from spacy_coref_eval.pipeline.registrations import labeled_span_group, prefixed_span_groups
from spacy_coref_eval.pipeline.scorers import CorefEvalWarning, score_examples
from tests.support.strategies import deterministic

TEXT = "Anna met Bob . She said he was late ."


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en")


def make_doc(nlp, text: str = TEXT) -> Doc:
    return nlp.make_doc(text)


def as_offsets(entities):
    return [[(span.start, span.end) for span in entity] for entity in entities]


def test_readers_are_registered_in_misc():
    assert registry.misc.get("spacy_coref_eval.prefixed_span_groups.v1") is prefixed_span_groups
    assert registry.misc.get("spacy_coref_eval.labeled_span_group.v1") is labeled_span_group


def test_reader_resolves_from_config(nlp):
    config = {"reader": {"@misc": "spacy_coref_eval.prefixed_span_groups.v1", "prefix": "chains"}}
    reader = registry.resolve(config)["reader"]
    doc = make_doc(nlp)
    doc.spans["chains_1"] = [doc[0:1], doc[4:5]]
    doc.spans["coref_clusters_1"] = [doc[2:3]]
    assert as_offsets(reader(doc)) == [[(0, 1), (4, 5)]]


def test_prefix_groups_are_entities_in_integer_order(nlp):
    doc = make_doc(nlp)
    doc.spans["coref_clusters_10"] = [doc[8:9]]
    doc.spans["coref_clusters_2"] = [doc[2:3], doc[6:7]]
    doc.spans["coref_clusters_1"] = [doc[0:1], doc[4:5]]
    assert as_offsets(prefixed_span_groups()(doc)) == [[(0, 1), (4, 5)], [(2, 3), (6, 7)], [(8, 9)]]


@pytest.mark.parametrize(
    "name",
    [
        "coref_clusters_x",
        "coref_clusters_1_heads",
        "coref_clusters",
        "coref_clusters_",
        "coref_clusters1",
        "coref_clusters_-1",
        "coref_clusters_1.5",
        "coref_clusters_\u0663",
        "xcoref_clusters_1",
        "coref_heads_1",
    ],
)
def test_prefix_ignores_groups_not_named_prefix_integer(nlp, name):
    doc = make_doc(nlp)
    doc.spans[name] = [doc[0:1]]
    doc.spans["coref_clusters_3"] = [doc[2:3]]
    assert as_offsets(prefixed_span_groups()(doc)) == [[(2, 3)]]


def test_prefix_is_literal_not_a_pattern(nlp):
    doc = make_doc(nlp)
    doc.spans["aXb_1"] = [doc[0:1]]
    doc.spans["a.b_2"] = [doc[2:3]]
    assert as_offsets(prefixed_span_groups("a.b")(doc)) == [[(2, 3)]]


def test_empty_numbered_group_is_no_entity(nlp):
    doc = make_doc(nlp)
    doc.spans["coref_clusters_1"] = []
    doc.spans["coref_clusters_2"] = [doc[0:1], doc[4:5]]
    clusters = doc_clusters(doc, prefixed_span_groups())
    assert clusters.entities() == (((0, 1), (4, 5)),)


@pytest.mark.parametrize("attr", ["id_", "label_", "kb_id_"])
def test_labeled_group_entities_by_attribute_in_first_appearance(nlp, attr):
    doc = make_doc(nlp)
    spans = [doc[2:3], doc[0:1], doc[6:7], doc[4:5], doc[8:9]]
    values = ["B", "A", "B", "A", ""]
    for span, value in zip(spans, values):
        setattr(span, attr, value)
    doc.spans["mentions"] = spans
    doc.spans["other"] = [doc[3:4]]
    entities = as_offsets(labeled_span_group("mentions", attr)(doc))
    assert entities == [[(2, 3), (6, 7)], [(0, 1), (4, 5)], [(8, 9)]]


def test_labeled_group_spans_with_empty_attribute_are_separate_entities(nlp):
    doc = make_doc(nlp)
    doc.spans["mentions"] = [doc[0:1], doc[2:3]]
    assert as_offsets(labeled_span_group("mentions", "label_")(doc)) == [[(0, 1)], [(2, 3)]]


def test_labeled_group_missing_key_reads_no_entities(nlp):
    doc = make_doc(nlp)
    doc.spans["coref_clusters_1"] = [doc[0:1]]
    assert labeled_span_group("mentions")(doc) == []


def test_labeled_group_rejects_other_attributes():
    with pytest.raises(ValueError, match="attr must be one of"):
        labeled_span_group("mentions", "text")


def test_labeled_group_resolves_from_config(nlp):
    config = {"r": {"@misc": "spacy_coref_eval.labeled_span_group.v1", "key": "ents", "attr": "label_"}}
    reader = registry.resolve(config)["r"]
    doc = make_doc(nlp)
    doc.spans["ents"] = [Doc.char_span(doc, 0, 4, label="P1"), Doc.char_span(doc, 15, 18, label="P1")]
    assert as_offsets(reader(doc)) == [[(0, 1), (4, 5)]]


@pytest.mark.parametrize("reader", [prefixed_span_groups(), labeled_span_group("mentions")])
def test_empty_docs_read_as_no_mentions(nlp, reader):
    empty = make_doc(nlp, "")
    plain = make_doc(nlp)
    assert reader(empty) == [] and reader(plain) == []
    assert len(doc_clusters(empty, reader)) == 0 and len(doc_clusters(plain, reader)) == 0


def with_empty_group(doc: Doc) -> Doc:
    doc.spans["coref_clusters_1"] = []
    return doc


def test_empty_docs_score_zero_without_warnings(nlp):
    """Docs with the coreference span groups but no mention are legitimate."""
    examples = [
        Example(with_empty_group(make_doc(nlp, "")), with_empty_group(make_doc(nlp, ""))),
        Example(with_empty_group(make_doc(nlp)), with_empty_group(make_doc(nlp))),
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = score_examples(examples)
    assert result.warnings == []
    assert set(result.documents) == {"example 0", "example 1"}
    metrics = result.metrics()
    assert metrics["lea"]["f1"] == 0.0 and metrics["mentions"]["recall_den"] == 0.0


def test_heads_are_span_roots_when_parsed(nlp):
    doc = Doc(nlp.vocab, words=["the", "old", "man", "slept"], heads=[2, 2, 3, 3], deps=["det", "amod", "nsubj", "ROOT"])
    doc.spans["coref_clusters_1"] = [doc[0:3]]
    clusters = doc_clusters(doc, prefixed_span_groups())
    assert clusters.heads.tolist() == [2]
    assert doc_clusters(make_doc(nlp), prefixed_span_groups()).heads is None


def test_span_in_two_clusters_is_kept_once_with_a_warning(nlp):
    clean = make_doc(nlp)
    clean.spans["coref_clusters_1"] = [clean[0:1], clean[4:5]]
    twice = make_doc(nlp)
    twice.spans["coref_clusters_1"] = [twice[0:1], twice[4:5]]
    twice.spans["coref_clusters_2"] = [twice[2:3], twice[4:5], twice[6:7]]
    clusters = doc_clusters(twice, prefixed_span_groups())
    assert clusters.entities() == (((0, 1), (4, 5)), ((2, 3), (6, 7)))
    assert clusters.repeated == 1
    predicted = make_doc(nlp)
    predicted.spans["coref_clusters_1"] = [predicted[0:1], predicted[4:5]]
    with pytest.warns(CorefEvalWarning, match=r"'example 1': 1 repeated mention\(s\) in the key") as caught:
        result = score_examples([Example(make_doc(nlp), clean), Example(predicted, twice)])
    assert len(caught) == 1
    assert result.warnings == [str(caught[0].message)]
    metrics = result.metrics()
    assert metrics["mentions"]["recall_den"] == 6.0
    assert metrics["mentions"]["recall_num"] == 2.0


def test_explicit_head_span_groups_give_the_heads():
    doc = spacy.blank("en")("the old man saw his dog")
    doc.spans["coref_clusters_1"] = [doc[0:3], doc[4:5]]
    doc.spans["coref_head_clusters_1"] = [doc[2:3], doc[4:5]]
    doc.spans["coref_clusters_2"] = [doc[4:6]]
    doc.spans["coref_head_clusters_2"] = [doc[5:6]]
    clusters = doc_clusters(doc, prefixed_span_groups(head_prefix="coref_head_clusters"))
    assert clusters.entities() == (((0, 3), (4, 5)), ((4, 6),))
    assert clusters.heads.tolist() == [2, 4, 5]
    assert doc_clusters(doc, prefixed_span_groups()).heads.tolist() == [2, 4, 5], "the default head groups"
    del doc.spans["coref_head_clusters_2"]
    with pytest.raises(CorefInputError, match="span group 'coref_head_clusters_2' must give one head per mention"):
        doc_clusters(doc, prefixed_span_groups(head_prefix="coref_head_clusters"))
    assert doc_clusters(doc, prefixed_span_groups()).heads is None, "default head groups are used only when complete"


NAME_PIECES = ["coref_clusters", "coref", "_", "1", "07", "٣", "\n", "x", ".", ""]


@deterministic(300)
@given(
    prefix=st.sampled_from(["coref_clusters", "c.f", "a\nb"]),
    names=st.lists(st.lists(st.sampled_from(NAME_PIECES), max_size=4).map("".join), max_size=8),
)
def test_numbered_groups_match_each_name_alone(prefix, names):
    """The groups found in one pass over the joined names are those each
    name gives alone (line breaks in names included)."""
    names = names + [f"{prefix}_{number}" for number in ("2", "10", "01")][: len(names) % 4]
    pattern = re.compile(re.escape(prefix) + r"_([0-9]+)")
    expected = sorted((int(m.group(1)), name) for name in names if (m := pattern.fullmatch(name)))
    assert PrefixedSpanGroups(prefix).numbered(names) == expected
