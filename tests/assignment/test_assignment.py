"""The plain-Python solver of small problems against SciPy's: the
matchings of CEAF and MOR totals and of twinning, block by block, against
the dense optimum and SciPy's sparse solver, and when it is used; strongly
connected components."""

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st

from spacy_coref_eval.assignment import by_block, earliest, lsap
from spacy_coref_eval.assignment.blocks import connected_blocks, strong_components
from spacy_coref_eval.assignment.by_block import solve_blocks
from spacy_coref_eval.assignment.lsap import python_matchings
from spacy_coref_eval.assignment.sparse import max_gain_matching
from tests.assignment.test_solvers import check_optimal, gain_graphs, python_matching
from tests.support.strategies import deterministic, patched


@deterministic(max_examples=400)
@given(graph=gain_graphs())
def test_python_matching_reaches_the_optimum(graph):
    check_optimal(python_matching, graph)


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
    ours = python_matching(rows, cols, gains, n_rows=offset, n_cols=offset)
    theirs = max_gain_matching(rows, cols, gains, n_rows=offset, n_cols=offset)
    assert gains[ours].sum() == gains[theirs].sum()


def chain_graph(n: int):
    """A path whose every new row shifts all earlier ones: the worst case
    for the Python solver (n × (n + 1) cells, about n³ / 3 reduced costs)."""
    rows, cols = np.r_[np.arange(n), np.arange(1, n)], np.r_[np.arange(n), np.arange(n - 1)]
    gains = np.r_[np.ones(n), np.full(n - 1, 1.001)]
    return rows, cols, gains, connected_blocks(rows, cols, n_rows=n, n_cols=n)


def test_long_augmenting_paths_are_solved_in_python_up_to_the_scan_limit():
    rows, cols, gains, blocks = chain_graph(40)
    every = np.ones(len(blocks), dtype=bool)
    (chosen,) = python_matchings(blocks, rows, cols, selected=every, gains=[gains])
    assert gains[chosen].sum() == pytest.approx(gains[max_gain_matching(rows, cols, gains, n_rows=40, n_cols=40)].sum())
    with patched(lsap, "PYTHON_SCANS", 5000):
        assert python_matchings(blocks, rows, cols, selected=every, gains=[gains]) is None


def test_blocks_of_more_than_python_cells_go_to_scipy():
    """A block of more than ``PYTHON_CELLS`` cells is never tried in Python,
    whatever the scan limit; as many cells in small blocks are."""
    side = int(lsap.PYTHON_CELLS**0.5) + 1
    rows, cols, gains, blocks = chain_graph(side)
    with patched(lsap, "PYTHON_SCANS", np.inf):
        assert python_matchings(blocks, rows, cols, selected=np.ones(len(blocks), dtype=bool), gains=[gains]) is None
    rows, cols = np.arange(side), np.arange(side)
    blocks = connected_blocks(rows, cols, n_rows=side, n_cols=side)
    (chosen,) = python_matchings(blocks, rows, cols, selected=np.ones(side, dtype=bool), gains=[np.ones(side)])
    assert chosen.tolist() == list(range(side))


# --- strongly connected components: Tarjan in Python against SciPy ------------------------


@st.composite
def directed_graphs(draw, max_nodes=14, max_arcs=40):
    n_nodes = draw(st.integers(1, max_nodes))
    arcs = draw(st.lists(st.tuples(st.integers(0, n_nodes - 1), st.integers(0, n_nodes - 1)), max_size=max_arcs, unique=True))
    sources = np.array([a for a, _ in arcs], dtype=np.int64)
    targets = np.array([b for _, b in arcs], dtype=np.int64)
    return n_nodes, sources, targets


def partition(labels: np.ndarray) -> list:
    return sorted(np.flatnonzero(labels == label).tolist() for label in set(labels.tolist()))


def mutually_reachable(n_nodes: int, sources: np.ndarray, targets: np.ndarray) -> list:
    """The components by definition: a and b are in one iff each reaches the other."""
    reach = np.eye(n_nodes, dtype=bool)
    reach[sources, targets] = True
    for k in range(n_nodes):
        reach |= reach[:, [k]] & reach[[k], :]
    same = reach & reach.T
    return sorted({tuple(np.flatnonzero(row).tolist()) for row in same}, key=lambda members: members[0])


@deterministic(max_examples=400)
@given(graph=directed_graphs())
def test_strong_components_in_python_equal_scipy_s_and_the_definition(graph):
    n_nodes, sources, targets = graph
    in_python = strong_components(n_nodes, sources, targets)
    by_scipy = strong_components(n_nodes, sources, targets, python=False)
    expected = [list(members) for members in mutually_reachable(n_nodes, sources, targets)]
    assert partition(in_python) == partition(by_scipy) == expected


def test_a_long_cycle_needs_no_recursion():
    """A cycle and a path of 40,000 nodes each: one component, and 40,000
    of one node; the search keeps its own stack."""
    n = 40_000
    nodes = np.arange(n)
    cycle = strong_components(n, nodes, (nodes + 1) % n)
    path = strong_components(n, nodes[:-1], nodes[1:])
    assert len(set(cycle.tolist())) == 1 and len(set(path.tolist())) == n


@pytest.mark.parametrize("group_nodes", [0, 4096])
@deterministic(max_examples=200)
@given(graph=gain_graphs())
def test_twinning_solves_in_python_or_by_scipy_alike(graph, group_nodes):
    """The earliest optimal assignment does not depend on which solver
    found the optimum it starts from, nor on who found the components."""
    rows, cols, gains, n_rows, n_cols = graph
    assume(len(rows))
    with patched((earliest, by_block), "GROUP_NODES", group_nodes):
        in_python = solve_blocks(rows, cols, gains, n_rows=n_rows, n_cols=n_cols)
        with patched(lsap, "PYTHON_SCANS", 0):
            by_scipy = solve_blocks(rows, cols, gains, n_rows=n_rows, n_cols=n_cols)
    assert [side.tolist() for side in in_python] == [side.tolist() for side in by_scipy]
