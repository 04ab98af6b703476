"""Hypothesis profiles, chosen by the environment variable
``HYPOTHESIS_PROFILE`` (default: ``ci`` when ``CI=true``, else ``dev``):

``dev``
    a tenth of each test's examples (at least 5), derandomized, no
    example database: the inner loop.
``ci``
    every test's examples, derandomized, no database: the same examples
    on every run (as before the profiles existed).
``explore``
    every test's examples, random on each run, failures kept in the
    example database under ``.hypothesis/`` and replayed first.

A test sets its number of examples with
:func:`tests.support.strategies.deterministic`, which scales it by the profile's
:data:`FACTOR`; a test that sets none gets the profile's default (100,
scaled alike)."""

import os

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase

FACTOR = {"dev": 0.1, "ci": 1.0, "explore": 1.0}
LEAST = 5
DEFAULT_EXAMPLES = 100
DATABASE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), ".hypothesis", "examples")


def chosen() -> str:
    name = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI", "").lower() == "true" else "dev")
    if name not in FACTOR:
        raise ValueError(f"HYPOTHESIS_PROFILE={name!r}: choose from {', '.join(FACTOR)}")
    return name


PROFILE = chosen()


def scaled(max_examples: int) -> int:
    """``max_examples`` under the chosen profile."""
    return min(max_examples, max(LEAST, round(max_examples * FACTOR[PROFILE])))


def register() -> None:
    """Register the three profiles and load the chosen one."""
    common = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
    settings.register_profile("ci", max_examples=DEFAULT_EXAMPLES, derandomize=True, database=None, **common)
    settings.register_profile("dev", max_examples=scaled(DEFAULT_EXAMPLES), derandomize=True, database=None, **common)
    settings.register_profile(
        "explore", max_examples=DEFAULT_EXAMPLES, derandomize=False, database=DirectoryBasedExampleDatabase(DATABASE), **common
    )
    settings.load_profile(PROFILE)
