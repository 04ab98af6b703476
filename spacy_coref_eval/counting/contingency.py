"""The sparse contingency table of a key and a response partition (docs/metrics.md §1):
the nonzero n_ij = |k_i ∩ r_j| plus the entity sizes. Every metric is a
function of this table.

One table may hold many documents (entity labels never shared between
documents); every entity and cell then knows its document, and metrics sum
per document with :meth:`Contingency.per_doc`.
"""

from dataclasses import dataclass, field, replace
from typing import Any, Optional

import numpy as np

from ..twinning.twinned import Memberships, Twinned


@dataclass(frozen=True)
class Contingency:
    """``key_sizes[i]`` = |k_i|, ``response_sizes[j]`` = |r_j| (empty
    entities dropped), the nonzero cells ``counts[c]`` = n_ij with
    ``i = rows[c]``, ``j = cols[c]``, and the document of every key entity
    (``key_doc``) and response entity (``response_doc``)."""

    key_sizes: np.ndarray
    response_sizes: np.ndarray
    rows: np.ndarray
    cols: np.ndarray
    counts: np.ndarray
    key_doc: np.ndarray
    response_doc: np.ndarray
    n_docs: int = 1
    cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """Results that several metrics share (CEAF's alignment), per table."""
    key_types: Optional[np.ndarray] = field(default=None, compare=False, repr=False)
    """The type of every key entity (an object array, ``None`` where
    unknown), when asked for (LEA's importance by type)."""
    response_types: Optional[np.ndarray] = field(default=None, compare=False, repr=False)

    @classmethod
    def from_twinned(cls, twinned: Twinned, types: Optional[tuple[np.ndarray, np.ndarray]] = None) -> "Contingency":
        """The table of a twinned pair; with ``types``, the type of every
        mention id on the key and on the response side (``None`` for none),
        every entity taking the type of its first mention: a twinless
        policy's rewrite keeps each entity within one given entity or makes
        a new singleton of a mention the side lacked, which has none."""
        doc = twinned.doc
        key, key_sizes, key_doc = _dense(twinned.key, doc)
        response, response_sizes, response_doc = _dense(twinned.response, doc)
        both = (key >= 0) & (response >= 0)
        width = max(len(response_sizes), 1)
        codes, counts = np.unique(key[both] * width + response[both], return_counts=True)
        typed: dict[str, Any] = {}
        if types is not None:
            typed = {"key_types": _first_types(types[0], key), "response_types": _first_types(types[1], response)}
        return cls(
            key_sizes,
            response_sizes,
            codes // width,
            codes % width,
            counts=counts.astype(np.int64),
            key_doc=key_doc,
            response_doc=response_doc,
            n_docs=twinned.n_docs,
            **typed,
        )

    @classmethod
    def from_cells(
        cls,
        key_sizes: np.ndarray,
        key_doc: np.ndarray,
        *,
        response_sizes: np.ndarray,
        response_doc: np.ndarray,
        cells: tuple[np.ndarray, np.ndarray],
        n_docs: int,
    ) -> "Contingency":
        """The table of entities of the given sizes (0 allowed) and one
        ``(key entity, response entity)`` pair per counted mention."""
        width = max(len(response_sizes), 1)
        codes, counts = np.unique(cells[0] * width + cells[1], return_counts=True)
        return cls(
            np.asarray(key_sizes, dtype=np.int64),
            np.asarray(response_sizes, dtype=np.int64),
            codes // width,
            codes % width,
            counts=counts.astype(np.int64),
            key_doc=key_doc,
            response_doc=response_doc,
            n_docs=n_docs,
        )

    @property
    def cell_doc(self) -> np.ndarray:
        return self.key_doc[self.rows]

    def per_doc(self, where: np.ndarray, values: np.ndarray) -> np.ndarray:
        """Sum of ``values`` per document, ``where`` giving each value's document."""
        return np.bincount(where, weights=np.asarray(values, dtype=np.float64), minlength=self.n_docs)

    @property
    def row_sums(self) -> np.ndarray:
        """Σ_j n_ij: mentions of each key entity present in the response."""
        return np.bincount(self.rows, weights=self.counts, minlength=len(self.key_sizes))

    @property
    def col_sums(self) -> np.ndarray:
        """Σ_i n_ij: mentions of each response entity present in the key."""
        return np.bincount(self.cols, weights=self.counts, minlength=len(self.response_sizes))

    def transpose(self) -> "Contingency":
        """The table with key and response swapped."""
        order = np.lexsort((self.rows, self.cols))
        return Contingency(
            self.response_sizes,
            self.key_sizes,
            self.cols[order],
            self.rows[order],
            counts=self.counts[order],
            key_doc=self.response_doc,
            response_doc=self.key_doc,
            n_docs=self.n_docs,
            key_types=self.response_types,
            response_types=self.key_types,
        )


def _dense(labels: np.ndarray, doc: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Labels renumbered over the nonempty entities (-1 stays -1), entity
    sizes, and each entity's document."""
    present = labels >= 0
    if not present.any():
        empty = np.zeros(0, dtype=np.int64)
        return np.full(len(labels), -1, dtype=np.int64), empty, empty
    sizes = np.bincount(labels[present])
    nonempty = sizes > 0
    if nonempty.all():
        dense = labels
    else:
        rank = np.cumsum(nonempty) - 1
        dense = np.full(len(labels), -1, dtype=np.int64)
        dense[present] = rank[labels[present]]
        sizes = sizes[nonempty]
    entity_doc = np.zeros(len(sizes), dtype=np.int64)
    entity_doc[dense[present]] = doc[present]
    return dense, sizes, entity_doc


def _first_types(mention_types: np.ndarray, dense: np.ndarray) -> np.ndarray:
    """The type of every dense entity: its first mention's."""
    present = np.flatnonzero(dense >= 0)
    n_entities = int(dense[present].max()) + 1 if len(present) else 0
    out = np.full(n_entities, None, dtype=object)
    entities, first = np.unique(dense[present], return_index=True)
    out[entities] = np.asarray(mention_types, dtype=object)[present[first]]
    return out


def label_types(types: Optional[np.ndarray], labels: np.ndarray) -> np.ndarray:
    """The type of each entity label (``None`` for -1 or past the end of ``types``)."""
    out = np.full(len(labels), None, dtype=object)
    if types is not None:
        known = (labels >= 0) & (labels < len(types))
        out[known] = np.asarray(types, dtype=object)[labels[known]]
    return out


Tables = dict[str, tuple[Contingency, Contingency]]
"""The (recall, precision) tables of each metric; ``""``: of the others."""


def membership_tables(memberships: Memberships, types: Optional[tuple[np.ndarray, np.ndarray]] = None) -> Tables:
    """The tables the CorefUD scorer's metrics read (docs/corefud.md §10):
    recall from the key memberships found in their response entities,
    precision from the response memberships found in their key entities,
    BLANC both from the former (its precision numerators are the key
    side's), CEAF both from the key memberships found in every response
    entity holding them."""
    m = memberships

    def table(cells: tuple[np.ndarray, np.ndarray]) -> Contingency:
        return Contingency.from_cells(
            m.key_sizes, m.key_doc, response_sizes=m.response_sizes, response_doc=m.response_doc, cells=cells, n_docs=m.n_docs
        )

    typed: dict[str, Any] = {}
    if types is not None:
        typed = {
            "key_types": label_types(types[0], np.arange(len(m.key_sizes))),
            "response_types": label_types(types[1], np.arange(len(m.response_sizes))),
        }
    recall = replace(table(m.recall), **typed)
    precision = replace(table(m.precision), **typed)
    found = table(m.found)
    return {"": (recall, precision), "blanc": (recall, recall), "ceafm": (found, found), "ceafe": (found, found)}
