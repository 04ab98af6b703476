"""The assignment solvers: connected blocks, the sparse maximum-gain
matching, twinning's earliest optimal assignment against the per-cell
solver it replaced, and CEAF on blocks solved sparse."""

import subprocess
import sys
import tracemalloc
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st
from scipy.optimize import linear_sum_assignment

from spacy_coref_eval import Clusters, Settings, count_document
from spacy_coref_eval.arrays import compact, stable_order
from spacy_coref_eval.assignment import by_block, earliest, lsap, sparse
from spacy_coref_eval.assignment.blocks import connected_blocks
from spacy_coref_eval.assignment.by_block import TIE_TOLERANCE, solve_blocks
from spacy_coref_eval.assignment.earliest import _reduce, _tight_edges, best_assignment, earliest_optimal
from spacy_coref_eval.assignment.gains import Gains, as_ratios
from spacy_coref_eval.assignment.lsap import python_matchings
from spacy_coref_eval.assignment.sparse import SMALL_CELLS, max_gain_matching
from spacy_coref_eval.twinning import matchers
from tests.support.oracle import assert_counts_close, naive_counts
from tests.support.strategies import deterministic, key_response_pairs, patched

# --- the per-cell solver that earliest_optimal replaced, kept as the oracle ----------


def _assignment_value(scores: np.ndarray) -> float:
    if scores.size == 0:
        return 0.0
    rows, cols = linear_sum_assignment(scores, maximize=True)
    return float(scores[rows, cols].sum())


def python_matching(rows: np.ndarray, cols: np.ndarray, gains: np.ndarray, n_rows: int, n_cols: int) -> np.ndarray:
    """:func:`~.lsap.python_matchings` of every block of a small graph."""
    blocks = connected_blocks(rows, cols, n_rows=n_rows, n_cols=n_cols)
    (chosen,) = python_matchings(blocks, rows, cols, selected=np.ones(len(blocks), dtype=bool), gains=[gains])
    return chosen


def per_cell_assignment(scores: np.ndarray) -> list[tuple[int, int]]:
    """Among assignments within TIE_TOLERANCE of the best total, each column
    in turn takes the earliest row that still allows it, by one dense
    assignment per tried cell (O(c · b³))."""
    best = _assignment_value(scores)
    free = np.ones(scores.shape[0], dtype=bool)
    chosen: list[tuple[int, int]] = []
    total = 0.0
    for col in range(scores.shape[1]):
        for row in np.flatnonzero(free & (scores[:, col] > 0)).tolist():
            free[row] = False
            rest = _assignment_value(scores[free][:, col + 1 :])
            if total + scores[row, col] + rest >= best - TIE_TOLERANCE:
                chosen.append((row, col))
                total += scores[row, col]
                break
            free[row] = True
    return chosen


# --- score matrices with many ties ----------------------------------------------------

RATIOS = sorted({p / q for q in range(1, 9) for p in range(1, q + 1)})


@st.composite
def score_matrices(draw, max_rows=6, max_cols=6, zero_weight=2):
    """Rectangular matrices over a palette of one to four ratios of small
    counts (so most totals tie), zero cells common."""
    n_rows, n_cols = draw(st.integers(1, max_rows)), draw(st.integers(1, max_cols))
    palette = draw(st.lists(st.sampled_from(RATIOS), min_size=1, max_size=4))
    cells = draw(st.lists(st.sampled_from([0.0] * zero_weight + palette), min_size=n_rows * n_cols, max_size=n_rows * n_cols))
    return np.array(cells).reshape(n_rows, n_cols)


def edges_of(scores: np.ndarray):
    rows, cols = np.nonzero(scores > 0)
    return rows, cols, scores[rows, cols]


def solved(scores: np.ndarray, ratios) -> list[tuple[int, int]]:
    rows, cols, values = edges_of(scores)
    chosen = earliest_optimal(rows, cols, values, n_rows=scores.shape[0], n_cols=scores.shape[1], ratios=ratios)
    return list(zip(rows[chosen].tolist(), cols[chosen].tolist()))


@pytest.mark.parametrize("dense_cells, python_scans", [(0, 0), (sparse.DENSE_CELLS, 0), (0, lsap.PYTHON_SCANS)])
@deterministic(max_examples=400)
@given(scores=score_matrices())
def test_earliest_optimal_equals_the_per_cell_solver(scores, dense_cells, python_scans):
    """Whichever solver (SciPy's sparse or dense, or Python's) gives the
    first optimal assignment (0 cells: sparse even for small problems; 0
    scans: never Python)."""
    with (
        patched(sparse, "DENSE_CELLS", dense_cells),
        patched(earliest, "SMALL_CELLS", dense_cells),
        patched(lsap, "PYTHON_SCANS", python_scans),
    ):
        assert best_assignment(scores) == per_cell_assignment(scores)


@deterministic(max_examples=300)
@given(scores=score_matrices(max_rows=9, max_cols=9, zero_weight=6))
def test_sparse_larger_blocks_equal_the_per_cell_solver(scores):
    assert best_assignment(scores) == per_cell_assignment(scores)


@deterministic(max_examples=300)
@given(scores=score_matrices())
def test_float_fallback_equals_the_per_cell_solver(scores):
    """Without exact ratios the solver works on the float scores with a
    tolerance on reduced costs, and decides the same."""
    assert solved(scores, None) == per_cell_assignment(scores)


@deterministic(max_examples=200)
@given(scores=score_matrices(max_rows=5, max_cols=5), seed=st.integers(0, 100))
def test_same_scores_in_any_cell_order(scores, seed):
    """Edges given in another order give the same assignment."""
    rows, cols, values = edges_of(scores)
    order = np.random.default_rng(seed).permutation(len(rows))
    ratios = as_ratios(values[order])
    chosen = earliest_optimal(rows[order], cols[order], values[order], n_rows=scores.shape[0], n_cols=scores.shape[1], ratios=ratios)
    got = list(zip(rows[order][chosen].tolist(), cols[order][chosen].tolist()))
    assert got == per_cell_assignment(scores)


def test_all_ties_pair_earlier_with_earlier():
    """A full 6 × 6 block of equal scores: the diagonal, as the rule says."""
    assert best_assignment(np.full((6, 6), 0.5)) == [(k, k) for k in range(6)]


def test_a_column_goes_without_only_if_no_row_allows_the_optimum():
    """Column 1 can have row 0 only if column 0 does without, at equal total."""
    scores = np.array([[0.5, 0.5], [0.0, 0.0]])
    assert best_assignment(scores) == [(0, 0)]
    scores = np.array([[0.5, 0.5], [0.25, 0.0]])
    assert best_assignment(scores) == [(1, 0), (0, 1)]


# --- exact ratios ------------------------------------------------------------------------


@deterministic(max_examples=200)
@given(st.lists(st.tuples(st.integers(1, 300), st.integers(1, 300)), min_size=1, max_size=20))
def test_ratios_are_recovered_exactly(pairs):
    scores = np.array([p / q for p, q in pairs])
    ratios = as_ratios(scores)
    assert ratios is not None
    for (p, q), numerator, denominator in zip(pairs, *(r.tolist() for r in ratios)):
        assert Fraction(numerator, denominator) == Fraction(p, q)


def test_scores_that_are_no_small_ratio_fall_back_to_floats():
    scores = np.array([0.5, np.pi / 4])
    assert as_ratios(scores) is None
    assert as_ratios(np.array([0.5, 3e6])) is None
    gains = Gains.of(scores, None, 4)
    assert gains.tolerance < 1e-6 and gains.values.max() == 1.0


def test_a_huge_common_denominator_falls_back_to_floats():
    """1/p for the primes below 200: their common denominator has ~250
    bits, more than float sums hold exactly."""
    primes = [p for p in range(2, 200) if all(p % d for d in range(2, p))]
    scores = np.array([1 / p for p in primes])
    ratios = as_ratios(scores)
    assert ratios is not None and sorted(ratios[1].tolist()) == primes
    assert Gains.of(scores, ratios, 2 * len(primes)).tolerance < 1e-6


def test_exact_gains_are_integers_in_proportion():
    scores = np.array([1 / 3, 1 / 2, 2 / 3, 1.0])
    gains = Gains.of(scores, as_ratios(scores), 8)
    assert gains.values.tolist() == [2.0, 3.0, 4.0, 6.0] and gains.tolerance == 0.5


def test_ties_are_decided_on_exact_ratios():
    """3/10 alone ties with 2/10 + 1/10, though the float sum of the pair
    is larger: column 0 keeps row 0, as with any tolerance on totals."""
    assert 2 / 10 + 1 / 10 > 3 / 10
    scores = np.array([[3 / 10, 2 / 10], [1 / 10, 0.0]])
    assert best_assignment(scores) == [(0, 0)] == per_cell_assignment(scores)


# --- blocks and groups --------------------------------------------------------------------


@st.composite
def bipartite_graphs(draw, max_nodes=12, max_edges=30):
    n_rows, n_cols = draw(st.integers(1, max_nodes)), draw(st.integers(1, max_nodes))
    edges = draw(st.lists(st.tuples(st.integers(0, n_rows - 1), st.integers(0, n_cols - 1)), max_size=max_edges, unique=True))
    rows = np.array([r for r, _ in edges], dtype=np.int64)
    cols = np.array([c for _, c in edges], dtype=np.int64)
    return rows, cols, n_rows, n_cols


def components(rows, cols) -> list[set]:
    """Edge sets of the connected components, by union-find."""
    parent = {}

    def find(node):
        while parent.setdefault(node, node) != node:
            node = parent[node]
        return node

    for r, c in zip(rows.tolist(), cols.tolist()):
        parent[find(("r", r))] = find(("c", c))
    groups = {}
    for e, r in enumerate(rows.tolist()):
        groups.setdefault(find(("r", r)), set()).add(e)
    return list(groups.values())


@deterministic(max_examples=300)
@given(graph=bipartite_graphs(), max_nodes=st.integers(0, 8), pick=st.integers(0, 2**12), large_alone=st.booleans())
def test_blocks_are_the_connected_components(graph, max_nodes, pick, large_alone):
    rows, cols, n_rows, n_cols = graph
    blocks = connected_blocks(rows, cols, n_rows=n_rows, n_cols=n_cols)
    found = [set(blocks.edges[a:b].tolist()) for a, b in zip(blocks.bounds[:-1], blocks.bounds[1:])]
    assert sorted(map(sorted, found)) == sorted(map(sorted, components(rows, cols)))
    for b, edges in enumerate(found):
        assert set(np.flatnonzero(blocks.of_edge == b).tolist()) == edges
        assert sorted(blocks.edges[blocks.bounds[b] : blocks.bounds[b + 1]].tolist()) == list(
            blocks.edges[blocks.bounds[b] : blocks.bounds[b + 1]]
        )
        assert blocks.n_rows[b] == len({rows[e] for e in edges})
        assert blocks.n_cols[b] == len({cols[e] for e in edges})
        assert blocks.first_edges[b] == min(edges)
    selected = np.array([(pick >> b) & 1 == 1 for b in range(len(blocks))], dtype=bool)
    groups = [set(g.tolist()) for g in blocks.groups(selected, max_nodes=max_nodes, large_alone=large_alone)]
    assert sorted(e for g in groups for e in g) == sorted(e for b in np.flatnonzero(selected) for e in found[b])
    nodes = (blocks.n_rows + blocks.n_cols).tolist()
    for group in groups:
        members = sorted({int(blocks.of_edge[e]) for e in group})
        assert all(found[b] <= group for b in members)
        if max_nodes:
            assert sum(nodes[b] for b in members[:-1]) < max_nodes
        else:
            assert len(members) == 1
        if large_alone and any(nodes[b] >= max_nodes // 2 for b in members):
            assert len(members) == 1


def test_no_edges_no_blocks():
    empty = np.zeros(0, dtype=np.int64)
    blocks = connected_blocks(empty, empty, n_rows=3, n_cols=4)
    assert len(blocks) == 0 and blocks.bounds.tolist() == [0]
    assert list(blocks.groups(np.zeros(0, dtype=bool), max_nodes=8)) == []


# --- the sparse maximum-gain matching -----------------------------------------------------


@st.composite
def gain_graphs(draw):
    rows, cols, n_rows, n_cols = draw(bipartite_graphs(max_nodes=10, max_edges=40))
    kind = draw(st.sampled_from(["ratios", "integers", "near-ties"]))
    if kind == "ratios":
        gains = draw(st.lists(st.sampled_from(RATIOS), min_size=len(rows), max_size=len(rows)))
    elif kind == "integers":
        gains = draw(st.lists(st.integers(1, 5), min_size=len(rows), max_size=len(rows)))
    else:
        gains = [0.5 + draw(st.integers(0, 3)) * 1e-9 for _ in rows]
    return rows, cols, np.array(gains, dtype=np.float64), n_rows, n_cols


@deterministic(max_examples=300)
@given(graph=gain_graphs())
def test_max_gain_matching_reaches_the_dense_optimum(graph):
    check_optimal(max_gain_matching, graph)


def check_optimal(matching, graph) -> None:
    """``matching`` of a :func:`gain_graphs` graph pairs each row and column
    at most once and reaches the gain of the dense assignment."""
    rows, cols, gains, n_rows, n_cols = graph
    chosen = matching(rows, cols, gains, n_rows=n_rows, n_cols=n_cols)
    assert len(set(rows[chosen].tolist())) == len(chosen) == len(set(cols[chosen].tolist()))
    dense = np.zeros((n_rows, n_cols))
    dense[rows, cols] = gains
    assert gains[chosen].sum() == pytest.approx(_assignment_value(dense), abs=1e-12)


def test_sparse_matching_on_near_equal_float_costs_is_never_square(monkeypatch):
    """A 300 × 300 band of scores with differences of 1e-9: the square
    LAPJVsp row reduction bounces between rows for minutes on such costs;
    the solver is given only rectangular problems (wider than tall), where
    it takes each row once."""
    import scipy.sparse.csgraph as csgraph

    shapes = []
    solve = csgraph.min_weight_full_bipartite_matching
    monkeypatch.setattr(csgraph, "min_weight_full_bipartite_matching", lambda graph: shapes.append(graph.shape) or solve(graph))
    rng = np.random.default_rng(0)
    rows = np.repeat(np.arange(300), 5)
    cols = np.minimum(rows + np.tile(np.arange(5), 300), 299)
    pairs = np.unique(np.stack([rows, cols], 1), axis=0)
    gains = 0.5 + rng.random(len(pairs)) * 1e-6
    chosen = max_gain_matching(pairs[:, 0], pairs[:, 1], gains, n_rows=300, n_cols=300)
    may_miss = np.zeros(300, dtype=bool)
    max_gain_matching(pairs[:, 0], pairs[:, 1], gains, n_rows=300, n_cols=300, may_miss=may_miss)
    assert shapes == [(300, 600), (300, 301)]
    dense = np.zeros((300, 300))
    dense[pairs[:, 0], pairs[:, 1]] = gains
    assert gains[chosen].sum() == pytest.approx(_assignment_value(dense), abs=1e-9)


@deterministic(max_examples=300)
@given(graph=gain_graphs(), small=st.booleans())
def test_max_gain_matching_needs_no_pad_for_a_strictly_best_row(graph, small):
    """Rows that are the strictly best row of a column, which every optimal
    matching matches, may go without a pad; and small problems may be
    solved dense."""
    rows, cols, gains, n_rows, n_cols = graph
    assume(len(rows))
    best_other = np.zeros(len(rows))
    for e in range(len(rows)):
        best_other[e] = max([gains[f] for f in range(len(rows)) if cols[f] == cols[e] and f != e], default=0.0)
    may_miss = np.ones(n_rows, dtype=bool)
    may_miss[rows[gains > best_other]] = False
    chosen = max_gain_matching(rows, cols, gains, n_rows=n_rows, n_cols=n_cols, may_miss=may_miss, small_cells=SMALL_CELLS if small else 0)
    assert len(set(rows[chosen].tolist())) == len(chosen) == len(set(cols[chosen].tolist()))
    dense = np.zeros((n_rows, n_cols))
    dense[rows, cols] = gains
    assert gains[chosen].sum() == pytest.approx(_assignment_value(dense), abs=1e-12)


@deterministic(max_examples=200)
@given(st.lists(st.integers(0, 40), max_size=60), st.integers(41, 70_000))
def test_compact_and_stable_order_are_numpy_s_unique_and_stable_argsort(values, size):
    values = np.array(values, dtype=np.int64)
    labels, rank = compact(values, size)
    expected, inverse = np.unique(values, return_inverse=True)
    assert labels.tolist() == expected.tolist() and rank[values].tolist() == inverse.ravel().tolist()
    assert stable_order(values, size).tolist() == np.argsort(values, kind="stable").tolist()


# --- what the earliest optimal assignment builds on: reductions and duals ----------------


def optimal_matchings(rows: np.ndarray, cols: np.ndarray, gains: np.ndarray) -> list[set[int]]:
    """Every matching of maximum total gain (exact integer gains), as sets of
    edge indices, by trying every set of edges that is one-to-one."""
    matchings: list[set[int]] = []
    for size in range(min(len(set(rows.tolist())), len(set(cols.tolist()))) + 1):
        for edges in combinations(range(len(rows)), size):
            if len({rows[e] for e in edges}) == len({cols[e] for e in edges}) == size:
                matchings.append(set(edges))
    totals = [sum(gains[e] for e in m) for m in matchings]
    return [m for m, total in zip(matchings, totals) if total == max(totals)]


@st.composite
def exact_gain_graphs(draw):
    """Graphs of at most 5 rows and 5 columns, their gains the exact
    integers of scores from a palette of ratios (most totals tie)."""
    rows, cols, n_rows, n_cols = draw(bipartite_graphs(max_nodes=5, max_edges=10))
    assume(len(rows))
    palette = draw(st.lists(st.sampled_from(RATIOS), min_size=1, max_size=3))
    scores = np.array(draw(st.lists(st.sampled_from(palette), min_size=len(rows), max_size=len(rows))))
    gains = Gains.of(scores, as_ratios(scores), n_rows + n_cols)
    assert gains.exact
    return rows, cols, gains, n_rows, n_cols


@deterministic(max_examples=300)
@given(graph=exact_gain_graphs())
def test_reductions_keep_every_optimal_assignment(graph):
    """No optimal assignment uses a dropped edge or leaves a row or column
    unmatched that :func:`_reduce` says every one matches."""
    rows, cols, gains, n_rows, n_cols = graph
    kept, free_rows, free_cols = _reduce(rows, cols, gains, n_rows=n_rows, n_cols=n_cols)
    for matching in optimal_matchings(rows, cols, gains.values):
        assert matching <= set(kept.tolist())
        assert {int(rows[e]) for e in matching} >= set(np.flatnonzero(~free_rows).tolist())
        assert {int(cols[e]) for e in matching} >= set(np.flatnonzero(~free_cols).tolist())


@pytest.mark.parametrize("solve", [max_gain_matching, python_matching], ids=["scipy", "python"])
@deterministic(max_examples=300)
@given(graph=exact_gain_graphs())
def test_tight_edges_describe_exactly_the_optimal_assignments(graph, solve):
    """An assignment is optimal iff its edges are tight and every row and
    column it leaves unmatched has a tight pad (u_i = 0, v_j = 0), from
    the optimum of either solver."""
    rows, cols, gains, n_rows, n_cols = graph
    matched = solve(rows, cols, gains.values, n_rows=n_rows, n_cols=n_cols)
    tight = _tight_edges(rows, cols, gains.values, n_rows=n_rows, n_cols=n_cols, matched=matched, gains=gains)
    n_edges = len(rows)
    real, row_pad, col_pad = tight[:n_edges], tight[n_edges : n_edges + n_rows], tight[n_edges + n_rows :][:n_cols]
    optimal = optimal_matchings(rows, cols, gains.values)
    for size in range(n_edges + 1):
        for edges in combinations(range(n_edges), size):
            one_to_one = len({rows[e] for e in edges}) == len({cols[e] for e in edges}) == size
            if not one_to_one:
                continue
            unmatched_rows = set(range(n_rows)) - {int(rows[e]) for e in edges}
            unmatched_cols = set(range(n_cols)) - {int(cols[e]) for e in edges}
            allowed = all(real[e] for e in edges) and all(row_pad[i] for i in unmatched_rows) and all(col_pad[j] for j in unmatched_cols)
            assert allowed == (set(edges) in optimal)


@pytest.mark.parametrize("matched, gaining", [([0], "alternating path"), ([], "a pair to add"), ([1, 2], None)])
def test_duals_refuse_an_assignment_that_is_not_optimal(matched, gaining):
    """Edges (0, 0) 1, (0, 1) 2, (1, 0) 2: the optimum takes the last two."""
    rows, cols = np.array([0, 0, 1]), np.array([0, 1, 0])
    gains = Gains.of(np.array([0.25, 0.5, 0.5]), as_ratios(np.array([0.25, 0.5, 0.5])), 4)
    if gaining is None:
        assert _tight_edges(rows, cols, gains.values, n_rows=2, n_cols=2, matched=np.array(matched), gains=gains)[[1, 2]].all()
    else:
        with pytest.raises(AssertionError, match="not optimal"):
            _tight_edges(rows, cols, gains.values, n_rows=2, n_cols=2, matched=np.array(matched, dtype=np.int64), gains=gains)


@pytest.mark.parametrize("in_python", [True, False])
@pytest.mark.parametrize("with_ratios", [True, False])
@deterministic(max_examples=300)
@given(scores=score_matrices(max_rows=7, max_cols=7, zero_weight=4))
def test_reduced_and_by_component_path_equals_the_per_cell_solver(scores, with_ratios, in_python):
    """Past ``GROUP_NODES`` (here 0) :func:`earliest_optimal` drops
    dominated edges, solves block by block without pads for the rows every
    optimal assignment matches, and searches by strongly connected
    component: the same first optimal assignment, on exact ratios or on
    floats, with the solves and components in Python or by SciPy."""
    rows, cols, values = edges_of(scores)
    ratios = as_ratios(values) if with_ratios else None
    python_scans = lsap.PYTHON_SCANS if in_python else 0
    with patched((earliest, by_block), "GROUP_NODES", 0), patched(lsap, "PYTHON_SCANS", python_scans):
        assert solved(scores, ratios) == per_cell_assignment(scores)


# --- whole candidate graphs: stars, squares and grouped blocks -------------------------


@st.composite
def candidate_graphs(draw):
    rows, cols, n_rows, n_cols = draw(bipartite_graphs(max_nodes=9, max_edges=28))
    palette = draw(st.lists(st.sampled_from(RATIOS), min_size=1, max_size=3))
    scores = draw(st.lists(st.sampled_from(palette), min_size=len(rows), max_size=len(rows)))
    return rows, cols, np.array(scores, dtype=np.float64), n_rows, n_cols


def per_block_oracle(rows, cols, scores) -> set:
    pairs = set()
    for edges in components(rows, cols):
        members = sorted(edges)
        local_rows = sorted({int(rows[e]) for e in members})
        local_cols = sorted({int(cols[e]) for e in members})
        dense = np.zeros((len(local_rows), len(local_cols)))
        for e in members:
            dense[local_rows.index(rows[e]), local_cols.index(cols[e])] = scores[e]
        pairs |= {(local_rows[r], local_cols[c]) for r, c in per_cell_assignment(dense)}
    return pairs


@pytest.mark.parametrize("group_nodes", [0, 1, 8, 4096])
@deterministic(max_examples=150)
@given(graph=candidate_graphs())
def test_solve_blocks_equals_the_oracle_block_by_block(graph, group_nodes):
    """Up to ``group_nodes`` rows and columns the entangled blocks are
    solved directly, beyond it reduced and by component."""
    rows, cols, scores, n_rows, n_cols = graph
    assume(len(rows))
    with patched((earliest, by_block), "GROUP_NODES", group_nodes):
        got = solve_blocks(rows, cols, scores, n_rows=n_rows, n_cols=n_cols)
    pairs = list(zip(*(side.tolist() for side in got)))
    assert len(pairs) == len(set(pairs))
    assert set(pairs) == per_block_oracle(rows, cols, scores)


def test_large_ambiguous_blocks_are_solved_once_not_per_cell(monkeypatch):
    """Long chains of overlapping spans of a few widths: blocks of hundreds
    of mentions whose scores tie everywhere are solved a few times in all
    (the per-cell solver, which took minutes on such a pair, solved once
    per candidate cell); their speed is measured in benchmarks/."""
    rng = np.random.default_rng(3)
    sides = []
    for _ in range(2):
        starts = np.flatnonzero(rng.random(1500) < 0.9)
        ends = starts + rng.choice([4, 6, 8, 10, 12], size=len(starts))
        sides.append(Clusters.from_arrays(starts, ends, np.arange(len(starts))))
    solves = []
    solve = earliest.max_gain_matching
    monkeypatch.setattr(
        earliest, "max_gain_matching", lambda *args, **kwargs: solves.append((kwargs["n_rows"], kwargs["n_cols"])) or solve(*args, **kwargs)
    )
    twins = matchers.OverlapMatcher()(*sides)
    assert len(set(twins[twins >= 0].tolist())) == int((twins >= 0).sum()) > 1000
    assert len(solves) < 20 and max(map(sum, solves)) > 500


# --- CEAF ---------------------------------------------------------------------------------


@pytest.mark.parametrize("group_nodes, python_scans", [(2, 0), (4096, 0), (4096, lsap.PYTHON_SCANS)])
@deterministic(max_examples=40, shrink=False)
@given(pair=key_response_pairs(min_mentions=15, max_mentions=30, max_entities=8))
def test_ceaf_with_blocks_grouped_or_not_equals_the_oracle(pair, group_nodes, python_scans):
    """By SciPy in groups of blocks, or by Python all at once."""
    with patched(lsap, "GROUP_NODES", group_nodes), patched(lsap, "PYTHON_SCANS", python_scans):
        engine = count_document(*pair, settings=Settings(metrics=("ceafm", "ceafe"))).as_dict()
    expected = naive_counts(*pair)
    assert_counts_close({name: engine[name] for name in ("ceafm", "ceafe")}, {name: expected[name] for name in ("ceafm", "ceafe")})


def chain(n_mentions: int, key_sizes: list[int], response_sizes: list[int]) -> tuple[Clusters, Clusters]:
    """One-word mentions; key entities of ``key_sizes`` mentions in turn,
    response entities of ``response_sizes`` after a first one of a single
    mention, so that the boundaries interleave: one block whose graph is a
    path."""
    t = np.arange(n_mentions)
    key_bounds = np.cumsum(np.resize(key_sizes, n_mentions))
    response_bounds = np.r_[1, 1 + np.cumsum(np.resize(response_sizes, n_mentions))]
    key = Clusters.from_arrays(t, t + 1, np.searchsorted(key_bounds, t, side="right"))
    response = Clusters.from_arrays(t, t + 1, np.searchsorted(response_bounds, t, side="right"))
    return key, response


def path_alignment(key: Clusters, response: Clusters) -> tuple[Fraction, Fraction]:
    """Φ* for φ3 and φ4 when consecutive mentions' (key, response) entity
    pairs form a path: the best set of pairwise non-adjacent edges, by
    dynamic programming over the path, in exact fractions."""
    pairs, first, counts = np.unique(np.stack([key.entity, response.entity], 1), axis=0, return_index=True, return_counts=True)
    order = np.argsort(first)
    key_sizes, response_sizes = np.bincount(key.entity), np.bincount(response.entity)
    totals = []
    for phi in (lambda k, r, n: Fraction(n), lambda k, r, n: Fraction(2 * n, key_sizes[k] + response_sizes[r])):
        before, best = Fraction(0), Fraction(0)
        for (k, r), n in zip(pairs[order].tolist(), counts[order].tolist()):
            before, best = best, max(best, before + phi(k, r, n))
        totals.append(best)
    return totals[0], totals[1]


def test_a_long_chain_block_is_solved_sparse_and_exactly():
    """A 4,000 × 4,001 block with varied gains (a dense matrix would take
    128 MB), checked against dynamic programming on its path."""
    key, response = chain(10_000, [2, 3], [3, 2])
    assert (key.n_entities, response.n_entities) == (4000, 4001)
    tracemalloc.start()
    counts = count_document(key, response, Settings(metrics=("ceafm", "ceafe"))).as_dict()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 16 * 2**20
    phi3, phi4 = path_alignment(key, response)
    assert counts["ceafm"]["recall_num"] == phi3
    assert counts["ceafe"]["recall_num"] == pytest.approx(float(phi4), rel=1e-12)


def test_a_chain_of_equal_gains_needs_only_a_maximum_matching():
    key, response = chain(8000, [2], [2])
    counts = count_document(key, response, Settings(metrics=("ceafm",))).as_dict()
    assert counts["ceafm"] == {"recall_num": 4000, "recall_den": 8000, "precision_num": 4000, "precision_den": 8000}
    assert path_alignment(key, response)[0] == 4000


def test_importing_the_package_leaves_scipy_optimize_unloaded():
    probe = "import sys, spacy_coref_eval; print('scipy.optimize' in sys.modules)"
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "False"
