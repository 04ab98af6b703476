"""Documents already read, scored: twin every document at once, apply the
twinless policy, count, in one process or several."""

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Optional, Union, cast

import numpy as np

from ..counting import Counts, count_corpus
from ..counting.metrics import reads_documents
from ..errors import CorefInputError
from ..formats.corpus import StackedPairs, pair_clusters, repeated_pairs
from ..model.clusters import Clusters, ClustersLike, Pair, as_clusters, repeated_warnings
from ..twinning import ExactMatcher, TwinnedCorpus, apply_policy, twin_batches, twin_corpus
from ..twinning.matchers import ScoredMatcher
from .result import CorpusResult
from .settings import Settings


def count_document(key: ClustersLike, response: ClustersLike, settings: Optional[Settings] = None) -> Counts:
    """Additive counts of one document's response against its key."""
    result = score_pairs([Pair("document", key, response)], settings)
    return result.documents["document"]


def score_documents(
    key: Mapping[str, ClustersLike],
    response: Mapping[str, ClustersLike],
    settings: Optional[Settings] = None,
    *,
    warnings: Iterable[str] = (),
) -> CorpusResult:
    """Score the response documents against the key documents of the same
    name, in key order (:func:`~.formats.corpus.pair_documents`)."""
    pairs, notes = pair_clusters(key, response)
    return score_pairs(pairs, settings, [*warnings, *notes])


def score_pairs(
    pairs: Iterable[Union[Pair, tuple[str, ClustersLike, ClustersLike]]],
    settings: Optional[Settings] = None,
    warnings: Iterable[str] = (),
    *,
    n_process: int = 1,
    keep_twinned: bool = True,
) -> CorpusResult:
    """Score documents already paired by the caller: :class:`~..model.clusters.Pair`
    s, or ``(name, key, response)`` triples.

    Repeated mentions are dropped, with a warning. Every document's range
    in the twinning holds its tokens (``Pair.n_tokens``), so that analyses
    can stack token information on it (resolution classes). With
    ``n_process > 1`` the documents are split into that many shards of
    consecutive documents, scored in parallel processes and joined; counts
    are per document, so the result is the same as with one process.
    Without ``keep_twinned`` worker processes send back counts only (the
    result's ``twinned`` is then ``None``; error kinds, the report and
    resolution classes need it).
    """
    settings = settings or Settings()
    if settings.coval is not None:
        raise ValueError("the coval preset scores CoNLL-2012 files as coval reads them: use evaluate_corpus or the command line")
    paired: Union[list[Pair], StackedPairs]
    if isinstance(pairs, StackedPairs) and n_process == 1:
        paired = pairs
    else:
        paired = [Pair(pair[0], as_clusters(pair[1]), as_clusters(pair[2]), *pair[3:]) for pair in pairs]
    names = [pair.name for pair in paired] if isinstance(paired, list) else paired.names
    if len(set(names)) != len(names):
        twice = next(name for name in names if names.count(name) > 1)
        raise CorefInputError(f"document {twice!r} is given more than once")
    if n_process > 1 and len(paired) > 1:
        shards = _score_in_processes(cast(list[Pair], paired), settings, n_process, keep_twinned=keep_twinned)  # a list with n_process > 1
    else:
        shards = [score_shard(paired, settings)]
    counts = np.concatenate([shard[0] for shard in shards])
    repeated = [(pair.name, pair.key, pair.response) for pair in repeated_pairs(paired)]
    notes = [*warnings, *repeated_notes(repeated, settings)]
    parts = [shard[1] for shard in shards if shard[1] is not None]
    twinned = TwinnedCorpus.concat(parts) if len(parts) == len(shards) else None
    return CorpusResult(settings, tuple(names), counts, notes, twinned=twinned, splits=document_splits(paired))


def document_splits(pairs: Union[Sequence[Pair], StackedPairs]) -> np.ndarray:
    """Whether each pair's key or response has split antecedents."""
    if isinstance(pairs, StackedPairs) or all(type(p.key) is Clusters and type(p.response) is Clusters for p in pairs):
        return np.zeros(len(pairs), dtype=bool)
    from ..compat.ua.anaphora import has_splits

    return np.fromiter((has_splits(pair.key) or has_splits(pair.response) for pair in pairs), dtype=bool, count=len(pairs))


Shard = tuple[np.ndarray, Optional[TwinnedCorpus]]


def score_shard(pairs: Sequence[Pair], settings: Settings, keep_twinned: bool = True) -> Shard:
    """Counts and (with ``keep_twinned``) twinning of some documents:
    documents read as columns twinned at once where nothing is asked of
    them one by one (:func:`_in_columns`)."""
    modes, remove = settings.anaphora, settings.singletons == "remove" and not settings.anaphora.keeps_singletons
    documents: Optional[list[tuple[Clusters, Clusters, int]]] = None
    if _in_columns(pairs, settings):
        stacked = cast(StackedPairs, pairs)  # _in_columns: read as columns
        twinned = twin_batches(
            stacked.key,
            stacked.response,
            stacked.n_tokens,
            matcher=settings.match,
            remove_singletons=remove,
            remove_zeros=settings.zeros == "exclude",
        )
    else:
        from ..compat.ua.anaphora import anaphora_counts, check_modes
        from ..model.ua.view import in_modes

        documents = []
        for name, key, response, n_tokens in pairs:
            key, response = in_modes(cast(Clusters, key), modes), in_modes(cast(Clusters, response), modes)
            try:
                settings.match.check(key, response)
            except CorefInputError as err:
                raise CorefInputError(f"document {name!r}: {err}") from err
            documents.append((key, response, n_tokens))
        exact = getattr(settings.match, "name", None) == "exact"
        check_modes(
            [(pair.name, *document[:2]) for pair, document in zip(pairs, documents)],
            modes,
            settings.singletons,
            match="exact" if exact else getattr(settings.match, "name", "another"),
        )
        twinned = twin_corpus(documents, settings.match, remove, remove_zeros=settings.zeros == "exclude")
    recall_pair, precision_pair = apply_policy(settings.twinless, twinned.partitions())
    counts = count_corpus(
        twinned,
        recall_pair,
        precision_pair,
        metrics=settings.metrics,
        memberships=settings.twinless == "conll",
        options=settings.count_options,
    )
    if documents is not None:
        counts = anaphora_counts(
            counts,
            [document[:2] for document in documents],
            metrics=settings.metrics,
            modes=modes,
            remove_singletons=settings.singletons == "remove",
            exact=exact,
        )
    return counts, twinned if keep_twinned else None


def _in_columns(pairs: Sequence[Pair], settings: Settings) -> bool:
    """Whether ``pairs`` were read as columns (:class:`StackedPairs`) and
    scored as such: by a matcher that checks nothing of spans without
    heads, with no metric or mode that reads the documents one by one."""
    match = settings.match
    return (
        isinstance(pairs, StackedPairs)
        and (isinstance(match, ExactMatcher) or (isinstance(match, ScoredMatcher) and not match.heads_of))
        and not reads_documents(settings.metrics, settings.anaphora)
    )


_SHARED: Optional[tuple[list[Pair], Settings, bool]] = None
"""The documents being scored, for worker processes forked from this one."""


def _score_in_processes(pairs: list[Pair], settings: Settings, n_process: int, *, keep_twinned: bool) -> list[Shard]:
    """:func:`score_shard` on ``n_process`` consecutive shards in parallel.
    Forked workers find the documents in memory; elsewhere each shard is
    sent to its worker."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    global _SHARED
    _load_solvers(settings)
    size = -(-len(pairs) // n_process)
    bounds = [(start, min(start + size, len(pairs))) for start in range(0, len(pairs), size)]
    if "fork" in multiprocessing.get_all_start_methods():
        _SHARED = (pairs, settings, keep_twinned)
        try:
            with ProcessPoolExecutor(len(bounds), mp_context=multiprocessing.get_context("fork")) as pool:
                return list(pool.map(_score_forked_shard, bounds))
        finally:
            _SHARED = None
    with ProcessPoolExecutor(len(bounds)) as pool:
        shards = [pairs[start:end] for start, end in bounds]
        n = len(shards)
        return list(pool.map(score_shard, shards, [settings] * n, [keep_twinned] * n))


def _load_solvers(settings: Settings) -> None:
    """Import SciPy's solvers here, so that worker processes inherit them
    instead of each importing them (the import costs more than twinning a
    shard), where the settings reach them: a matcher other than exact
    matching assigns mentions with them (:mod:`..assignment.sparse`).
    Exact matching needs neither, and importing them would cost every
    run more than its workers save (issue 34 item 13)."""
    if isinstance(settings.match, ExactMatcher):
        return
    import scipy.optimize  # noqa: F401
    import scipy.sparse.csgraph  # noqa: F401


def _score_forked_shard(bounds: tuple[int, int]) -> Shard:
    assert _SHARED is not None, "set before the workers were forked"
    pairs, settings, keep_twinned = _SHARED
    start, end = bounds
    return score_shard(pairs[start:end], settings, keep_twinned)


def repeated_notes(repeated: Sequence[tuple[str, Any, Any]], settings: Settings) -> list[str]:
    """The warnings about mentions given twice, as ``settings`` score them."""
    return repeated_warnings(repeated, hasattr(settings.match, "twin_corpus") and settings.twinless == "conll")
