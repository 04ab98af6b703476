"""Two array routines that several stages use: expanding ranges and the
connected blocks of a bipartite graph."""
from typing import Tuple

import numpy as np


def expand_ranges(lo: np.ndarray, hi: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """``(owner, value)`` for every ``value`` in ``range(lo[owner], hi[owner])``."""
    sizes = hi - lo
    owners = np.repeat(np.arange(len(lo)), sizes)
    offsets = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    return owners, lo[owners] + offsets


def connected_blocks(
    rows: np.ndarray, cols: np.ndarray, n_rows: int, n_cols: int
) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For the bipartite graph whose edges are ``(rows[e], cols[e])``: the
    block (connected component) of every edge, and for every block id the
    number of rows and of columns in it."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    n_nodes = n_rows + n_cols
    graph = csr_matrix((np.ones(len(rows)), (rows, cols + n_rows)), shape=(n_nodes, n_nodes))
    _, component = connected_components(graph, directed=False)
    block_rows = np.bincount(component[:n_rows], minlength=n_nodes)
    block_cols = np.bincount(component[n_rows:], minlength=n_nodes)
    return component[rows], block_rows, block_cols
