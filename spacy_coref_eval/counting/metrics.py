"""The six coreference metrics as functions of a :class:`Contingency` table.

Each returns additive counts ``(recall_num, recall_den, precision_num,
precision_den)``, every one an array with one value per document of the
table (SPEC §1–2); BLANC returns one such tuple for coreference links and one
for non-coreference links. All run in time linear in the number of nonzero
cells, except CEAF, which solves one assignment problem per connected block
of the key/response entity graph.
"""
from typing import Dict, List, Tuple

import numpy as np

from ..arrays import GROUP_NODES, connected_blocks, max_gain_matching
from .contingency import Contingency

Quad = Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _pairs(n: np.ndarray) -> np.ndarray:
    """n choose 2, elementwise, as floats."""
    n = np.asarray(n, dtype=np.float64)
    return n * (n - 1) / 2


def muc(table: Contingency) -> Quad:
    """MUC (Vilain et al. 1995): recall Σ_i (|k_i| − |p(k_i)|) / Σ_i (|k_i| − 1).

    |k_i| − |p(k_i)| = Σ_j n_ij − #{j : n_ij > 0}, because each mention of
    k_i missing from the response is a part of its own; so recall and
    precision share the numerator Σ_ij (n_ij − 1).
    """
    common = table.per_doc(table.cell_doc, table.counts - 1)
    return (
        common,
        table.per_doc(table.key_doc, table.key_sizes - 1),
        common,
        table.per_doc(table.response_doc, table.response_sizes - 1),
    )


def _bcub_recall(table: Contingency) -> Tuple[np.ndarray, np.ndarray]:
    n = table.counts.astype(np.float64)
    return (
        table.per_doc(table.cell_doc, n * n / table.key_sizes[table.rows]),
        table.per_doc(table.key_doc, table.key_sizes),
    )


def bcub(table: Contingency) -> Quad:
    """B³ (Bagga & Baldwin 1998): recall Σ_ij n_ij² / |k_i| ÷ Σ_i |k_i|;
    precision swaps key and response."""
    return _bcub_recall(table) + _bcub_recall(table.transpose())


def _lea_recall(table: Contingency) -> Tuple[np.ndarray, np.ndarray]:
    key_sizes = table.key_sizes.astype(np.float64)
    common = np.bincount(table.rows, weights=_pairs(table.counts), minlength=len(key_sizes))
    singleton_cell = (table.key_sizes[table.rows] == 1) & (table.response_sizes[table.cols] == 1)
    common[table.rows[singleton_cell]] = 1.0
    links = np.where(key_sizes > 1, _pairs(key_sizes), 1.0)
    return (
        table.per_doc(table.key_doc, key_sizes * common / links),
        table.per_doc(table.key_doc, key_sizes),
    )


def lea(table: Contingency) -> Quad:
    """LEA (Moosavi & Strube 2016): recall Σ_i |k_i| · Σ_j link(k_i ∩ r_j) /
    link(k_i) ÷ Σ_i |k_i|, link(e) = |e|(|e| − 1)/2, a singleton's self-link
    counting 1 and found only in a response singleton; precision swaps key
    and response."""
    return _lea_recall(table) + _lea_recall(table.transpose())


def blanc(table: Contingency) -> Tuple[Quad, Quad]:
    """BLANC link counts (Recasens & Hovy 2011; Luo et al. 2014).

    Coreference links: |C_K ∩ C_R| = Σ_ij C(n_ij, 2) against C_K = Σ_i
    C(|k_i|, 2) and C_R = Σ_j C(|r_j|, 2). Non-coreference links between the
    mentions on both sides: all pairs, less those joined in the key, less
    those joined in the response, plus those joined in both; N_K and N_R are
    all pairs of a side less its coreference links.
    """
    cell_doc = table.cell_doc
    both = table.per_doc(cell_doc, _pairs(table.counts))
    key_links = table.per_doc(table.key_doc, _pairs(table.key_sizes))
    response_links = table.per_doc(table.response_doc, _pairs(table.response_sizes))
    split_both = (
        _pairs(table.per_doc(cell_doc, table.counts))
        - table.per_doc(table.key_doc, _pairs(table.row_sums))
        - table.per_doc(table.response_doc, _pairs(table.col_sums))
        + both
    )
    key_split = _pairs(table.per_doc(table.key_doc, table.key_sizes)) - key_links
    response_split = _pairs(table.per_doc(table.response_doc, table.response_sizes)) - response_links
    return (both, key_links, both, response_links), (split_both, key_split, split_both, response_split)


def ceaf(table: Contingency) -> Tuple[Quad, Quad]:
    """CEAFm and CEAFe (Luo 2005): Φ* is the best one-to-one alignment of key
    to response entities under φ3 = |k ∩ r| and φ4 = 2|k ∩ r| / (|k| + |r|);
    recall Φ* / Σ_i φ(k_i, k_i), precision Φ* / Σ_j φ(r_j, r_j).

    Cells with n_ij = 0 never help, so each connected block of the graph of
    nonzero cells is aligned on its own (:func:`_best_alignment`): a block
    with one key or one response entity by its best cell, others as
    assignment problems.
    """
    n = table.counts.astype(np.float64)
    phi3 = n
    phi4 = 2 * n / (table.key_sizes[table.rows] + table.response_sizes[table.cols])
    total3, total4 = _best_alignment(table, (phi3, phi4))
    ones = np.ones(len(table.key_sizes)), np.ones(len(table.response_sizes))
    mentions = (
        total3, table.per_doc(table.key_doc, table.key_sizes),
        total3, table.per_doc(table.response_doc, table.response_sizes),
    )
    entities = (
        total4, table.per_doc(table.key_doc, ones[0]),
        total4, table.per_doc(table.response_doc, ones[1]),
    )
    return mentions, entities


def _best_alignment(table: Contingency, similarities: Tuple[np.ndarray, ...]) -> List[np.ndarray]:
    """Φ* per document for each similarity (given per cell), summed over the
    connected blocks of each document.

    A star block (one key or one response entity) is aligned by its best
    cell, for all stars at once. The other blocks, a group of small ones at
    a time, are assignment problems
    (:func:`~spacy_coref_eval.arrays.max_gain_matching`), solved sparse in
    memory linear in their cells unless small and dense, never as a dense
    matrix of all key × response entities of a large block.
    """
    totals = [np.zeros(table.n_docs) for _ in similarities]
    if len(table.counts) == 0:
        return totals
    blocks = connected_blocks(table.rows, table.cols, len(table.key_sizes), len(table.response_sizes))
    star = (blocks.n_rows == 1) | (blocks.n_cols == 1)
    block_doc = table.cell_doc[blocks.first_edges]
    for total, similarity in zip(totals, similarities):
        best = np.maximum.reduceat(similarity[blocks.edges], blocks.bounds[:-1])
        total += table.per_doc(block_doc[star], best[star])
    for cells in blocks.groups(~star, GROUP_NODES):
        key_ids, rows = np.unique(table.rows[cells], return_inverse=True)
        response_ids, cols = np.unique(table.cols[cells], return_inverse=True)
        rows, cols, shape = rows.ravel(), cols.ravel(), (len(key_ids), len(response_ids))
        for total, similarity in zip(totals, similarities):
            chosen = cells[max_gain_matching(rows, cols, similarity[cells], *shape)]
            total += table.per_doc(table.cell_doc[chosen], similarity[chosen])
    return totals


def metric_counts(table: Contingency, metrics: Tuple[str, ...]) -> Dict[str, Quad]:
    """Per-document counts of the named metrics (BLANC as two blocks)."""
    out: Dict[str, Quad] = {}
    if "muc" in metrics:
        out["muc"] = muc(table)
    if "bcub" in metrics:
        out["bcub"] = bcub(table)
    if "ceafm" in metrics or "ceafe" in metrics:
        mentions, entities = ceaf(table)
        if "ceafm" in metrics:
            out["ceafm"] = mentions
        if "ceafe" in metrics:
            out["ceafe"] = entities
    if "blanc" in metrics:
        out["blanc_coref"], out["blanc_noncoref"] = blanc(table)
    if "lea" in metrics:
        out["lea"] = lea(table)
    return out
