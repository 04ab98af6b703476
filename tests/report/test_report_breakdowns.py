"""The HTML report's waterfall, strata and variant sections, parsed without
a browser and compared with the JSON of ``score`` on the same input (the
browser check is test_report_browser.py)."""

import json

import pytest
from click.testing import CliRunner

from spacy_coref_eval.analysis.waterfall import WATERFALL_ORDER
from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.score import DATA
from spacy_coref_eval.report.labels import pct
from tests.report.test_html_report import parse, tagged

KEY, RESPONSE = DATA / "demo.key.conll", DATA / "demo.response.conll"
ANALYSES = ["--by", "chain-length", "--by", "mention-type", "--variants"]


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    runner = CliRunner()
    path = folder / "report.html"
    report = runner.invoke(app, ["report", str(KEY), str(RESPONSE), "-o", str(path), "--n-resamples", "100", *ANALYSES])
    assert report.exit_code == 0, report.output
    scored = runner.invoke(
        app, ["score", str(KEY), str(RESPONSE), "--waterfall", "--ci", "0.95", "--n-resamples", "100", "-f", "json", *ANALYSES]
    )
    assert scored.exit_code == 0, scored.output
    return path.read_text(encoding="utf8"), json.loads(scored.stdout)


def cell_text(node) -> str:
    return node.own_text().strip()


def test_the_waterfall_table_shows_the_scores_of_every_step(pages):
    page, data = pages
    tree = parse(page)
    section = tree.find(tagged("section", id="waterfall"))
    for step in data["waterfall"]["steps"]:
        for name, block in step["metrics"].items():
            cell = section.find(tagged("td", data_kind=step["kind"], data_metric=name))
            assert cell_text(cell) == pct(block["f1"])
    bars = section.find_all(lambda node: node.tag == "rect" and "data-kind" in node.attrs)
    assert [bar.attrs["data-kind"] for bar in bars if "alone" not in bar.classes] == ["original", *WATERFALL_ORDER]


def test_the_strata_tables_show_every_stratum_with_its_interval(pages):
    page, data = pages
    section = parse(page).find(tagged("section", id="strata"))
    for attribute, strata in data["strata"].items():
        table = section.find(tagged("table", "strata", data_attribute=attribute))
        for stratum, entry in strata.items():
            cell = table.find(tagged("td", data_stratum=stratum, data_metric="muc"))
            if not entry["key_mentions"] and not entry["response_mentions"]:
                assert cell_text(cell) == "–" and not cell.find_all(tagged("span", "ci"))
                continue
            if "muc" in entry["undefined"]:  # a stratum of singletons: MUC has no link to find
                assert cell_text(cell) == "n/a" and not cell.find_all(tagged("span", "ci"))
                continue
            assert cell_text(cell) == pct(entry["metrics"]["muc"]["f1"])
            bounds = entry["intervals"]["muc"]["f1"]
            assert cell.find(tagged("span", "ci")).all_text() == f"{pct(bounds[0])}–{pct(bounds[1])}"


def test_the_variant_table_has_every_row_and_says_why_one_is_missing(pages):
    page, data = pages
    section = parse(page).find(tagged("section", id="variants"))
    rows = section.find_all(lambda node: node.tag == "tr")[1:]
    assert len(rows) == len(data["variants"])
    for row, variant in zip(rows, data["variants"]):
        if variant["available"]:
            assert cell_text(row.find(tagged("td", data_metric="conll"))) == pct(variant["metrics"]["conll"]["f1"])
        else:
            assert "needs mention heads" in row.all_text()


def test_no_waterfall_leaves_the_section_out(tmp_path):
    path = tmp_path / "plain.html"
    result = CliRunner().invoke(app, ["report", str(KEY), str(RESPONSE), "-o", str(path), "--n-resamples", "50", "--no-waterfall"])
    assert result.exit_code == 0, result.output
    page = path.read_text(encoding="utf8")
    assert 'id="waterfall"' not in page and 'id="strata"' not in page and 'id="variants"' not in page
