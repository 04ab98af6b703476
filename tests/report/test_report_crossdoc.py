"""The HTML report's cross-document section (docs/crossdoc.md §3): the
view holds what ``score --cross-document`` puts in its JSON, and the page
renders every row, bar and topic of it."""

import json
import re

import pytest
from click.testing import CliRunner

from spacy_coref_eval.cli import app
from spacy_coref_eval.report.crossdoc_html import cross_document_section
from spacy_coref_eval.report.labels import pct
from spacy_coref_eval.report.views import CrossDocumentView, cross_document_view
from tests.conftest import REPO

DATA = REPO / "spacy_coref_eval" / "data"
KEY, RESPONSE = DATA / "ecb.key.conll", DATA / "ecb.response.conll"
PATTERN = r"^(\d+)_"


@pytest.fixture(scope="module")
def scored():
    result = CliRunner().invoke(app, ["score", str(KEY), str(RESPONSE), "--topic-pattern", PATTERN, "--per-doc", "-f", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def topics(scored):
    return {name: document["metrics"] for name, document in scored["documents"].items()}


def test_the_view_holds_the_json_scores(scored):
    view = cross_document_view(scored["cross_document"], scored["metrics"], topics(scored))
    assert isinstance(view, CrossDocumentView)
    rows = {(row.metric, row.part): row for row in view.rows}
    assert view.rows[0].metric == "mentions" and rows["mentions", ""].f1 == scored["metrics"]["mentions"]["f1"]
    for metric in ("muc", "blanc", "lea"):
        assert rows[metric, "all"].f1 == scored["metrics"][metric]["f1"]
        for part in ("within", "across"):
            assert rows[metric, part].recall == scored["cross_document"][part][metric]["recall"]
    lea = scored["cross_document"]["within"]["lea"]
    assert rows["lea", "within"].counts == (lea["recall_num"], lea["recall_den"], lea["precision_num"], lea["precision_den"])
    assert rows["blanc", "within"].counts is None
    assert [name for name, _ in view.topics] == ["1", "2"]
    assert cross_document_view(None, scored["metrics"], topics(scored)) is None
    assert cross_document_section(None) == ""


def test_topics_beyond_those_shown_are_counted(scored):
    view = cross_document_view(scored["cross_document"], scored["metrics"], topics(scored), shown=1)
    assert len(view.topics) == 1 and view.more == 1
    assert "1 more topics" in cross_document_section(view)


def test_report_shows_the_section(scored, tmp_path):
    page_path = tmp_path / "report.html"
    result = CliRunner().invoke(
        app, ["report", str(KEY), str(RESPONSE), "--topic-pattern", PATTERN, "-o", str(page_path), "--n-resamples", "50"]
    )
    assert result.exit_code == 0, result.output
    page = page_path.read_text(encoding="utf8")
    section = re.search(r'<section id="cross-document">.*?</section>', page, re.S).group(0)
    assert 'id="chart-crossdoc"' in section
    assert len(re.findall(r'<rect [^>]*data-part="(?:all|within|across)"', section)) == 3 * 3
    assert len(re.findall(r'<rect [^>]*data-part="mentions"', section)) == 1
    for metric in ("muc", "blanc", "lea"):
        for part in ("within", "across"):
            f1 = pct(scored["cross_document"][part][metric]["f1"])
            assert re.search(rf'<tr data-metric="{metric}" data-part="{part}">.*?<td data-rate="f1">{f1}</td>', section)
    assert section.count("<tr data-topic=") == 2
    assert "Cattan et al. 2021" in section


def test_report_without_the_flag_has_no_section(tmp_path):
    page_path = tmp_path / "report.html"
    result = CliRunner().invoke(app, ["report", str(KEY), str(RESPONSE), "-o", str(page_path), "--n-resamples", "20"])
    assert result.exit_code == 0, result.output
    assert 'id="cross-document"' not in page_path.read_text(encoding="utf8")
