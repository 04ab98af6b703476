"""One scoring run, and stage 5: aggregate over documents.

(name, key, response) pairs → :func:`~.twinning.twin_corpus` (every
document in one matcher call) → :func:`~.twinning.apply_policy` →
:func:`~.counting.count_corpus` (every document in one pass) → a
:class:`CorpusResult`: the counts array with the document names beside it,
and the twinning it came from, which the analyses and the report read
instead of matching again.
"""
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from .clusters import Clusters, ClustersLike, as_clusters
from .counting import DEFAULT_METRICS, Counts, check_metrics, count_corpus
from .counting.rates import rates, stack_rates
from .errors import CorefInputError
from .formats.corpus import pair_clusters
from .formats.document import Pair
from .twinning import ExactMatcher, Matcher, TwinnedCorpus, apply_policy, get_matcher, get_policy, twin_corpus

SINGLETON_MODES = ("keep", "remove")
ZERO_MODES = ("keep", "exclude")
PRESETS = ("corefud",)
"""Named bundles of another scorer's conventions (docs/corefud.md for ``corefud``)."""


@dataclass(frozen=True)
class Settings:
    """How to score: which ``metrics``, how mentions are twinned
    (``match``, a matcher object: docs/metrics.md §3), what happens to
    twinless mentions (``twinless``, §4) and whether singleton entities
    count (``singletons``: ``"keep"`` or ``"remove"``). ``preset``
    ``"corefud"`` follows the CorefUD scorer's conventions where they differ
    from the reference scorer's (its BLANC rule; its matcher comes from
    :meth:`from_options`) and ``zeros`` ``"exclude"`` drops zero mentions
    after singletons, as that scorer's option does. Build it from names
    with :meth:`from_options` or from the JSON ``settings`` with
    :meth:`from_dict`."""

    metrics: Tuple[str, ...] = DEFAULT_METRICS
    match: Matcher = ExactMatcher()
    twinless: str = "conll"
    singletons: str = "keep"
    preset: Optional[str] = None
    zeros: str = "keep"

    def __post_init__(self) -> None:
        object.__setattr__(self, "metrics", check_metrics(self.metrics))
        if isinstance(self.match, str) or not callable(self.match):
            raise TypeError(
                f"match must be a matcher object, not {self.match!r} "
                "(use Settings.from_options(match=...) for a matcher by name)"
            )
        get_policy(self.twinless)
        if self.singletons not in SINGLETON_MODES:
            raise ValueError(f"singletons must be one of {SINGLETON_MODES}, not {self.singletons!r}")
        if self.preset is not None and self.preset not in PRESETS:
            raise ValueError(f"unknown preset {self.preset!r}; choose from {list(PRESETS)}")
        if self.zeros not in ZERO_MODES:
            raise ValueError(f"zeros must be one of {ZERO_MODES}, not {self.zeros!r}")

    @property
    def conventions(self) -> str:
        """Whose rules turn counts into scores: ``"reference"`` or the preset's."""
        return self.preset or "reference"

    @classmethod
    def from_options(
        cls,
        metrics: Iterable[str] = DEFAULT_METRICS,
        match: Optional[str] = None,
        twinless: str = "conll",
        singletons: Optional[str] = None,
        min_overlap: Optional[float] = None,
        overlap_measure: Optional[str] = None,
        preset: Optional[str] = None,
        zeros: str = "keep",
        zero_match: Optional[str] = None,
    ) -> "Settings":
        """Settings from names, as the command line and the JSON give them;
        ``min_overlap`` and ``overlap_measure`` are options of
        ``match="overlap"`` (``None``: the matcher's default). ``match`` and
        ``singletons`` default to ``exact`` and ``keep``, or under
        ``preset="corefud"`` to ``head`` and ``remove`` with the CorefUD
        scorer's alignment (:class:`~.twinning.corefud.CorefUDMatcher`),
        whose ``zero_match`` is ``dependent`` unless given (that scorer's
        default)."""
        options = {"min_overlap": min_overlap, "overlap_measure": overlap_measure}
        given = {name: value for name, value in options.items() if value is not None}
        if preset == "corefud":
            from .twinning.corefud import CorefUDMatcher

            if given:
                raise ValueError(f"the corefud preset matches by exact, head or partial and takes no {sorted(given)}")
            matcher: Matcher = CorefUDMatcher(match or "head", zero_match or "dependent")
            singletons = singletons or "remove"
        elif zero_match not in (None, "linear"):
            raise ValueError(f"zero mentions are matched {zero_match!r} only under the corefud preset")
        else:
            matcher = get_matcher(match, **given)
        return cls(tuple(metrics), matcher, twinless, singletons or "keep", preset, zeros)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Settings":
        """Inverse of :meth:`to_dict`."""
        return cls.from_options(
            data["metrics"], data.get("match"), data.get("twinless", "conll"),
            data.get("singletons"), data.get("min_overlap"), data.get("overlap_measure"),
            data.get("preset"), data.get("zeros", "keep"), data.get("zero_match"),
        )

    def to_dict(self) -> Dict[str, Any]:
        """The settings as echoed in JSON output."""
        return {
            "metrics": list(self.metrics),
            **self.match.config(),
            "twinless": self.twinless,
            "singletons": self.singletons,
            **({"preset": self.preset} if self.preset else {}),
            **({"zeros": self.zeros} if self.zeros != "keep" else {}),
        }


class DocumentCounts(Mapping[str, Counts]):
    """The counts of a :class:`CorpusResult` by document name: a view of its
    counts array."""

    def __init__(self, result: "CorpusResult") -> None:
        self._result = result
        self._index = {name: i for i, name in enumerate(result.names)}

    def __getitem__(self, name: str) -> Counts:
        return Counts(self._result.settings.metrics, self._result.counts[self._index[name]])

    def __iter__(self) -> Iterator[str]:
        return iter(self._result.names)

    def __len__(self) -> int:
        return len(self._result.names)


@dataclass(frozen=True)
class CorpusResult:
    """The counts of every document of a corpus, ``counts[d]`` being those
    of document ``names[d]`` (shape ``(documents, len(BLOCKS),
    len(FIELDS))``), what went wrong on the way, and the twinning the
    counts came from (``None`` for results merged from saved counts)."""

    settings: Settings
    names: Tuple[str, ...]
    counts: np.ndarray
    warnings: List[str]
    twinned: Optional[TwinnedCorpus] = None

    @cached_property
    def documents(self) -> DocumentCounts:
        """Every document's :class:`Counts`, by name, in corpus order (its
        name index built once)."""
        return DocumentCounts(self)

    def stack(self, names: Optional[Iterable[str]] = None) -> np.ndarray:
        """The counts of every document, or of the documents ``names`` in
        that order."""
        if names is None:
            return self.counts
        index = {name: i for i, name in enumerate(self.names)}
        return self.counts[[index[name] for name in names]]

    @property
    def total(self) -> Counts:
        """The sum of the documents' counts."""
        return Counts(self.settings.metrics, self.counts.sum(axis=0))

    def metrics(self) -> Dict[str, Dict]:
        """Recall, precision, F1 and counts per metric, micro-averaged."""
        return rates(self.total, self.settings.conventions)

    def document_metrics(self) -> Dict[str, Dict[str, Dict]]:
        """:meth:`metrics` of every document, by name in corpus order."""
        return dict(zip(self.names, stack_rates(self.counts, self.settings.metrics, self.settings.conventions)))


def count_document(key: ClustersLike, response: ClustersLike, settings: Optional[Settings] = None) -> Counts:
    """Additive counts of one document's response against its key."""
    result = score_pairs([("document", key, response)], settings)
    return result.documents["document"]


def score_documents(
    key: Mapping[str, ClustersLike],
    response: Mapping[str, ClustersLike],
    settings: Optional[Settings] = None,
    warnings: Iterable[str] = (),
) -> CorpusResult:
    """Score the response documents against the key documents of the same
    name, in key order (:func:`~.readers.pairing.pair_documents`)."""
    pairs, notes = pair_clusters(key, response)
    return score_pairs(pairs, settings, [*warnings, *notes])


def score_pairs(
    pairs: Iterable[Pair],
    settings: Optional[Settings] = None,
    warnings: Iterable[str] = (),
    n_process: int = 1,
    lengths: Optional[Sequence[int]] = None,
    keep_twinned: bool = True,
) -> CorpusResult:
    """Score ``(name, key, response)`` triples already paired by the caller.

    Repeated mentions are dropped, with a warning. ``lengths`` (tokens per
    document) make the twinning's document ranges hold every token, for
    analyses that stack token information on them (resolution classes). With ``n_process > 1``
    the documents are split into that many shards of consecutive documents,
    scored in parallel processes and joined; counts are per document, so
    the result is the same as with one process. Without ``keep_twinned``
    worker processes send back counts only (the result's ``twinned`` is
    then ``None``; error kinds, the report and resolution classes need it).
    """
    settings = settings or Settings()
    pairs = list(pairs)
    names = [name for name, _, _ in pairs]
    if len(set(names)) != len(names):
        repeated = next(name for name in names if names.count(name) > 1)
        raise CorefInputError(f"document {repeated!r} is given more than once")
    lengths = list(lengths) if lengths is not None else None
    if n_process > 1 and len(pairs) > 1:
        shards = _score_in_processes(pairs, settings, n_process, lengths, keep_twinned)
    else:
        shards = [_score_shard(pairs, settings, lengths)]
    counts = np.concatenate([shard[0] for shard in shards])
    notes = [*warnings, *(note for shard in shards for note in shard[1])]
    parts = [shard[2] for shard in shards]
    twinned = TwinnedCorpus.concat(parts) if all(part is not None for part in parts) else None
    return CorpusResult(settings, tuple(names), counts, notes, twinned)


Shard = Tuple[np.ndarray, List[str], Optional[TwinnedCorpus]]


def _score_shard(
    pairs: Sequence[Pair], settings: Settings, lengths: Optional[Sequence[int]] = None, keep_twinned: bool = True
) -> Shard:
    """Counts, warnings and (with ``keep_twinned``) twinning of some documents."""
    notes: List[str] = []
    documents: List[Tuple[Clusters, Clusters]] = []
    for name, key_value, response_value in pairs:
        key, response = as_clusters(key_value), as_clusters(response_value)
        notes.extend(repeated_warnings(name, key, response))
        try:
            settings.match.check(key, response)
        except CorefInputError as err:
            raise CorefInputError(f"document {name!r}: {err}") from err
        documents.append((key, response))
    twinned = twin_corpus(
        documents, settings.match, settings.singletons == "remove", lengths, settings.zeros == "exclude"
    )
    recall_pair, precision_pair = apply_policy(settings.twinless, twinned.partitions())
    counts = count_corpus(twinned, recall_pair, precision_pair, settings.metrics)
    return counts, notes, twinned if keep_twinned else None


_SHARED: Optional[Tuple[List[Pair], Settings, Optional[List[int]], bool]] = None
"""The documents being scored, for worker processes forked from this one."""


def _score_in_processes(
    pairs: List[Pair], settings: Settings, n_process: int, lengths: Optional[List[int]], keep_twinned: bool
) -> List[Shard]:
    """:func:`_score_shard` on ``n_process`` consecutive shards in parallel.
    Forked workers find the documents in memory; elsewhere each shard is
    sent to its worker."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    global _SHARED
    _load_solvers()
    size = -(-len(pairs) // n_process)
    bounds = [(start, min(start + size, len(pairs))) for start in range(0, len(pairs), size)]
    if "fork" in multiprocessing.get_all_start_methods():
        _SHARED = (pairs, settings, lengths, keep_twinned)
        try:
            with ProcessPoolExecutor(len(bounds), mp_context=multiprocessing.get_context("fork")) as pool:
                return list(pool.map(_score_forked_shard, bounds))
        finally:
            _SHARED = None
    with ProcessPoolExecutor(len(bounds)) as pool:
        shards = [pairs[start:end] for start, end in bounds]
        parts = [None if lengths is None else lengths[start:end] for start, end in bounds]
        n = len(shards)
        return list(pool.map(_score_shard, shards, [settings] * n, parts, [keep_twinned] * n))


def _load_solvers() -> None:
    """Import SciPy's solvers once here, so that worker processes inherit
    them instead of each importing them (the import costs more than
    twinning a shard)."""
    import scipy.optimize  # noqa: F401
    import scipy.sparse.csgraph  # noqa: F401


def _score_forked_shard(bounds: Tuple[int, int]) -> Shard:
    assert _SHARED is not None, "set before the workers were forked"
    pairs, settings, lengths, keep_twinned = _SHARED
    start, end = bounds
    return _score_shard(pairs[start:end], settings, None if lengths is None else lengths[start:end], keep_twinned)


def repeated_warnings(name: str, key: Clusters, response: Clusters) -> List[str]:
    """Warnings for repeated mentions dropped when the clusters were read."""
    return [
        f"document {name!r}: {clusters.repeated} repeated mention(s) in the {side} dropped "
        "(first copy kept)"
        for side, clusters in (("key", key), ("response", response))
        if clusters.repeated
    ]
