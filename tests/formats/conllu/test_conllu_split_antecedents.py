"""CorefUD ``SplitAnte=`` read into the UA scorer's model (docs/corefud.md
§2, docs/ua.md §3): under ``--preset ua`` a CoNLL-U document scores exactly
as the same document written as CoNLL-UA with ``ElementOf=`` (``convert``
both ways keeps the split antecedents); under the corefud and reference
presets identity coreference alone is scored, as the CorefUD scorer does;
bad links are refused naming the file, line and entity."""

import json
import re

import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

from spacy_coref_eval.cli import app
from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.scoring import evaluate_corpus
from tests.support.strategies import deterministic
from tests.support.ua_generator import generate_pair

runner = CliRunner()
MODES = [
    ("--split-antecedents", "keep"),
    ("--split-antecedents", "only"),
    ("--split-antecedents", "remove"),
    ("--split-antecedents", "remove", "--singletons", "remove"),
]


def plain_identity(text: str) -> str:
    """A generated CoNLL-UA text with what CoNLL-U cannot hold taken out
    (minimum spans, bridging, non-referring entities made referring) and
    its plurals kept (each document one sentence, so that the CoNLL-U
    writer joins no sentences a mention spans)."""
    lines = []
    for line in text.split("\n"):
        if not line or line.startswith(("# sent_id", "# text")):
            continue
        if line[:1].isdigit():
            cells = line.split("\t")
            cells[10] = re.sub(r"\|Min=[^|)]*", "", cells[10])
            cells[11] = cells[12] = "_"
            line = "\t".join(cells).replace("-Pseudo", "Pseudo")
        lines.append(line)
    return "\n".join(lines) + "\n"


def convert(source, target):
    result = runner.invoke(app, ["convert", str(source), str(target)])
    assert result.exit_code == 0, result.stderr
    return target


def metrics(key, response, *options):
    """Every number of the JSON ``metrics``, by path."""
    result = runner.invoke(app, ["score", str(key), str(response), "-f", "json", *options])
    assert result.exit_code == 0, result.stderr
    return dict(_flat(json.loads(result.stdout)["metrics"]))


def _flat(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _flat(item, path + (key,))
    else:
        yield path, value


@deterministic(max_examples=10, shrink=False)
@given(seed=st.integers(0, 10**6), same_span=st.sampled_from([0.0, 0.05]))
def test_split_antecedents_score_the_same_in_conllu_and_conll_ua(tmp_path_factory, seed, same_span):
    folder = tmp_path_factory.mktemp("split")
    texts = generate_pair(
        seed, n_tokens=80, n_docs=2, plural_rate=0.3, p_pseudo=0.0, p_min=0.0, p_same_span=same_span, dd_chains=0, dd_singletons=0
    )[:2]
    ua = []
    for role, text in zip(("key", "response"), texts):
        path = folder / f"{role}.ua"
        path.write_text(plain_identity(text), encoding="utf8")
        ua.append(path)
    probes = [runner.invoke(app, ["convert", str(path), str(folder / "probe.conllu")]).exit_code for path in ua]
    if "ElementOf" not in texts[0] or any(probes):
        return
    conllu = [convert(path, path.with_suffix(".conllu")) for path in ua]
    assert "SplitAnte=" in conllu[0].read_text(encoding="utf8")
    back = [convert(path, path.with_suffix(".back.ua")) for path in conllu]
    assert "ElementOf=" in back[0].read_text(encoding="utf8")
    for mode in MODES:
        expected = metrics(*ua, "--preset", "ua", *mode)
        assert metrics(*conllu, "--preset", "ua", *mode) == pytest.approx(expected, abs=1e-12), mode
        assert metrics(*back, "--preset", "ua", *mode) == pytest.approx(expected, abs=1e-12), mode


def test_split_antecedents_are_scored_under_the_ua_preset_only(tmp_path):
    texts = generate_pair(
        7, n_tokens=80, n_docs=2, plural_rate=0.4, p_pseudo=0.0, p_min=0.0, p_same_span=0.0, dd_chains=0, dd_singletons=0
    )[:2]
    paths = []
    for role, text in zip(("key", "response"), texts):
        path = tmp_path / f"{role}.ua"
        path.write_text(plain_identity(text), encoding="utf8")
        paths.append(convert(path, path.with_suffix(".conllu")))
    stripped = []
    for path in paths:
        target = path.with_name(path.stem + ".identity.conllu")
        target.write_text(re.sub(r"\|SplitAnte=[^\t\n]*", "", path.read_text(encoding="utf8")), encoding="utf8")
        stripped.append(target)
    assert "SplitAnte" in paths[0].read_text(encoding="utf8")
    for options in ((), ("--preset", "corefud"), ("--preset", "corefud", "--match", "exact")):
        assert metrics(*paths, *options) == metrics(*stripped, *options)
    assert metrics(*paths, "--preset", "ua") != metrics(*stripped, "--preset", "ua")


CONLLU = """# global.Entity = eid-etype-head-other
# newdoc id = d
# sent_id = s1
1\tWe\t_\t_\t_\t_\t_\t_\t_\tEntity=(e3--1)|SplitAnte={links}
2\tand\t_\t_\t_\t_\t_\t_\t_\t_
3\tyou\t_\t_\t_\t_\t_\t_\t_\tEntity=(e1--1)
4\tme\t_\t_\t_\t_\t_\t_\t_\tEntity=(e2--1)
5\tus\t_\t_\t_\t_\t_\t_\t_\tEntity=(e3--1)

"""


@pytest.mark.parametrize(
    "links, message",
    [
        ("e1", r"f\.conllu:4: document 'd': SplitAnte link 'e1' is not ANTECEDENT<PLURAL"),
        ("e1<e2<e3", r"f\.conllu:4: document 'd': SplitAnte link 'e1<e2<e3' is not"),
        ("e3<e3", r"f\.conllu:4: document 'd': SplitAnte=e3<e3: entity e3 is its own split antecedent"),
    ],
)
def test_malformed_links_are_refused_naming_the_line(tmp_path, links, message):
    path = tmp_path / "f.conllu"
    path.write_text(CONLLU.format(links=links), encoding="utf8")
    with pytest.raises(CorefInputError, match=message):
        evaluate_corpus(path, path)


@pytest.mark.parametrize(
    "links, message",
    [
        ("e1<e3,e9<e3", r"f\.conllu: document 'd', line 4: SplitAnte=e9<e3: no entity e9 in the document"),
        ("e1<e3,e3<e1", r"split antecedents form a cycle: entity e[13] is"),
    ],
)
def test_missing_entities_and_cycles_are_refused_when_scored(tmp_path, links, message):
    path = tmp_path / "f.conllu"
    path.write_text(CONLLU.format(links=links), encoding="utf8")
    assert evaluate_corpus(path, path).metrics()["muc"]["f1"] == 1.0
    with pytest.raises(CorefInputError, match=message):
        evaluate_corpus(path, path, preset="ua")


def test_a_split_antecedent_link_is_scored(tmp_path):
    path, response = tmp_path / "f.conllu", tmp_path / "r.conllu"
    path.write_text(CONLLU.format(links="e1<e3,e2<e3"), encoding="utf8")
    response.write_text(CONLLU.format(links="e1<e3,e2<e3").replace("|SplitAnte=e1<e3,e2<e3", ""), encoding="utf8")
    kept = evaluate_corpus(path, path, preset="ua").metrics()
    assert kept["muc"]["f1"] == 1.0
    apart = evaluate_corpus(path, response, preset="ua").metrics()
    assert apart["muc"]["recall"] < 1.0
    assert evaluate_corpus(path, response, preset="ua", split_antecedents="remove").metrics()["muc"]["f1"] == 1.0
