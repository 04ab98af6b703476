"""Random CoNLL-UA documents (tests/support/ua_generator.py) scored under
``--preset ua`` in the UA scorer's modes equal the naive oracle
(tests/support/ua_oracle.py, the rule for links with split elements) to 1e-9:
the contingency fast path on documents without split elements, and the
split-antecedent counting on the others."""

import pytest
from hypothesis import given, strategies as st

from spacy_coref_eval.scoring import evaluate_corpus
from tests.compat.ua.test_ua_fixtures import METRICS, RATES, options
from tests.support import ua_oracle
from tests.support.strategies import deterministic
from tests.support.ua_generator import generate_pair

MODES = [
    (),
    ("remove_split_antecedent",),
    ("only_split_antecedent",),
    ("MIN",),
    ("keep_non_referring", "keep_bridging"),
    ("evaluate_discourse_deixis",),
    ("remove_singletons", "remove_split_antecedent"),
]


@deterministic(max_examples=25, shrink=False)
@given(
    seed=st.integers(0, 10**6),
    plural_rate=st.sampled_from([0.0, 0.12, 0.3]),
    p_same_span=st.sampled_from([0.0, 0.1]),
    sep=st.sampled_from(["tab", "space", "mixed"]),
)
def test_random_documents_equal_the_oracle(tmp_path_factory, seed, plural_rate, p_same_span, sep):
    folder = tmp_path_factory.mktemp("ua")
    key_text, response_text, _ = generate_pair(seed, n_tokens=80, n_docs=2, plural_rate=plural_rate, p_same_span=p_same_span, sep=sep)
    key, response = folder / "key.ua", folder / "response.ua"
    key.write_text(key_text, encoding="utf8")
    response.write_text(response_text, encoding="utf8")
    for mode in MODES:
        scores = evaluate_corpus(key, response, preset="ua", **options(mode)).metrics()
        expected = ua_oracle.score(str(key), str(response), mode, link_rule="rule")
        for metric in METRICS:
            if metric == "blanc" and "only_split_antecedent" in mode:
                continue
            for rate in RATES:
                assert scores[metric][rate] == pytest.approx(float(expected[metric][rate]), abs=1e-9), (mode, metric)
        for extra in ("non_referring", "bridging"):
            if extra in expected:
                parts = expected[extra] if extra == "non_referring" else expected[extra]["markable_level"]
                assert scores[extra]["f1"] == pytest.approx(parts["f1"], abs=1e-9)
