"""The analyses a command asks of a scoring run, computed in one call
(:func:`analyse`) and carried to the report as one value (:class:`Analyses`)."""
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..scoring import CorpusResult


@dataclass(frozen=True)
class Analyses:
    """What a report adds to the scores on request: bootstrap intervals with
    how they were drawn (``level``, ``n_resamples``, ``seed``), macro
    averages, error counts by document and in total, resolution
    classes (a :class:`~.resolution_classes.ResolutionClassResult`), the
    error-impact waterfall (a :class:`~.waterfall.Waterfall`), the errors
    listed per document, the strata of each attribute asked for (the JSON
    blocks of :meth:`~.strata.Strata.to_dict`, by attribute), the
    variant matrix (:class:`~.variants.Variant` rows; docs/analyses.md) and
    the alignment report."""

    intervals: Optional[Dict[str, Dict[str, Tuple[float, float]]]] = None
    level: Optional[float] = None
    n_resamples: int = 1000
    seed: int = 0
    macro: Optional[Dict[str, Dict[str, float]]] = None
    errors: Optional[Dict[str, Dict[str, int]]] = None
    classes: Any = None
    waterfall: Any = None
    errors_list: Optional[Dict[str, Dict[str, List[Dict[str, Any]]]]] = None
    strata: Optional[Dict[str, Dict[str, Any]]] = None
    variants: Optional[List[Any]] = None
    alignment: Optional[Mapping[str, Any]] = None
    """What aligning the response onto the key changed, by document
    (:class:`~spacy_coref_eval.formats.document.AlignmentReport`), when a
    format aligned it."""
    cross_document: Any = None
    """Links within and across documents (:class:`~.crossdoc.CrossDocument`)."""


@dataclass(frozen=True)
class Breakdowns:
    """The analyses that take a score apart, as asked for (docs/analyses.md):
    the ``waterfall``, the ``errors_list``, the strata of every attribute
    ``by`` names (chain lengths cut by ``chain_lengths``, default
    ``1,2-5,6+``) and the ``variants``."""

    waterfall: bool = False
    errors_list: bool = False
    by: Tuple[str, ...] = ()
    chain_lengths: Optional[str] = None
    variants: bool = False
    cross_document: bool = False
    """Links within and across documents (docs/crossdoc.md §3)."""

    @property
    def twinning(self) -> bool:
        """Whether they read the run's twinning."""
        return self.waterfall or self.errors_list or bool(self.by) or self.cross_document

    @property
    def tokens(self) -> bool:
        """Whether they read the key's token information (mention types)."""
        return "mention-type" in self.by

    @property
    def response_attributes(self) -> bool:
        """Whether they read attributes of the response's own documents."""
        return any(name == "entity-type" or name.startswith("attr:") for name in self.by)


def analyse(
    result: CorpusResult,
    level: Optional[float] = None,
    n_resamples: int = 1000,
    seed: int = 0,
    macro: bool = False,
    errors: bool = False,
    tokens: Optional[Sequence[Any]] = None,
    breakdowns: Breakdowns = Breakdowns(),
    corpus: Any = None,
    response_documents: Sequence[Any] = (),
    n_process: int = 1,
) -> Analyses:
    """The analyses asked for: intervals at ``level``, ``macro`` averages,
    ``errors`` kinds, and resolution classes when the key's ``tokens`` are
    given (one :class:`~spacy_coref_eval.formats.tokens.Tokens` per
    document); and the ``breakdowns`` asked for: the waterfall, the error
    list (with the words of the run's ``corpus`` when it has them), the
    strata (mention types from the ``corpus``'s tokens; entity types and
    mention attributes from its key documents and the
    ``response_documents``) with intervals at ``level``, and the variants
    of the ``corpus``'s pairs. Each module loads only when its analysis is
    asked for."""
    out: Dict[str, Any] = {"level": level, "n_resamples": n_resamples, "seed": seed}
    if level is not None or macro:
        from .statistics import bootstrap_intervals, macro_average

        if level is not None:
            out["intervals"] = bootstrap_intervals(result, level, n_resamples, seed)
        if macro:
            out["macro"] = macro_average(result)
    if errors:
        from .error_types import corpus_error_counts

        out["errors"] = corpus_error_counts(result)
    if tokens is not None:
        from .resolution import score_resolution_classes

        out["classes"] = score_resolution_classes(result, tokens)
    if breakdowns.waterfall:
        from .waterfall import waterfall

        out["waterfall"] = waterfall(result)
    if breakdowns.errors_list:
        from .error_list import error_list

        key_documents = getattr(corpus, "key_documents", None) or None
        out["errors_list"] = error_list(result, _words(corpus), key_documents, response_documents or None)
    if breakdowns.by:
        out["strata"] = {
            attribute: _strata(
                result, attribute, breakdowns.chain_lengths, corpus, response_documents, level, n_resamples, seed
            )
            for attribute in dict.fromkeys(breakdowns.by)
        }
    if breakdowns.variants:
        from .variants import score_variants

        if corpus is None:
            raise ValueError("the variant matrix needs the paired documents (corpus)")
        out["variants"] = score_variants(corpus.pairs, result.settings, n_process)
    if breakdowns.cross_document:
        from .crossdoc import cross_document, topic_documents

        out["cross_document"] = cross_document(result, topic_documents(corpus))
    return Analyses(**out)


def _words(corpus: Any) -> Optional[Dict[str, Sequence[str]]]:
    """The key's words by document name, where the corpus read them."""
    if corpus is None:
        return None
    try:
        return corpus.words()
    except (AttributeError, TypeError):
        return None


def _strata(
    result: CorpusResult, attribute: str, chain_lengths: Optional[str], corpus: Any,
    response_documents: Sequence[Any], level: Optional[float], n_resamples: int, seed: int,
) -> Dict[str, Any]:
    """The JSON block of one attribute's strata, with intervals at ``level``."""
    from .attributes import DEFAULT_CHAIN_LENGTHS, MENTION_TYPE, stratum_values
    from .strata import score_strata

    values = stratum_values(
        attribute, result, chain_lengths or DEFAULT_CHAIN_LENGTHS,
        tokens=corpus.tokens() if corpus is not None and attribute == MENTION_TYPE else None,
        pairs=corpus.pairs if corpus is not None else (),
        key_documents=corpus.key_documents if corpus is not None else (),
        response_documents=response_documents,
    )
    strata = score_strata(result, values)
    intervals = None
    if level is not None:
        from .statistics import bootstrap_intervals

        intervals = {
            name: bootstrap_intervals(strata.result(index), level, n_resamples, seed)
            for index, name in enumerate(strata.names)
        }
    return strata.to_dict(intervals)
