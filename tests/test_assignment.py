"""The plain-Python matching of small problems (CEAF and MOR totals) against
the dense optimum and SciPy's sparse solver, and when it is used."""
import numpy as np
import pytest
from hypothesis import given

from spacy_coref_eval.assignment.blocks import connected_blocks
from spacy_coref_eval.assignment.sparse import max_gain_matching
from spacy_coref_eval.assignment.small import PYTHON_WORK, python_matching, solver_for
from .strategies import deterministic
from .test_solvers import _assignment_value, gain_graphs


@deterministic(max_examples=400)
@given(graph=gain_graphs())
def test_python_matching_reaches_the_optimum_in_row_order(graph):
    rows, cols, gains, n_rows, n_cols = graph
    chosen = python_matching(rows, cols, gains, n_rows, n_cols)
    assert len(set(rows[chosen].tolist())) == len(chosen) == len(set(cols[chosen].tolist()))
    assert np.all(np.diff(rows[chosen]) > 0)
    dense = np.zeros((n_rows, n_cols))
    dense[rows, cols] = gains
    assert gains[chosen].sum() == pytest.approx(_assignment_value(dense), abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_python_matching_agrees_with_scipy_on_blocks_of_a_corpus(seed):
    """Many small blocks side by side, gains 2n / (|k| + |r|) as in CEAF-e:
    the same total, to the last bit, as the sparse solver."""
    rng = np.random.default_rng(seed)
    rows, cols, offset = [], [], 0
    for _ in range(60):
        n = int(rng.integers(2, 6))
        block = np.argwhere(rng.random((n, n)) < 0.6)
        rows.append(block[:, 0] + offset)
        cols.append(block[:, 1] + offset)
        offset += n
    rows, cols = np.concatenate(rows), np.concatenate(cols)
    gains = 2 * rng.integers(1, 6, len(rows)) / rng.integers(2, 12, len(rows))
    ours = python_matching(rows, cols, gains, offset, offset)
    theirs = max_gain_matching(rows, cols, gains, offset, offset)
    assert gains[ours].sum() == gains[theirs].sum()


def test_long_augmenting_paths_within_the_work_limit_are_solved_in_python():
    """A path whose every new row shifts all earlier ones: the worst case
    for the Python solver, which takes it only up to the work limit."""
    n = 200
    rows, cols = np.r_[np.arange(n), np.arange(1, n)], np.r_[np.arange(n), np.arange(n - 1)]
    gains = np.r_[np.ones(n), np.full(n - 1, 1.001)]
    blocks = connected_blocks(rows, cols, n, n)
    every = np.ones(len(blocks), dtype=bool)
    assert solver_for(blocks, every) is python_matching
    chosen = python_matching(rows, cols, gains, n, n)
    assert gains[chosen].sum() == pytest.approx(gains[max_gain_matching(rows, cols, gains, n, n)].sum())


def test_large_problems_go_to_scipy():
    side = int(PYTHON_WORK ** 0.5)
    rows, cols = np.nonzero(np.ones((side, side)))
    blocks = connected_blocks(rows, cols, side, side)
    assert solver_for(blocks, np.ones(len(blocks), dtype=bool)) is max_gain_matching
