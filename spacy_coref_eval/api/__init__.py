"""One call from Python (docs/python.md): :func:`score` reads, pairs and
scores as the command line's ``score`` does, with its options as keyword
arguments, and returns :class:`Scores`."""

from dataclasses import replace
from inspect import signature
from types import SimpleNamespace
from typing import Any, Optional

from ..analysis.attributes import paired_response_documents
from ..analysis.registry import dests
from ..analysis.summary import Breakdowns, analyse
from ..errors import CorefInputError
from ..formats.corpus import Corpus
from ..scoring import Options, Run, Settings, evaluate_corpus, score_pairs
from .inputs import SPAN_ENDS, is_path, is_spacy, paired_lists
from .records import is_records, record_files, renamed
from .scores import Scores

__all__ = ["ANALYSIS_OPTIONS", "OPTIONS", "SPAN_ENDS", "Scores", "score"]
_SET_BY_SCORE = ("words", "tokens", "n_process", "twinning", "cross_document", "topic_pattern", "stream")
OPTIONS = tuple(
    dict.fromkeys(
        name
        for function in (Options.from_names, Settings.from_options)
        for name in signature(function).parameters
        if name not in ("cls", "settings", *_SET_BY_SCORE)
    )
)
"""The scoring options :func:`score` takes by keyword besides its own."""
ANALYSIS_OPTIONS = dests()
"""The options of the registered analyses (docs/analyses.md), by keyword too."""


def score(
    key: Any,
    response: Any = None,
    *,
    span_end: str = "exclusive",
    per_doc: bool = True,
    ci: Optional[float] = None,
    n_resamples: int = 1000,
    seed: int = 0,
    macro: bool = False,
    cross_document: bool = False,
    topic_pattern: Optional[str] = None,
    n_process: int = 1,
    **options: Any,
) -> Scores:
    """Score a response against a key, as ``spacy-coref-eval score`` does.

    Parameters
    ----------
    key, response : list or dict of documents, list of spaCy Doc/Example, or path
        A document is a list of clusters, a cluster a list of ``(start, end)``
        token spans or of mention ids; lists pair by position, dicts
        ``{name: document}`` by name; paths are files of any format the
        package reads; or a system's output records (dicts as fastcoref,
        maverick, wl-coref write them, character offsets too), read as the
        same records in a file (docs/formats.md §9).
        ``Example`` s give their reference as key and their predicted doc
        as response (``score(examples)``).
    span_end : {"exclusive", "inclusive"}
        Whether ``end`` is one past the last token (spaCy) or the last (e2e-coref, maverick).
    per_doc : bool
        Keep every document's scores in :meth:`Scores.to_dict` (``--per-doc``).
    ci, n_resamples, seed, macro
        Bootstrap intervals and macro averages (``--ci`` …; docs/analyses.md).
    cross_document, topic_pattern, n_process
        As ``--cross-document``, ``--topic-pattern``, ``--n-process``.
    **options
        The scoring options of ``score``, by their Python names: ``metrics``
        (list or comma-separated), ``match``, ``twinless``, ``singletons``,
        ``preset``, ``min_overlap``, ``np_only``, ``input_format``, ``pair_by`` …
        (:meth:`~spacy_coref_eval.scoring.Options.from_names`); and the
        options of every registered analysis (:data:`ANALYSIS_OPTIONS`:
        ``errors``, ``classes``, ``waterfall``, ``errors_list``, ``by``,
        ``chain_lengths``, ``variants``, ``links``, ``window`` …).

    Returns
    -------
    Scores

    Examples
    --------
    >>> key = [[[(0, 2), (5, 6)], [(8, 9), (11, 12)]]]
    >>> response = [[[(0, 2), (5, 6), (8, 9)]]]
    >>> scores = score(key, response)
    >>> round(scores.metrics["muc"]["f1"], 4), round(scores.conll, 4)
    (0.5, 0.5405)
    >>> score([[["a", "b", "c"]]], [[["a", "b"], ["c"]]], metrics="muc").metrics["muc"]["recall"]
    0.5
    """
    cross_document = cross_document or topic_pattern is not None
    options = dict(options)
    values = {name: options.pop(name) for name in list(options) if name in ANALYSIS_OPTIONS}
    if isinstance(values.get("by"), str):
        values["by"] = (values["by"],)
    breakdowns = Breakdowns(values, cross_document=cross_document).check(SimpleNamespace(**options))
    chosen = _options(options, n_process, cross_document, topic_pattern=topic_pattern, breakdowns=breakdowns)
    run = _run(key, response, chosen, span_end=span_end)
    documents = _response_documents(response, chosen, run, breakdowns=breakdowns)
    analyses = analyse(
        run.result,
        level=ci,
        n_resamples=n_resamples,
        seed=seed,
        macro=macro,
        breakdowns=breakdowns,
        corpus=run.corpus,
        response_documents=documents,
        n_process=n_process,
    )
    result = run.result if analyses.result is None else analyses.result
    return Scores(result, replace(analyses, alignment=run.corpus.alignment), per_doc)


def _run(key: Any, response: Any, options: Options, *, span_end: str) -> Run:
    """Files, spaCy objects: :func:`evaluate_corpus`; Python lists: paired
    here, scored by :func:`~spacy_coref_eval.scoring.score_pairs`."""
    if response is None and is_spacy(key):
        response = key
    if is_records(key) or is_records(response):
        with record_files(key, response) as (key_path, response_path):
            run = _run(key_path, response_path, options, span_end=span_end)
        sources = {str(key_path): "key records", str(response_path): "response records"}
        warnings = [renamed(warning, sources) for warning in run.result.warnings]
        return Run(replace(run.result, warnings=warnings), run.corpus)
    if _read(key) and _read(response):
        return evaluate_corpus(_docs(key, "reference"), _docs(response, "predicted"), options=options)
    if _read(key) or _read(response):
        raise CorefInputError("give key and response as files, spaCy docs or system records, or both as Python lists/dicts of clusters")
    needs_files = [
        what
        for what, asked in (
            ("resolution classes and mention-type strata read the key's words and tags", options.tokens),
            ("cross_document reads entity ids shared across documents", options.cross_document),
            ("the coval preset (mina, np_only, remove_nested) reads CoNLL-2012 files as coval does", options.settings.coval),
        )
        if asked
    ]
    if needs_files:
        raise CorefInputError(f"{needs_files[0]}: give the key and response as files (or spaCy docs), not Python lists")
    pairs, notes = paired_lists(key, response, span_end)
    result = score_pairs(pairs, options.settings, warnings=notes, n_process=options.n_process, keep_twinned=options.twinning)
    return Run(result, Corpus(pairs=pairs, key_documents=[], warnings=list(notes), response_names=[p.name for p in pairs]))


def _read(value: Any) -> bool:
    """Whether ``value`` is read as :func:`evaluate_corpus` reads it (a path or spaCy docs)."""
    return is_path(value) or is_spacy(value)


def _docs(values: Any, side: str) -> Any:
    """spaCy docs, ``Example`` s' ``side`` doc taken; a path as it is."""
    if is_path(values):
        return values
    return [getattr(value, side) if hasattr(value, "predicted") else value for value in values]


def _options(given: dict, n_process: int, cross_document: bool, *, topic_pattern: Optional[str], breakdowns: Breakdowns) -> Options:
    """The run's :class:`Options`, as the command line's ``score`` builds them."""
    unknown = [name for name in given if name not in OPTIONS]
    if unknown:
        raise TypeError(
            f"score() got unknown option(s) {', '.join(unknown)}; the scoring options are {', '.join(OPTIONS)} "
            f"and the analyses' {', '.join(sorted(ANALYSIS_OPTIONS))}"
        )
    given = dict(given)
    if isinstance(given.get("metrics"), str):
        given["metrics"] = [name.strip() for name in given["metrics"].split(",") if name.strip()]
    return Options.from_names(
        **given, **breakdowns.run_options(), n_process=n_process, cross_document=cross_document, topic_pattern=topic_pattern
    )


def _response_documents(response: Any, options: Options, run: Run, *, breakdowns: Breakdowns) -> list:
    if not (breakdowns.response_attributes and is_path(response)):
        return []
    return paired_response_documents(response, options, run.result.names)
