"""The CorefUD preset's dense assignment in Python against SciPy's
``linear_sum_assignment`` itself: the same pairs, float for float, on
matrices full of ties (small ratios of counts, equal rows and columns, wide
and tall), and which matrices go to SciPy."""

import numpy as np
import pytest
from hypothesis import given, strategies as st
from scipy.optimize import linear_sum_assignment

from spacy_coref_eval.assignment import lsap
from spacy_coref_eval.assignment.lsap import _solve, shortest_path_assignment
from tests.support.strategies import deterministic, patched

RATIOS = sorted({p / q for q in range(1, 9) for p in range(1, q + 1)})


@st.composite
def tied_matrices(draw, max_side=9):
    """Scores from a palette of one to four ratios of small counts and
    zeros, some rows or columns copies of others."""
    n_rows, n_cols = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    palette = draw(st.lists(st.sampled_from(RATIOS), min_size=1, max_size=4))
    cells = draw(st.lists(st.sampled_from([0.0, 0.0, *palette]), min_size=n_rows * n_cols, max_size=n_rows * n_cols))
    scores = np.array(cells).reshape(n_rows, n_cols)
    for source, target in draw(st.lists(st.tuples(st.integers(0, n_rows - 1), st.integers(0, n_rows - 1)), max_size=3)):
        scores[target] = scores[source]
    for source, target in draw(st.lists(st.tuples(st.integers(0, n_cols - 1), st.integers(0, n_cols - 1)), max_size=3)):
        scores[:, target] = scores[:, source]
    return scores


def same_pairs(ours, scipy_s) -> bool:
    return [side.tolist() for side in ours] == [side.tolist() for side in scipy_s]


@deterministic(max_examples=600)
@given(scores=tied_matrices())
def test_the_same_assignment_as_scipy_on_tied_scores(scores):
    """As the CorefUD scorer calls it, on negated scores."""
    assert same_pairs(shortest_path_assignment(-scores), linear_sum_assignment(-scores))


@deterministic(max_examples=300)
@given(scores=tied_matrices(max_side=5), shift=st.sampled_from([-2.5, -1.0, 0.5, 3.0]))
def test_the_same_assignment_on_costs_of_any_sign(scores, shift):
    costs = scores * 7 + shift
    assert same_pairs(shortest_path_assignment(costs), linear_sum_assignment(costs))


@pytest.mark.parametrize("seed", range(12))
def test_the_same_assignment_on_larger_matrices(seed):
    """Up to 80 × 80, mostly zeros, the rest a few ratios or any float;
    wide and tall."""
    rng = np.random.default_rng(seed)
    n_rows, n_cols = rng.integers(20, 81, 2)
    values = rng.choice(RATIOS, 3) if seed % 2 else rng.random(50)
    scores = np.where(rng.random((n_rows, n_cols)) < 0.15, rng.choice(values, (n_rows, n_cols)), 0.0)
    for matrix in (scores, scores.T):
        assert same_pairs(shortest_path_assignment(-matrix), linear_sum_assignment(-matrix))


def test_a_solve_stops_past_its_limit():
    """A chain whose every row shifts all earlier ones: given up as soon
    as a row's scan passes the limit."""
    chain = -(np.eye(40, 41) + np.eye(40, 41, -1) * 1.001)
    found, scans = _solve(chain, 5000)
    assert found is None and 5000 < scans <= 5000 + 41
    found, scans = _solve(chain, np.inf)
    assert scans == 22_960 and same_pairs(found, linear_sum_assignment(chain))


def test_constant_and_empty_matrices():
    assert same_pairs(shortest_path_assignment(np.zeros((4, 6))), linear_sum_assignment(np.zeros((4, 6))))
    assert same_pairs(shortest_path_assignment(np.zeros((6, 4))), linear_sum_assignment(np.zeros((6, 4))))
    assert [side.tolist() for side in shortest_path_assignment(np.zeros((0, 3)))] == [[], []]


def solved_in_python(matrices):
    """For each matrix in turn, whether :func:`~.lsap.dense_assignment`
    solved it in Python; its cells checked against SciPy's either way."""
    out = []
    original = lsap._solve
    for scores in matrices:
        results = []

        def recorded(cost, max_scans):
            results.append(original(cost, max_scans))
            return results[-1]

        with patched(lsap, "_solve", recorded):
            rows, cols = lsap.dense_assignment(scores)
        out.append(bool(results) and results[0][0] is not None)
        expected_rows, expected_cols = linear_sum_assignment(-scores)
        kept = scores[expected_rows, expected_cols] > 0
        assert [rows.tolist(), cols.tolist()] == [expected_rows[kept].tolist(), expected_cols[kept].tolist()]
    return out


def matrices():
    """Three small matrices, the chain of :func:`test_a_solve_stops_past_its_limit`
    (1,640 cells, 22,960 reduced costs) and a 120 × 120 matrix."""
    rng = np.random.default_rng(0)
    small = [np.where(rng.random((n, n + 1)) < 0.5, rng.choice([0.5, 1.0, 2 / 3], (n, n + 1)), 0.0) for n in (3, 5, 4)]
    chain = np.eye(40, 41) + np.eye(40, 41, -1) * 1.001
    return [*small, chain, rng.random((120, 120))]


@pytest.mark.parametrize(
    "max_scans, in_python", [(lsap.PYTHON_SCANS, [True, True, True, True, False]), (5000, [True, True, True, False, False])]
)
def test_the_solver_of_a_matrix_depends_on_that_matrix_alone(max_scans, in_python):
    """Python for a matrix of at most ``PYTHON_CELLS`` cells that needs at
    most ``PYTHON_SCANS`` reduced costs, SciPy for the others, whatever
    was solved before (in either order) and though SciPy is loaded; the
    cells are SciPy's either way."""
    with patched(lsap, "PYTHON_SCANS", max_scans):
        assert solved_in_python(matrices()) == in_python
        assert solved_in_python(matrices()[::-1]) == in_python[::-1]
