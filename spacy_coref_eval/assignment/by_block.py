"""Twinning's assignment on a whole candidate graph: the stars and the
2 × 2 blocks solved for all at once, the other blocks by
:func:`~.earliest.earliest_optimal` (docs/metrics.md §7)."""

from typing import Optional

import numpy as np

from .blocks import GROUP_NODES, connected_blocks, relabel
from .earliest import earliest_on_gains, earliest_optimal
from .gains import Gains, Ratios, as_ratios

TIE_TOLERANCE = 1e-12
"""2 × 2 blocks (:func:`_solve_squares`) count float totals closer than this
as ties: float noise is ~1e-16 per score, and distinct totals of two ratios
of token counts lie much further apart. Larger blocks compare totals of
exact ratios (:func:`as_ratios`), which decides the same on such scores."""


def solve_blocks(rows: np.ndarray, cols: np.ndarray, scores: np.ndarray, *, n_rows: int, n_cols: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`earliest_optimal` on each connected block of the candidate
    graph. Nearly all blocks are stars (one row or one column), told apart
    by node degrees alone and solved for all at once with the same result;
    the rest go to :func:`_solve_entangled`."""
    if len(rows) == 0:
        return rows, cols
    row_degree, col_degree = np.bincount(rows, minlength=n_rows), np.bincount(cols, minlength=n_cols)
    row_shares, col_shares = np.zeros(n_rows, dtype=bool), np.zeros(n_cols, dtype=bool)
    row_shares[rows[col_degree[cols] > 1]] = True
    col_shares[cols[row_degree[rows] > 1]] = True
    one_row, one_col = ~row_shares[rows], ~col_shares[cols]
    lone = one_row & one_col
    star = np.flatnonzero((one_row | one_col) & ~lone)
    picked = [(rows[lone], cols[lone]), _solve_stars(star, rows, cols, scores=scores, block=np.where(one_row, rows, n_rows + cols))]
    rest = ~(one_row | one_col)
    if rest.any():
        picked.append(_solve_entangled(rows[rest], cols[rest], scores[rest], n_rows=n_rows, n_cols=n_cols))
    return np.concatenate([r for r, _ in picked]), np.concatenate([c for _, c in picked])


def _solve_entangled(rows: np.ndarray, cols: np.ndarray, scores: np.ndarray, *, n_rows: int, n_cols: int) -> tuple[np.ndarray, np.ndarray]:
    """Blocks of two rows and two columns or more: the 2 × 2 ones all at
    once, the rest by :func:`earliest_optimal` together, on gains exact for
    all of them; if no common scale is exact, in groups of blocks, each on
    its own gains."""
    local_rows, row_index, local_cols, col_index = relabel(rows, cols, n_rows=n_rows, n_cols=n_cols)
    n_rows, n_cols = len(local_rows), len(local_cols)
    blocks = connected_blocks(row_index, col_index, n_rows=n_rows, n_cols=n_cols)
    square = (blocks.n_rows == 2) & (blocks.n_cols == 2)
    picked = [_solve_squares(np.flatnonzero(square[blocks.of_edge]), row_index, col_index, scores=scores, block=blocks.of_edge)]
    if not square.all():
        ratios = as_ratios(scores)
        rest = np.flatnonzero(~square[blocks.of_edge])
        rest_row_labels, rest_rows, rest_col_labels, rest_cols = relabel(row_index[rest], col_index[rest], n_rows=n_rows, n_cols=n_cols)
        shape = len(rest_row_labels), len(rest_col_labels)
        gains = Gains.of(scores[rest], _part(ratios, rest), sum(shape))
        if gains.exact:
            chosen = [rest[earliest_on_gains(rest_rows, rest_cols, gains, n_rows=shape[0], n_cols=shape[1])]]
        else:
            chosen = []
            for members in blocks.groups(~square, GROUP_NODES):
                group_rows, group_row_index, group_cols, group_col_index = relabel(
                    row_index[members], col_index[members], n_rows=n_rows, n_cols=n_cols
                )
                chosen.append(
                    members[
                        earliest_optimal(
                            group_row_index,
                            group_col_index,
                            scores[members],
                            n_rows=len(group_rows),
                            n_cols=len(group_cols),
                            ratios=_part(ratios, members),
                        )
                    ]
                )
        picked.extend((row_index[edges], col_index[edges]) for edges in chosen)
    return local_rows[np.concatenate([r for r, _ in picked])], local_cols[np.concatenate([c for _, c in picked])]


def _part(ratios: Optional[Ratios], edges: np.ndarray) -> Optional[Ratios]:
    return None if ratios is None else (ratios[0][edges], ratios[1][edges])


def _solve_stars(
    cells: np.ndarray, rows: np.ndarray, cols: np.ndarray, *, scores: np.ndarray, block: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Blocks with one row or one column take their best cell, the earliest
    column and row among equals."""
    cells = cells[np.lexsort((rows[cells], cols[cells], -scores[cells], block[cells]))]
    best = cells[np.r_[True, block[cells][1:] != block[cells][:-1]]] if len(cells) else cells
    return rows[best], cols[best]


def _solve_squares(
    cells: np.ndarray, rows: np.ndarray, cols: np.ndarray, *, scores: np.ndarray, block: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Blocks of two rows and two columns, :func:`best_assignment`'s rule
    written out: column 0 takes row 0 if that still allows the best total,
    else row 1 if that does; column 1 then takes a row left, by the same
    rule."""
    if len(cells) == 0:
        return cells, cells
    ids, local = np.unique(block[cells], return_inverse=True)
    low_row = np.full(len(ids), np.iinfo(np.int64).max)
    low_col = np.full(len(ids), np.iinfo(np.int64).max)
    np.minimum.at(low_row, local, rows[cells])
    np.minimum.at(low_col, local, cols[cells])
    high_row = np.zeros(len(ids), dtype=np.int64)
    high_col = np.zeros(len(ids), dtype=np.int64)
    np.maximum.at(high_row, local, rows[cells])
    np.maximum.at(high_col, local, cols[cells])
    s = np.zeros((len(ids), 2, 2))
    s[local, (rows[cells] == high_row[local]).astype(int), (cols[cells] == high_col[local]).astype(int)] = scores[cells]
    best = np.maximum(s[:, 0, 0] + s[:, 1, 1], s[:, 0, 1] + s[:, 1, 0]) - TIE_TOLERANCE
    first_row0 = (s[:, 0, 0] > 0) & (s[:, 0, 0] + s[:, 1, 1] >= best)
    first_row1 = ~first_row0 & (s[:, 1, 0] > 0) & (s[:, 1, 0] + s[:, 0, 1] >= best)
    first_none = ~first_row0 & ~first_row1
    second_row0 = (first_row1 & (s[:, 0, 1] > 0)) | (first_none & (s[:, 0, 1] > 0) & (s[:, 0, 1] >= best))
    second_row1 = (first_row0 & (s[:, 1, 1] > 0)) | (first_none & ~second_row0 & (s[:, 1, 1] > 0) & (s[:, 1, 1] >= best))
    pick_rows, pick_cols = [], []
    for taken, row, col in (
        (first_row0, low_row, low_col),
        (first_row1, high_row, low_col),
        (second_row0, low_row, high_col),
        (second_row1, high_row, high_col),
    ):
        pick_rows.append(row[taken])
        pick_cols.append(col[taken])
    return np.concatenate(pick_rows), np.concatenate(pick_cols)
