"""Resolution classes, MUC-RC and CPP (Stoyanov et al. 2009, §4): each class
on hand-made documents (string ties, uncertain heads, every signal), the
vectorised classifier and MUC-RC against naive ones written from the
definitions (tests/support/oracle_rc.py) on random documents, and the properties
the issue names on hand-made documents and on LitBank."""

import json

import numpy as np
import pytest
from hypothesis import given, strategies as st

from spacy_coref_eval import Clusters, CorefInputError, Settings, score_pairs
from spacy_coref_eval.analysis.resolution import (
    ANAPHORIC,
    CLASS_INDEX,
    MEMBER_COLUMNS,
    NONE,
    RESOLUTION_CLASSES,
    TABLE4_AVERAGE,
    class_profile,
    classify_mentions,
    count_resolution_classes,
    cpp_prediction,
    muc_rc_rates,
    read_class_scores,
    score_resolution_classes,
)
from spacy_coref_eval.model.tokens import Tokens
from spacy_coref_eval.twinning.matchers import OverlapMatcher
from spacy_coref_eval.twinning.spans import exact_twins
from tests.support.litbank import litbank
from tests.support.oracle_rc import naive_classes, naive_muc_rc
from tests.support.strategies import deterministic, entities_over, key_response_pairs, shuffled

PRONOUN_CLASSES = ("1+2Pr", "G3Pr", "U3Pr")


def classify(words, entities, sentence_starts=(0,), heads=None, **columns):
    """Class name (or None) of every mention of one document, by span."""
    words = words.split() if isinstance(words, str) else words
    clusters = Clusters.from_entities(entities, heads)
    found = classify_mentions(clusters, Tokens(words, sentence_starts, **columns))
    spans = zip(clusters.starts.tolist(), clusters.ends.tolist())
    return {span: RESOLUTION_CLASSES[c] if c >= 0 else None for span, c in zip(spans, found.tolist())}


def rc_rates(key, response, classes, twins=None):
    """MUC-RC recall, precision and F1 per class name of one document."""
    twins = exact_twins(key, response) if twins is None else twins
    muc_rc, _ = count_resolution_classes(key, response, twins, classes=classes)
    rates = muc_rc_rates(muc_rc[0])
    return {name: {rate: float(rates[rate][i]) for rate in rates} for i, name in enumerate(RESOLUTION_CLASSES)}


# --- classes on hand-made documents -------------------------------------------

STORY = (
    "John Smith met the old man in London . "  # 0-8
    "Later , John Smith and Mr. Smith met Johnny . "  # 9-18
    "The old man saw the fellow and the old fellow . "  # 19-29
    "I told you : he and she saw it and they left ."  # 30-43
)
STORY_SENTENCES = (0, 9, 19, 30)
STORY_ENTITIES = [
    [(0, 2), (11, 13), (14, 16), (17, 18)],  # John Smith, John Smith, Mr. Smith, Johnny
    [(3, 6), (19, 22), (23, 25), (26, 29)],  # the old man, The old man, the fellow, the old fellow
    [(30, 31), (32, 33)],  # I, you (one speaker, for the test)
    [(7, 8), (34, 35), (36, 37)],  # London, he, she
    [(21, 22), (38, 39), (40, 41)],  # man, it, they
]


def test_every_class_on_a_story():
    found = classify(STORY, STORY_ENTITIES, STORY_SENTENCES)
    assert found == {
        (0, 2): None,
        (11, 13): "PN-e",
        (14, 16): "PN-p",
        (17, 18): "PN-n",
        (3, 6): None,
        (19, 22): "CN-e",
        (23, 25): "CN-n",
        (26, 29): "CN-p",
        (30, 31): None,
        (32, 33): "1+2Pr",
        (7, 8): None,
        (34, 35): "G3Pr",
        (36, 37): "G3Pr",
        (21, 22): None,
        (38, 39): "U3Pr",
        (40, 41): "U3Pr",
    }


def test_first_mentions_and_other_heads_are_in_no_class():
    words = "this house , which 3 of them saw this and who ."
    found = classify(words, [[(0, 2), (8, 9), (4, 5), (10, 11)], [(6, 7), (3, 4)]])
    assert found == {(0, 2): None, (8, 9): None, (4, 5): None, (10, 11): None, (3, 4): None, (6, 7): "U3Pr"}


@pytest.mark.parametrize(
    "words, entity, expected",
    [
        pytest.param("the house , the big house , the house", [(0, 2), (3, 6), (7, 9)], "CN-e", id="exact beats partial"),
        pytest.param("the big house , the house , the house", [(0, 3), (4, 6), (7, 9)], "CN-e", id="exact from the nearer"),
        pytest.param("the big house , a house", [(0, 3), (4, 6)], "CN-p", id="partial"),
        pytest.param("London and LONDON", [(0, 1), (2, 3)], "PN-e", id="case-insensitive exact"),
        pytest.param("the OLD dog and an old cat", [(0, 3), (4, 7)], "CN-p", id="case-insensitive content word"),
        pytest.param("the dog and the cat", [(0, 2), (3, 5)], "CN-n", id="determiners are not content"),
        pytest.param("a man of Kent and a son of Kent", [(0, 2), (5, 7)], "CN-n", id="only the mention's words"),
        pytest.param("the son of Kent and the King of France", [(0, 4), (5, 9)], "PN-n", id="prepositions are not content"),
        pytest.param("his own dog and her own cat", [(0, 3), (4, 7)], "CN-p", id="pronouns are not content"),
        pytest.param("his dog and her dog", [(0, 2), (3, 5)], "CN-p", id="same noun, other pronoun"),
        pytest.param("John 's dog and Mary 's cat", [(0, 3), (4, 7)], "CN-n", id="possessive markers are not content"),
        pytest.param("the man , the man", [(3, 5), (0, 2)], "CN-e", id="order by position, not storage"),
    ],
)
def test_string_classes(words, entity, expected):
    found = classify(words, [entity])
    last = max(entity)
    assert found[last] == expected
    assert found[min(entity)] is None


@pytest.mark.parametrize(
    "words, span, kind",
    [
        pytest.param("the man in the house", (0, 5), "CN", id="cut at a preposition"),
        pytest.param("the King of France", (0, 4), "PN", id="capitalised head before a preposition"),
        pytest.param("the man , Smith", (0, 4), "CN", id="cut at a comma"),
        pytest.param("the man who met Smith", (0, 5), "CN", id="cut at a wh-word"),
        pytest.param("Lincoln 's Inn Hall", (0, 4), "PN", id="possessive inside"),
        pytest.param("the Smiths 's", (0, 3), "PN", id="possessive marker is never the head"),
        pytest.param("the very old", (0, 3), "CN", id="no noun: last word"),
    ],
)
def test_lexical_head_rule(words, span, kind):
    words = "x x . " + words
    span = (span[0] + 3, span[1] + 3)
    found = classify(words, [[(0, 1), span]], (0, 3))
    assert found[span] == kind + "-n"


def test_uncertain_capitalised_heads_at_sentence_starts():
    words = 'Paris met Kate . London was far . " Kate left . Paris ? We saw London .'
    #        0     1   2    3 4      5   6   7 8 9    10   11 12    13 14 15  16     17
    sentences = (0, 4, 8, 12, 14)
    found = classify(words, [[(0, 1), (12, 13)], [(4, 5), (16, 17)], [(2, 3), (9, 10)], [(14, 15), (1, 2)]], sentences)
    assert found[(16, 17)] == "PN-e", "not at a sentence start"
    assert found[(12, 13)] == "CN-e", "at a sentence start and nowhere else"
    assert found[(9, 10)] == "PN-e", "after an opening quote, but seen mid-sentence"
    assert found[(1, 2)] is None, "'met' is common but the entity's first mention"


def test_uncertain_heads_take_evidence_from_their_own_entity_only():
    words = "Kate left . Kate ? We saw Kate and Kate"
    #        0    1    2 3    4 5  6   7    8   9
    entity = [(0, 1), (3, 4)]
    assert classify(words, [entity, [(7, 8)]], (0, 3, 5))[(3, 4)] == "CN-e"
    assert classify(words, [entity + [(9, 10)]], (0, 3, 5))[(3, 4)] == "PN-e"


def test_given_heads_win_and_minus_one_falls_back():
    words = "Smith and the dog ; the cat of Smith"
    entity = [(0, 1), (5, 9)]
    assert classify(words, [entity])[(5, 9)] == "CN-p"
    assert classify(words, [entity], heads=[[0, 8]])[(5, 9)] == "PN-p"
    assert classify(words, [entity], heads=[[0, -1]])[(5, 9)] == "CN-p"


def test_parts_of_speech_win_over_the_lexical_reading():
    words = "Paris is big . Paris is old and the paris is new"
    #        0     1  2   3 4     5  6   7   8   9     10 11
    entities = [[(0, 1), (4, 5), (8, 10)]]
    sentences = (0, 4)
    lexical = classify(words, entities, sentences)
    assert lexical[(4, 5)] == "CN-e" and lexical[(8, 10)] == "CN-p"
    upos = ["PROPN", "AUX", "ADJ", "PUNCT", "PROPN", "AUX", "ADJ", "CCONJ", "DET", "PROPN", "AUX", "ADJ"]
    with_pos = classify(words, entities, sentences, pos=upos)
    assert with_pos[(4, 5)] == "PN-e" and with_pos[(8, 10)] == "PN-p"
    ptb = ["NNP", "VBZ", "JJ", ".", "NNP", "VBZ", "JJ", "CC", "DT", "NN", "VBZ", "JJ"]
    with_tag = classify(words, entities, sentences, tag=ptb)
    assert with_tag[(4, 5)] == "PN-e" and with_tag[(8, 10)] == "CN-p"
    partial = ["", "", "", "", "PROPN", "", "", "", "_", "-", "", ""]
    assert classify(words, entities, sentences, pos=partial)[(4, 5)] == "PN-e"
    assert classify(words, entities, sentences, pos=partial, tag=ptb)[(8, 10)] == "CN-p", "tag where pos unknown"


def test_part_of_speech_heads_and_content_words():
    words = "Kent is far . the man from Kent came"
    entity = [(0, 1), (4, 8)]
    upos = ["PROPN", "AUX", "ADV", "PUNCT", "DET", "NOUN", "ADP", "PROPN", "VERB"]
    assert classify(words, [entity], (0, 4), pos=upos)[(4, 8)] == "CN-p", "head 'man', before the ADP"
    no_adp = upos[:6] + ["X"] + upos[7:]
    assert classify(words, [entity], (0, 4), pos=no_adp)[(4, 8)] == "PN-p", "head 'Kent', the last nominal"
    comma = classify(
        "Anne met Smith , the man , Smith", [[(0, 1), (4, 8)]], pos=["PROPN", "VERB", "PROPN", "PUNCT", "DET", "NOUN", "PUNCT", "PROPN"]
    )
    assert comma[(4, 8)] == "CN-n", "cut at the comma: head 'man', not 'Smith'"
    relative = classify("Anne , the girl that Kate met", [[(0, 1), (2, 7)]], pos=["PROPN", "PUNCT", "DET", "NOUN", "PRON", "PROPN", "VERB"])
    assert relative[(2, 7)] == "CN-n", "cut at the relative 'that': head 'girl', not 'Kate'"


def test_morphology_decides_pronoun_person_and_gender():
    words = "Kim came . They smiled and it and who and his left"
    #        0   1    2 3    4      5   6  7   8   9   10  11
    entity = [(0, 1), (3, 4), (6, 7), (8, 9), (10, 11)]
    upos = ["PROPN", "VERB", "PUNCT", "PRON", "VERB", "CCONJ", "PRON", "CCONJ", "PRON", "CCONJ", "DET", "VERB"]
    lexical = classify(words, [entity], (0, 3), pos=upos)
    assert [lexical[s] for s in entity[1:]] == ["U3Pr", "U3Pr", None, None], "DET without Person is no pronoun"
    person = ["", "", "", "3", "", "", "", "", "", "", "3", ""]
    gender = ["", "", "", "Fem", "", "", "", "", "", "", "Masc", ""]
    found = classify(words, [entity], (0, 3), pos=upos, person=person, gender=gender)
    assert [found[s] for s in entity[1:]] == ["G3Pr", "U3Pr", None, "G3Pr"]
    first = ["", "", "", "1", "", "", "", "", "", "", "", ""]
    assert classify(words, [entity], (0, 3), pos=upos, person=first)[(3, 4)] == "1+2Pr"
    neuter = ["", "", "", "", "", "", "", "", "", "", "Neut", ""]
    assert classify(words, [entity], (0, 3), pos=upos, person=person, gender=neuter)[(10, 11)] == "U3Pr"


def test_tokens_from_conllu_columns_and_spacy_docs():
    from spacy.tokens import Doc
    from spacy.vocab import Vocab

    words = ["Anna", "came", ".", "She", "left"]
    conllu = Tokens.from_columns(
        words,
        [0, 3],
        ["PROPN", "VERB", "PUNCT", "PRON", "VERB"],
        xpos=["NNP", "VBD", ".", "PRP", "VBD"],
        feats=["Number=Sing", "_", "_", "Case=Nom|Gender=Fem|Person=3", "_"],
    )
    assert conllu.person == ["", "", "", "3", ""] and conllu.gender == ["", "", "", "Fem", ""]
    doc = Doc(
        Vocab(),
        words=words,
        pos=conllu.pos,
        tags=conllu.tag,
        morphs=["", "", "", "Case=Nom|Gender=Fem|Person=3", ""],
        sent_starts=[True, False, False, True, False],
    )
    from_doc = Tokens.from_spacy(doc)
    assert list(from_doc.words) == words and from_doc.sentence_starts.tolist() == [0, 3]
    assert from_doc.pos == conllu.pos and from_doc.tag == conllu.tag
    assert from_doc.person == conllu.person and from_doc.gender == conllu.gender
    bare = Tokens.from_spacy(Doc(Vocab(), words=words))
    assert bare.pos is None and bare.tag is None and bare.person is None and bare.sentence_starts.tolist() == [0]
    entity = Clusters.from_entities([[(0, 1), (3, 4)]])
    assert classify_mentions(entity, from_doc).tolist() == [-1, CLASS_INDEX["G3Pr"]]


def test_the_classifier_is_registered():
    from spacy.util import registry

    import spacy_coref_eval.pipeline.registrations  # noqa: F401

    resolved = registry.resolve({"classify": {"@misc": "spacy_coref_eval.resolution_classes.v1"}})
    assert resolved["classify"] is classify_mentions


@pytest.mark.parametrize(
    "build, message",
    [
        pytest.param(lambda: Tokens(["a", "b"], [0], pos=["DET"]), "pos column", id="short column"),
        pytest.param(lambda: Tokens(["a"], [3]), "sentence start", id="sentence start outside"),
        pytest.param(lambda: Tokens(["a", "b"], [0], document_starts=[1]), "document starts", id="documents"),
        pytest.param(
            lambda: classify_mentions(Clusters.from_entities([[(0, 1), (4, 6)]]), Tokens(["a"] * 5, [0])),
            "beyond the 5 tokens",
            id="mention past the tokens",
        ),
        pytest.param(lambda: Tokens.stack([Tokens(["a", "b"]), Tokens(["c"])], [0, 1]), "overlaps", id="stack"),
    ],
)
def test_bad_tokens_raise_input_errors(build, message):
    with pytest.raises(CorefInputError, match=message):
        build()


# --- classifier against the naive one -----------------------------------------

VOCABULARY = [
    "John",
    "Mary",
    "London",
    "Smith",
    "the",
    "The",
    "a",
    "man",
    "house",
    "House",
    "HOUSE",
    "old",
    "of",
    "in",
    "he",
    "she",
    "it",
    "they",
    "I",
    "you",
    "You",
    "who",
    "this",
    ",",
    ".",
    '"',
    "'s",
    "3",
    "—",
    "and",
]


@st.composite
def lexical_documents(draw, max_tokens=14, with_heads=False):
    """(words, sentence starts, entities, heads or None)."""
    n = draw(st.integers(1, max_tokens))
    words = draw(st.lists(st.sampled_from(VOCABULARY), min_size=n, max_size=n))
    sentences = sorted({0} | set(draw(st.lists(st.integers(0, n - 1), max_size=4))))
    spans = draw(
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(1, 4)).map(lambda p: (p[0], min(p[0] + p[1], n))), max_size=10, unique=True)
    )
    entities = draw(entities_over(spans, max_entities=4))
    heads = None
    if with_heads:
        heads = [[draw(st.sampled_from([-1, s, e - 1])) for s, e in entity] for entity in entities]
    return words, sentences, entities, heads


@deterministic(max_examples=600)
@given(lexical_documents(with_heads=False) | lexical_documents(with_heads=True))
def test_classes_match_the_naive_classifier(document):
    words, sentences, entities, heads = document
    expected = naive_classes(entities, words, sentences, heads)
    assert classify(words, entities, sentences, heads) == expected


@deterministic(max_examples=150)
@given(st.lists(lexical_documents(), min_size=1, max_size=4), st.lists(st.integers(1, 3), min_size=4, max_size=4))
def test_stacked_documents_classify_as_each_alone(documents, gaps):
    parts = [Clusters.from_entities(entities) for _, _, entities, _ in documents]
    tokens = [Tokens(words, sentences) for words, sentences, *_ in documents]
    offsets = np.cumsum([0] + [len(t) + g for t, g in zip(tokens[:-1], gaps)])
    stacked, _ = Clusters.stack(parts, offsets)
    alone = np.concatenate([classify_mentions(c, t) for c, t in zip(parts, tokens)])
    assert classify_mentions(stacked, Tokens.stack(tokens, offsets)).tolist() == alone.tolist()


@deterministic(max_examples=100)
@given(lexical_documents().flatmap(lambda d: st.tuples(st.just(d), shuffled(d[2]))))
def test_classes_do_not_depend_on_storage_order(pair):
    (words, sentences, entities, _), reordered = pair
    assert classify(words, reordered, sentences) == classify(words, entities, sentences)


# --- MUC-RC -------------------------------------------------------------------


@st.composite
def classed_corpora(draw, max_documents=3, max_mentions=9):
    """Documents (key entities, response entities, class per key span)."""
    out = []
    for _ in range(draw(st.integers(1, max_documents))):
        key, response = draw(key_response_pairs(max_mentions))
        spans = sorted(m for entity in key for m in entity)
        labels = draw(st.lists(st.integers(-1, len(RESOLUTION_CLASSES) - 1), min_size=len(spans), max_size=len(spans)))
        out.append((key, response, dict(zip(spans, labels))))
    return out


def fast_counts(documents, matcher=exact_twins):
    keys = [Clusters.from_entities(key) for key, *_ in documents]
    responses = [Clusters.from_entities(response) for _, response, _ in documents]
    offsets = np.arange(len(documents)) * 100
    key, key_doc = Clusters.stack(keys, offsets)
    response, response_doc = Clusters.stack(responses, offsets)
    classes = (
        np.concatenate(
            [
                np.array([labels[(s, e)] for s, e in zip(k.starts.tolist(), k.ends.tolist())], dtype=np.int64)
                for k, (_, _, labels) in zip(keys, documents)
            ]
        )
        if len(key)
        else np.zeros(0, dtype=np.int64)
    )
    twins = matcher(key, response)
    muc_rc, members = count_resolution_classes(
        key, response, twins, classes=classes, key_doc=key_doc, response_doc=response_doc, n_docs=len(documents)
    )
    return muc_rc, members, twins, key, response, key_doc


def naive_counts(documents, twins_by_doc):
    out = np.zeros((len(documents), len(RESOLUTION_CLASSES), 4))
    for d, ((key, response, labels), twin_of) in enumerate(zip(documents, twins_by_doc)):
        for c, _name in enumerate(RESOLUTION_CLASSES):
            members = frozenset(span for span, label in labels.items() if label == c)
            out[d, c] = naive_muc_rc(key, response, twin_of, members)
    return out


def span_twins(key, response, twins, key_doc):
    """Per document, response span -> key span, from a twins array."""
    out = [dict() for _ in range(int(key_doc.max()) + 1 if len(key_doc) else 0)]
    for r, k in enumerate(twins.tolist()):
        if k >= 0:
            out[int(key_doc[k])][(int(response.starts[r]) % 100, int(response.ends[r]) % 100)] = (
                int(key.starts[k]) % 100,
                int(key.ends[k]) % 100,
            )
    return out


@deterministic(max_examples=400)
@given(classed_corpora())
def test_muc_rc_matches_the_naive_definition(documents):
    muc_rc, members, twins, key, response, key_doc = fast_counts(documents)
    twin_maps = span_twins(key, response, twins, key_doc)
    twin_maps += [dict() for _ in range(len(documents) - len(twin_maps))]
    assert np.array_equal(muc_rc, naive_counts(documents, twin_maps))
    for d, (key_entities, _, labels) in enumerate(documents):
        for c, _name in enumerate(RESOLUTION_CLASSES):
            assert members[d, c] == sum(1 for label in labels.values() if label == c)
        assert members[d, MEMBER_COLUMNS.index(NONE)] == sum(1 for label in labels.values() if label < 0)
        assert members[d, -1] == sum(len(entity) - 1 for entity in key_entities if entity)


@deterministic(max_examples=200)
@given(classed_corpora(max_documents=2))
def test_muc_rc_matches_the_naive_definition_under_overlap_matching(documents):
    matcher = OverlapMatcher(min_overlap=0.5)
    muc_rc, _, twins, key, response, key_doc = fast_counts(documents, matcher)
    twin_maps = span_twins(key, response, twins, key_doc)
    twin_maps += [dict() for _ in range(len(documents) - len(twin_maps))]
    assert np.array_equal(muc_rc, naive_counts(documents, twin_maps))


@deterministic(max_examples=200)
@given(lexical_documents())
def test_key_against_itself_scores_one_on_every_class_with_members(document):
    words, sentences, entities, _ = document
    key = Clusters.from_entities(entities)
    classes = classify_mentions(key, Tokens(words, sentences))
    rates = rc_rates(key, key, classes)
    for c, name in enumerate(RESOLUTION_CLASSES):
        expected = 1.0 if (classes == c).any() else 0.0
        assert rates[name] == {"recall": expected, "precision": expected, "f1": expected}


def test_cutting_every_pronoun_scores_zero_on_pronouns_and_one_on_exact_matches():
    tokens = Tokens(STORY.split(), STORY_SENTENCES)
    key = Clusters.from_entities(STORY_ENTITIES)
    classes = classify_mentions(key, tokens)
    pronoun = np.isin(classes, [CLASS_INDEX[name] for name in PRONOUN_CLASSES])
    assert pronoun.sum() == 5
    response = cut_out(key, pronoun)
    rates = rc_rates(key, response, classes)
    for name in PRONOUN_CLASSES:
        assert rates[name]["f1"] == 0.0
    assert rates["PN-e"]["f1"] == rates["CN-e"]["f1"] == 1.0


def cut_out(key: Clusters, mask: np.ndarray) -> Clusters:
    """``key`` with the masked mentions made singletons."""
    labels = np.where(mask, key.n_entities + np.arange(len(key)), key.entity)
    return Clusters.from_arrays(key.starts, key.ends, labels)


def test_leaving_a_class_alone_scores_zero_on_it_whatever_happens_elsewhere():
    key = Clusters.from_entities(STORY_ENTITIES)
    classes = classify_mentions(key, Tokens(STORY.split(), STORY_SENTENCES))
    for c, name in enumerate(RESOLUTION_CLASSES):
        members = classes == c
        if not members.any():
            continue
        singletons = 1 + np.arange(len(key))
        alone = Clusters.from_arrays(key.starts, key.ends, np.where(members, singletons, key.entity + len(key) + 1))
        merged = Clusters.from_arrays(key.starts, key.ends, np.where(members, singletons, 0))
        for response in (alone, merged):
            rates = rc_rates(key, response, classes)
            assert rates[name] == {"recall": 0.0, "precision": 0.0, "f1": 0.0}


def test_a_wrong_join_costs_precision_only():
    words = "Anna met Bob . She saw him and he saw her"
    #        0    1   2   3 4   5   6   7   8  9   10
    key = Clusters.from_entities([[(0, 1), (4, 5), (10, 11)], [(2, 3), (6, 7), (8, 9)]])
    classes = classify_mentions(key, Tokens(words.split(), (0, 4)))
    response = Clusters.from_entities([[(0, 1), (4, 5), (10, 11), (8, 9)], [(2, 3), (6, 7)]])
    rates = rc_rates(key, response, classes)["G3Pr"]
    assert rates["recall"] == 0.75 and rates["precision"] == 0.75
    muc_rc, _ = count_resolution_classes(key, response, exact_twins(key, response), classes=classes)
    assert muc_rc[0, CLASS_INDEX["G3Pr"]].tolist() == [3, 4, 3, 4]


def test_links_to_twinless_response_mentions_are_ignored():
    key = Clusters.from_entities([[(0, 1), (4, 5)]])
    classes = np.array([-1, CLASS_INDEX["G3Pr"]])
    response = Clusters.from_entities([[(0, 2), (4, 5)]])
    assert rc_rates(key, response, classes)["G3Pr"]["f1"] == 0.0
    assert rc_rates(key, response, classes, OverlapMatcher(0.5)(key, response))["G3Pr"]["f1"] == 1.0


@pytest.mark.parametrize(
    "twins, classes, docs, message",
    [
        pytest.param([0], [-1, 9], None, "class index 9", id="class out of range"),
        pytest.param([0], [-1], None, "2 key mentions but 1 classes", id="classes short"),
        pytest.param([0, 0], [-1, 2], None, "twins", id="twins long"),
        pytest.param([5], [-1, 2], None, "not a key mention", id="twin out of range"),
        pytest.param([1], [-1, 2], ([0, 1], [0]), "another document", id="twin across documents"),
    ],
)
def test_bad_counting_input_raises_input_errors(twins, classes, docs, message):
    key = Clusters.from_entities([[(0, 1), (2, 3)]])
    response = Clusters.from_entities([[(2, 3)]])
    key_doc, response_doc = docs if docs else (None, None)
    with pytest.raises(CorefInputError, match=message):
        count_resolution_classes(
            key, response, np.array(twins), classes=np.array(classes), key_doc=key_doc, response_doc=response_doc, n_docs=2
        )


# --- profile and CPP ----------------------------------------------------------


def test_cpp_weights_table4_by_shares_of_all_anaphoric_mentions():
    members = np.zeros((2, len(MEMBER_COLUMNS)))
    members[0, CLASS_INDEX["PN-e"]] = 3
    members[1, CLASS_INDEX["U3Pr"]] = 1
    members[:, MEMBER_COLUMNS.index(NONE)] = [5, 4]
    members[:, MEMBER_COLUMNS.index(ANAPHORIC)] = [4, 4]
    expected = 3 / 8 * TABLE4_AVERAGE["PN-e"] + 1 / 8 * TABLE4_AVERAGE["U3Pr"]
    assert cpp_prediction(members) == pytest.approx(expected)
    profile = class_profile(members, {"PN-e": 1.0, "U3Pr": 0.0})
    assert profile["classes"]["PN-e"] == {"count": 3, "share": 3 / 8}
    assert profile[NONE] == 9 and profile[ANAPHORIC] == 8 and profile["cpp"] == 3 / 8
    with pytest.raises(CorefInputError, match="'U3Pr'"):
        cpp_prediction(members, {"PN-e": 1.0})
    assert cpp_prediction(np.zeros(len(MEMBER_COLUMNS))) == 0.0


def test_class_scores_read_from_plain_and_report_json(tmp_path):
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({"PN-e": 0.5, "G3Pr": {"f1": 1}}))
    assert read_class_scores(plain) == {"PN-e": 0.5, "G3Pr": 1.0}
    report = {"metrics": {}, "resolution_classes": {"PN-e": {"count": 2, "muc_rc": {"f1": 0.25}}, "none": 4}}
    assert read_class_scores(report) == {"PN-e": 0.25}


@pytest.mark.parametrize(
    "data, message",
    [
        pytest.param({"PN_e": 0.5}, "not a resolution class", id="typo"),
        pytest.param({"PN-e": 1.5}, "between 0 and 1", id="out of range"),
        pytest.param({"PN-e": True}, "between 0 and 1", id="boolean"),
        pytest.param({"resolution_classes": {"PN-e": {"muc_rc": {}}}}, "between 0 and 1", id="no f1"),
        pytest.param({"resolution_classes": {"none": 3}}, "no per-class scores", id="empty"),
        pytest.param({"resolution_classes": [1]}, "JSON object", id="block not an object"),
    ],
)
def test_bad_class_scores_raise_input_errors(data, message):
    with pytest.raises(CorefInputError, match=message):
        read_class_scores(data)


def test_unreadable_class_scores_name_the_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{")
    with pytest.raises(CorefInputError, match="broken.json"):
        read_class_scores(path)
    path.write_text("[]")
    with pytest.raises(CorefInputError, match="JSON object"):
        read_class_scores(path)


# --- a corpus -----------------------------------------------------------------


def test_corpus_scoring_sums_its_documents_and_round_trips_its_scores():
    story = Tokens(STORY.split(), STORY_SENTENCES)
    key = Clusters.from_entities(STORY_ENTITIES)
    classes = classify_mentions(key, story)
    response = cut_out(key, np.isin(classes, [CLASS_INDEX[n] for n in PRONOUN_CLASSES]))
    small_words = "Anna met Bob . She saw him"
    small = (Clusters.from_entities([[(0, 1), (4, 5)], [(2, 3), (6, 7)]]), Clusters.from_entities([[(0, 1), (4, 5), (6, 7)], [(2, 3)]]))
    result = classes_of([("story", key, response, story), ("small", *small, Tokens(small_words.split(), (0, 4)))])
    assert result.names == ["story", "small"]
    alone, _ = count_resolution_classes(key, response, exact_twins(key, response), classes=classes)
    assert np.array_equal(result.muc_rc[0], alone[0])
    block = json.loads(json.dumps(result.to_dict()))
    assert read_class_scores({"resolution_classes": block}) == result.class_scores()
    assert block["G3Pr"]["count"] == 4 and block["G3Pr"]["muc_rc"]["recall_den"] == 4
    assert block["G3Pr"]["muc_rc"]["precision"] == 0.5
    assert block[ANAPHORIC] == {"count": 11 + 2} and block["cpp"] == class_profile(result.members)["cpp"]


def test_corpus_scoring_checks_its_documents():
    tokens = Tokens(["a", "b"], [0])
    key = Clusters.from_entities([[(0, 1), (3, 4)]])
    with pytest.raises(CorefInputError, match="document 'd'.*beyond the 2 tokens"):
        classes_of([("d", key, key, tokens)])
    ok = Clusters.from_entities([[(0, 1)]])
    with pytest.raises(CorefInputError, match="more than once"):
        classes_of([("d", ok, ok, tokens), ("d", ok, ok, tokens)])
    with pytest.raises(CorefInputError, match="heads"):
        classes_of([("d", ok, ok, tokens)], Settings.from_options(match="head"))
    singletons = classes_of([("d", ok, ok, tokens)], Settings(singletons="remove"))
    assert singletons.members.sum() == 0
    empty = classes_of([("d", ok, ok, tokens), ("e", Clusters(), Clusters(), Tokens([]))])
    assert empty.members.shape == (2, len(MEMBER_COLUMNS)) and empty.members[1].sum() == 0
    assert classes_of([]).members.shape == (0, len(MEMBER_COLUMNS))


def classes_of(documents, settings=None, classify=None):
    """Resolution classes of ``(name, key, response, tokens)`` documents
    through a scoring run, as the command line computes them."""
    documents = list(documents)
    result = score_pairs([(name, key, response, len(tokens)) for name, key, response, tokens in documents], settings)
    tokens = [tokens for *_, tokens in documents]
    return score_resolution_classes(result, tokens) if classify is None else score_resolution_classes(result, tokens, classify)


# --- LitBank ------------------------------------------------------------------


def litbank_classes():
    corpus = litbank()
    documents = [(name, corpus.key[name], corpus.key[name], Tokens.from_conll(doc)) for name, doc in corpus.documents.items()]
    return corpus, documents


def test_litbank_key_against_itself_and_without_its_pronouns():
    corpus, documents = litbank_classes()
    result = classes_of(documents)
    total = result.members.sum(axis=0)
    assert total[: len(RESOLUTION_CLASSES)].min() > 0, "every class occurs in LitBank"
    assert total[:-1].sum() == sum(len(key) for key in corpus.key.values())
    rates = result.rates()
    assert rates["recall"].tolist() == [1.0] * 9 and rates["precision"].tolist() == [1.0] * 9

    cut = []
    for name, key, _, tokens in documents:
        classes = classify_mentions(key, tokens)
        words = np.array([tokens.words[s].lower() if e - s == 1 else "" for s, e in zip(key.starts, key.ends)])
        pronoun = np.isin(classes, [CLASS_INDEX[n] for n in PRONOUN_CLASSES]) | np.isin(words, ["he", "she", "it", "i"])
        cut.append((name, key, cut_out(key, pronoun), tokens))
    scores = classes_of(cut).class_scores()
    assert [scores[name] for name in PRONOUN_CLASSES] == [0.0, 0.0, 0.0]
    assert scores["PN-e"] == scores["CN-e"] == 1.0
    assert 0 < cpp_prediction(result.members) < 1


def test_litbank_system_matches_the_naive_definition_on_some_documents():
    corpus = litbank()
    names = list(corpus.documents)[:3]
    documents = []
    for name in names:
        key = corpus.key[name]
        classes = classify_mentions(key, Tokens.from_conll(corpus.documents[name]))
        labels = {(s, e): c for s, e, c in zip(key.starts.tolist(), key.ends.tolist(), classes.tolist())}
        documents.append((corpus.key[name].entities(), corpus.system[name].entities(), labels))
    found = []
    for key_entities, response_entities, labels in documents:
        key, response = Clusters.from_entities(key_entities), Clusters.from_entities(response_entities)
        classes = np.array([labels[(s, e)] for s, e in zip(key.starts.tolist(), key.ends.tolist())])
        found.append(count_resolution_classes(key, response, exact_twins(key, response), classes=classes)[0][0])
    twin_maps = []
    for key_entities, response_entities, _ in documents:
        key_spans = {m for entity in key_entities for m in entity}
        twin_maps.append({m: m for entity in response_entities for m in entity if m in key_spans})
    assert np.array_equal(np.stack(found), naive_counts(documents, twin_maps))
    assert np.stack(found)[..., 1].sum() > 0
