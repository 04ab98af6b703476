"""The hypothesis profiles scale every test's examples (tests/profiles.py)."""

import pytest
from hypothesis import settings

from tests import profiles
from tests.support.strategies import deterministic


@pytest.mark.parametrize(
    "profile, given, expected", [("dev", 400, 40), ("dev", 60, 6), ("dev", 25, 5), ("dev", 3, 3), ("ci", 400, 400), ("explore", 400, 400)]
)
def test_examples_are_scaled_by_the_profile(monkeypatch, profile, given, expected):
    monkeypatch.setattr(profiles, "PROFILE", profile)
    assert profiles.scaled(given) == expected
    assert deterministic(given).max_examples == expected


def test_the_profile_comes_from_the_environment(monkeypatch):
    monkeypatch.delenv("HYPOTHESIS_PROFILE", raising=False)
    monkeypatch.setenv("CI", "true")
    assert profiles.chosen() == "ci"
    monkeypatch.delenv("CI")
    assert profiles.chosen() == "dev"
    monkeypatch.setenv("HYPOTHESIS_PROFILE", "explore")
    assert profiles.chosen() == "explore"
    monkeypatch.setenv("HYPOTHESIS_PROFILE", "fast")
    with pytest.raises(ValueError, match="HYPOTHESIS_PROFILE='fast'"):
        profiles.chosen()


def test_tests_do_not_fix_what_the_profile_chooses():
    """Per-test settings leave randomness and the database to the profile."""
    loaded = settings.get_profile(profiles.PROFILE)
    chosen = deterministic(400)
    assert (chosen.derandomize, chosen.database) == (loaded.derandomize, loaded.database)
    assert settings.get_profile("explore").derandomize is False
    assert settings.get_profile("ci").derandomize and settings.get_profile("ci").database is None
