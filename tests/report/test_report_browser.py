"""The HTML report in a real browser (headless Chromium, offline): it
renders to a non-blank screenshot, and the browser's own parse of the page
holds the charts and every highlighted mention.

Not run by default (marker ``browser``); run with
``python -m pytest -m browser``. Needs Chromium (Debian:
``apt-get install chromium``, or set ``CHROMIUM``); fails without it.
"""

import os
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.score import DATA
from tests.conftest import REPO

pytestmark = pytest.mark.browser

SCRIPT = REPO / "scripts" / "screenshot_report.sh"
KEY, RESPONSE = DATA / "demo.key.conll", DATA / "demo.response.conll"
ECB_KEY, ECB_RESPONSE = DATA / "ecb.key.conll", DATA / "ecb.response.conll"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MENTION_SPAN = re.compile(r'<span class="m (?![^"]*\bc\b)[^"]*"')


def chromium() -> str:
    found = os.environ.get("CHROMIUM") or next(
        (path for name in ("chromium", "chromium-browser", "google-chrome") if (path := shutil.which(name))), None
    )
    if not found:
        pytest.fail("Chromium not found: install it (Debian: apt-get install chromium) or set CHROMIUM")
    return found


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("report") / "report.html"
    result = CliRunner().invoke(
        app, ["report", str(KEY), str(RESPONSE), "-o", str(path), "--n-resamples", "200", "--by", "chain-length", "--variants"]
    )
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def crossdoc_report(tmp_path_factory) -> Path:
    """The report of the ECB+-like example scored by topic (docs/crossdoc.md)."""
    path = tmp_path_factory.mktemp("crossdoc") / "report.html"
    result = CliRunner().invoke(
        app, ["report", str(ECB_KEY), str(ECB_RESPONSE), "-o", str(path), "--n-resamples", "100", "--topic-pattern", r"^(\d+)_"]
    )
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def ranking(tmp_path_factory) -> Path:
    """The ranking page of three systems: the demo response, the key itself
    and the response without its one-token mentions."""
    folder = tmp_path_factory.mktemp("ranking")
    damaged = folder / "damaged.conll"
    damaged.write_text(re.sub(r"(?m)\(\d+\)$", "-", RESPONSE.read_text(encoding="utf8")), encoding="utf8")
    path = folder / "ranking.html"
    result = CliRunner().invoke(
        app, ["compare", str(KEY), str(RESPONSE), str(KEY), str(damaged), "--rounds", "100", "--n-resamples", "100", "--html", str(path)]
    )
    assert result.exit_code == 0, result.output
    return path


def dump_dom(page: Path) -> str:
    """The page as the browser parsed it."""
    dom = subprocess.run(
        [
            chromium(),
            "--headless",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            *(["--no-sandbox"] if os.geteuid() == 0 else []),
            f"--user-data-dir={page.parent / 'profile'}",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert dom.returncode == 0, dom.stderr
    return dom.stdout


def screenshot(html: Path, png: Path, size: str) -> bytes:
    run = subprocess.run(
        ["bash", str(SCRIPT), str(html), str(png), size],
        env={**os.environ, "CHROMIUM": chromium()},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert run.returncode == 0, run.stderr
    return png.read_bytes()


def blank_size(tmp_path: Path, size: str) -> int:
    blank_page = tmp_path / "blank.html"
    blank_page.write_text("<!DOCTYPE html><title>blank</title>", encoding="utf8")
    return len(screenshot(blank_page, tmp_path / "blank.png", size))


@pytest.mark.parametrize("page, factor", [("report", 10), ("crossdoc_report", 10), ("ranking", 4)])
def test_pages_render_to_a_screenshot(page, factor, request, tmp_path):
    """Non-blank: the PNG of a page far larger than that of a blank one
    (the ranking page is short, three rows and a table)."""
    image = screenshot(request.getfixturevalue(page), tmp_path / f"{page}.png", "1280,1600")
    assert image[:8] == PNG_SIGNATURE
    assert struct.unpack(">II", image[16:24]) == (1280, 1600)
    assert len(image) > factor * blank_size(tmp_path, "1280,1600")


def test_browser_parses_the_charts_and_every_mention(report):
    dom = dump_dom(report)
    page = report.read_text(encoding="utf8")
    for chart in ('id="chart-prf"', 'id="chart-f1"', 'id="chart-waterfall"'):
        assert chart in dom
    for section in ('id="waterfall"', 'id="strata"', 'id="variants"'):
        assert section in dom
    waterfall_bars = re.compile(r'<rect [^>]*data-kind="[a-z_]+"')
    assert len(waterfall_bars.findall(dom)) == len(waterfall_bars.findall(page)) == 1 + 2 * 7
    assert len(MENTION_SPAN.findall(dom)) == len(MENTION_SPAN.findall(page)) > 0
    assert dom.count("<article") == page.count("<article") == 2
    strata_cells = re.compile(r'<td data-stratum="[^"]+" data-metric="[a-z]+"')
    assert len(strata_cells.findall(dom)) == len(strata_cells.findall(page)) > 0
    variant_rows = re.compile(r"<tr><th>[a-z]+ · [a-z]+ · singletons")
    assert len(variant_rows.findall(dom)) == len(variant_rows.findall(page)) == 7


def test_browser_parses_the_cross_document_section(crossdoc_report):
    dom = dump_dom(crossdoc_report)
    assert 'id="cross-document"' in dom and 'id="chart-crossdoc"' in dom
    bars = re.compile(r'<rect [^>]*data-metric="[a-z]+" data-part="[a-z]+"')
    assert len(bars.findall(dom)) == 1 + 3 * 3
    rows = re.compile(r'<tr data-metric="[a-z]+" data-part="[a-z]+">')
    assert len(rows.findall(dom)) == 1 + 3 * 3
    assert dom.count("<tr data-topic=") == 2


def test_browser_parses_the_ranking_page(ranking):
    dom = dump_dom(ranking)
    assert 'id="ranking"' in dom
    systems = re.findall(r'<g data-system="(\d+)"', dom)
    assert systems == ["1", "2", "3"]
    assert "demo.key.conll: 100.00" in dom
    ticks = [int(t) for t in re.findall(r'class="tick" text-anchor="middle">(\d+)</text>', dom)]
    assert ticks[-1] == 100 and len({b - a for a, b in zip(ticks, ticks[1:])}) == 1 and ticks[0] % 5 == 0
