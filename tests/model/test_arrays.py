"""The shared array routines of ``spacy_coref_eval.arrays`` and
``clusters``' label numbering against NumPy's plain calls."""

import numpy as np
from hypothesis import given, strategies as st

from spacy_coref_eval.arrays import lexsort
from spacy_coref_eval.model.clusters import _dense_labels
from tests.support.strategies import deterministic


@deterministic(max_examples=300)
@given(
    columns=st.integers(1, 5).flatmap(
        lambda k: st.integers(0, 30).flatmap(
            lambda n: st.lists(
                st.lists(st.one_of(st.integers(-3, 3), st.integers(-(1 << 63), (1 << 63) - 1)), min_size=n, max_size=n),
                min_size=k,
                max_size=k,
            )
        )
    )
)
def test_packed_lexsort_is_lexsort(columns):
    keys = tuple(np.array(column, dtype=np.int64) for column in columns)
    assert np.array_equal(lexsort(keys), np.lexsort(keys))


@deterministic(max_examples=300)
@given(labels=st.lists(st.integers(-5, 8), max_size=40), ordered=st.booleans())
def test_dense_labels_are_np_unique(labels, ordered):
    labels = np.array(sorted(labels) if ordered else labels, dtype=np.int64)
    uniques, inverse = np.unique(labels, return_inverse=True)
    dense, n, values = _dense_labels(labels, with_values=True)
    assert np.array_equal(dense, inverse.ravel()) and n == len(uniques) and np.array_equal(values, uniques)
