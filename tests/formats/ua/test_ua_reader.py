"""The CoNLL-UA reader (docs/ua.md, Reading): columns by header or the UA
scorer's positions, tabs or spaces, closings before openings, and one
clear line naming file, line and markable or entity for bad input."""

import json

import pytest
from click.testing import CliRunner

from spacy_coref_eval.cli import app
from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats.ua.parse import parse_ua
from spacy_coref_eval.model.ua.modes import Modes
from spacy_coref_eval.model.ua.view import ua_clusters
from spacy_coref_eval.scoring import evaluate_corpus
from tests.conftest import REPO

EXAMPLE = REPO / "tests" / "data" / "ua"
HEADER = "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS\n"


def document(*cells, bridging=None, header=HEADER, sep="\t"):
    """A one-document CoNLL-UA text with one IDENTITY cell per token."""
    lines = [header, "# newdoc id = d\n"]
    for i, cell in enumerate(cells):
        bridge = (bridging or {}).get(i, "_")
        lines.append(sep.join([str(i + 1), f"w{i}"] + ["_"] * 8 + [cell, bridge, "_"]) + "\n")
    return "".join(lines)


def spans(text, modes=None):
    modes = Modes() if modes is None else modes
    clusters = ua_clusters(parse_ua(text, "f.ua").documents[0], modes)
    return [list(entity) for entity in clusters.entity_spans], clusters.splits


def test_closings_before_openings_and_nesting():
    text = document("(EntityID=1|MarkableID=a", "(EntityID=2|MarkableID=b)", ")(EntityID=1|MarkableID=c)")
    assert spans(text)[0] == [[(0, 3), (2, 3)], [(1, 2)]]


def test_spaces_separate_columns_as_tabs_do():
    cells = ("(EntityID=1|MarkableID=a)", "_", "(EntityID=1|MarkableID=b)")
    assert spans(document(*cells, sep="   ")) == spans(document(*cells))


def test_columns_by_header():
    header = "# global.columns = ID FORM IDENTITY\n"
    text = header + "# newdoc id = d\n1 w (EntityID=1|MarkableID=a)\n2 w (EntityID=1|MarkableID=b)\n"
    assert spans(text)[0] == [[(0, 1), (1, 2)]]


def test_split_antecedents_flattened_and_plurals_merged():
    text = document(
        "(EntityID=1|MarkableID=a|ElementOf=3)",
        "(EntityID=2|MarkableID=b|ElementOf=3,4)",
        "(EntityID=3|MarkableID=c|ElementOf=5)",
        "(EntityID=4|MarkableID=d)",
        "(EntityID=5|MarkableID=e)",
        "(EntityID=6|MarkableID=f|ElementOf=4)",
    )
    entities, splits = spans(text)
    assert entities == [[(0, 1)], [(1, 2)], [(2, 3), (4, 5)], [(3, 4)], [(5, 6)]]
    assert {entity: frozenset(split) for entity, split in splits.items()} == {
        2: frozenset({((0, 1),), ((1, 2),)}),
        3: frozenset({((1, 2),), ((5, 6),)}),
    }
    entities, splits = spans(text, Modes("remove"))
    assert splits == {} and len(entities) == 6


@pytest.mark.parametrize(
    "cells, message",
    [
        (("(EntityID=1|MarkableID=a",), "line 3: markable a is never closed"),
        ((")",), "line 3: ')' closes a markable but none is open"),
        (("-(EntityID=1|MarkableID=a)",), "line 3: '-' before the first '('"),
        (("(EntityID=1)",), "line 3: markable 'EntityID=1)' has no MarkableID="),
        (("(MarkableID=a)",), "has no EntityID="),
        (("(EntityID=1|MarkableID=a)", "(EntityID=2|MarkableID=a)"), "line 4: MarkableID=a is given twice"),
        (("(EntityID=1|MarkableID=a|ElementOf=2)", "(EntityID=2|MarkableID=b|ElementOf=1)"), "form a cycle: entity 1"),
        (("(EntityID=1|MarkableID=a|ElementOf=1)",), "form a cycle: entity 1"),
        (("(EntityID=1|MarkableID=a|x)",), "'x' in 'EntityID=1|MarkableID=a|x' is not KEY=VALUE"),
    ],
)
def test_bad_markables_name_file_line_and_markable(cells, message):
    with pytest.raises(CorefInputError, match="^f.ua: document 'd'.*" + message.replace("(", r"\(").replace(")", r"\)")):
        parse_ua(document(*cells), "f.ua")


def test_bridging_to_itself_and_to_nothing():
    cells = ("(EntityID=1|MarkableID=a)", "(EntityID=2|MarkableID=b)")
    with pytest.raises(CorefInputError, match="line 3: markable a bridges to itself"):
        parse_ua(document(*cells, bridging={0: "(MarkableID=a|MentionAnchor=a)"}), "f.ua")
    read = parse_ua(document(*cells, bridging={0: "(MarkableID=a|MentionAnchor=z)"}), "f.ua")
    assert read.documents[0].identity.bridging == ()
    assert read.warnings == ["f.ua: document 'd', line 3: bridging pair (a, z) skipped: no markable z"]


def test_min_outside_its_markable_is_refused_under_min_spans(tmp_path):
    key, response = tmp_path / "key.ua", tmp_path / "response.ua"
    key.write_text(document("(EntityID=1|MarkableID=a|Min=2)", "_"), encoding="utf8")
    response.write_text(document("(EntityID=1|MarkableID=a)", "_"), encoding="utf8")
    assert evaluate_corpus(key, response, preset="ua").metrics()["ceafm"]["f1"] == 1.0
    with pytest.raises(CorefInputError, match=r"line 3: markable a \(entity 1\): Min= is not"):
        evaluate_corpus(key, response, preset="ua", min_spans=True)


def test_cli_json_has_non_referring_and_bridging():
    result = CliRunner().invoke(
        app,
        [
            "score",
            str(EXAMPLE / "example.key.ua"),
            str(EXAMPLE / "example.response.ua"),
            "--preset",
            "ua",
            "--non-referring",
            "--bridging",
            "--min-spans",
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["settings"]["preset"] == "ua"
    assert data["settings"]["min_spans"] is True
    assert data["metrics"]["non_referring"]["f1"] == 1.0
    assert set(data["metrics"]["bridging"]) >= {"anaphora_recognition", "markable_level", "entity_level"}
    # The UA scorer (commit f4adb45, `key response keep_non_referring keep_bridging min`) prints 80.95 and
    # 48.41 for this pair (78.57 and 38.29 before the response's plural got its second antecedent, Mary).
    assert data["metrics"]["ceafm"]["f1"] == pytest.approx(17 / 21, abs=1e-6)
    assert data["metrics"]["bcub"]["recall"] == pytest.approx(0.484127, abs=1e-6)


def test_singletons_removed_with_split_antecedents_kept_is_refused(tmp_path):
    key = EXAMPLE / "example.key.ua"
    with pytest.raises(CorefInputError, match="singletons cannot be removed while split antecedents are kept"):
        evaluate_corpus(key, key, preset="ua", singletons="remove")
    run = evaluate_corpus(key, key, preset="ua", singletons="remove", split_antecedents="remove")
    assert run.metrics()["muc"]["f1"] == 1.0


def test_table_and_report_show_the_extra_scores(tmp_path):
    args = [str(EXAMPLE / "example.key.ua"), str(EXAMPLE / "example.response.ua"), "--preset", "ua", "--non-referring", "--bridging"]
    table = CliRunner().invoke(app, ["score", *args])
    assert table.exit_code == 0, table.output
    for label in ("Non-referring", "Bridging", "anaphora recognition", "markable level", "entity level"):
        assert label in table.output
    page = tmp_path / "report.html"
    report = CliRunner().invoke(app, ["report", *args, "-o", str(page)])
    assert report.exit_code == 0, report.output
    text = page.read_text(encoding="utf8")
    assert "Non-referring" in text and "Bridging" in text


def test_split_antecedents_need_exact_matching():
    key = EXAMPLE / "example.key.ua"
    with pytest.raises(CorefInputError, match="split antecedents are scored with exact matching only"):
        evaluate_corpus(key, key, match="overlap")
    assert evaluate_corpus(key, key, match="overlap", split_antecedents="remove").metrics()["muc"]["f1"] == 1.0
