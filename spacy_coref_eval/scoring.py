"""The pipeline of one scoring run, and stage 5: aggregate over documents.

read clusters → :func:`~.twinning.twin` (per document) →
:func:`~.twinning.apply_policy` → :func:`~.counting.count_batch` (all
documents in one pass) → sum over documents → report. This module wires the
stages together; each lives in its own subpackage.
"""
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from .clusters import Clusters, Entities
from .counting import BLOCKS, FIELDS, METRICS, Counts, check_metrics, count_batch
from .errors import CorefInputError
from .report.rates import rates, stack_rates
from .twinning import Matcher, Twinned, apply_policy, get_matcher, twin
from .twinning.matchers import check_input
from .twinning.policies import get_policy

SINGLETON_MODES = ("keep", "remove")
ClustersLike = Union[Clusters, Entities]


@dataclass(frozen=True)
class Settings:
    """How to score: which metrics, how mentions are twinned, what happens
    to twinless mentions (SPEC §4) and whether singleton entities count.

    ``matcher`` is a matcher object or a name: ``"exact"`` (the default,
    the CoNLL reference's setting), ``"head"``, ``"overlap"`` or
    ``"partial"`` (SPEC §3); ``min_overlap`` and ``overlap_measure`` are the
    options of ``"overlap"``. After construction ``matcher`` is an object
    holding those options, and the two fields are ``None``.
    """

    metrics: Tuple[str, ...] = METRICS
    matcher: Union[str, Matcher, None] = "exact"
    twinless: str = "conll"
    singletons: str = "keep"
    min_overlap: Optional[float] = None
    overlap_measure: Optional[str] = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "metrics", check_metrics(self.metrics))
        options = {"min_overlap": self.min_overlap, "measure": self.overlap_measure}
        given = {name: value for name, value in options.items() if value is not None}
        object.__setattr__(self, "matcher", get_matcher(self.matcher, **given))
        object.__setattr__(self, "min_overlap", None)
        object.__setattr__(self, "overlap_measure", None)
        get_policy(self.twinless)
        if self.singletons not in SINGLETON_MODES:
            raise ValueError(f"singletons must be one of {SINGLETON_MODES}, not {self.singletons!r}")

    def to_dict(self) -> Dict[str, Any]:
        """The settings as echoed in JSON output."""
        return {
            "metrics": list(self.metrics),
            **self.matcher.config(),  # type: ignore[union-attr]
            "twinless": self.twinless,
            "singletons": self.singletons,
        }


def as_clusters(value: ClustersLike) -> Clusters:
    """Clusters from a :class:`Clusters` or a list of entities of spans."""
    return value if isinstance(value, Clusters) else Clusters.from_entities(value)


def twin_documents(pairs: Sequence[Tuple[Clusters, Clusters]], settings: Settings) -> Twinned:
    """Key and response of every document on one mention id space, twinned
    in one call of the matcher: the documents are stacked on disjoint token
    ranges, so no span of one document meets a span of another."""
    extents = [max(key.extent, response.extent) + 1 for key, response in pairs]
    offsets = np.cumsum([0] + extents[:-1])
    key, key_doc = Clusters.stack([key for key, _ in pairs], offsets)
    response, response_doc = Clusters.stack([response for _, response in pairs], offsets)
    if settings.singletons == "remove":
        key_kept, response_kept = key.non_singletons(), response.non_singletons()
        key, key_doc = key.subset(key_kept), key_doc[key_kept]
        response, response_doc = response.subset(response_kept), response_doc[response_kept]
    return twin(key, response, settings.matcher, (key_doc, response_doc, len(pairs)))  # type: ignore[arg-type]


def count_twinned(twinned: Twinned, settings: Settings) -> List[Counts]:
    """Counts of every document of ``twinned``, all counted in one pass."""
    recall_pair, precision_pair = apply_policy(settings.twinless, twinned)
    return count_batch(twinned, recall_pair, precision_pair, settings.metrics)


def count_document(key: ClustersLike, response: ClustersLike, settings: Optional[Settings] = None) -> Counts:
    """Additive counts of one document's response against its key."""
    settings = settings or Settings()
    pair = (as_clusters(key), as_clusters(response))
    check_input(settings.matcher, *pair)  # type: ignore[arg-type]
    return count_twinned(twin_documents([pair], settings), settings)[0]


@dataclass
class CorpusResult:
    """Per-document counts of a corpus, their total and what went wrong."""

    settings: Settings
    documents: Dict[str, Counts]
    warnings: List[str] = field(default_factory=list)

    def stack(self, names: Optional[Iterable[str]] = None) -> np.ndarray:
        """The :attr:`Counts.array` of every document (or of the documents
        ``names``, in that order), stacked: ``(n, len(BLOCKS), len(FIELDS))``."""
        arrays = [self.documents[name].array for name in (self.documents if names is None else names)]
        return np.stack(arrays) if arrays else np.zeros((0, len(BLOCKS), len(FIELDS)))

    @property
    def total(self) -> Counts:
        """The sum of the documents' counts."""
        return Counts(self.settings.metrics, self.stack().sum(axis=0))

    def metrics(self) -> Dict[str, Dict]:
        """Recall, precision, F1 and counts per metric, micro-averaged."""
        return rates(self.total)

    def to_json(self, per_doc: bool = False) -> Dict[str, Any]:
        """The JSON document of the command line (``--format json``)."""
        out: Dict[str, Any] = {"settings": self.settings.to_dict(), "metrics": self.metrics()}
        if per_doc:
            per_doc_rates = stack_rates(self.stack(), self.settings.metrics)
            out["documents"] = {name: {"metrics": r} for name, r in zip(self.documents, per_doc_rates)}
        out["warnings"] = list(self.warnings)
        return out


def score_documents(
    key: Mapping[str, ClustersLike],
    response: Mapping[str, ClustersLike],
    settings: Optional[Settings] = None,
    warnings: Optional[Iterable[str]] = None,
) -> CorpusResult:
    """Score the response documents against the key documents of the same
    name, in key order (:func:`pair_documents`); repeated mentions are
    dropped, with a warning."""
    pairs, notes = pair_documents(key, response)
    return score_pairs(pairs, settings, [*(warnings or ()), *notes])


def pair_documents(
    key: Mapping[str, ClustersLike],
    response: Mapping[str, ClustersLike],
) -> Tuple[List[Tuple[str, ClustersLike, ClustersLike]], List[str]]:
    """``(name, key, response)`` triples for the key documents, in key order,
    and warnings. A key document with no response is paired with an empty
    response and a response document not in the key is ignored; each of
    these adds a warning."""
    notes: List[str] = []
    pairs: List[Tuple[str, ClustersLike, ClustersLike]] = []
    for name, key_value in key.items():
        if name in response:
            pairs.append((name, key_value, response[name]))
        else:
            notes.append(f"document {name!r}: no response document; scored as an empty response")
            pairs.append((name, key_value, Clusters()))
    extra = [name for name in response if name not in key]
    if extra:
        notes.append(
            f"{len(extra)} response document(s) not in the key, ignored: "
            + ", ".join(repr(name) for name in extra)
        )
    return pairs, notes


def repeated_warnings(name: str, key: Clusters, response: Clusters) -> List[str]:
    """Warnings for repeated mentions dropped when the clusters were read."""
    return [
        f"document {name!r}: {clusters.repeated} repeated mention(s) in the {side} dropped "
        "(first copy kept)"
        for side, clusters in (("key", key), ("response", response))
        if clusters.repeated
    ]


Pair = Tuple[str, ClustersLike, ClustersLike]


def score_pairs(
    pairs: Iterable[Pair],
    settings: Optional[Settings] = None,
    warnings: Iterable[str] = (),
    n_process: int = 1,
) -> CorpusResult:
    """Score ``(name, key, response)`` triples already paired by the caller.

    With ``n_process > 1`` the documents are split into that many shards,
    scored in parallel processes and merged; counts are per document, so the
    result is the same as with one process.
    """
    settings = settings or Settings()
    pairs = list(pairs)
    names = [name for name, _, _ in pairs]
    if len(set(names)) != len(names):
        repeated = next(name for name in names if names.count(name) > 1)
        raise CorefInputError(f"document {repeated!r} is given more than once")
    if n_process > 1 and len(pairs) > 1:
        results = _score_in_processes(pairs, settings, n_process)
    else:
        results = [_score_shard(pairs, settings)]
    stacked = np.concatenate([array for array, _ in results])
    documents = {name: Counts(settings.metrics, row) for name, row in zip(names, stacked)}
    notes = [*warnings, *(note for _, shard_notes in results for note in shard_notes)]
    return CorpusResult(settings, documents, notes)


_SHARED: Optional[Tuple[List[Pair], Settings]] = None
"""The documents being scored, for worker processes forked from this one."""


def _score_in_processes(pairs: List[Pair], settings: Settings, n_process: int) -> List[Tuple[np.ndarray, List[str]]]:
    """:func:`_score_shard` on ``n_process`` consecutive shards in parallel.
    Forked workers find the documents in memory; elsewhere each shard is
    sent to its worker."""
    global _SHARED
    size = -(-len(pairs) // n_process)
    bounds = [(start, min(start + size, len(pairs))) for start in range(0, len(pairs), size)]
    if "fork" in multiprocessing.get_all_start_methods():
        _SHARED = (pairs, settings)
        try:
            with ProcessPoolExecutor(len(bounds), mp_context=multiprocessing.get_context("fork")) as pool:
                return list(pool.map(_score_forked_shard, bounds))
        finally:
            _SHARED = None
    with ProcessPoolExecutor(len(bounds)) as pool:
        shards = [pairs[start:end] for start, end in bounds]
        return list(pool.map(_score_shard, shards, [settings] * len(shards)))


def _score_forked_shard(bounds: Tuple[int, int]) -> Tuple[np.ndarray, List[str]]:
    assert _SHARED is not None, "set before the workers were forked"
    pairs, settings = _SHARED
    return _score_shard(pairs[bounds[0]:bounds[1]], settings)


def _score_shard(pairs: Sequence[Pair], settings: Settings) -> Tuple[np.ndarray, List[str]]:
    """Counts of some documents, stacked (one :attr:`Counts.array` per
    document), and their warnings."""
    notes: List[str] = []
    clusters = []
    for name, key_value, response_value in pairs:
        key, response = as_clusters(key_value), as_clusters(response_value)
        notes.extend(repeated_warnings(name, key, response))
        try:
            check_input(settings.matcher, key, response)  # type: ignore[arg-type]
        except CorefInputError as err:
            raise CorefInputError(f"document {name!r}: {err}") from err
        clusters.append((key, response))
    counts = count_twinned(twin_documents(clusters, settings), settings)
    return np.stack([c.array for c in counts]) if counts else np.zeros((0, len(BLOCKS), len(FIELDS))), notes
