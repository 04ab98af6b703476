"""What the HTML report shows of a document: its worst-scoring documents'
words and mentions, ready to draw (:mod:`.html` only renders them).

On each side a mention carries a label and a colour slot. Gold entity ``i``
is labelled by its id in the key file where the format has ids (CoNLL-2012
``(3)``: ``3``; CoNLL-U: its ``eid``), else ``i + 1``, and takes slot ``i``. A predicted entity is aligned to
the gold entity it shares most twinned mentions with (ties: the first) and
takes that entity's label and slot; when several predicted entities align to
one gold entity (a divided entity), the one sharing most keeps the plain
label and the others add ``b``, ``c``, ...; a predicted entity sharing no
mention with the gold is labelled ``x1``, ``x2``, ... with slot -1.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from string import ascii_lowercase
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from ..model.clusters import Clusters

if TYPE_CHECKING:
    from ..formats.document import AlignmentReport
from ..analysis.error_list import document_ids, entity_ids
from ..formats.document import pairing_counts, total_alignment
from ..scoring import CorpusResult

Rates = Mapping[str, Mapping[str, float]]
Intervals = Mapping[str, Mapping[str, tuple[float, float]]]
ErrorCounts = Mapping[str, Mapping[str, int]]

HEADLINE_ORDER: tuple[str, ...] = ("conll", "lea", "muc", "bcub", "ceafe", "ceafm", "blanc", "mentions")
NO_KEY = -1


@dataclass(frozen=True)
class Mention:
    """One mention as drawn: token span (end exclusive, document offsets),
    entity label, colour slot (-1: no gold counterpart) and whether it has
    no twin on the other side."""

    start: int
    end: int
    label: str
    colour: int
    twinless: bool


@dataclass(frozen=True)
class DocumentView:
    """A window of one document with the gold and predicted mentions inside it."""

    name: str
    words: tuple[str, ...]
    first: int
    n_tokens: int
    key: tuple[Mention, ...]
    response: tuple[Mention, ...]
    n_key: int
    n_response: int
    metrics: Rates
    errors: Mapping[str, int]


@dataclass(frozen=True)
class ReportData:
    """Everything the page shows. ``documents`` holds per-document rates,
    ``errors`` error-type counts by document name and ``"total"``; ``macro``
    may be empty."""

    key: str
    response: str
    settings: Mapping[str, object]
    metrics: Rates
    intervals: Intervals
    level: float
    n_resamples: int
    seed: int
    documents: Mapping[str, Rates]
    errors: ErrorCounts
    views: Sequence[DocumentView]
    macro: Rates = field(default_factory=dict)
    warnings: Sequence[str] = ()
    title: str = "Coreference evaluation report"
    sections: Mapping[str, Any] = field(default_factory=dict)
    """The JSON block of every registered analysis computed, by name
    (``resolution_classes``, ``waterfall``, ``strata``, ...; docs/analyses.md),
    each rendered by its HTML renderer."""
    alignment: Optional["AlignmentView"] = None
    """What aligning the response onto the key changed, when it was aligned."""
    closure: Optional[Mapping[str, Any]] = None
    """By side, what closing an annotation tool's links did."""


CROSS_PARTS: tuple[str, ...] = ("all", "within", "across")


@dataclass(frozen=True)
class LinkRow:
    """One score of the cross-document section: ``metric`` (or
    ``"mentions"``) over ``part`` (``all`` links, ``within`` one document,
    ``across`` documents, or ``""`` for mention detection), its rates and,
    where the metric has one count block, ``(recall num, recall den,
    precision num, precision den)``."""

    metric: str
    part: str
    recall: float
    precision: float
    f1: float
    counts: Optional[tuple[float, float, float, float]] = None


@dataclass(frozen=True)
class CrossDocumentView:
    """Mention detection apart from linking (Cattan et al. 2021), then
    every link metric over all links, within one document and across
    documents (Upadhyay et al. 2016) for the corpus (``rows``) and every
    topic (``topics``, at most ``shown``; ``more`` left out)."""

    rows: tuple[LinkRow, ...]
    topics: tuple[tuple[str, tuple[LinkRow, ...]], ...]
    more: int = 0


def _link_row(metric: str, part: str, scores: Mapping[str, Any]) -> LinkRow:
    counts = None
    if "recall_num" in scores:
        counts = tuple(float(scores[f]) for f in ("recall_num", "recall_den", "precision_num", "precision_den"))
    return LinkRow(metric, part, float(scores["recall"]), float(scores["precision"]), f1=float(scores["f1"]), counts=counts)  # type: ignore[arg-type]


def _link_rows(block: Mapping[str, Any], totals: Optional[Rates]) -> tuple[LinkRow, ...]:
    rows = []
    for metric in block["within"]:
        if totals is not None:
            rows.append(_link_row(metric, "all", totals[metric]))
        rows.extend(_link_row(metric, part, block[part][metric]) for part in ("within", "across"))
    return tuple(rows)


def cross_document_view(
    block: Optional[Mapping[str, Any]], metrics: Rates, documents: Mapping[str, Rates], *, shown: int = 50
) -> Optional[CrossDocumentView]:
    """The view of a run's ``cross_document`` JSON block (with its
    ``documents``: topics), its corpus ``metrics`` and every topic's
    (``documents``), or ``None`` without the block."""
    if block is None:
        return None
    rows = (_link_row("mentions", "", metrics["mentions"]),) + _link_rows(block, metrics)
    topics = tuple(
        (name, (_link_row("mentions", "", documents[name]["mentions"]),) + _link_rows(topic, documents.get(name)))
        for name, topic in list(block.get("documents", {}).items())[:shown]
    )
    return CrossDocumentView(rows, topics, max(0, len(block.get("documents", {})) - shown))


ALIGNMENT_COLUMNS = ("inserted", "deleted", "replaced", "snapped", "dropped", "unplaced")


@dataclass(frozen=True)
class AlignmentView:
    """The alignment report as the page shows it: the ``total`` counts,
    the ``documents`` whose alignment changed something (name, counts,
    where the text drifted), at most ``shown`` of them, and how many more."""

    unit: str
    total: Mapping[str, int]
    documents: Sequence[tuple[str, Mapping[str, int], str]]
    n_aligned: int
    more: int = 0
    paired: Mapping[str, int] = field(default_factory=dict)
    """How many of the aligned documents were paired by name and by order."""


def alignment_view(reports: Mapping[str, "AlignmentReport"], shown: int = 50) -> Optional[AlignmentView]:
    """The view of the alignment reports by document (``None`` when no
    document was aligned)."""
    if not reports:
        return None
    total = total_alignment(reports)
    changed = [(name, {c: getattr(r, c) for c in ALIGNMENT_COLUMNS}, r.drift) for name, r in reports.items() if r.changed() or r.drift]
    return AlignmentView(
        total.unit,
        {c: getattr(total, c) for c in ALIGNMENT_COLUMNS},
        changed[:shown],
        len(reports),
        more=max(0, len(changed) - shown),
        paired=pairing_counts(reports),
    )


def headline(metrics: Mapping[str, object]) -> str:
    """The metric that ranks documents: CoNLL when computed, else the first
    of :data:`HEADLINE_ORDER` present."""
    return next(name for name in HEADLINE_ORDER if name in metrics)


def worst_documents(documents: Mapping[str, Rates], n: int) -> list[str]:
    """Names of the ``n`` documents with the lowest headline F1, ties by name."""
    if not documents or n <= 0:
        return []
    metric = headline(next(iter(documents.values())))
    ranked = sorted(documents, key=lambda name: (documents[name][metric]["f1"], name))
    return ranked[:n]


def entity_alignment(key: Clusters, response: Clusters, twins: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every response entity, the key entity it shares most twinned
    mentions with (ties: the lower index; :data:`NO_KEY` when none) and how
    many it shares."""
    aligned = np.full(response.n_entities, NO_KEY, dtype=np.int64)
    shared = np.zeros(response.n_entities, dtype=np.int64)
    twinned = twins >= 0
    if not twinned.any():
        return aligned, shared
    width = max(key.n_entities, 1)
    cells, counts = np.unique(response.entity[twinned] * width + key.entity[twins[twinned]], return_counts=True)
    rows, cols = cells // width, cells % width
    order = np.lexsort((cols, -counts, rows))
    first = order[np.r_[True, rows[order][1:] != rows[order][:-1]]]
    aligned[rows[first]] = cols[first]
    shared[rows[first]] = counts[first]
    return aligned, shared


def response_labels(aligned: np.ndarray, shared: np.ndarray, key_labels: Optional[Sequence[str]] = None) -> list[str]:
    """Label of every response entity (see the module docstring), after
    the ``key_labels`` of the key entities (default: their numbers)."""
    labels = [""] * len(aligned)
    by_key: dict[int, list[int]] = {}
    extra = 0
    for entity, key_entity in enumerate(aligned.tolist()):
        if key_entity == NO_KEY:
            extra += 1
            labels[entity] = f"x{extra}"
        else:
            by_key.setdefault(key_entity, []).append(entity)
    for key_entity, entities in by_key.items():
        ranked = sorted(entities, key=lambda e: (-int(shared[e]), e))
        for rank, entity in enumerate(ranked):
            base = key_labels[key_entity] if key_labels is not None else str(key_entity + 1)
            labels[entity] = f"{base}{_suffix(rank)}"
    return labels


def _suffix(rank: int) -> str:
    """``""``, ``"b"``, ``"c"``, ... ``"z"``, then ``"z27"``, ``"z28"``, ..."""
    if rank == 0:
        return ""
    return ascii_lowercase[rank] if rank < len(ascii_lowercase) else f"z{rank + 1}"


def error_positions(key: Clusters, response: Clusters, twins: np.ndarray, *, aligned: np.ndarray) -> np.ndarray:
    """Start tokens of the mentions that show an error: twinless on either
    side, or twinned into a response entity aligned to another key entity."""
    twinned = twins >= 0
    key_twinned = np.zeros(len(key), dtype=bool)
    key_twinned[twins[twinned]] = True
    wrong = twinned.copy()
    wrong[twinned] = aligned[response.entity[twinned]] != key.entity[twins[twinned]]
    return np.concatenate([key.starts[~key_twinned], response.starts[~twinned], response.starts[wrong]])


def error_window(n_tokens: int, positions: np.ndarray, size: int) -> tuple[int, int]:
    """``(first, stop)`` of the ``size``-token window holding most of
    ``positions`` (the earliest such window); the whole document when it fits."""
    if n_tokens <= size:
        return 0, n_tokens
    inside = positions[(positions >= 0) & (positions < n_tokens)]
    per_token = np.bincount(inside, minlength=n_tokens)
    cumulative = np.concatenate([[0], np.cumsum(per_token)])
    totals = cumulative[size:] - cumulative[:-size]
    first = int(np.argmax(totals))
    return first, first + size


def side_mentions(
    clusters: Clusters, labels: Sequence[str], colours: Sequence[int], *, twinless: np.ndarray, window: tuple[int, int]
) -> tuple[Mention, ...]:
    """The mentions of one side lying wholly inside ``window``, by position
    (longer first at one start)."""
    first, stop = window
    mentions = [
        Mention(start, end, labels[entity], colours[entity], twinless=bool(alone))
        for start, end, entity, alone in zip(clusters.starts.tolist(), clusters.ends.tolist(), clusters.entity.tolist(), twinless.tolist())
        if first <= start and end <= stop
    ]
    return tuple(sorted(mentions, key=lambda m: (m.start, -m.end, m.label)))


def document_view(
    name: str,
    words: Sequence[str],
    *,
    key: Clusters,
    response: Clusters,
    twins: np.ndarray,
    metrics: Rates,
    errors: Optional[Mapping[str, int]] = None,
    max_tokens: int = 400,
    key_labels: Optional[Sequence[str]] = None,
) -> DocumentView:
    """One document's view from its clusters and the twins of its response
    mentions (as the scoring run twinned them), cut to the ``max_tokens``
    window with most errors; key entities labelled ``key_labels`` (their
    file's ids) where given, else by number."""
    aligned, shared = entity_alignment(key, response, twins)
    key_twinless = np.ones(len(key), dtype=bool)
    key_twinless[twins[twins >= 0]] = False
    window = error_window(len(words), error_positions(key, response, twins, aligned=aligned), max_tokens)
    labels = list(key_labels) if key_labels is not None else [str(i + 1) for i in range(key.n_entities)]
    key_side = side_mentions(key, labels, list(range(key.n_entities)), twinless=key_twinless, window=window)
    response_side = side_mentions(response, response_labels(aligned, shared, labels), aligned.tolist(), twinless=twins < 0, window=window)
    return DocumentView(
        name,
        tuple(words[window[0] : window[1]]),
        window[0],
        len(words),
        key=key_side,
        response=response_side,
        n_key=len(key),
        n_response=len(response),
        metrics=metrics,
        errors=dict(errors or {}),
    )


def _file_labels(key: Clusters, documents: Optional[Sequence[Any]], index: int) -> Optional[list[str]]:
    """The file's id of every key entity where it has one for each, else ``None``."""
    ids = entity_ids(key, document_ids(documents, index))
    return [str(i) for i in ids] if ids and all(i is not None for i in ids) else None


def build_report(
    result: CorpusResult,
    words: Mapping[str, Sequence[str]],
    *,
    intervals: Intervals,
    errors: ErrorCounts,
    macro: Optional[Rates] = None,
    key: str = "key",
    response: str = "response",
    level: float = 0.95,
    n_resamples: int = 1000,
    seed: int = 0,
    worst: int = 5,
    max_tokens: int = 400,
    sections: Optional[Mapping[str, Any]] = None,
    alignment: Optional[Mapping[str, "AlignmentReport"]] = None,
    closure: Optional[Mapping[str, Any]] = None,
    key_documents: Optional[Sequence[Any]] = None,
) -> ReportData:
    """The page data of a scoring run (``result``, whose twinning the views
    read), the key ``words`` by document name, and the bootstrap
    ``intervals``, ``macro`` averages and ``errors`` computed from it, the
    JSON block of every other analysis computed (``sections``, by name),
    and the ``alignment`` reports by document. Documents without words get
    no side-by-side view. With the run's ``key_documents`` (in result
    order), key entities are labelled by their file's ids where the format
    has them."""
    if result.twinned is None:
        raise ValueError("the report needs the twinned mentions of a scoring run, not merged counts")
    documents = result.document_metrics()
    index = {name: i for i, name in enumerate(result.names)}
    views = []
    for name in worst_documents(documents, worst):
        if name not in words:
            continue
        key_clusters, response_clusters, twins = result.twinned.document(index[name])
        views.append(
            document_view(
                name,
                words[name],
                key=key_clusters,
                response=response_clusters,
                twins=twins,
                metrics=documents[name],
                errors=errors.get(name),
                max_tokens=max_tokens,
                key_labels=_file_labels(key_clusters, key_documents, index[name]),
            )
        )
    return ReportData(
        key,
        response,
        result.settings.to_dict(),
        result.metrics(),
        intervals=intervals,
        level=level,
        n_resamples=n_resamples,
        seed=seed,
        documents=documents,
        errors=errors,
        views=views,
        macro=macro or {},
        warnings=list(result.warnings),
        sections=dict(sections or {}),
        alignment=alignment_view(alignment or {}),
        closure=closure,
    )
