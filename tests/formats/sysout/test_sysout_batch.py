"""Word outputs clustered all documents at once
(:func:`~spacy_coref_eval.formats.sysout.document.cluster_words`): every
document gets the clusters it gets alone, repeated spans and clusters in
any order included."""

import numpy as np
from hypothesis import given, strategies as st

from spacy_coref_eval.formats.document import Paired
from spacy_coref_eval.formats.sysout.document import cluster_words, from_words
from spacy_coref_eval.model.clusters import Clusters
from tests.support.strategies import deterministic


def described(paired):
    def clusters(c: Clusters):
        return c.starts.tolist(), c.ends.tolist(), c.entity.tolist(), c.n_entities, c.repeated

    memberships = paired.response.memberships
    return (clusters(paired.response), memberships and clusters(memberships), paired.unmapped, paired.alignment, paired.key)


spans_lists = st.lists(st.tuples(st.integers(0, 6), st.integers(1, 4), st.integers(0, 3)), max_size=8)


@deterministic(300)
@given(st.lists(spans_lists, min_size=2, max_size=5))
def test_word_outputs_clustered_at_once_are_clustered_alone(documents):
    """Repeated spans and clusters in any order included."""
    outputs = [
        from_words(
            None,
            ["w"] * 10,
            np.array([(a, a + n) for a, n, _ in spans], dtype=np.int64).reshape(-1, 2),
            labels=np.array([label for _, _, label in spans], dtype=np.int64),
        )
        for spans in documents
    ]
    expected = [Clusters.from_arrays(o.spans[:, 0], o.spans[:, 1], o.labels) for o in outputs]
    cluster_words(outputs)
    for output, clusters in zip(outputs, expected):
        assert described(Paired(None, output.clusters)) == described(Paired(None, clusters))
