"""Registered scorers and the ``coref_evaluator`` component, in process:
score keys against the core API, headlines, settings from config, examples
tokenised differently on each side, save and load."""

import pickle
from collections.abc import Sequence
from typing import Optional

import numpy as np
import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.util import registry

from spacy_coref_eval import Clusters, Settings, score_documents
from spacy_coref_eval.pipeline.component import CorefEvaluator
from spacy_coref_eval.pipeline.registrations import labeled_span_group
from spacy_coref_eval.pipeline.scorers import CorefEvalWarning, CorefScorer, make_coref_scorer, score_examples
from spacy_coref_eval.twinning import ExactMatcher

METRIC_NAMES = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
Entities = list[list[tuple[int, int]]]

DOCS = [
    (
        "John Smith met Mary . He gave her a book . Mary thanked him .",
        [[(0, 2), (5, 6), (13, 14)], [(3, 4), (7, 8), (11, 12)], [(8, 10)]],
        [[(1, 2), (5, 6), (13, 14)], [(3, 4), (11, 12)], [(7, 8), (9, 10)]],
    ),
    ("The cat sat . It purred and the dog barked .", [[(0, 2), (4, 5)], [(7, 9)]], [[(1, 2), (4, 5), (7, 9)]]),
]


@pytest.fixture(scope="module")
def nlp() -> Language:
    return spacy.blank("en")


def with_clusters(doc: Doc, entities: Entities, prefix: str = "coref_clusters") -> Doc:
    for index, entity in enumerate(entities, 1):
        doc.spans[f"{prefix}_{index}"] = [doc[start:end] for start, end in entity]
    return doc


def make_examples(nlp: Language) -> list[Example]:
    return [
        Example(with_clusters(nlp.make_doc(text), predicted), with_clusters(nlp.make_doc(text), gold)) for text, gold, predicted in DOCS
    ]


def core_metrics(settings: Optional[Settings] = None) -> dict[str, dict]:
    """The metrics of the core API on the clusters of DOCS."""
    key = {str(i): Clusters.from_entities(gold) for i, (_, gold, _) in enumerate(DOCS)}
    response = {str(i): Clusters.from_entities(predicted) for i, (_, _, predicted) in enumerate(DOCS)}
    return score_documents(key, response, settings).metrics()


def expected_keys(metrics: dict[str, dict], names: Sequence[str]) -> dict[str, float]:
    """spaCy score keys as the issue specifies them."""
    out = {}
    for name in list(names) + ["mentions"]:
        for short, rate in (("p", "precision"), ("r", "recall"), ("f", "f1")):
            out[f"coref_{name}_{short}"] = metrics[name][rate]
    return out


def test_all_registered_names_resolve():
    names = ["coref"] + list(METRIC_NAMES)
    for name in names:
        config = {"s": {"@scorers": f"spacy_coref_eval.{name}_scorer.v1"}}
        scorer = registry.resolve(config)["s"]
        assert isinstance(scorer, CorefScorer)
        assert scorer.settings.metrics == (METRIC_NAMES if name == "coref" else (name,))


def test_coref_scorer_keys_equal_core_scores(nlp):
    scores = make_coref_scorer()(make_examples(nlp))
    metrics = core_metrics()
    expected = expected_keys(metrics, METRIC_NAMES)
    expected["coref_conll_f"] = metrics["conll"]["f1"]
    expected.update(coref_p=metrics["lea"]["precision"], coref_r=metrics["lea"]["recall"], coref_f=metrics["lea"]["f1"])
    assert scores == pytest.approx(expected, rel=1e-12, abs=1e-12)
    assert all(0.0 < value < 1.0 for value in scores.values())
    assert all(type(value) is float for value in scores.values())


@pytest.mark.parametrize("headline", METRIC_NAMES)
def test_headline_metric_gives_coref_prf(nlp, headline):
    scores = make_coref_scorer(headline=headline)(make_examples(nlp))
    for short in "prf":
        assert scores[f"coref_{short}"] == scores[f"coref_{headline}_{short}"]


def test_conll_headline_f_is_conll_score_and_pr_are_means(nlp):
    scores = make_coref_scorer(headline="conll")(make_examples(nlp))
    parts = ("muc", "bcub", "ceafe")
    assert scores["coref_f"] == scores["coref_conll_f"]
    assert scores["coref_f"] == pytest.approx(np.mean([scores[f"coref_{m}_f"] for m in parts]))
    assert scores["coref_p"] == pytest.approx(np.mean([scores[f"coref_{m}_p"] for m in parts]))
    assert scores["coref_r"] == pytest.approx(np.mean([scores[f"coref_{m}_r"] for m in parts]))


@pytest.mark.parametrize(
    "metrics,headline", [(["muc"], "lea"), (["muc", "bcub", "lea"], "conll"), (list(METRIC_NAMES), "mentions"), (list(METRIC_NAMES), "f1")]
)
def test_headline_must_be_computed(metrics, headline):
    with pytest.raises(ValueError, match="headline"):
        make_coref_scorer(metrics=metrics, headline=headline)
    with pytest.raises(ValueError, match="headline"):
        registry.resolve({"s": {"@scorers": "spacy_coref_eval.coref_scorer.v1", "metrics": metrics, "headline": headline}})


def test_metrics_subset_without_conll(nlp):
    scores = make_coref_scorer(metrics=["lea", "muc"], headline="muc")(make_examples(nlp))
    assert set(scores) == set(expected_keys(core_metrics(), ["muc", "lea"])) | {"coref_p", "coref_r", "coref_f"}


@pytest.mark.parametrize("metric", METRIC_NAMES)
def test_per_metric_scorer_computes_one_metric(nlp, metric):
    scorer = registry.scorers.get(f"spacy_coref_eval.{metric}_scorer.v1")()
    examples = make_examples(nlp)
    scores = scorer(examples)
    full = make_coref_scorer()(examples)
    expected = {key: full[key] for key in expected_keys(core_metrics(), [metric])}
    expected.update({f"coref_{short}": full[f"coref_{metric}_{short}"] for short in "prf"})
    assert scores == expected


def test_settings_come_from_config(nlp):
    config = {
        "s": {
            "@scorers": "spacy_coref_eval.coref_scorer.v1",
            "twinless": "b3all",
            "singletons": "remove",
            "metrics": ["bcub", "ceafe"],
            "headline": "bcub",
            "reader": {"@misc": "spacy_coref_eval.prefixed_span_groups.v1", "prefix": "chains"},
        }
    }
    scorer = registry.resolve(config)["s"]
    examples = [
        Example(with_clusters(nlp.make_doc(text), predicted, "chains"), with_clusters(nlp.make_doc(text), gold, "chains"))
        for text, gold, predicted in DOCS
    ]
    settings = Settings(metrics=("bcub", "ceafe"), twinless="b3all", singletons="remove")
    expected = expected_keys(core_metrics(settings), ["bcub", "ceafe"])
    expected.update({f"coref_{short}": expected[f"coref_bcub_{short}"] for short in "prf"})
    scores = scorer(examples)
    assert scores == pytest.approx(expected, rel=1e-12, abs=1e-12)
    assert scores["coref_bcub_f"] != make_coref_scorer()(make_examples(nlp))["coref_bcub_f"]


class NoTwins:
    """A matcher that twins nothing: every mention is twinless."""

    name = "none"

    def check(self, key: Clusters, response: Clusters) -> None:
        """Reads no heads: nothing to check."""

    def __call__(self, key: Clusters, response: Clusters) -> np.ndarray:
        return np.full(len(response), -1, dtype=np.int64)

    def config(self) -> dict[str, str]:
        return {"match": self.name}


@registry.misc("test_spacy_scorers.no_twins.v1")
def make_no_twins() -> NoTwins:
    return NoTwins()


def test_matcher_comes_from_config(nlp):
    config = {"s": {"@scorers": "spacy_coref_eval.lea_scorer.v1", "match": {"@misc": "test_spacy_scorers.no_twins.v1"}}}
    scorer = registry.resolve(config)["s"]
    assert isinstance(scorer.settings.match, NoTwins)
    scores = scorer(make_examples(nlp))
    assert scores["coref_mentions_r"] == 0.0 and scores["coref_lea_f"] == 0.0


def test_registered_matcher_from_config_twins_overlapping_spans(nlp):
    matcher = {"@misc": "spacy_coref_eval.overlap_matcher.v1", "min_overlap": 0.5}
    scorer = registry.resolve({"s": {"@scorers": "spacy_coref_eval.coref_scorer.v1", "match": matcher}})["s"]
    examples = make_examples(nlp)
    scores = scorer(examples)
    metrics = core_metrics(Settings(match=scorer.settings.match))
    assert scores["coref_lea_f"] == metrics["lea"]["f1"] and scores["coref_conll_f"] == metrics["conll"]["f1"]
    assert scores["coref_mentions_r"] > make_coref_scorer()(examples)["coref_mentions_r"]


def test_matcher_object_or_registered_name_equals_default(nlp):
    examples = make_examples(nlp)
    default = make_coref_scorer()(examples)
    assert make_coref_scorer(match=ExactMatcher())(examples) == default
    config = {"s": {"@scorers": "spacy_coref_eval.coref_scorer.v1", "match": {"@misc": "spacy_coref_eval.exact_matcher.v1"}}}
    assert registry.resolve(config)["s"](examples) == default


def test_spacy_keyword_arguments_are_ignored(nlp):
    examples = make_examples(nlp)
    scorer = make_coref_scorer()
    assert scorer(examples, labels=("PERSON",), threshold=0.5) == scorer(examples)


def test_no_examples_score_zero_with_a_warning(nlp):
    with pytest.warns(CorefEvalWarning, match="no examples to score"):
        scores = make_coref_scorer()([])
    assert set(scores) == set(make_coref_scorer()(make_examples(nlp)))
    assert set(scores.values()) == {0.0}


TEXT = "New York is big. It never sleeps."


def coarse_doc(nlp: Language) -> Doc:
    """TEXT with "New York" as one token."""
    words = ["New York", "is", "big", ".", "It", "never", "sleeps", "."]
    spaces = [True, True, False, True, True, True, False, False]
    return Doc(nlp.vocab, words=words, spaces=spaces)


def test_predicted_spans_map_to_coarser_reference_tokens(nlp):
    reference = with_clusters(coarse_doc(nlp), [[(0, 1), (4, 5)]])
    predicted = with_clusters(nlp.make_doc(TEXT), [[(0, 2), (5, 6)], [(1, 2), (7, 8)]])
    assert len(predicted) == 9
    with pytest.warns(CorefEvalWarning, match=r"1 predicted span\(s\) in 1 document\(s\).*example 0: 1") as caught:
        result = score_examples([Example(predicted, reference)])
    assert len(caught) == 1 and result.warnings == [str(caught[0].message)]
    key = {"d": Clusters.from_entities([[(0, 1), (4, 5)]])}
    response = {"d": Clusters.from_entities([[(0, 1), (4, 5)], [(8, 9), (6, 7)]])}
    assert result.metrics() == score_documents(key, response).metrics()
    assert result.metrics()["mentions"]["precision"] == 0.5


def test_predicted_spans_map_to_finer_reference_tokens(nlp, recwarn):
    reference = with_clusters(nlp.make_doc(TEXT), [[(0, 2), (5, 6)]])
    predicted = with_clusters(coarse_doc(nlp), [[(0, 1), (4, 5)]])
    scores = make_coref_scorer()([Example(predicted, reference)])
    assert scores["coref_mentions_p"] == scores["coref_mentions_r"] == 1.0
    assert all(value == 1.0 for key, value in scores.items() if key.endswith("_f") and "blanc" not in key)
    assert not [w for w in recwarn if issubclass(w.category, CorefEvalWarning)]


def test_repeated_predicted_span_is_reported_when_tokenisations_differ(nlp):
    reference = with_clusters(coarse_doc(nlp), [[(0, 1), (4, 5)]])
    predicted = with_clusters(nlp.make_doc(TEXT), [[(0, 2), (5, 6)], [(5, 6), (7, 8)]])
    with pytest.warns(CorefEvalWarning, match=r"'example 1': 1 repeated mention\(s\) in the response"):
        result = score_examples([Example(nlp.make_doc(TEXT), nlp.make_doc(TEXT)), Example(predicted, reference)])
    assert len(result.warnings) == 1


def predicting_pipeline() -> Language:
    nlp = spacy.blank("en")
    nlp.add_pipe("test_fixed_predictions")
    return nlp


PREDICTED_BY_TEXT = {text: predicted for text, _, predicted in DOCS}


@Language.component("test_fixed_predictions")
def fixed_predictions(doc: Doc) -> Doc:
    """Writes the predictions of DOCS: a stand-in coreference component."""
    return with_clusters(doc, PREDICTED_BY_TEXT.get(doc.text, []))


def test_coref_evaluator_leaves_docs_alone_and_scores(nlp):
    pipeline = predicting_pipeline()
    evaluator = pipeline.add_pipe("coref_evaluator")
    assert isinstance(evaluator, CorefEvaluator)
    doc = pipeline.make_doc(DOCS[0][0])
    assert evaluator(doc) is doc and not doc.spans
    scores = pipeline.evaluate([Example(pipeline.make_doc(eg.reference.text), eg.reference) for eg in make_examples(nlp)])
    expected = make_coref_scorer()(make_examples(nlp))
    assert {key: scores[key] for key in expected} == expected
    assert pipeline.get_pipe_meta("coref_evaluator").default_score_weights["coref_f"] == 1.0


def test_coref_evaluator_config_survives_save_and_load(nlp, tmp_path):
    pipeline = predicting_pipeline()
    reader = {"@misc": "spacy_coref_eval.labeled_span_group.v1", "key": "chains", "attr": "label_"}
    scorer = {"@scorers": "spacy_coref_eval.coref_scorer.v1", "headline": "muc", "twinless": "sys", "reader": reader}
    pipeline.add_pipe("coref_evaluator", config={"scorer": scorer})
    pipeline.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    assert loaded.pipe_names == ["test_fixed_predictions", "coref_evaluator"]
    restored = loaded.get_pipe("coref_evaluator").scorer
    assert restored.headline == "muc" and restored.settings.twinless == "sys"
    doc = nlp.make_doc("Anna met Bob . She left .")
    doc.spans["chains"] = [doc.char_span(0, 4, label="A"), doc.char_span(15, 18, label="A"), doc.char_span(9, 12, label="B")]
    assert [[s.text for s in entity] for entity in restored.reference_reader(doc)] == [["Anna", "She"], ["Bob"]]


def test_coref_evaluator_pickles_for_multiprocessing(nlp):
    pipeline = spacy.blank("en")
    reader = {"@misc": "spacy_coref_eval.labeled_span_group.v1", "key": "chains"}
    pipeline.add_pipe("coref_evaluator", config={"scorer": {"@scorers": "spacy_coref_eval.coref_scorer.v1", "reader": reader}})
    pipeline.add_pipe("coref_evaluator", name="plain")
    examples = make_examples(nlp)
    for name in ("coref_evaluator", "plain"):
        component = pipeline.get_pipe(name)
        restored = pickle.loads(pickle.dumps(component))
        assert restored.scorer == component.scorer
        if name == "plain":
            assert restored.score(examples) == component.score(examples)
            continue
        with pytest.warns(CorefEvalWarning, match="hold no coreference span group"):
            assert restored.score(examples) == component.score(examples)


def test_any_component_scorer_setting_accepts_the_scorer(nlp):
    """``[components.span_ruler.scorer]``: a span ruler whose labels name
    entities, scored as coreference through the labeled layout."""
    reader = {"@misc": "spacy_coref_eval.labeled_span_group.v1", "key": "ruler", "attr": "label_"}
    pipeline = spacy.blank("en")
    ruler = pipeline.add_pipe("span_ruler", config={"scorer": {"@scorers": "spacy_coref_eval.coref_scorer.v1", "reader": reader}})
    ruler.add_patterns(
        [
            {"label": "ANNA", "pattern": "Anna"},
            {"label": "ANNA", "pattern": [{"LOWER": "she"}]},
            {"label": "BOB", "pattern": "Bob"},
            {"label": "BOB", "pattern": [{"LOWER": "her"}]},
        ]
    )
    text = "Anna met Bob . She called her sister ."
    gold = pipeline.make_doc(text)
    gold.spans["ruler"] = [Span(gold, 0, 1, "ANNA"), Span(gold, 4, 5, "ANNA"), Span(gold, 2, 3, "BOB"), Span(gold, 6, 8, "SISTER")]
    scores = pipeline.evaluate([Example(pipeline.make_doc(text), gold)])
    predicted = pipeline(text)
    expected = make_coref_scorer(reader=labeled_span_group("ruler", "label_"))([Example(predicted, gold)])
    assert {key: scores[key] for key in expected} == expected
    assert scores["coref_mentions_r"] == 0.75 and scores["coref_muc_r"] == 1.0


def test_classes_add_muc_rc_per_class_like_ents_per_type():
    nlp = spacy.blank("en")
    doc = nlp.make_doc("Anna met Bob . She thanked him . Anna left .")
    doc.spans["coref_clusters_1"] = [doc[0:1], doc[4:5], doc[8:9]]
    doc.spans["coref_clusters_2"] = [doc[2:3], doc[6:7]]
    predicted = nlp.make_doc(doc.text)
    predicted.spans["coref_clusters_1"] = [predicted[0:1], predicted[8:9]]
    predicted.spans["coref_clusters_2"] = [predicted[2:3], predicted[4:5], predicted[6:7]]
    config = {"s": {"@scorers": "spacy_coref_eval.coref_scorer.v1", "classes": True}}
    scores = spacy.registry.resolve(config)["s"]([Example(predicted, doc)])
    per_class = scores["coref_rc_per_class"]
    assert list(per_class) == ["PN-e", "PN-p", "PN-n", "CN-e", "CN-p", "CN-n", "1+2Pr", "G3Pr", "U3Pr"]
    assert per_class["PN-e"] == {"p": 1.0, "r": 1.0, "f": 1.0}
    assert per_class["G3Pr"]["r"] == 0.5
    assert "coref_rc_per_class" not in make_coref_scorer()([Example(predicted, doc)])


def with_heads(doc: Doc, entities: Entities) -> Doc:
    """Clusters and, as ``coref_head_clusters_N``, the last token of every
    mention as its head."""
    with_clusters(doc, entities)
    return with_clusters(doc, [[(end - 1, end) for _, end in entity] for entity in entities], "coref_head_clusters")


def core_metrics_with_heads(settings: Settings) -> dict[str, dict]:
    def clusters(entities: Entities) -> Clusters:
        return Clusters.from_entities(entities, [[end - 1 for _, end in entity] for entity in entities])

    key = {str(i): clusters(gold) for i, (_, gold, _) in enumerate(DOCS)}
    response = {str(i): clusters(predicted) for i, (_, _, predicted) in enumerate(DOCS)}
    return score_documents(key, response, settings).metrics()


@pytest.mark.parametrize(
    "options, cli",
    [
        ({}, {}),
        ({"singletons": "keep"}, {"singletons": "keep"}),
        ({"match": {"@misc": "spacy_coref_eval.exact_matcher.v1"}}, {"match": "exact"}),
        ({"match": {"@misc": "spacy_coref_eval.partial_matcher.v1"}}, {"match": "partial"}),
    ],
)
def test_the_corefud_preset_scores_examples_as_the_api_does(nlp, options, cli):
    reader = {"@misc": "spacy_coref_eval.prefixed_span_groups.v1", "head_prefix": "coref_head_clusters"}
    config = {"s": {"@scorers": "spacy_coref_eval.coref_scorer.v1", "preset": "corefud", "reader": reader, **options}}
    scorer = registry.resolve(config)["s"]
    settings = Settings.from_options(preset="corefud", **cli)
    assert scorer.settings == settings
    examples = [Example(with_heads(nlp.make_doc(text), predicted), with_heads(nlp.make_doc(text), gold)) for text, gold, predicted in DOCS]
    scores = scorer(examples)
    assert scores["coref_lea_f"] == pytest.approx(core_metrics_with_heads(settings)["lea"]["f1"], abs=1e-12)
    expected = expected_keys(core_metrics_with_heads(settings), METRIC_NAMES)
    assert {key: scores[key] for key in expected} == pytest.approx(expected, abs=1e-12)


def test_the_preset_refuses_matchers_it_does_not_follow():
    overlap = {"@misc": "spacy_coref_eval.overlap_matcher.v1"}
    with pytest.raises(ValueError, match="registered exact, head or partial matcher"):
        registry.resolve({"s": {"@scorers": "spacy_coref_eval.lea_scorer.v1", "preset": "corefud", "match": overlap}})
    with pytest.raises(ValueError, match="unknown preset"):
        make_coref_scorer(preset="no-such-scorer")
    with pytest.raises(ValueError, match="coval preset scores CoNLL-2012 files"):
        make_coref_scorer(preset="coval")
    assert make_coref_scorer().settings.singletons == "keep"
    assert make_coref_scorer(preset="corefud").settings.singletons == "remove"
