"""Real ``spacy`` command-line runs in subprocesses: entry points in a fresh
interpreter, ``spacy evaluate`` against ``spacy-coref-eval score`` on the same
gold and predictions, and a short ``spacy train`` with coref score weights.

They need the package installed (``pip install .`` or ``-e .``): spaCy finds
the scorers, readers and ``coref_evaluator`` through entry points.
"""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import spacy
import srsly
from spacy.language import Language
from spacy.tokens import Doc, DocBin
from spacy.training import Example
from spacy.util import import_file

from spacy_coref_eval.formats.conll.write import write_conll
from spacy_coref_eval.formats.docbin.spans import doc_clusters
from spacy_coref_eval.pipeline.registrations import prefixed_span_groups
from spacy_coref_eval.pipeline.scorers import CorefEvalWarning

pytestmark = pytest.mark.slow

TIMEOUT = 300
JSON_PRECISION = 1e-9
"""srsly writes JSON floats with 10 decimals."""

RULES = '''
"""A rule-based coreference component: equal capitalised words are one
entity, and a pronoun joins the entity of the last capitalised word."""
from spacy.language import Language
from spacy.tokens import Doc

PRONOUNS = {"he", "she", "him", "her", "it"}


class RuleCoref:
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def __call__(self, doc: Doc) -> Doc:
        entities = {}
        last = None
        for token in doc:
            if token.lower_ in PRONOUNS:
                if last is not None:
                    entities[last].append(token.i)
            elif token.is_title and token.lower_ != "the":
                last = token.lower_
                entities.setdefault(last, []).append(token.i)
        for number, tokens in enumerate(entities.values(), 1):
            doc.spans[f"{self.prefix}_{number}"] = [doc[i : i + 1] for i in tokens]
        return doc


@Language.factory("rule_coref", default_config={"prefix": "coref_clusters"})
def make_rule_coref(nlp: Language, name: str, prefix: str) -> RuleCoref:
    return RuleCoref(prefix)
'''

GOLD = [
    ("Anna Lee met Bob . She thanked him and he smiled .", [[(0, 2), (5, 6)], [(3, 4), (7, 8), (9, 10)]]),
    ("The dog chased Rex . It barked at Rex .", [[(0, 2), (5, 6)], [(3, 4), (8, 9)]]),
    ("Paris is old . Paris is big and it is busy .", [[(0, 1), (4, 5), (8, 9)], [(8, 9)]]),
    ("Nothing happened here .", []),
]

TRAIN_CONFIG = """
[paths]
train = null
dev = null

[system]
seed = 0
gpu_allocator = null

[nlp]
lang = "en"
pipeline = ["tagger", "rule_coref", "coref_evaluator"]
batch_size = 100

[components]

[components.tagger]
factory = "tagger"

[components.tagger.model]
@architectures = "spacy.Tagger.v2"
nO = null

[components.tagger.model.tok2vec]
@architectures = "spacy.HashEmbedCNN.v2"
pretrained_vectors = null
width = 8
depth = 1
embed_size = 64
window_size = 1
maxout_pieces = 2
subword_features = false

[components.rule_coref]
factory = "rule_coref"

[components.coref_evaluator]
factory = "coref_evaluator"

[components.coref_evaluator.scorer]
@scorers = "spacy_coref_eval.coref_scorer.v1"
headline = "conll"

[corpora]

[corpora.train]
@readers = "spacy.Corpus.v1"
path = ${paths.train}

[corpora.dev]
@readers = "spacy.Corpus.v1"
path = ${paths.dev}

[training]
seed = ${system.seed}
gpu_allocator = ${system.gpu_allocator}
max_steps = 4
eval_frequency = 2
max_epochs = 0
dev_corpus = "corpora.dev"
train_corpus = "corpora.train"

[training.batcher]
@batchers = "spacy.batch_by_words.v1"
size = 100
discard_oversize = false
tolerance = 0.2

[training.score_weights]
coref_f = null
coref_lea_f = 0.5
coref_conll_f = 0.5
tag_acc = 0.0

[initialize]
"""


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("spacy_cli")


@pytest.fixture(scope="module")
def rules(workdir) -> Path:
    """The rule-based component's module, written to disk and imported here
    too (the subprocesses get it through ``--code``)."""
    path = workdir / "rule_coref.py"
    path.write_text(textwrap.dedent(RULES), encoding="utf8")
    import_file("rule_coref", path)
    return path


def gold_docs(nlp: Language) -> list[Doc]:
    docs = []
    for text, entities in GOLD:
        doc = nlp.make_doc(text)
        for number, entity in enumerate(entities, 1):
            doc.spans[f"coref_clusters_{number}"] = [doc[start:end] for start, end in entity]
        for token in doc:
            token.tag_ = "NNP" if token.is_title else "PUNCT" if token.is_punct else "X"
        docs.append(doc)
    return docs


@pytest.fixture(scope="module")
def dev_path(workdir) -> Path:
    path = workdir / "dev.spacy"
    DocBin(docs=gold_docs(spacy.blank("en"))).to_disk(path)
    return path


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, f"{args} failed:\n{result.stdout}\n{result.stderr}"
    return result


def test_entry_points_work_in_a_fresh_interpreter(tmp_path):
    code = textwrap.dedent(
        """
        import sys
        import spacy
        assert not any(name.startswith("spacy_coref_eval") for name in sys.modules)
        names = ["coref", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea"]
        scorers = [spacy.registry.scorers.get(f"spacy_coref_eval.{n}_scorer.v1") for n in names]
        readers = [spacy.registry.misc.get(f"spacy_coref_eval.{n}.v1") for n in ("prefixed_span_groups", "labeled_span_group")]
        pipe = spacy.blank("en").add_pipe("coref_evaluator")
        print(type(pipe).__name__, pipe.scorer.headline, len(scorers), len(readers))
        """
    )
    assert run("-c", code, cwd=tmp_path).stdout.split() == ["CorefEvaluator", "lea", "7", "2"]


def test_core_and_score_keys_do_not_import_spacy(tmp_path):
    code = "import sys, spacy_coref_eval, spacy_coref_eval.report.spacy_scores; print('spacy' in sys.modules)"
    assert run("-c", code, cwd=tmp_path).stdout.strip() == "False"


def cli_scores(key: Path, response: Path, cwd: Path, *options: str) -> dict:
    """``spacy-coref-eval score`` on two CoNLL files, as JSON."""
    output = cwd / "cli.json"
    run("-m", "spacy_coref_eval", "score", str(key), str(response), "--format", "json", "--output", str(output), *options, cwd=cwd)
    return json.loads(output.read_text(encoding="utf8"))["metrics"]


def write_clusters(path: Path, docs: list[Doc]) -> None:
    reader = prefixed_span_groups()
    write_conll(path, [(f"doc{i}", [t.text for t in doc], doc_clusters(doc, reader), []) for i, doc in enumerate(docs)])


def test_spacy_evaluate_equals_spacy_coref_eval_score(workdir, rules, dev_path):
    nlp = spacy.blank("en")
    nlp.add_pipe("rule_coref")
    nlp.add_pipe("coref_evaluator")
    pipeline = workdir / "pipeline"
    nlp.to_disk(pipeline)
    output = workdir / "scores.json"
    result = run("-m", "spacy", "evaluate", str(pipeline), str(dev_path), "--output", str(output), "--code", str(rules), cwd=workdir)
    assert "'example 2': 1 repeated mention(s) in the key" in result.stderr
    scores = {key: value for key, value in srsly.read_json(output).items() if key.startswith("coref_")}

    gold = gold_docs(nlp)
    write_clusters(workdir / "key.conll", gold)
    write_clusters(workdir / "response.conll", [nlp(doc.text) for doc in gold])
    metrics = cli_scores(workdir / "key.conll", workdir / "response.conll", workdir)
    expected = {"coref_conll_f": metrics["conll"]["f1"]}
    for name in ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mentions"):
        for short, rate in (("p", "precision"), ("r", "recall"), ("f", "f1")):
            expected[f"coref_{name}_{short}"] = metrics[name][rate]
    expected.update(coref_p=metrics["lea"]["precision"], coref_r=metrics["lea"]["recall"], coref_f=metrics["lea"]["f1"])
    assert scores == pytest.approx(expected, rel=0, abs=JSON_PRECISION)
    assert 0.0 < scores["coref_lea_f"] < 1.0 and 0.0 < scores["coref_conll_f"] < 1.0


def test_spacy_train_logs_and_saves_coref_scores(workdir, rules, dev_path):
    config = workdir / "config.cfg"
    config.write_text(TRAIN_CONFIG, encoding="utf8")
    output = workdir / "trained"
    result = run(
        "-m",
        "spacy",
        "train",
        str(config),
        "--output",
        str(output),
        "--code",
        str(rules),
        "--paths.train",
        str(dev_path),
        "--paths.dev",
        str(dev_path),
        cwd=workdir,
    )
    log = result.stdout + result.stderr
    header = next(line for line in log.splitlines() if "COREF_LEA_F" in line)
    assert "COREF_CONLL_F" in header and "SCORE" in header
    performance = srsly.read_json(output / "model-best" / "meta.json")["performance"]
    best = spacy.load(output / "model-best")
    assert best.pipe_names == ["tagger", "rule_coref", "coref_evaluator"]
    examples = [Example(best.make_doc(doc.text), doc) for doc in gold_docs(best)]
    with pytest.warns(CorefEvalWarning, match="'example 2': 1 repeated mention"):
        evaluated = best.evaluate(examples)
    assert performance["coref_lea_f"] == pytest.approx(evaluated["coref_lea_f"], rel=0, abs=JSON_PRECISION)
    assert performance["coref_conll_f"] == pytest.approx(evaluated["coref_conll_f"], rel=0, abs=JSON_PRECISION)
    assert 0.0 < performance["coref_lea_f"] < 1.0
    weights = {name: weight for name, weight in best.config["training"]["score_weights"].items() if weight}
    assert weights == {"coref_lea_f": 0.5, "coref_conll_f": 0.5}, "the README's score weights are the weights used"


def evaluate(pipeline: Path, data: Path, rules: Path, *options: str, cwd: Path) -> subprocess.CompletedProcess:
    """``python -m spacy_coref_eval evaluate`` of ``pipeline`` on ``data``
    with the rules' code and ``options``."""
    return run("-m", "spacy_coref_eval", "evaluate", str(pipeline), str(data), "--code", str(rules), *options, cwd=cwd)


def test_spacy_coref_eval_evaluate_prints_every_metric_of_a_pipeline(workdir, rules, dev_path):
    nlp = spacy.blank("en")
    nlp.add_pipe("rule_coref")
    pipeline = workdir / "rules-only"
    nlp.to_disk(pipeline)
    output, report = workdir / "evaluate.json", workdir / "evaluate.html"
    result = evaluate(pipeline, dev_path, rules, "--output", str(output), "--report", str(report), cwd=workdir)
    for label in ("Mentions", "MUC", "B³", "CEAFm", "CEAFe", "BLANC", "LEA", "CoNLL"):
        assert any(line.startswith(label) for line in result.stdout.splitlines()), label
    gold = gold_docs(nlp)
    write_clusters(workdir / "key.conll", gold)
    write_clusters(workdir / "response.conll", [nlp(doc.text) for doc in gold])
    expected = cli_scores(workdir / "key.conll", workdir / "response.conll", workdir)
    assert json.loads(output.read_text())["metrics"] == expected
    assert report.read_text().startswith("<!DOCTYPE html>")


def test_evaluate_scores_as_the_pipeline_s_scorer_unless_options_say_otherwise(workdir, rules, dev_path):
    """``spacy-coref-eval evaluate`` uses the settings of the pipeline's
    coreference scorer, as ``spacy evaluate`` does, and says so; an option
    given on the command line replaces the scorer's."""
    nlp = spacy.blank("en")
    nlp.add_pipe("rule_coref")
    nlp.add_pipe(
        "coref_evaluator", config={"scorer": {"@scorers": "spacy_coref_eval.coref_scorer.v1", "twinless": "sys", "singletons": "remove"}}
    )
    pipeline = workdir / "configured"
    nlp.to_disk(pipeline)
    gold = gold_docs(nlp)
    write_clusters(workdir / "key.conll", gold)
    write_clusters(workdir / "response.conll", [nlp(doc.text) for doc in gold])
    for options, expected_options in [
        ((), ("--twinless", "sys", "--singletons", "remove")),
        (("--twinless", "conll"), ("--twinless", "conll", "--singletons", "remove")),
    ]:
        output = workdir / "configured.json"
        result = evaluate(pipeline, dev_path, rules, "--output", str(output), *options, cwd=workdir)
        assert "Settings (the pipeline's coreference scorer" in result.stderr
        assert json.loads(output.read_text())["settings"]["singletons"] == "remove"
        expected = cli_scores(workdir / "key.conll", workdir / "response.conll", workdir, *expected_options)
        assert json.loads(output.read_text())["metrics"] == expected


@pytest.mark.parametrize("suffix", [".conll", ".jsonlines", ".conllu"])
def test_evaluate_reads_the_gold_in_any_format(workdir, rules, dev_path, suffix):
    """``evaluate`` reads any format the package reads; a corpus with no
    documents is an error, not a table of zeros."""
    nlp = spacy.blank("en")
    nlp.add_pipe("rule_coref")
    pipeline = workdir / "rules-only-any"
    nlp.to_disk(pipeline)
    gold = workdir / f"gold{suffix}"
    run("-m", "spacy_coref_eval", "convert", str(dev_path), str(gold), cwd=workdir)
    from_docbin, from_other = workdir / "from-docbin.json", workdir / f"from{suffix}.json"
    for data, output in ((dev_path, from_docbin), (gold, from_other)):
        evaluate(pipeline, data, rules, "-o", str(output), cwd=workdir)
    assert json.loads(from_other.read_text())["metrics"] == json.loads(from_docbin.read_text())["metrics"]
    empty = workdir / f"empty{suffix}"
    empty.write_text("")
    failed = subprocess.run(
        [sys.executable, "-m", "spacy_coref_eval", "evaluate", str(pipeline), str(empty), "--code", str(rules)],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert failed.returncode == 1 and "nothing to" in failed.stderr and "Traceback" not in failed.stderr
