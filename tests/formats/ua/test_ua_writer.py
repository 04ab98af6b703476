"""Writing CoNLL-UA: a CoNLL-UA document written and read back holds the
same layers; other formats convert to it with unchanged scores, and it
converts to them only where they hold everything (else one clear line)."""

import gzip
import json

from click.testing import CliRunner

from spacy_coref_eval.cli import app
from spacy_coref_eval.formats import ReadOptions, get_format
from spacy_coref_eval.scoring import evaluate_corpus
from tests.conftest import REPO

DATA = REPO / "tests" / "data" / "ua"
DEMO = REPO / "spacy_coref_eval" / "data"
FIXTURES = json.loads(gzip.decompress((DATA / "random_fixtures.json.gz").read_bytes()))["documents"]


def layers(path):
    side = get_format("ua").read(path, ReadOptions())
    out = []
    for document in side.documents:
        for layer in (document.document.identity, document.document.deixis):
            out.append(
                (
                    document.name,
                    document.words,
                    [(m.start, m.end, layer.entity_ids[m.entity], m.min_span, m.markable_id) for m in layer.markables],
                    layer.referring,
                    layer.element_of,
                    sorted(layer.bridging),
                )
            )
    return out


def test_round_trip_keeps_every_layer(tmp_path):
    fmt = get_format("ua")
    for index, fixture in enumerate(FIXTURES[:16]):
        source = tmp_path / f"in{index}.ua"
        source.write_text(fixture["key"], encoding="utf8")
        written = tmp_path / f"out{index}.ua"
        fmt.write(written, fmt.read(source, ReadOptions()).documents, [source])
        assert layers(written) == layers(source)


def test_conll_converts_to_ua_with_the_same_scores(tmp_path):
    runner = CliRunner()
    for side in ("key", "response"):
        result = runner.invoke(app, ["convert", str(DEMO / f"demo.{side}.conll"), str(tmp_path / f"{side}.ua")])
        assert result.exit_code == 0, result.output
    ours = evaluate_corpus(tmp_path / "key.ua", tmp_path / "response.ua").metrics()
    theirs = evaluate_corpus(DEMO / "demo.key.conll", DEMO / "demo.response.conll").metrics()
    assert {m: ours[m]["f1"] for m in theirs} == {m: theirs[m]["f1"] for m in theirs}


def test_what_only_ua_holds_is_not_converted(tmp_path):
    result = CliRunner().invoke(app, ["convert", str(DATA / "example.key.ua"), str(tmp_path / "out.conll")])
    assert result.exit_code != 0
    assert "document 'example' has split antecedents (ElementOf) and non-referring (-Pseudo) entities" in result.output
    assert "which CoNLL-2012 cannot hold" in result.output
