"""LEA's importance as a value (docs/metrics.md, LEA): by entity type
against a naive oracle, size equal to the definition, through spaCy's
registry, the command line, the JSON settings and ``merge``."""

import json
import pickle
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

from spacy_coref_eval import Settings, count_document
from spacy_coref_eval.cli import app
from spacy_coref_eval.counting import SIZE, LeaImportance
from spacy_coref_eval.model.clusters import Clusters
from tests.support.oracle import POLICIES, assert_counts_close, lea_side, naive_counts, rewrite
from tests.support.strategies import deterministic, key_response_pairs

TYPES = ("person", "place", "object")
WEIGHTS = st.dictionaries(st.sampled_from(TYPES), st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0]), min_size=1)


def typed(entities, types):
    """Clusters of ``entities`` whose entity ``i`` has type ``types[i]``
    (``None``: untyped)."""
    clusters = Clusters.from_entities(entities)
    return replace(clusters, etypes=np.array(list(types[: clusters.n_entities]), dtype=object))


def type_of(side, types):
    """The type of an entity of a rewritten side: that of the given entity
    sharing a mention with it, ``None`` for a mention the side lacked."""

    def lookup(entity):
        for known, etype in zip(side.entities(), types):
            if set(known) & entity:
                return etype
        return None

    return lookup


def oracle_lea(key, response, policy, importance):
    """LEA counts under ``policy`` with every entity weighing
    ``importance(entity, side)``, from the oracle's rewrites."""
    (recall_key, recall_response), (precision_key, precision_response) = rewrite(key.entities(), response.entities(), policy)
    recall = lea_side(recall_key, recall_response, importance=lambda entity: importance(entity, "key"))
    precision = lea_side(precision_response, precision_key, importance=lambda entity: importance(entity, "response"))
    return {
        "recall_num": float(recall[0]),
        "recall_den": float(recall[1]),
        "precision_num": float(precision[0]),
        "precision_den": float(precision[1]),
    }


@pytest.mark.parametrize("policy", POLICIES)
@deterministic(max_examples=80)
@given(
    pair=key_response_pairs(max_mentions=10),
    key_types=st.lists(st.sampled_from(TYPES + (None, "other")), min_size=10, max_size=10),
    response_types=st.lists(st.sampled_from(TYPES + (None,)), min_size=10, max_size=10),
    weights=WEIGHTS,
    default=st.sampled_from([0.0, 1.0, 0.25]),
)
def test_lea_by_entity_type_equals_the_oracle(policy, pair, key_types, response_types, weights, default):
    """recall Σ_k w(k)·resolved(k) / Σ_k w(k) with w the table's weight of
    k's key type, precision over the response's entities with their types
    (a type missing from the table, no type, or a policy's new singleton:
    the default weight)."""
    key_types[0] = "person"
    response_types[0] = "person"
    key, response = typed(pair[0], key_types), typed(pair[1], response_types)
    importance = LeaImportance.of("entity-type", weights, default)
    settings = Settings.from_options(["lea"], twinless=policy, lea_importance=importance)
    engine = count_document(key, response, settings=settings).as_dict()["lea"]
    kinds = {"key": type_of(key, key_types), "response": type_of(response, response_types)}

    def weight(entity, side):
        return Fraction(dict(importance.weights).get(kinds[side](entity), importance.default))

    assert_counts_close({"lea": engine}, {"lea": oracle_lea(key, response, policy, weight)})


@deterministic(max_examples=80)
@given(pair=key_response_pairs(max_mentions=10))
def test_size_is_the_definition(pair):
    """``size`` (the default value) is LEA as Moosavi & Strube define it,
    the oracle's and the reference's: the same counts as without settings."""
    key, response = pair
    sized = count_document(key, response, settings=Settings.from_options(["lea"], lea_importance=SIZE)).as_dict()
    assert_counts_close({"lea": sized["lea"]}, {"lea": naive_counts(key, response)["lea"]})
    assert sized["lea"] == count_document(key, response).as_dict()["lea"]


def test_the_value_is_immutable_comparable_and_picklable():
    a = LeaImportance.of("entity-type", {"place": 1, "person": 2.0})
    b = LeaImportance("entity-type", (("person", 2), ("place", 1.0)))
    assert a == b and hash(a) == hash(b) and pickle.loads(pickle.dumps(a)) == a
    assert a.weights == (("person", 2.0), ("place", 1.0))
    assert LeaImportance.of("size") is not SIZE and LeaImportance.of("size") == SIZE
    settings = Settings.from_options(lea_importance="entity-type", lea_weights={"person": 2}, lea_default_weight=0.5)
    assert settings.to_dict()["lea_weights"] == {"person": 2.0}
    assert settings.to_dict()["lea_default_weight"] == 0.5
    assert Settings.from_dict(settings.to_dict()) == settings
    assert "lea_importance" not in Settings().to_dict()
    assert Settings.from_options(lea_importance="uniform").to_dict()["lea_importance"] == "uniform"


@pytest.mark.parametrize(
    "args, message",
    [
        (("weight",), "must be one of size, uniform, entity-type"),
        (("entity-type",), "needs a weight table"),
        (("uniform", {"person": 2}), "go with importance entity-type"),
        (("entity-type", {"person": -1}), "finite number ≥ 0"),
        (("entity-type", {"person": "heavy"}), "must be a number"),
        (("entity-type", ["person"]), "must map entity types to weights"),
    ],
)
def test_bad_importances_are_refused(args, message):
    with pytest.raises(ValueError, match=message):
        LeaImportance.of(*args)


def test_settings_take_a_value_not_a_name():
    with pytest.raises(TypeError, match="must be a LeaImportance"):
        Settings(lea_importance="uniform")


def test_a_key_without_types_is_an_error():
    from spacy_coref_eval.errors import CorefInputError

    settings = Settings.from_options(["lea"], lea_importance="entity-type", lea_weights={"person": 2})
    with pytest.raises(CorefInputError, match="the key states none"):
        count_document([[(0, 1), (2, 3)]], [[(0, 1), (2, 3)]], settings=settings)
    typed_key = typed([[(0, 1), (2, 3)]], ["person"])
    with pytest.raises(CorefInputError, match="the response states none"):
        count_document(typed_key, [[(0, 1), (2, 3)]], settings=settings)
    assert count_document(typed_key, [], settings=settings).as_dict()["lea"]["recall_den"] == 2.0


def test_a_config_resolves_to_the_value():
    """``spacy_coref_eval.lea_importance.v1`` in a training config, with
    its weight table, down to the scorer's settings."""
    from spacy.util import registry
    from thinc.api import Config

    config = Config().from_str("""
[scorer]
@scorers = "spacy_coref_eval.coref_scorer.v1"

[scorer.lea_importance]
@misc = "spacy_coref_eval.lea_importance.v1"
name = "entity-type"
weights = {"PERSON": 2.0, "PLACE": 1.0}
default_weight = 0.5
""")
    scorer = registry.resolve(config)["scorer"]
    assert scorer.settings.lea_importance == LeaImportance("entity-type", (("PERSON", 2.0), ("PLACE", 1.0)), 0.5)
    uniform = registry.resolve(Config().from_str('[x]\n@misc = "spacy_coref_eval.lea_importance.v1"\nname = "uniform"\n'))
    assert uniform["x"] == LeaImportance("uniform")


CONLLU = """# newdoc id = d
# global.Entity = eid-etype-head-other
# sent_id = d-1
1	Anna	_	_	_	_	_	_	_	Entity=(e1-person-1)
2	met	_	_	_	_	_	_	_	_
3	the	_	_	_	_	_	_	_	Entity=(e2-animal-2
4	dog	_	_	_	_	_	_	_	Entity=e2)
5	in	_	_	_	_	_	_	_	_
6	Rome	_	_	_	_	_	_	_	Entity=(e3-place-1)

# sent_id = d-2
1	She	_	_	_	_	_	_	_	Entity=(e1-person-1)
2	fed	_	_	_	_	_	_	_	_
3	it	_	_	_	_	_	_	_	Entity=(e2-animal-1)
4	there	_	_	_	_	_	_	_	Entity=(e3-place-1)

"""


def _files(tmp_path):
    key = tmp_path / "key.conllu"
    key.write_text(CONLLU, encoding="utf-8")
    response = tmp_path / "response.conllu"
    response.write_text(
        CONLLU.replace("Entity=(e2-animal-1)", "Entity=(e1-person-1)").replace(
            "there" + "\t_" * 7 + "\tEntity=(e3-place-1)", "there" + "\t_" * 8
        ),
        encoding="utf-8",
    )
    weights = tmp_path / "weights.json"
    weights.write_text(json.dumps({"person": 2, "place": 0.5}), encoding="utf-8")
    return key, response, weights


def test_the_command_line_scores_and_echoes_the_weights(tmp_path):
    key, response, weights = _files(tmp_path)
    result = CliRunner().invoke(
        app,
        [
            "score",
            str(key),
            str(response),
            "-m",
            "lea",
            "-f",
            "json",
            "--lea-importance",
            "entity-type",
            "--lea-weights",
            str(weights),
            "--lea-default-weight",
            "0",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["settings"]["lea_importance"] == "entity-type"
    assert data["settings"]["lea_weights"] == {"person": 2.0, "place": 0.5}
    assert data["settings"]["lea_default_weight"] == 0.0
    # key: person {Anna, She} (weight 2) found whole, animal {the dog, it}
    # (not in the table: 0) split, place {Rome, there} (0.5) lost "there";
    # response: person {Anna, She, it} 1 of 3 links, animal {the dog} and
    # place {Rome} singletons the key does not have
    lea = data["metrics"]["lea"]
    counts = {name: lea[name] for name in ("recall_num", "recall_den", "precision_num", "precision_den")}
    assert counts == pytest.approx({"recall_num": 2.0, "recall_den": 2.5, "precision_num": 2 / 3, "precision_den": 2.5})
    assert data["metrics"]["mentions"]["precision_den"] == 5


def test_the_command_line_refuses_bad_weight_files_and_untyped_input(tmp_path):
    key, response, weights = _files(tmp_path)
    runner = CliRunner()
    bad = tmp_path / "bad.json"
    bad.write_text('["person"]', encoding="utf-8")
    result = runner.invoke(app, ["score", str(key), str(response), "--lea-importance", "entity-type", "--lea-weights", str(bad)])
    assert result.exit_code != 0 and "bad.json: must hold one JSON object" in result.output
    result = runner.invoke(app, ["score", str(key), str(response), "--lea-importance", "entity-type"])
    assert result.exit_code != 0 and "needs a weight table" in result.output
    from tests.conftest import data_path

    demo = [str(data_path("..", "..", "spacy_coref_eval", "data", f"demo.{side}.conll")) for side in ("key", "response")]
    result = runner.invoke(app, ["score", *demo, "--lea-importance", "entity-type", "--lea-weights", str(weights)])
    assert result.exit_code != 0 and "the key states none" in result.output and "Traceback" not in result.output


def test_merge_refuses_runs_with_other_importances(tmp_path):
    key, response, weights = _files(tmp_path)
    runner = CliRunner()
    heavier = tmp_path / "heavier.json"
    heavier.write_text(json.dumps({"person": 3}), encoding="utf-8")
    for name, table in (("a", weights), ("b", heavier)):
        result = runner.invoke(
            app,
            [
                "score",
                str(key),
                str(response),
                "--lea-importance",
                "entity-type",
                "--lea-weights",
                str(table),
                "--save-counts",
                str(tmp_path / f"{name}.json"),
            ],
        )
        assert result.exit_code == 0, result.output
    alone = runner.invoke(app, ["merge", str(tmp_path / "a.json"), "-f", "json"])
    assert alone.exit_code == 0, alone.output
    assert json.loads(alone.output)["settings"]["lea_weights"] == {"person": 2.0, "place": 0.5}
    result = runner.invoke(app, ["merge", str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    assert result.exit_code != 0 and "only runs with the same settings merge" in result.output


def test_strata_weigh_with_the_run_importance():
    """Every stratum is scored with the run's importance: by chain length
    with every entity weighing 1, LEA's recall denominator of a stratum is
    its number of key entities (by size it would be their mentions)."""
    from spacy_coref_eval.formats.conll.read import read_conll
    from tests.conftest import REPO

    key, response = (str(REPO / "spacy_coref_eval" / "data" / f"demo.{side}.conll") for side in ("key", "response"))
    result = CliRunner().invoke(app, ["score", key, response, "--by", "chain-length", "--lea-importance", "uniform", "-f", "json"])
    assert result.exit_code == 0, result.output
    strata = json.loads(result.output)["strata"]["chain-length"]
    sizes = [len(entity) for document in read_conll(key).values() for entity in document.clusters.entities()]
    expected = {"1": sum(s == 1 for s in sizes), "2-5": sum(2 <= s <= 5 for s in sizes), "6+": sum(s >= 6 for s in sizes)}
    assert {name: entry["metrics"]["lea"]["recall_den"] for name, entry in strata.items()} == expected
    assert sum(expected.values()) < sum(sizes)


@pytest.mark.parametrize("preset", [None, "corefud"])
def test_equal_weights_are_uniform_on_corefud_files(preset, tmp_path):
    """Every type weighing 1 is the uniform importance, on GUM against a
    perturbation, also under the CorefUD scorer's counting of every
    membership of a mention (docs/corefud.md §10); weights by type then
    move LEA and nothing else."""
    from spacy_coref_eval.scoring import evaluate_corpus
    from tests.support.gum_pair import write_gum_pair

    key, response = write_gum_pair(tmp_path, 4)
    uniform = evaluate_corpus(key, response, preset=preset, lea_importance="uniform").metrics()
    ones = evaluate_corpus(key, response, preset=preset, lea_importance="entity-type", lea_weights={"person": 1}).metrics()
    assert ones == uniform
    weighted = evaluate_corpus(
        key, response, preset=preset, lea_importance="entity-type", lea_weights={"person": 5, "abstract": 0.1}
    ).metrics()
    assert weighted["lea"] != uniform["lea"]
    assert {name: block for name, block in weighted.items() if name != "lea"} == {
        name: block for name, block in uniform.items() if name != "lea"
    }
