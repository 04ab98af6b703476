"""The assignment solvers: one-to-one matchings of maximum total score on
the connected blocks of a bipartite graph, for twinning (the earliest
optimal assignment, or SciPy's choice under ``--preset corefud``) and for
the totals of CEAF and MOR (docs/metrics.md §7)."""

from .blocks import Blocks, connected_blocks
from .by_block import solve_blocks
from .earliest import best_assignment, earliest_optimal
from .lsap import dense_assignment, matchings_by_group, python_matchings, shortest_path_assignment
from .sparse import max_gain_matching

__all__ = [
    "Blocks",
    "best_assignment",
    "connected_blocks",
    "dense_assignment",
    "earliest_optimal",
    "matchings_by_group",
    "max_gain_matching",
    "python_matchings",
    "shortest_path_assignment",
    "solve_blocks",
]
