"""One call from Python (docs/python.md): :func:`score` reads, pairs and
scores as the command line's ``score`` does, with its options as keyword
arguments, and returns :class:`Scores`."""
from dataclasses import replace
from inspect import signature
from typing import Any, Optional, Sequence

from ..analysis.summary import Breakdowns, analyse
from ..formats.corpus import Corpus
from ..scoring import Options, Run, Settings, evaluate_corpus, score_pairs
from .inputs import SPAN_ENDS, is_path, is_spacy, paired_lists
from .records import is_records, record_files, renamed
from .scores import Scores

__all__ = ["OPTIONS", "SPAN_ENDS", "Scores", "score"]
_SET_BY_SCORE = ("words", "tokens", "n_process", "twinning", "cross_document", "topic_pattern", "stream")
OPTIONS = tuple(dict.fromkeys(
    name for function in (Options.from_names, Settings.from_options) for name in signature(function).parameters
    if name not in ("cls", "settings", *_SET_BY_SCORE)
))
"""The scoring options :func:`score` takes by keyword besides its own."""


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
    errors: bool = False,
    classes: bool = False,
    waterfall: bool = False,
    errors_list: bool = False,
    by: Sequence[str] = (),
    chain_lengths: str = "1,2-5,6+",
    variants: bool = False,
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
    ci, n_resamples, seed, macro, errors, classes, waterfall, errors_list, by, chain_lengths, variants
        The analyses of ``score`` (``--ci`` …; docs/analyses.md).
    cross_document, topic_pattern, n_process
        As ``--cross-document``, ``--topic-pattern``, ``--n-process``.
    **options
        The scoring options of ``score``, by their Python names: ``metrics``
        (list or comma-separated), ``match``, ``twinless``, ``singletons``,
        ``preset``, ``min_overlap``, ``np_only``, ``input_format``, ``pair_by`` …
        (:meth:`~spacy_coref_eval.scoring.Options.from_names`).

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
    breakdowns = _breakdowns(by, chain_lengths, waterfall, errors_list, variants, cross_document, options)
    chosen = _options(
        options, n_process, cross_document, topic_pattern, errors or classes, errors_list, classes, variants, breakdowns
    )
    run = _run(key, response, chosen, span_end)
    tokens = run.corpus.tokens() if classes else None
    documents = _response_documents(response, chosen, run, breakdowns)
    analyses = analyse(
        run.result, level=ci, n_resamples=n_resamples, seed=seed, macro=macro, errors=errors, tokens=tokens,
        breakdowns=breakdowns, corpus=run.corpus, response_documents=documents, n_process=n_process,
    )
    return Scores(run.result, replace(analyses, alignment=run.corpus.alignment), per_doc)


def _run(key: Any, response: Any, options: Options, span_end: str) -> Run:
    """Files, spaCy objects: :func:`evaluate_corpus`; Python lists: paired
    here, scored by :func:`~spacy_coref_eval.scoring.score_pairs`."""
    if response is None and is_spacy(key):
        response = key
    if is_records(key) or is_records(response):
        with record_files(key, response) as (key_path, response_path):
            run = _run(key_path, response_path, options, span_end)
        warnings = [renamed(warning, {str(key_path): "key records", str(response_path): "response records"}) for warning in run.result.warnings]
        return Run(replace(run.result, warnings=warnings), run.corpus)
    if _read(key) and _read(response):
        return evaluate_corpus(_docs(key, "reference"), _docs(response, "predicted"), options=options)
    if _read(key) or _read(response):
        from ..errors import CorefInputError

        raise CorefInputError(
            "give key and response as files, spaCy docs or system records, or both as Python lists/dicts of clusters"
        )
    needs_files = [
        what for what, asked in (
            ("resolution classes and mention-type strata read the key's words and tags", options.tokens),
            ("cross_document reads entity ids shared across documents", options.cross_document),
            ("the coval preset (mina, np_only, remove_nested) reads CoNLL-2012 files as coval does", options.settings.coval),
        ) if asked
    ]
    if needs_files:
        from ..errors import CorefInputError

        raise CorefInputError(f"{needs_files[0]}: give the key and response as files (or spaCy docs), not Python lists")
    pairs, notes = paired_lists(key, response, span_end)
    result = score_pairs(
        pairs, options.settings, warnings=notes, n_process=options.n_process, keep_twinned=options.twinning
    )
    return Run(result, Corpus(pairs=pairs, key_documents=[], warnings=list(notes), response_names=[p.name for p in pairs]))


def _read(value: Any) -> bool:
    """Whether ``value`` is read as :func:`evaluate_corpus` reads it (a path or spaCy docs)."""
    return is_path(value) or is_spacy(value)


def _docs(values: Any, side: str) -> Any:
    """spaCy docs, ``Example`` s' ``side`` doc taken; a path as it is."""
    if is_path(values):
        return values
    return [getattr(value, side) if hasattr(value, "predicted") else value for value in values]


def _options(given: dict, n_process: int, cross_document: bool, topic_pattern: Optional[str], twinning: bool,
             words: bool, tokens: bool, variants: bool, breakdowns: Breakdowns) -> Options:
    """The run's :class:`Options`, as the command line's ``score`` builds them."""
    unknown = [name for name in given if name not in OPTIONS]
    if unknown:
        raise TypeError(f"score() got unknown option(s) {', '.join(unknown)}; the scoring options are {', '.join(OPTIONS)}")
    given = dict(given)
    if isinstance(given.get("metrics"), str):
        given["metrics"] = [name.strip() for name in given["metrics"].split(",") if name.strip()]
    cross_document = cross_document or topic_pattern is not None
    return Options.from_names(
        **given, tokens=tokens or breakdowns.tokens, words=words, n_process=n_process,
        twinning=twinning or breakdowns.twinning, cross_document=cross_document, topic_pattern=topic_pattern,
        stream=not variants,
    )


def _breakdowns(by: Sequence[str], chain_lengths: str, waterfall: bool, errors_list: bool, variants: bool,
                cross_document: bool, given: dict) -> Breakdowns:
    """The breakdowns asked for, refused where they cannot work (as ``score``'s ``asked``)."""
    by = (by,) if isinstance(by, str) else tuple(by)
    if by:
        from ..analysis.attributes import ChainLengths, check_attribute

        for attribute in by:
            check_attribute(attribute)
        ChainLengths.parse(chain_lengths)
    if variants:
        own = [name for name in ("preset", "match", "singletons") if given.get(name) is not None]
        if own:
            raise ValueError(f"variants scores every preset, matching and singleton setting itself; leave out {', '.join(own)}")
    return Breakdowns(
        waterfall=waterfall, errors_list=errors_list, by=by, chain_lengths=chain_lengths, variants=variants,
        cross_document=cross_document,
    )


def _response_documents(response: Any, options: Options, run: Run, breakdowns: Breakdowns) -> list:
    if not (breakdowns.response_attributes and is_path(response)):
        return []
    from ..analysis.attributes import paired_response_documents

    return paired_response_documents(response, options, run.result.names)
