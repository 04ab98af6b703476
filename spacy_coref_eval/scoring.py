"""One scoring run, and stage 5: aggregate over documents.

(name, key, response) pairs → :func:`~.twinning.twin_corpus` (every
document in one matcher call) → :func:`~.twinning.apply_policy` →
:func:`~.counting.count_corpus` (every document in one pass) → a
:class:`CorpusResult`: the counts array with the document names beside it,
and the twinning it came from, which the analyses and the report read
instead of matching again.
"""
from dataclasses import dataclass, field
from os import PathLike
from functools import cached_property
from typing import TYPE_CHECKING, Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from .clusters import Clusters, ClustersLike, Pair, as_clusters, repeated_warnings
from .counting import DEFAULT_METRICS, Conventions, Counts, check_metrics, count_corpus
from .counting.anaphora import anaphora_counts, check_modes, reads_documents
from .counting.importance import SIZE, LeaImportance
from .presets import REFERENCE, Preset, get_preset
from .counting.rates import rates, stack_rates
from .errors import CorefInputError
from .formats import ReadOptions, format_of, get_format
from .formats.corpus import Corpus, StackedPairs, pair_clusters, pair_sides, read_corpus, read_side, repeated_pairs
from .formats.document import Side
from .formats.ua.view import Modes, in_modes
from .twinning import ExactMatcher, Matcher, TwinnedCorpus, apply_policy, get_policy, twin_batches, twin_corpus
from .twinning.matchers import ScoredMatcher

if TYPE_CHECKING:
    from .counting.coval import CovalOptions

SINGLETON_MODES = ("keep", "remove")
ZERO_MODES = ("keep", "exclude")


@dataclass(frozen=True)
class Settings:
    """How to score: which ``metrics``, how mentions are twinned
    (``match``, a matcher object: docs/metrics.md §3), what happens to
    twinless mentions (``twinless``, §4), whether singleton entities count
    (``singletons``: ``"keep"`` or ``"remove"``) and zero mentions
    (``zeros``: ``"keep"``, or ``"exclude"`` after singletons, as the
    CorefUD scorer's option does), and whose conventions turn counts into
    scores (``preset``, a :class:`~.presets.Preset`; its matcher and
    singletons come from :meth:`from_options`), and the Universal Anaphora
    scorer's modes (``anaphora``, docs/ua.md). Build it from names with
    :meth:`from_options` or from the JSON ``settings`` with
    :meth:`from_dict`."""

    metrics: Tuple[str, ...] = DEFAULT_METRICS
    match: Matcher = ExactMatcher()
    twinless: str = "conll"
    singletons: str = "keep"
    preset: Preset = REFERENCE
    zeros: str = "keep"
    lea_importance: LeaImportance = SIZE
    anaphora: Modes = Modes()
    coval: Optional["CovalOptions"] = None
    """coval's options under ``--preset coval`` (docs/coval.md), else ``None``."""

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
        if not isinstance(self.preset, Preset):
            raise TypeError(f"preset must be a Preset, not {self.preset!r} (use Settings.from_options(preset=...))")
        if self.zeros not in ZERO_MODES:
            raise ValueError(f"zeros must be one of {ZERO_MODES}, not {self.zeros!r}")
        if not isinstance(self.lea_importance, LeaImportance):
            raise TypeError(
                f"lea_importance must be a LeaImportance, not {self.lea_importance!r} "
                "(use Settings.from_options(lea_importance=...) or LeaImportance.of(...) for one by name)"
            )
        if self.coval is not None and not self.preset.reads_itself:
            raise ValueError("coval's options (mina, np_only, remove_nested) go with the coval preset")
        if self.coval is None and self.preset.reads_itself:
            raise ValueError(
                "the coval preset scores CoNLL-2012 files as coval reads them: use evaluate_corpus or the command "
                "line (Settings.from_options(preset='coval') sets its options)"
            )
        if self.coval is not None:
            _check_coval(self)

    @property
    def count_options(self) -> Dict[str, Any]:
        """The settings metrics count with (:attr:`~.counting.metrics.Metric.options`)."""
        return {"lea_importance": self.lea_importance}

    @property
    def conventions(self) -> Conventions:
        """The rules that turn counts into scores (the preset's)."""
        return self.preset.conventions

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
        lea_importance: Union[str, LeaImportance] = "size",
        lea_weights: Optional[Mapping[str, float]] = None,
        lea_default_weight: Optional[float] = None,
        split_antecedents: str = "keep",
        non_referring: bool = False,
        bridging: bool = False,
        discourse_deixis: bool = False,
        min_spans: bool = False,
        mina: bool = False,
        np_only: bool = False,
        remove_nested: bool = False,
    ) -> "Settings":
        """Settings from names, as the command line and the JSON give them;
        ``min_overlap`` and ``overlap_measure`` are options of
        ``match="overlap"`` (``None``: the matcher's default). ``match``,
        ``singletons`` and ``zero_match`` default to the preset's
        (:mod:`~.presets`; without one, exact matching and singletons kept).
        ``split_antecedents`` to ``min_spans`` are the UA scorer's modes
        (:class:`~.formats.ua.view.Modes`). ``lea_importance`` names LEA's
        importance (``size``, ``uniform``, ``entity-type`` with the
        ``lea_weights`` table and ``lea_default_weight``;
        :class:`~.counting.importance.LeaImportance`).
        ``mina``, ``np_only`` and ``remove_nested`` are coval's options and
        imply ``preset="coval"``, under which the default metrics are those
        coval has (docs/coval.md)."""
        options = {"min_overlap": min_overlap, "overlap_measure": overlap_measure}
        coval = None
        if preset == "coval" or mina or np_only or remove_nested:
            if preset not in (None, "coval"):
                raise ValueError(f"mina, np_only and remove_nested are options of the coval preset, not of {preset!r}")
            from .counting.coval import COVAL_METRICS, CovalOptions

            preset = "coval"
            coval = CovalOptions(mina, np_only, remove_nested, (singletons or "keep") == "keep")
            if tuple(metrics) == DEFAULT_METRICS:
                metrics = [name for name in DEFAULT_METRICS if name in COVAL_METRICS]
        chosen = get_preset(preset)
        matcher = chosen.matcher(match, zero_match, **{name: value for name, value in options.items() if value is not None})
        modes = Modes(split_antecedents, non_referring, bridging, discourse_deixis, min_spans, chosen.ua_scorer)
        metrics = tuple(metrics) + tuple(name for name in modes.metrics if name not in metrics)
        importance = LeaImportance.of(lea_importance, lea_weights, lea_default_weight)
        return cls(metrics, matcher, twinless, singletons or chosen.singletons, chosen, zeros, importance, modes, coval)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Settings":
        """Inverse of :meth:`to_dict`."""
        return cls.from_options(
            data["metrics"], data.get("match"), data.get("twinless", "conll"),
            data.get("singletons"), data.get("min_overlap"), data.get("overlap_measure"),
            data.get("preset"), data.get("zeros", "keep"), data.get("zero_match"), data.get("lea_importance", "size"),
            data.get("lea_weights"), data.get("lea_default_weight"),
            **{name: data[name] for name in Modes.__dataclass_fields__ if name in data},
            mina=data.get("mina", False), np_only=data.get("np_only", False), remove_nested=data.get("remove_nested", False),
        )

    def to_dict(self) -> Dict[str, Any]:
        """The settings as echoed in JSON output."""
        return {
            "metrics": list(self.metrics),
            **self.match.config(),
            "twinless": self.twinless,
            "singletons": self.singletons,
            **({"preset": self.preset.name} if self.preset is not REFERENCE else {}),
            **({"zeros": self.zeros} if self.zeros != "keep" else {}),
            **self.lea_importance.to_dict(),
            **self.anaphora.to_dict(),
            **(_coval_settings(self.coval) if self.coval is not None else {}),
        }


def _coval_settings(coval: "CovalOptions") -> Dict[str, bool]:
    return {"mina": coval.min_spans, "np_only": coval.np_only, "remove_nested": coval.remove_nested}


def _check_coval(settings: Settings) -> None:
    """What the coval preset cannot do: metrics coval lacks, twinless
    policies, zeros, uniform LEA."""
    from .counting.coval import COVAL_METRICS

    lacking = [name for name in settings.metrics if name not in COVAL_METRICS]
    if lacking:
        raise ValueError(f"coval has no {', '.join(lacking)}; under the coval preset choose from {', '.join(COVAL_METRICS)}")
    if (settings.twinless, settings.zeros, settings.lea_importance) != ("conll", "keep", SIZE):
        raise ValueError("the coval preset scores as coval does: no --twinless, --zeros or --lea-importance")


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
    result = score_pairs([Pair("document", key, response)], settings)
    return result.documents["document"]


def score_documents(
    key: Mapping[str, ClustersLike],
    response: Mapping[str, ClustersLike],
    settings: Optional[Settings] = None,
    warnings: Iterable[str] = (),
) -> CorpusResult:
    """Score the response documents against the key documents of the same
    name, in key order (:func:`~.formats.corpus.pair_documents`)."""
    pairs, notes = pair_clusters(key, response)
    return score_pairs(pairs, settings, [*warnings, *notes])


def score_pairs(
    pairs: Iterable[Union[Pair, Tuple[str, ClustersLike, ClustersLike]]],
    settings: Optional[Settings] = None,
    warnings: Iterable[str] = (),
    n_process: int = 1,
    keep_twinned: bool = True,
) -> CorpusResult:
    """Score documents already paired by the caller: :class:`~.clusters.Pair`
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
    if not (isinstance(pairs, StackedPairs) and n_process == 1):
        pairs = [Pair(pair[0], as_clusters(pair[1]), as_clusters(pair[2]), *pair[3:]) for pair in pairs]
    names = [pair.name for pair in pairs] if isinstance(pairs, list) else pairs.names
    if len(set(names)) != len(names):
        repeated = next(name for name in names if names.count(name) > 1)
        raise CorefInputError(f"document {repeated!r} is given more than once")
    if n_process > 1 and len(pairs) > 1:
        shards = _score_in_processes(pairs, settings, n_process, keep_twinned)
    else:
        shards = [_score_shard(pairs, settings)]
    counts = np.concatenate([shard[0] for shard in shards])
    repeated = [(pair.name, pair.key, pair.response) for pair in repeated_pairs(pairs)]
    notes = [*warnings, *_repeated_notes(repeated, settings)]
    parts = [shard[1] for shard in shards]
    twinned = TwinnedCorpus.concat(parts) if all(part is not None for part in parts) else None
    return CorpusResult(settings, tuple(names), counts, notes, twinned)


Shard = Tuple[np.ndarray, Optional[TwinnedCorpus]]


def _score_shard(pairs: Sequence[Pair], settings: Settings, keep_twinned: bool = True) -> Shard:
    """Counts and (with ``keep_twinned``) twinning of some documents:
    documents read as columns twinned at once where nothing is asked of
    them one by one (:func:`_in_columns`)."""
    modes, remove = settings.anaphora, settings.singletons == "remove" and not settings.anaphora.keeps_singletons
    documents: Optional[List[Tuple[Clusters, Clusters, int]]] = None
    if _in_columns(pairs, settings):
        twinned = twin_batches(pairs.key, pairs.response, pairs.n_tokens, settings.match, remove, settings.zeros == "exclude")
    else:
        documents = []
        for name, key, response, n_tokens in pairs:
            key, response = in_modes(key, modes), in_modes(response, modes)
            try:
                settings.match.check(key, response)
            except CorefInputError as err:
                raise CorefInputError(f"document {name!r}: {err}") from err
            documents.append((key, response, n_tokens))
        exact = getattr(settings.match, "name", None) == "exact"
        check_modes(
            [(pair.name, *document[:2]) for pair, document in zip(pairs, documents)], modes, settings.singletons,
            "exact" if exact else getattr(settings.match, "name", "another"),
        )
        twinned = twin_corpus(documents, settings.match, remove, settings.zeros == "exclude")
    recall_pair, precision_pair = apply_policy(settings.twinless, twinned.partitions())
    counts = count_corpus(twinned, recall_pair, precision_pair, settings.metrics, settings.twinless == "conll", settings.count_options)
    if documents is not None:
        counts = anaphora_counts(
            counts, [document[:2] for document in documents], settings.metrics, modes, settings.singletons == "remove", exact
        )
    return counts, twinned if keep_twinned else None


def _in_columns(pairs: Sequence[Pair], settings: Settings) -> bool:
    """Whether ``pairs`` were read as columns (:class:`StackedPairs`) and
    scored as such: by a matcher that checks nothing of spans without
    heads, with no metric or mode that reads the documents one by one."""
    match = settings.match
    return isinstance(pairs, StackedPairs) and (
        isinstance(match, ExactMatcher) or (isinstance(match, ScoredMatcher) and not match.heads_of)
    ) and not reads_documents(settings.metrics, settings.anaphora)


_SHARED: Optional[Tuple[List[Pair], Settings, bool]] = None
"""The documents being scored, for worker processes forked from this one."""


def _score_in_processes(pairs: List[Pair], settings: Settings, n_process: int, keep_twinned: bool) -> List[Shard]:
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
        _SHARED = (pairs, settings, keep_twinned)
        try:
            with ProcessPoolExecutor(len(bounds), mp_context=multiprocessing.get_context("fork")) as pool:
                return list(pool.map(_score_forked_shard, bounds))
        finally:
            _SHARED = None
    with ProcessPoolExecutor(len(bounds)) as pool:
        shards = [pairs[start:end] for start, end in bounds]
        n = len(shards)
        return list(pool.map(_score_shard, shards, [settings] * n, [keep_twinned] * n))


def _load_solvers() -> None:
    """Import SciPy's solvers once here, so that worker processes inherit
    them instead of each importing them (the import costs more than
    twinning a shard)."""
    import scipy.optimize  # noqa: F401
    import scipy.sparse.csgraph  # noqa: F401


def _score_forked_shard(bounds: Tuple[int, int]) -> Shard:
    assert _SHARED is not None, "set before the workers were forked"
    pairs, settings, keep_twinned = _SHARED
    start, end = bounds
    return _score_shard(pairs[start:end], settings, keep_twinned)


def _repeated_notes(repeated: Sequence[Tuple[str, Any, Any]], settings: Settings) -> List[str]:
    return repeated_warnings(repeated, hasattr(settings.match, "twin_corpus") and settings.twinless == "conll")


@dataclass(frozen=True)
class Options:
    """Everything a run needs besides its input: how to score
    (``settings``), how to read (each side's format name and span reader,
    ``None`` for the default; ``words`` and ``tokens`` of the key, which
    the report and resolution classes read), and how to run (``n_process``
    processes; ``twinning``: keep the twinned mentions, which error kinds,
    resolution classes and the report read; ``pair_by``: how documents
    pair; ``cross_document``: entity ids shared across documents, one
    document per topic of ``topic_pattern`` or for the corpus,
    docs/crossdoc.md; ``stream``: two files read a batch at a time where
    nothing needs every document, docs/streaming.md). :meth:`from_names` builds it
    from the names the command line and :func:`evaluate_corpus` take."""

    settings: Settings = field(default_factory=Settings)
    formats: Tuple[Optional[str], Optional[str]] = (None, None)
    spans: Tuple[Any, Any] = (None, None)
    words: bool = False
    tokens: bool = False
    n_process: int = 1
    twinning: bool = True
    pair_by: Optional[str] = None
    cross_document: bool = False
    topic_pattern: Optional[str] = None
    stream: bool = True
    """Read and score files a batch at a time where nothing asked for needs
    every document at once (docs/streaming.md)."""

    @classmethod
    def from_names(
        cls,
        metrics: Iterable[str] = DEFAULT_METRICS,
        input_format: Optional[str] = None,
        key_format: Optional[str] = None,
        response_format: Optional[str] = None,
        spans: Optional[str] = None,
        key_spans: Optional[str] = None,
        response_spans: Optional[str] = None,
        head_prefix: Optional[str] = None,
        words: bool = False,
        tokens: bool = False,
        n_process: int = 1,
        twinning: bool = True,
        pair_by: Optional[str] = None,
        cross_document: bool = False,
        topic_pattern: Optional[str] = None,
        stream: bool = True,
        **settings: Any,
    ) -> "Options":
        """Options from names: the ``metrics`` and the other ``settings`` of
        :meth:`Settings.from_options` (by keyword), the formats
        (``input_format`` for both sides, or each side's), the span groups
        of ``.spacy`` input (``PREFIX_*`` or ``KEY[:ATTR]``, for both sides
        or each; ``head_prefix`` names head span groups), and the rest of
        :class:`Options`' fields (``pair_by``: ``"name"`` or ``"order"``,
        default by name where both sides name their documents)."""
        from .formats.docbin.spans import parse_reader

        chosen = Settings.from_options(metrics, **settings)
        default = spans or "coref_clusters_*"
        readers = parse_reader(key_spans or default, head_prefix), parse_reader(response_spans or default, head_prefix)
        formats = key_format or input_format, response_format or input_format
        return cls(
            chosen, formats, readers, words, tokens, n_process, twinning, pair_by, cross_document, topic_pattern, stream
        )


@dataclass(frozen=True)
class Run:
    """A scoring run: its :class:`CorpusResult` and the paired
    :class:`~.formats.corpus.Corpus` it was scored on (the key's words
    and token information, the response's document names, the warnings
    of reading)."""

    result: CorpusResult
    corpus: Corpus

    def metrics(self) -> Dict[str, Dict]:
        """The corpus scores (:meth:`CorpusResult.metrics`)."""
        return self.result.metrics()


def evaluate_corpus(key: Any, response: Any, options: Optional[Options] = None, **names: Any) -> Run:
    """Read, pair and score a response against a key, the one call behind
    every command and the spaCy scorers. ``key`` and ``response`` are files
    of any registered format (or directories of CoNLL-2012 files), sides
    already read (:class:`~.formats.document.Side`), or lists of spaCy
    ``Doc`` objects. ``options`` (:class:`Options`), or the names
    :meth:`Options.from_names` takes. Two files are read a batch of
    documents at a time when nothing asked for needs every document
    (``twinning``, ``words``, ``tokens``, ``cross_document`` off;
    docs/streaming.md), e.g.

    >>> run = evaluate_corpus(DEMO_KEY, DEMO_RESPONSE, match="head")  # doctest: +SKIP
    >>> round(run.metrics()["conll"]["f1"], 4)  # doctest: +SKIP
    """
    if options is not None and names:
        raise TypeError("give options or names, not both")
    options = options or Options.from_names(**names)
    streamed = _streamed(key, response, options)
    if streamed is not None:
        return streamed
    corpus = read_pairs(key, response, options)
    if options.settings.coval is not None:
        return Run(_coval_result(key, response, options), corpus)
    result = score_pairs(corpus.pairs, options.settings, corpus.warnings, options.n_process, options.twinning)
    return Run(result, corpus)


def _streamed(key: Any, response: Any, options: Options) -> Optional[Run]:
    """The run read and scored a batch at a time (:mod:`.formats.stream`),
    ``None`` where the files are to be read whole: other input, or anything
    asked for that needs every document at once (docs/streaming.md)."""
    if not (options.stream and _is_path(key) and _is_path(response) and options.settings.coval is None) or (
        options.twinning or options.words or options.tokens or options.cross_document
    ):
        return None
    from functools import partial

    from .formats.stream import Fallback, plan_stream

    try:
        with plan_stream(key, response, options.formats, options.pair_by, options.n_process) as plan:
            batches = plan.map(partial(_counts, settings=options.settings), options.n_process)
            corpus = plan.corpus(batches)
    except Fallback:
        return None
    repeated = _repeated_notes([triple for batch in batches for triple in batch.repeated], options.settings)
    names = tuple(name for name, _, _ in plan.triples)
    counts = np.concatenate([batch.counts for batch in batches])
    return Run(CorpusResult(options.settings, names, counts, [*corpus.warnings, *repeated]), corpus)


def _counts(pairs: Sequence[Pair], settings: Settings) -> np.ndarray:
    return _score_shard(pairs, settings, False)[0]


def _coval_result(key: Any, response: Any, options: Options) -> CorpusResult:
    """coval's counts of two CoNLL-2012 files (docs/coval.md)."""
    from .counting.coval import coval_corpus_counts

    formats = [get_format(given) if given else None for given in options.formats]
    if not (_is_path(key) and _is_path(response)) or any(
        (given or format_of(path)).name != "conll" for given, path in zip(formats, (key, response))
    ):
        raise CorefInputError("the coval preset reads CoNLL-2012 files (key and response), as coval does")
    names, counts = coval_corpus_counts(key, response, options.settings.coval)
    return CorpusResult(options.settings, tuple(names), counts, [])


def read_pairs(key: Any, response: Any, options: Options) -> Corpus:
    """Stage 1 of :func:`evaluate_corpus`: both sides read and paired."""
    if _is_path(key) and _is_path(response):
        if options.cross_document and options.stream and not (options.words or options.tokens):
            from .formats.topics import stream_topic_sides

            streamed = stream_topic_sides(key, response, options.formats, options.topic_pattern, options.pair_by)
            if streamed is not None:
                return streamed
        return read_corpus(
            key, response, options.formats, options.spans, options.words, options.tokens, options.pair_by,
            options.cross_document, options.topic_pattern,
        )
    sides = []
    for role, value, given, reader in zip(("key", "response"), (key, response), options.formats, options.spans):
        if isinstance(value, Side):
            sides.append(value)
        elif _is_path(value):
            read = ReadOptions(role, reader, True, options.tokens, entity_ids=options.cross_document)
            sides.append(read_side(value, get_format(given) if given else None, read))
        else:
            from .formats.docbin.examples import docs_side

            sides.append(docs_side(value, reader, role))
    if options.cross_document:
        from .formats.topics import pair_topic_sides

        return pair_topic_sides(*sides, options.topic_pattern, options.pair_by)
    return pair_sides(*sides, pair_by=options.pair_by)


def _is_path(value: Any) -> bool:
    return isinstance(value, (str, PathLike))
