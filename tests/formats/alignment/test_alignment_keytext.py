"""The key's words as one folded text (formats/alignment/words.py KeyText): the
words joined by NUL, their bounds read from the NULs, equal to folding
every word on its own (the naive oracle)."""

import numpy as np
from hypothesis import given, strategies as st

from spacy_coref_eval.formats.alignment import KeyText, fold
from tests.support.strategies import deterministic

PIECES = ["a", "B", " ", "\u00a0", "'", "’", '"', "“", "``", "-LRB-", "-RRB", "-", "\u200b", "\x00", "é", "\U0001f600"]


@deterministic(400)
@given(st.lists(st.lists(st.sampled_from(PIECES), max_size=4).map("".join), max_size=12))
def test_the_words_units_are_those_of_each_word_folded_alone(words):
    key = KeyText.of(words)
    alone = [fold(word).units for word in words]
    lengths = np.array([len(units) for units in alone], dtype=np.int64)
    assert key.starts.tolist() == (np.cumsum(lengths) - lengths).tolist()
    assert key.ends.tolist() == np.cumsum(lengths).tolist()
    assert key.folded.units.tolist() == (np.concatenate(alone).tolist() if alone else [])


def test_words_that_are_not_strings_are_read_as_strings():
    assert KeyText.of([1, "b"]).ends.tolist() == [1, 2]
