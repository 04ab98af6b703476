"""Strata (docs/analyses.md §3): every stratum equals a naive oracle that
cuts the key and the response of each document to the stratum's mentions
and scores them with the reference formulas; what adds up over strata
adds up; chain lengths, mention types, entity types and mention
attributes give the strata they should."""

import json
import zlib

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

from spacy_coref_eval import evaluate_corpus
from spacy_coref_eval.analysis.attributes import ChainLengths, chain_length_values, mention_type_values
from spacy_coref_eval.analysis.strata import StratumValues, score_strata
from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.score import DATA
from spacy_coref_eval.counting import BLOCK_INDEX, FIELDS, Counts
from spacy_coref_eval.model.tokens import Tokens
from spacy_coref_eval.scoring import Settings, score_documents, score_pairs
from tests.support.oracle import POLICIES, assert_counts_close, naive_policy_counts
from tests.support.strategies import corpora, deterministic

KEY, RESPONSE = DATA / "demo.key.conll", DATA / "demo.response.conll"
N_STRATA = 3


def value(span, side, salt):
    """A stratum drawn for a span, different for the key and the response."""
    return zlib.crc32(repr((span, side, salt)).encode()) % N_STRATA


def random_values(result, salt):
    key, response = [], []
    for d in range(result.twinned.n_docs):
        k, r, _ = result.twinned.document(d)
        key += [value(span, "key", salt) for span in zip(k.starts.tolist(), k.ends.tolist())]
        response += [value(span, "response", salt) for span in zip(r.starts.tolist(), r.ends.tolist())]
    return StratumValues("random", tuple(map(str, range(N_STRATA))), np.array(key, dtype=np.int64), np.array(response, dtype=np.int64))


def cut(entities, keep):
    return [[span for span in entity if keep(span)] for entity in entities]


def oracle_strata(keys, responses, stratum_of_key, stratum_of_response, policy):
    """Per document and stratum, the oracle's counts of the cut key and
    response (a twin, the same span under exact matching, in its key
    mention's stratum)."""
    out = {}
    for name, key in keys.items():
        response = responses[name]
        key_spans = {span for entity in key for span in entity}
        for s in range(N_STRATA):
            restricted_key = cut(key, lambda span: stratum_of_key(name, span) == s)
            restricted_response = cut(
                response, lambda span: (stratum_of_key(name, span) if span in key_spans else stratum_of_response(name, span)) == s
            )
            out[name, s] = naive_policy_counts(restricted_key, restricted_response, policy)
    return out


def assert_strata_match(strata, expected, metrics):
    for (name, s), counts in expected.items():
        d = strata.documents.index(name)
        assert_counts_close(Counts(metrics, strata.counts[d, s]).as_dict(), counts, f"{name} stratum {s}: ")


@pytest.mark.parametrize("policy", POLICIES)
@deterministic(max_examples=60)
@given(corpus=corpora(max_documents=3, max_mentions=9), salt=st.integers(0, 1000))
def test_every_stratum_equals_the_oracle_on_the_cut_documents(policy, corpus, salt):
    keys, responses = corpus
    settings = Settings(twinless=policy)
    result = score_documents(keys, responses, settings)
    strata = score_strata(result, random_values(result, salt))
    expected = oracle_strata(
        keys, responses, lambda _, span: value(span, "key", salt), lambda _, span: value(span, "response", salt), policy
    )
    assert_strata_match(strata, expected, settings.metrics)


@deterministic(max_examples=60)
@given(corpus=corpora(max_documents=3, max_mentions=10))
def test_chain_length_strata_equal_the_oracle(corpus):
    keys, responses = corpus
    lengths = ChainLengths.parse("1,2,3+")
    result = score_documents(keys, responses)
    strata = score_strata(result, chain_length_values(result.twinned, lengths))
    assert strata.names == ("1", "2", "3+")

    def size_stratum(side):
        def stratum(name, span):
            entity = next(entity for entity in side[name] if span in entity)
            return min(len(entity), 3) - 1

        return stratum

    expected = oracle_strata(keys, responses, size_stratum(keys), size_stratum(responses), "conll")
    assert_strata_match(strata, expected, result.settings.metrics)


def block(counts, metric, field):
    return counts[..., BLOCK_INDEX[metric], FIELDS.index(field)]


@pytest.mark.parametrize("policy", POLICIES)
@deterministic(max_examples=60)
@given(corpus=corpora(max_documents=3, max_mentions=10), salt=st.integers(0, 1000))
def test_what_is_additive_over_mentions_adds_up_over_strata(policy, corpus, salt):
    """Mentions add up exactly; so do the recall denominators of B³, CEAFm
    and LEA, and their precision denominators but under sys; MUC and B³
    recall numerators add up for strata of whole key entities (chain
    length); the CEAFm numerator only adds up to at least the corpus's."""
    result = score_documents(*corpus, Settings(twinless=policy))
    total = result.counts.sum(axis=0)
    for values in (random_values(result, salt), chain_length_values(result.twinned, ChainLengths.parse("1,2-3,4+"))):
        summed = score_strata(result, values).counts.sum(axis=(0, 1))
        assert np.allclose(summed[BLOCK_INDEX["mentions"]], total[BLOCK_INDEX["mentions"]])
        for metric in ("bcub", "ceafm", "lea"):
            assert np.isclose(block(summed, metric, "recall_den"), block(total, metric, "recall_den"))
            if policy != "sys":
                assert np.isclose(block(summed, metric, "precision_den"), block(total, metric, "precision_den"))
        assert block(summed, "ceafm", "recall_num") >= block(total, "ceafm", "recall_num") - 1e-9
        if values.attribute == "chain-length":
            for metric in ("muc", "bcub"):
                assert np.isclose(block(summed, metric, "recall_num"), block(total, metric, "recall_num"))


def test_the_ceafm_numerator_can_exceed_the_corpus_s():
    """docs/analyses.md §3: one response entity conflating a chain of 2 and
    a chain of 6 is aligned in both strata, once in the corpus."""
    short = [(0, 1), (1, 2)]
    long = [(i, i + 1) for i in range(2, 8)]
    key = [short, long]
    response = [short + long[:3], [long[3]], [long[4]], [long[5]]]
    result = score_pairs([("d", key, response)])
    strata = score_strata(result, chain_length_values(result.twinned, ChainLengths.parse("1,2-5,6+")))
    summed = strata.counts.sum(axis=(0, 1))
    assert block(summed, "ceafm", "recall_num") == 5 > block(result.counts[0], "ceafm", "recall_num") == 3


@pytest.mark.parametrize("spec, names", [("1,2-5,6+", ("1", "2-5", "6+")), ("1-2, 3+", ("1-2", "3+")), ("1+", ("1+",))])
def test_chain_lengths_are_read_as_written(spec, names):
    lengths = ChainLengths.parse(spec)
    assert lengths.names == names
    assert lengths.of(np.array([1, 2, 3, 5, 6, 100])).max() == len(names) - 1


@pytest.mark.parametrize("spec", ["2-5,6+", "1,3+", "1,2-5", "1,2-5,6+,7", "1,x", "1,5-2,6+"])
def test_chain_lengths_that_do_not_cover_every_size_are_refused(spec):
    with pytest.raises(ValueError, match="chain lengths"):
        ChainLengths.parse(spec)


def test_mention_types_by_the_head_of_each_mention():
    words = "Then Alice met the old man . She gave him a letter and the man smiled at running .".split()
    key = [[(1, 2), (7, 8)], [(3, 6), (9, 10), (13, 15)], [(10, 12)], [(15, 16)]]
    response = [[(1, 2), (7, 8)], [(3, 6), (9, 10)], [(17, 18)]]
    result = score_pairs([("d", key, response, len(words))])
    values = mention_type_values(result.twinned, [Tokens(words, [0, 7])])
    kinds = [values.names[i] for i in values.key]
    spans = list(zip(result.twinned.key.starts.tolist(), result.twinned.key.ends.tolist()))
    assert dict(zip(spans, kinds)) == {
        (1, 2): "proper",
        (7, 8): "pronoun",
        (3, 6): "nominal",
        (9, 10): "pronoun",
        (13, 15): "nominal",
        (10, 12): "nominal",
        (15, 16): "nominal",
    }
    response_spans = list(zip(result.twinned.response.starts.tolist(), result.twinned.response.ends.tolist()))
    assert dict(zip(response_spans, [values.names[i] for i in values.response]))[(17, 18)] == "nominal"
    tagged = Tokens(
        words,
        [0, 7],
        pos=[
            "ADV",
            "PROPN",
            "VERB",
            "DET",
            "ADJ",
            "NOUN",
            "PUNCT",
            "PRON",
            "VERB",
            "PRON",
            "DET",
            "NOUN",
            "CCONJ",
            "DET",
            "NOUN",
            "VERB",
            "ADP",
            "VERB",
            "PUNCT",
        ],
    )
    tagged_values = mention_type_values(result.twinned, [tagged])
    assert dict(zip(spans, (tagged_values.names[i] for i in tagged_values.key)))[(15, 16)] == "other"


@pytest.fixture(scope="module")
def gum(tmp_path_factory):
    from tests.support.gum_pair import write_gum_pair

    return write_gum_pair(tmp_path_factory.mktemp("gum"), n_documents=4)


def test_entity_types_and_mention_attributes_of_corefud_input(gum, tmp_path):
    out = tmp_path / "strata.json"
    result = CliRunner().invoke(
        app,
        [
            "score",
            *map(str, gum),
            "--preset",
            "corefud",
            "--by",
            "entity-type",
            "--by",
            "attr:MSeg",
            "--by",
            "mention-type",
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    types = data["strata"]["entity-type"]
    assert {"person", "place"} <= set(types)
    for _attribute, strata in data["strata"].items():
        assert sum(entry["key_mentions"] for entry in strata.values()) == data["metrics"]["mentions"]["recall_den"]
        assert sum(entry["response_mentions"] for entry in strata.values()) == data["metrics"]["mentions"]["precision_den"]
    assert "_" in data["strata"]["attr:MSeg"]


def test_entity_types_need_input_that_states_them():
    result = CliRunner().invoke(app, ["score", str(KEY), str(RESPONSE), "--by", "entity-type"])
    assert result.exit_code == 1
    assert "needs entity types" in result.output and "CoNLL-U" in result.output


@pytest.mark.parametrize(
    "args, message",
    [(["--by", "colour"], "unknown stratum attribute"), (["--by", "chain-length", "--chain-lengths", "2+"], "chain lengths")],
)
def test_bad_strata_options_are_one_line(args, message):
    result = CliRunner().invoke(app, ["score", str(KEY), str(RESPONSE), *args])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_strata_with_intervals_in_json_and_tables():
    result = CliRunner().invoke(
        app, ["score", str(KEY), str(RESPONSE), "--by", "chain-length", "--ci", "0.9", "--n-resamples", "50", "-f", "json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    strata = data["strata"]["chain-length"]
    assert list(strata) == ["1", "2-5", "6+"]
    assert set(strata["2-5"]["intervals"]["muc"]) == {"recall", "precision", "f1"}
    table = CliRunner().invoke(app, ["score", str(KEY), str(RESPONSE), "--by", "chain-length", "--by", "mention-type"])
    assert "F1 by chain-length" in table.output and "F1 by mention-type" in table.output


def test_a_run_gives_the_strata_of_its_own_twinning():
    run = evaluate_corpus(KEY, RESPONSE, tokens=True)
    values = mention_type_values(run.result.twinned, run.corpus.tokens())
    strata = score_strata(run.result, values)
    assert strata.key_mentions.sum() == len(run.result.twinned.key)
    assert strata.response_mentions.sum() == len(run.result.twinned.response)


def test_the_spacy_scorer_adds_a_score_key_per_metric_and_stratum():
    import spacy
    from spacy.training import Example

    from tests.pipeline.test_spacy_scorers import with_clusters

    nlp = spacy.blank("en")
    text = "Anna met Bob . She thanked him . Anna left ."
    gold = with_clusters(nlp.make_doc(text), [[(0, 1), (4, 5), (8, 9)], [(2, 3), (6, 7)]])
    predicted = with_clusters(nlp.make_doc(text), [[(0, 1), (8, 9)], [(2, 3), (4, 5), (6, 7)]])
    config = {"s": {"@scorers": "spacy_coref_eval.coref_scorer.v1", "by": ["chain-length", "mention-type"], "chain_lengths": "1-2,3+"}}
    scores = spacy.registry.resolve(config)["s"]([Example(predicted, gold)])
    assert {"coref_muc_1-2_f", "coref_muc_3+_f", "coref_bcub_pronoun_f", "coref_conll_proper_f"} <= set(scores)
    assert scores["coref_mentions_pronoun_f"] == 1.0
    with pytest.raises(ValueError, match="strata"):
        spacy.registry.resolve({"s": {"@scorers": "spacy_coref_eval.coref_scorer.v1", "by": ["entity-type"]}})
