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

from .conftest import REPO

pytestmark = pytest.mark.browser

SCRIPT = REPO / "scripts" / "screenshot_report.sh"
KEY, RESPONSE = DATA / "demo.key.conll", DATA / "demo.response.conll"
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
    result = CliRunner().invoke(app, [
        "report", str(KEY), str(RESPONSE), "-o", str(path), "--n-resamples", "200", "--by", "chain-length", "--variants",
    ])
    assert result.exit_code == 0, result.output
    return path


def screenshot(html: Path, png: Path, size: str) -> bytes:
    run = subprocess.run(
        ["bash", str(SCRIPT), str(html), str(png), size],
        env={**os.environ, "CHROMIUM": chromium()}, capture_output=True, text=True, timeout=180,
    )
    assert run.returncode == 0, run.stderr
    return png.read_bytes()


def test_report_renders_to_a_screenshot(report, tmp_path):
    image = screenshot(report, tmp_path / "report.png", "1280,1600")
    assert image[:8] == PNG_SIGNATURE
    assert struct.unpack(">II", image[16:24]) == (1280, 1600)
    blank_page = tmp_path / "blank.html"
    blank_page.write_text("<!DOCTYPE html><title>blank</title>", encoding="utf8")
    blank = screenshot(blank_page, tmp_path / "blank.png", "1280,1600")
    assert len(image) > 10 * len(blank)


def test_browser_parses_the_charts_and_every_mention(report):
    dom = subprocess.run(
        [
            chromium(), "--headless", "--disable-gpu", "--disable-background-networking", "--no-first-run",
            *(["--no-sandbox"] if os.geteuid() == 0 else []),
            f"--user-data-dir={report.parent / 'profile'}", "--dump-dom", report.as_uri(),
        ],
        capture_output=True, text=True, timeout=180,
    )
    assert dom.returncode == 0, dom.stderr
    page = report.read_text(encoding="utf8")
    for chart in ('id="chart-prf"', 'id="chart-f1"', 'id="chart-waterfall"'):
        assert chart in dom.stdout
    for section in ('id="waterfall"', 'id="strata"', 'id="variants"'):
        assert section in dom.stdout
    waterfall_bars = re.compile(r'<rect [^>]*data-kind="[a-z_]+"')
    assert len(waterfall_bars.findall(dom.stdout)) == len(waterfall_bars.findall(page)) == 1 + 2 * 7
    assert len(MENTION_SPAN.findall(dom.stdout)) == len(MENTION_SPAN.findall(page)) > 0
    assert dom.stdout.count("<article") == page.count("<article") == 2
