"""Stage 4: count. The twinless policy's partitions go into one contingency
table each (recall and precision), and every metric of
:data:`~.metrics.REGISTRY` reads its counts off them, for all documents of a
corpus in one pass: an array of ``(documents, blocks, fields)``
(:mod:`.counts`). :mod:`.rates` turns counts into recall, precision and F1."""

from collections.abc import Mapping, Sequence
from typing import Any, Optional

import numpy as np

from ..errors import CorefInputError
from ..twinning.twinned import Twinned, TwinnedCorpus
from .contingency import Contingency, Tables, label_types, membership_tables
from .counts import BLOCK_INDEX, BLOCKS, FIELDS, Counts, empty_counts, reported
from .importance import SIZE, LeaImportance
from .metrics import CONLL_PARTS, DEFAULT_METRICS, METRIC_INFO, METRICS, REGISTRY, Conventions, Metric, check_metrics

__all__ = [
    "BLOCK_INDEX",
    "BLOCKS",
    "CONLL_PARTS",
    "DEFAULT_METRICS",
    "FIELDS",
    "METRICS",
    "METRIC_INFO",
    "REGISTRY",
    "Contingency",
    "Conventions",
    "Counts",
    "LeaImportance",
    "SIZE",
    "Metric",
    "check_metrics",
    "count_corpus",
    "empty_counts",
    "reported",
]


Types = tuple[np.ndarray, np.ndarray]


def count_corpus(
    twinned: TwinnedCorpus,
    recall_pair: Twinned,
    precision_pair: Twinned,
    *,
    metrics: Sequence[str],
    memberships: bool = False,
    options: Mapping[str, Any] = {},
) -> np.ndarray:
    """Counts of every document of ``twinned``, shape ``(n_docs,
    len(BLOCKS), len(FIELDS))``: recall fields from ``recall_pair``,
    precision fields from ``precision_pair`` (the twinless policy's
    rewrites), metrics of kind ``"mentions"`` from the twinning itself
    (those of kind ``"anaphora"``: :mod:`~spacy_coref_eval.compat.ua.anaphora`). With
    ``memberships`` and a twinning that counts every copy of a mention
    (:attr:`TwinnedCorpus.memberships`), the tables are those
    (:func:`~.contingency.membership_tables`) and the pairs unused.
    ``options`` are settings a metric's count takes (``Metric.options``)."""
    array = empty_counts(twinned.n_docs)
    tables: Optional[Tables] = None
    for name in reported(check_metrics(metrics)):
        metric = METRIC_INFO[name]
        rows = [BLOCK_INDEX[block] for block in metric.count_blocks]
        if metric.kind == "anaphora":
            continue
        if metric.kind == "mentions":
            for row, quad in zip(rows, metric.count(twinned)):
                array[:, row] = np.stack(quad, axis=1)
            continue
        if tables is None:
            tables = _tables(twinned, recall_pair, precision_pair, memberships=memberships, types=_types(twinned, options))
        recall_table, precision_table = tables.get(name, tables[""])
        given = {name: options[name] for name in metric.options if name in options}
        recall_quads = metric.count(recall_table, **given)
        precision_quads = recall_quads if precision_table is recall_table else metric.count(precision_table, **given)
        for row, recall, precision in zip(rows, recall_quads, precision_quads):
            array[:, row] = np.stack([recall[0], recall[1], precision[2], precision[3]], axis=1)
    return array


def _tables(twinned: TwinnedCorpus, recall_pair: Twinned, precision_pair: Twinned, *, memberships: bool, types: Optional[Types]) -> Tables:
    if memberships and twinned.memberships is not None:
        return membership_tables(twinned.memberships, types)
    by_mention = None
    if types is not None:
        given = twinned.partitions()
        by_mention = label_types(types[0], given.key), label_types(types[1], given.response)
    recall = Contingency.from_twinned(recall_pair, by_mention)
    precision = recall if precision_pair is recall_pair else Contingency.from_twinned(precision_pair, by_mention)
    return {"": (recall, precision)}


def _types(twinned: TwinnedCorpus, options: Mapping[str, Any]) -> Optional[Types]:
    """Every key and response entity's type when a count option reads
    them (LEA's importance by type); :class:`CorefInputError` when a side with
    entities states no type at all (docs/metrics.md, LEA)."""
    if not any(getattr(value, "needs_types", False) for value in options.values()):
        return None
    out = []
    for side, clusters in (("key", twinned.key), ("response", twinned.response)):
        types = clusters.etypes
        if clusters.n_entities and (types is None or all(etype is None for etype in types)):
            raise CorefInputError(
                f"LEA importance by entity type needs entity types, and the {side} states none "
                "(CorefUD's etype of Entity=; other formats have none)"
            )
        out.append(types if types is not None else np.zeros(0, dtype=object))
    return out[0], out[1]
