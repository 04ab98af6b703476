"""Where the UA guidelines and the UA scorer differ (docs/ua.md §8): under
``--preset ua`` CoNLL-UA is read as the UA scorer reads it (``_Pseudo`` is
an ordinary entity id, a range ``Min=a-b`` is refused under
``--min-spans``, as the scorer crashes on it); outside the preset as the
guidelines say (``_Pseudo`` marks a non-referring entity, ``Min=a-b`` is
the span from a to b)."""

import re

import pytest
from hypothesis import given, strategies as st

from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.scoring import evaluate_corpus
from tests.support.strategies import deterministic
from tests.support.ua_generator import generate_pair


def scores(folder, key_text, response_text, **options):
    key, response = folder / "key.ua", folder / "response.ua"
    key.write_text(key_text, encoding="utf8")
    response.write_text(response_text, encoding="utf8")
    return evaluate_corpus(key, response, **options).metrics()


def as_range(text):
    """``Min=a,b`` written as the guidelines' range ``Min=a-b``."""
    return re.sub(r"Min=(\d+),(\d+)", r"Min=\1-\2", text)


@deterministic(max_examples=12, shrink=False)
@given(seed=st.integers(0, 10**6))
def test_min_ranges_are_read_outside_the_preset(tmp_path_factory, seed):
    folder = tmp_path_factory.mktemp("ua")
    key, response, _ = generate_pair(seed, n_tokens=80, n_docs=2, p_min=1.0, plural_rate=0.0)
    assert re.search(r"Min=\d+,\d+", key)
    options = dict(min_spans=True, non_referring=True, bridging=True, metrics=["ceafm", "ceafe", "muc"])
    expected = scores(folder, key, response, **options)
    assert scores(folder, as_range(key), response, **options) == expected


def test_min_ranges_are_refused_under_the_preset_with_min_spans(tmp_path):
    key, response, _ = generate_pair(5, n_tokens=80, n_docs=1, p_min=1.0, plural_rate=0.0)
    ranged = as_range(key)
    with pytest.raises(CorefInputError, match=r"line \d+: markable .*Min=\d+-\d+ is a range, which the UA scorer"):
        scores(tmp_path, ranged, response, preset="ua", min_spans=True)
    assert scores(tmp_path, ranged, response, preset="ua") == scores(tmp_path, key, response, preset="ua")


@deterministic(max_examples=12, shrink=False)
@given(seed=st.integers(0, 10**6))
def test_underscore_pseudo_is_non_referring_outside_the_preset_only(tmp_path_factory, seed):
    folder = tmp_path_factory.mktemp("ua")
    key, response, _ = generate_pair(seed, n_tokens=80, n_docs=2, p_pseudo=0.3, plural_rate=0.1)
    assert "-Pseudo" in key
    underscored = [text.replace("-Pseudo", "_Pseudo") for text in (key, response)]
    plain = [text.replace("-Pseudo", "_Plain") for text in (key, response)]
    options = dict(non_referring=True, bridging=True)
    assert scores(folder, *underscored, **options) == scores(folder, key, response, **options)
    assert scores(folder, *underscored, preset="ua", **options) == scores(folder, *plain, preset="ua", **options)
    assert scores(folder, key, response, preset="ua", **options) != scores(folder, *plain, preset="ua", **options)
