"""Head-only coreference in spaCy docs scores through coref_scorer.v1:
spaCy's head clusters (coref_head_clusters_N) and Coreferee's chains,
against gold docs whose heads come from their own head groups."""

from types import SimpleNamespace

import pytest
import spacy
from spacy.tokens import Doc
from spacy.training import Example

from spacy_coref_eval import CorefInputError

TEXT = "Peter and Mary met Anna . They thanked her and she left ."
GOLD = [[(0, 3), (6, 7)], [(4, 5), (8, 9), (10, 11)]]
"""Peter and Mary / They; Anna / her / she."""
GOLD_HEADS = [[0, 6], [4, 8, 10]]


def gold_doc(nlp):
    doc = nlp.make_doc(TEXT)
    for number, (entity, heads) in enumerate(zip(GOLD, GOLD_HEADS), 1):
        doc.spans[f"coref_clusters_{number}"] = [doc[s:e] for s, e in entity]
        doc.spans[f"coref_head_clusters_{number}"] = [doc[h : h + 1] for h in heads]
    return doc


def scorer(predicted_reader):
    config = {
        "s": {
            "@scorers": "spacy_coref_eval.coref_scorer.v1",
            "predicted_reader": predicted_reader,
            "match": {"@misc": "spacy_coref_eval.head_matcher.v1"},
        }
    }
    return spacy.registry.resolve(config)["s"]


def test_spacy_head_clusters_score_by_head():
    nlp = spacy.blank("en")
    predicted = nlp.make_doc(TEXT)
    predicted.spans["coref_head_clusters_1"] = [predicted[0:1], predicted[6:7]]
    predicted.spans["coref_head_clusters_2"] = [predicted[4:5], predicted[8:9]]
    predicted.spans["coref_head_clusters_3"] = [predicted[10:11], predicted[2:3]]
    scores = scorer({"@misc": "spacy_coref_eval.head_clusters.v1"})([Example(predicted, gold_doc(nlp))])
    assert scores["coref_mentions_r"] == 1.0 and scores["coref_mentions_p"] == pytest.approx(5 / 6)
    assert scores["coref_muc_r"] == pytest.approx(2 / 3) and scores["coref_muc_p"] == pytest.approx(2 / 3)
    perfect = nlp.make_doc(TEXT)
    for number, heads in enumerate(GOLD_HEADS, 1):
        perfect.spans[f"coref_head_clusters_{number}"] = [perfect[h : h + 1] for h in heads]
    scores = scorer({"@misc": "spacy_coref_eval.head_clusters.v1"})([Example(perfect, gold_doc(nlp))])
    assert scores["coref_conll_f"] == 1.0


def mention(*indexes):
    return SimpleNamespace(token_indexes=list(indexes))


@pytest.fixture
def coref_chains():
    if not Doc.has_extension("coref_chains"):
        Doc.set_extension("coref_chains", default=None)
        yield
        Doc.remove_extension("coref_chains")
    else:
        yield


def test_coreferee_chains_score_by_their_first_token(coref_chains):
    """Coreferee mentions are root tokens (two for a coordination): the
    span runs over them, the head is the first."""
    nlp = spacy.blank("en")
    predicted = nlp.make_doc(TEXT)
    predicted._.coref_chains = [[mention(0, 2), mention(6)], [mention(4), mention(8), mention(10)]]
    read = scorer({"@misc": "spacy_coref_eval.coreferee_chains.v1"})
    assert read([Example(predicted, gold_doc(nlp))])["coref_conll_f"] == 1.0
    predicted._.coref_chains = [[mention(0, 2), mention(6), mention(10)], [mention(4), mention(8)]]
    scores = read([Example(predicted, gold_doc(nlp))])
    assert scores["coref_mentions_f"] == 1.0 and scores["coref_muc_r"] == pytest.approx(2 / 3)
    predicted._.coref_chains = [[mention(40)]]
    with pytest.raises(CorefInputError, match="outside the doc"):
        read([Example(predicted, gold_doc(nlp))])
    predicted._.coref_chains = [["not a mention"]]
    with pytest.raises(CorefInputError, match="is not Coreferee's chains"):
        read([Example(predicted, gold_doc(nlp))])
