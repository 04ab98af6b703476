"""MUC-RC (Stoyanov et al. 2009, §4): every class scored on a response's
decisions about its mentions, all classes and documents in one pass
(docs/resolution_classes.md §3)."""

from typing import Optional

import numpy as np

from ...arrays import expand_ranges
from ...assignment.blocks import connected_blocks
from ...counting.counts import FIELDS
from ...counting.rates import prf_arrays
from ...errors import CorefInputError
from ...model.clusters import Clusters
from .lexicon import MEMBER_COLUMNS, RESOLUTION_CLASSES
from .order import anaphoric, position_order


def count_resolution_classes(
    key: Clusters,
    response: Clusters,
    twins: np.ndarray,
    *,
    classes: np.ndarray,
    key_doc: Optional[np.ndarray] = None,
    response_doc: Optional[np.ndarray] = None,
    n_docs: int = 1,
) -> tuple[np.ndarray, np.ndarray]:
    """MUC-RC counts of every class and the class members, per document.

    ``key`` and ``response`` may hold many documents stacked on disjoint
    token ranges; ``twins[r]`` is the key twin of response mention ``r`` or
    -1 (a matcher's output), ``classes[m]`` the class of key mention ``m``
    (-1 none), ``key_doc``/``response_doc`` the document of every mention
    (default: all in document 0).

    MUC-RC (Stoyanov et al. 2009, §4) is defined, and its counting as
    cells of partitions derived, in docs/resolution_classes.md §3: every
    class is counted in one pass over one bipartite graph.

    Returns ``muc_rc`` of shape ``(n_docs, 9, 4)`` (:data:`FIELDS` per
    class of :data:`RESOLUTION_CLASSES`) and ``members`` of shape
    ``(n_docs, 11)`` (:data:`MEMBER_COLUMNS`).
    """
    n_classes = len(RESOLUTION_CLASSES)
    twins, classes, key_doc, response_doc = _checked(
        key, response, twins, classes=classes, key_doc=key_doc, response_doc=response_doc, n_docs=n_docs
    )
    n_entities = key.n_entities
    entity_doc = np.zeros(n_entities, dtype=np.int64)
    entity_doc[key.entity] = key_doc

    columns = np.where(classes >= 0, classes, n_classes)
    members = np.zeros((n_docs, len(MEMBER_COLUMNS)))
    members[:, : n_classes + 1] = np.bincount(key_doc * (n_classes + 1) + columns, minlength=n_docs * (n_classes + 1)).reshape(
        n_docs, n_classes + 1
    )
    later = anaphoric(key.entity, position_order(key.starts, key.ends)[0])
    members[:, -1] = np.bincount(key_doc[later], minlength=n_docs)

    classified = classes >= 0
    in_class = np.bincount(key.entity[classified] * n_classes + classes[classified], minlength=n_entities * n_classes).reshape(
        n_entities, n_classes
    )
    sizes = np.bincount(key.entity, minlength=n_entities)[:, None]
    parts_added = np.where(in_class > 0, in_class + (sizes > in_class) - 1, 0)
    cells = (entity_doc[:, None] * n_classes + np.arange(n_classes)).ravel()
    recall_den = np.bincount(cells, parts_added.ravel(), minlength=n_docs * n_classes).reshape(n_docs, n_classes)

    touched, blocks, cells = _joins(key, response, twins, classes=classes, entity_doc=entity_doc, n_docs=n_docs)
    muc_rc = np.zeros((n_docs, n_classes, len(FIELDS)))
    muc_rc[..., 0] = touched - cells
    muc_rc[..., 1] = recall_den
    muc_rc[..., 2] = touched - cells
    muc_rc[..., 3] = touched - blocks
    return muc_rc, members


def _checked(
    key: Clusters,
    response: Clusters,
    twins: np.ndarray,
    *,
    classes: np.ndarray,
    key_doc: Optional[np.ndarray],
    response_doc: Optional[np.ndarray],
    n_docs: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The inputs of :func:`count_resolution_classes` as int64 arrays,
    after checking that they fit together."""
    twins = np.asarray(twins, dtype=np.int64).reshape(-1)
    classes = np.asarray(classes, dtype=np.int64).reshape(-1)
    key_doc = np.zeros(len(key), dtype=np.int64) if key_doc is None else np.asarray(key_doc, dtype=np.int64)
    response_doc = np.zeros(len(response), dtype=np.int64) if response_doc is None else np.asarray(response_doc, dtype=np.int64)
    if len(classes) != len(key) or len(key_doc) != len(key):
        raise CorefInputError(f"resolution classes: {len(key)} key mentions but {len(classes)} classes and {len(key_doc)} documents")
    if len(twins) != len(response) or len(response_doc) != len(response):
        raise CorefInputError(
            f"resolution classes: {len(response)} response mentions but {len(twins)} twins and {len(response_doc)} documents"
        )
    if len(classes) and (classes.min() < -1 or classes.max() >= len(RESOLUTION_CLASSES)):
        raise CorefInputError(
            f"resolution classes: a class index {int(classes.min() if classes.min() < -1 else classes.max())} "
            f"is not -1 or in 0 .. {len(RESOLUTION_CLASSES) - 1}"
        )
    for docs, side in ((key_doc, "key"), (response_doc, "response")):
        if len(docs) and (docs.min() < 0 or docs.max() >= n_docs):
            raise CorefInputError(f"resolution classes: a {side} mention's document is not in 0 .. {n_docs - 1}")
    found = twins >= 0
    if len(twins) and (twins.max() >= len(key) or twins.min() < -1):
        raise CorefInputError("resolution classes: a twin is not a key mention")
    if np.any(np.bincount(twins[found], minlength=len(key)) > 1):
        raise CorefInputError("resolution classes: a key mention has two response twins")
    if np.any(key_doc[twins[found]] != response_doc[found]):
        raise CorefInputError("resolution classes: a response mention is twinned with a key mention of another document")
    return twins, classes, key_doc, response_doc


def _joins(
    key: Clusters, response: Clusters, twins: np.ndarray, *, classes: np.ndarray, entity_doc: np.ndarray, n_docs: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per document and class: the P0 parts touched by a join, the parts of
    F they form (blocks) and the cells of G × F they form, each ``(n_docs,
    n_classes)``; parts not touched count 1 on every side and cancel."""
    n_classes, n_key, n_entities = len(RESOLUTION_CLASSES), len(key), key.n_entities
    shape = (n_docs, n_classes)
    twinned = np.flatnonzero(twins >= 0)
    if len(twinned) == 0:
        return np.zeros(shape), np.zeros(shape), np.zeros(shape)
    order = twinned[np.lexsort((response.ends[twinned], response.starts[twinned], response.entity[twinned]))]
    group_entity = response.entity[order]
    new_group = np.ones(len(order), dtype=bool)
    new_group[1:] = group_entity[1:] != group_entity[:-1]
    group = np.cumsum(new_group) - 1
    group_start = np.flatnonzero(new_group)
    local = np.arange(len(order)) - group_start[group]
    mention = twins[order]
    mention_class = classes[mention]
    width = n_entities + n_key

    classed = np.flatnonzero(mention_class >= 0)
    if not len(classed):
        return np.zeros(shape), np.zeros(shape), np.zeros(shape)
    classed = classed[np.argsort(mention_class[classed], kind="stable")]
    cell = mention_class[classed] * len(group_start) + group[classed]
    final = classed[np.append(cell[1:] != cell[:-1], True)]
    final = final[local[final] >= 1]
    if not len(final):
        return np.zeros(shape), np.zeros(shape), np.zeros(shape)
    run, entry = expand_ranges(group_start[group[final]], group_start[group[final]] + local[final] + 1)
    c = mention_class[final][run]
    joined = mention[entry]
    rows = np.where(mention_class[entry] == c, n_entities + joined, key.entity[joined]) + c * width
    cols = group[final][run] + c * len(group_start)
    part_ids, row = _dense(rows, n_classes * width)
    _, col = _dense(cols, n_classes * len(group_start))
    block = connected_blocks(row, col, n_rows=len(part_ids), n_cols=int(col.max()) + 1).of_edge
    part_block = np.empty(len(part_ids), dtype=np.int64)
    part_block[row] = block
    part_class, part_local = part_ids // width, part_ids % width
    part_entity = np.where(part_local < n_entities, part_local, key.entity[np.maximum(part_local - n_entities, 0)])
    part_cell = part_class * n_docs + entity_doc[part_entity]

    def per_cell(cells: np.ndarray) -> np.ndarray:
        return np.bincount(cells, minlength=n_docs * n_classes).reshape(n_classes, n_docs).T

    block_cell = np.full(int(part_block.max()) + 1, -1, dtype=np.int64)
    block_cell[part_block] = part_cell
    cell_order = np.lexsort((part_entity, part_block))
    new_cell = np.ones(len(cell_order), dtype=bool)
    new_cell[1:] = (part_block[cell_order][1:] != part_block[cell_order][:-1]) | (
        part_entity[cell_order][1:] != part_entity[cell_order][:-1]
    )
    return per_cell(part_cell), per_cell(block_cell[block_cell >= 0]), per_cell(part_cell[cell_order[new_cell]])


def _dense(values: np.ndarray, bound: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values (all below ``bound``), ascending, and the rank of
    each value among them: ``np.unique(values, return_inverse=True)`` in
    linear time."""
    present = np.zeros(bound, dtype=bool)
    present[values] = True
    rank = np.cumsum(present) - 1
    return np.flatnonzero(present), rank[values]


def muc_rc_rates(muc_rc: np.ndarray) -> dict[str, np.ndarray]:
    """Recall, precision and F1 of MUC-RC counts of shape ``(..., 4)``,
    0/0 = 0."""
    return prf_arrays(np.asarray(muc_rc, dtype=np.float64))
