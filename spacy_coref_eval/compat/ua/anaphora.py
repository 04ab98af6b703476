"""What the UA scorer counts beyond the contingency table (docs/ua.md):
documents with split-antecedent elements are counted with them
(:mod:`.split_antecedents`), in place of their contingency counts."""

from collections.abc import Sequence

import numpy as np

from ...counting.counts import BLOCK_INDEX
from ...counting.metrics import METRIC_INFO
from ...errors import CorefInputError
from ...model.clusters import Clusters
from ...model.ua.modes import Modes
from ...model.ua.view import UAClusters, check_min_spans
from .split_antecedents import document_counts


def has_splits(clusters: object) -> bool:
    return isinstance(clusters, UAClusters) and bool(clusters.splits)


def counted_apart(clusters: Clusters, modes: Modes) -> bool:
    """Whether a document side needs the UA scorer's own counting: split
    elements, spans the contingency table cannot hold (a span in two
    entities), or minimum spans in use."""
    return isinstance(clusters, UAClusters) and (bool(clusters.splits) or clusters.dropped or (modes.min_spans and clusters.has_min))


def check_modes(documents: Sequence[tuple[str, Clusters, Clusters]], modes: Modes, singletons: str, *, match: str = "exact") -> None:
    """Refuse a key minimum span outside its markable when minimum spans
    are used, split antecedents under another matching than ``exact``, and
    removing singletons while split antecedents are kept (the UA scorer's
    assertion), naming the document."""
    if match != "exact" and modes.effective.split_antecedents != "remove":
        for name, key, response in documents:
            if has_splits(key) or has_splits(response):
                raise CorefInputError(
                    f"document {name!r}: split antecedents are scored with exact matching only (--match exact, "
                    "or --split-antecedents remove)"
                )
    if modes.min_spans:
        for name, key, _ in documents:
            if isinstance(key, UAClusters):
                check_min_spans(key, f"document {name!r}", modes.as_scorer)
    if singletons != "remove" or modes.keeps_singletons or modes.effective.split_antecedents == "remove":
        return
    for name, key, response in documents:
        if has_splits(key) or has_splits(response):
            raise CorefInputError(
                f"document {name!r}: singletons cannot be removed while split antecedents are kept (the UA scorer "
                "refuses it too); add --split-antecedents remove"
            )


def anaphora_counts(
    array: np.ndarray,
    documents: Sequence[tuple[Clusters, Clusters]],
    *,
    metrics: Sequence[str],
    modes: Modes,
    remove_singletons: bool = False,
    exact: bool = True,
) -> np.ndarray:
    """``array`` with the non-referring and bridging counts, and the rows
    of the documents that need it counted as the UA scorer counts
    (:func:`counted_apart`, under ``exact`` matching); in ``only`` mode
    every document's rows are the counts of its split elements alone."""
    remove = remove_singletons and not modes.keeps_singletons
    for name in metrics:
        metric = METRIC_INFO[name]
        if metric.kind == "anaphora":
            for block, quad in zip(metric.count_blocks, metric.count(documents, modes.min_spans, remove)):
                array[:, BLOCK_INDEX[block]] = np.stack(quad, axis=1)
    only = modes.effective.split_antecedents == "only"
    blocks = [
        block
        for name in metrics
        if name in METRIC_INFO and METRIC_INFO[name].kind == "partitions"
        for block in METRIC_INFO[name].count_blocks
    ]
    for d, (key, response) in enumerate(documents):
        if only and not (has_splits(key) or has_splits(response)):
            array[d, [BLOCK_INDEX[block] for block in blocks]] = 0.0
            continue
        if not exact or not (counted_apart(key, modes) or counted_apart(response, modes)):
            continue
        counts, alone = document_counts(key, response, remove, use_min=modes.min_spans)
        for block in blocks:
            array[d, BLOCK_INDEX[block]] = (alone if only else counts)[block]
    return array
