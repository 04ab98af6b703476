"""One run: read and pair two inputs, score them (a batch at a time where
nothing needs every document), the one entry point :func:`evaluate_corpus`."""

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from os import PathLike
from typing import Any, Optional, cast

import numpy as np

from ..counting import DEFAULT_METRICS
from ..errors import CorefInputError
from ..formats import ReadOptions, format_of, get_format, stream as streaming
from ..formats.corpus import Corpus, pair_sides, pair_topic_sides, read_corpus, read_side
from ..formats.docbin.spans import parse_reader
from ..formats.document import Side
from ..formats.inputs import InputLimits
from ..formats.stream import Fallback, plan_stream
from ..model.clusters import Pair
from .result import CorpusResult
from .score import document_splits, repeated_notes, score_pairs, score_shard
from .settings import Settings


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
    formats: tuple[Optional[str], Optional[str]] = (None, None)
    spans: tuple[Any, Any] = (None, None)
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
    limits: InputLimits = field(default_factory=InputLimits.from_environ)
    """How files are read: size limits and when they are streamed, from
    the ``SPACY_COREF_EVAL_*`` environment variables unless given."""

    @classmethod
    def from_names(
        cls,
        metrics: Iterable[str] = DEFAULT_METRICS,
        input_format: Optional[str] = None,
        *,
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
        chosen = Settings.from_options(metrics, **settings)
        default = spans or "coref_clusters_*"
        readers = parse_reader(key_spans or default, head_prefix), parse_reader(response_spans or default, head_prefix)
        formats = key_format or input_format, response_format or input_format
        return cls(
            chosen,
            formats,
            readers,
            words,
            tokens=tokens,
            n_process=n_process,
            twinning=twinning,
            pair_by=pair_by,
            cross_document=cross_document,
            topic_pattern=topic_pattern,
            stream=stream,
        )


@dataclass(frozen=True)
class Run:
    """A scoring run: its :class:`CorpusResult` and the paired
    :class:`~.formats.corpus.Corpus` it was scored on (the key's words
    and token information, the response's document names, the warnings
    of reading)."""

    result: CorpusResult
    corpus: Corpus

    def metrics(self) -> dict[str, dict]:
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
    docs/streaming.md).

    Examples
    --------
    >>> run = evaluate_corpus(DEMO_KEY, DEMO_RESPONSE, match="head")  # doctest: +SKIP
    >>> round(run.metrics()["conll"]["f1"], 4)  # doctest: +SKIP
    """
    if options is not None and names:
        raise TypeError("give options or names, not both")
    options = options or Options.from_names(**names)
    if options.n_process > 1 and _is_path(key) and _is_path(response) and _smaller(key, response, options.limits):
        options = replace(options, n_process=1)
    streamed = _streamed(key, response, options)
    if streamed is not None:
        return streamed
    corpus = read_pairs(key, response, options)
    if options.settings.coval is not None:
        return Run(_coval_result(key, response, options), corpus)
    result = score_pairs(corpus.pairs, options.settings, corpus.warnings, n_process=options.n_process, keep_twinned=options.twinning)
    return Run(result, corpus)


def _streamed(key: Any, response: Any, options: Options) -> Optional[Run]:
    """The run read and scored a batch at a time (:mod:`.formats.stream`),
    ``None`` where the files are to be read whole: other input, or anything
    asked for that needs every document at once (docs/streaming.md)."""
    if not (options.stream and _is_path(key) and _is_path(response) and options.settings.coval is None) or (
        options.twinning or options.words or options.tokens or options.cross_document
    ):
        return None
    try:
        with plan_stream(
            key, response, options.formats, pair_by=options.pair_by, n_process=options.n_process, limits=options.limits
        ) as plan:
            batches = plan.map(partial(_counts, settings=options.settings), options.n_process)
            corpus = plan.corpus(batches, plan.read_unpaired())
    except Fallback:
        return None
    repeated = repeated_notes([triple for batch in batches for triple in batch.repeated], options.settings)
    names = tuple(name for name, _, _ in plan.triples)
    counts = np.concatenate([batch.counts[0] for batch in batches])
    splits = np.concatenate([batch.counts[1] for batch in batches])
    return Run(CorpusResult(options.settings, names, counts, [*corpus.warnings, *repeated], twinned=None, splits=splits), corpus)


def _counts(pairs: Sequence[Pair], settings: Settings) -> tuple[np.ndarray, np.ndarray]:
    return score_shard(pairs, settings, False)[0], document_splits(pairs)


def _coval_result(key: Any, response: Any, options: Options) -> CorpusResult:
    """coval's counts of two CoNLL-2012 files (docs/coval.md)."""
    from ..compat.coval.score import CovalOptions, coval_corpus_counts

    formats = [get_format(given) if given else None for given in options.formats]
    if not (_is_path(key) and _is_path(response)) or any(
        (given or format_of(path)).name != "conll" for given, path in zip(formats, (key, response))
    ):
        raise CorefInputError("the coval preset reads CoNLL-2012 files (key and response), as coval does")
    names, counts = coval_corpus_counts(key, response, cast(CovalOptions, options.settings.coval))  # run under coval only
    return CorpusResult(options.settings, tuple(names), counts, [], twinned=None, splits=np.zeros(len(names), dtype=bool))


def read_pairs(key: Any, response: Any, options: Options) -> Corpus:
    """Stage 1 of :func:`evaluate_corpus`: both sides read and paired."""
    if _is_path(key) and _is_path(response):
        if options.cross_document and options.stream and not (options.words or options.tokens):
            streamed = streaming.stream_topic_sides(  # looked up when called: tests record the calls
                key, response, formats=options.formats, pattern=options.topic_pattern, pair_by=options.pair_by, limits=options.limits
            )
            if streamed is not None:
                return streamed
        return read_corpus(
            key,
            response,
            options.formats,
            spans=options.spans,
            words=options.words,
            tokens=options.tokens,
            pair_by=options.pair_by,
            cross_document=options.cross_document,
            topic_pattern=options.topic_pattern,
            limits=options.limits,
        )
    sides = []
    for role, value, given, reader in zip(("key", "response"), (key, response), options.formats, options.spans):
        if isinstance(value, Side):
            sides.append(value)
        elif _is_path(value):
            read = ReadOptions(role, reader, True, options.tokens, entity_ids=options.cross_document, limits=options.limits)
            sides.append(read_side(value, get_format(given) if given else None, read))
        else:
            from ..formats.docbin.examples import docs_side

            sides.append(docs_side(value, reader, role))
    if options.cross_document:
        return pair_topic_sides(sides[0], sides[1], pattern=options.topic_pattern, pair_by=options.pair_by)
    return pair_sides(sides[0], sides[1], pair_by=options.pair_by)


def _smaller(key: Any, response: Any, limits: InputLimits) -> bool:
    """Whether two files are together smaller than ``limits.parallel_from``
    bytes, where worker processes cost more than they save (issue 34 item
    13, benchmarks/parallel.py)."""
    try:
        return all(os.path.isfile(path) for path in (key, response)) and (
            os.path.getsize(key) + os.path.getsize(response) < limits.parallel_from
        )
    except OSError:
        return False


def _is_path(value: Any) -> bool:
    return isinstance(value, (str, PathLike))
