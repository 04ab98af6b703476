"""Where the tests' data lives.

Every file a test reads is in ``tests/data`` (sources and licences in
``tests/data/README.md``), so the suite runs from a bare checkout. The
folder ``../shared`` beside the checkout (or the one named by
``SPACY_COREF_EVAL_SHARED``) is an optional, larger source: only
``tests/meta/test_data.py`` reads it, to check the copies against it."""

import os
from pathlib import Path

import pytest

from tests.profiles import register

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data"
SHARED = Path(os.environ.get("SPACY_COREF_EVAL_SHARED", REPO.parent / "shared"))

register()


def data_path(*parts: str) -> Path:
    """A file under tests/data; fails (never skips) when it is missing."""
    path = DATA.joinpath(*parts)
    if not path.exists():
        pytest.fail(f"{path} not found: tests/data ships with the repository; is the checkout complete?")
    return path


def pytest_collection_modifyitems(config, items):
    """Browser tests run only when ``-m`` names them (``-m browser``), so
    that ``-m "not slow"`` (the fast inner loop) does not start Chromium."""
    if "browser" in (config.option.markexpr or ""):
        return
    browser = [item for item in items if item.get_closest_marker("browser")]
    if browser:
        config.hook.pytest_deselected(items=browser)
        items[:] = [item for item in items if not item.get_closest_marker("browser")]


@pytest.fixture(scope="module")
def stream_files_of_any_size():
    """Stream the small files of a test module, with worker processes where
    asked for (pairs under ``InputLimits.stream_from`` bytes are otherwise
    read whole, under ``parallel_from`` in one process)."""

    from tests.support.strategies import limits_env

    with limits_env(stream_from=0, parallel_from=0):
        yield


def pytest_collection_finish(session):
    """What collection leaves (imported modules, parameters, module-level
    data) is frozen out of the garbage collector, and the collector runs
    less often: its passes over the test process's heap found little to
    free and took about a tenth of the CPU time of a run (3.8 of 45 CPU-s
    on six data-heavy modules; 0.8 with this)."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)
