"""How the registry (:mod:`.registry`) computes the analyses built in and
writes them as JSON: each a thin call of the module that holds it."""

from collections.abc import Mapping, Sequence
from typing import Any, Optional

from .registry import Context


def errors(context: Context) -> dict[str, dict[str, int]]:
    """Counts of every error kind by document and in total (:mod:`.error_types`)."""
    from .error_types import corpus_error_counts

    return corpus_error_counts(context.result)


def errors_json(value: Mapping[str, Any], per_doc: bool) -> dict[str, Any]:
    from .error_types import TOTAL

    return {TOTAL: value[TOTAL]}


def errors_document_json(value: Mapping[str, Any], index: int, name: str) -> Any:
    return value[name]


def classes(context: Context) -> Any:
    """Resolution classes (:mod:`.resolution`) on the key's tokens."""
    from .resolution import score_resolution_classes

    return score_resolution_classes(context.result, context.corpus.tokens())


def to_dict(value: Any, per_doc: bool) -> Any:
    return value.to_dict()


def classes_document_json(value: Any, index: int, name: str) -> Any:
    return value.document(index).to_dict()


def waterfall(context: Context) -> Any:
    """The error-impact waterfall (:mod:`.waterfall`)."""
    from .waterfall import waterfall as compute

    return compute(context.result)


def waterfall_document_json(value: Any, index: int, name: str) -> Any:
    return value.to_dict(index)


def errors_list(context: Context) -> Any:
    """Every error listed per document (:mod:`.error_list`), with the key's
    words where the corpus read them and both sides' entity ids where the
    formats keep them."""
    from .error_list import error_list

    key_documents = getattr(context.corpus, "key_documents", None) or None
    return error_list(
        context.result, words(context.corpus), key_documents=key_documents, response_documents=context.response_documents or None
    )


def words(corpus: Any) -> Optional[dict[str, Sequence[str]]]:
    """The key's words by document name, where the corpus read them."""
    if corpus is None:
        return None
    try:
        return corpus.words()
    except (AttributeError, TypeError):
        return None


def check_strata(values: Mapping[str, Any], scoring: Any = None) -> None:
    """Every ``--by`` attribute known and the chain lengths readable."""
    from .attributes import check_attribute
    from .ranges import ChainLengths

    if values.get("by"):
        for attribute in values["by"]:
            check_attribute(attribute)
        ChainLengths.parse(values.get("chain_lengths") or "1,2-5,6+")
        from .spread import spreads_of

        for attribute in ("spread", "spread-sentences"):
            if attribute in values["by"]:
                spreads_of(attribute, values.get("spreads"))


def strata(context: Context) -> dict[str, Any]:
    """The JSON blocks of the strata of every ``--by`` attribute (:mod:`.strata`)."""
    return {attribute: stratum_block(context, attribute) for attribute in dict.fromkeys(context.values.get("by") or ())}


def stratum_block(context: Context, attribute: str) -> dict[str, Any]:
    """The JSON block of one attribute's strata, with intervals at the run's level."""
    from .attributes import DEFAULT_CHAIN_LENGTHS, MENTION_TYPE, SPREAD_SENTENCES, stratum_values
    from .strata import score_strata

    corpus, result = context.corpus, context.result
    values = stratum_values(
        attribute,
        result,
        context.values.get("chain_lengths") or DEFAULT_CHAIN_LENGTHS,
        tokens=corpus.tokens() if corpus is not None and attribute in (MENTION_TYPE, SPREAD_SENTENCES) else None,
        pairs=corpus.pairs if corpus is not None else (),
        key_documents=corpus.key_documents if corpus is not None else (),
        response_documents=context.response_documents,
        spreads=context.values.get("spreads"),
    )
    return strata_json(result, score_strata(result, values), context)


def strata_json(result: Any, strata: Any, context: Context) -> dict[str, Any]:
    """A :class:`~.strata.Strata` as its JSON block, with bootstrap
    intervals per stratum when the run asks for them."""
    intervals = None
    if context.level is not None:
        from .statistics import bootstrap_intervals

        intervals = {
            name: bootstrap_intervals(strata.result(index), context.level, context.n_resamples, seed=context.seed)
            for index, name in enumerate(strata.names)
        }
    return strata.to_dict(intervals)


def check_variants(values: Mapping[str, Any], scoring: Any = None) -> None:
    """``--variants`` sets preset, matching and singletons itself: none given."""
    given = [f"--{name}" for name in ("preset", "match", "singletons") if getattr(scoring, name, None) is not None]
    if values.get("variants") and given:
        raise ValueError(f"--variants scores every preset, matching and singleton setting itself; leave out {', '.join(given)}")


def variants(context: Context) -> Any:
    """The variant matrix (:mod:`.variants`) of the corpus's pairs."""
    from .variants import score_variants

    if context.corpus is None:
        raise ValueError("the variant matrix needs the paired documents (corpus)")
    return score_variants(context.corpus.pairs, context.result.settings, context.n_process)


def variants_json(value: Any, per_doc: bool) -> Any:
    return [variant.to_dict() for variant in value]


def cross_document(context: Context) -> Any:
    """Links within and across documents (:mod:`.crossdoc`)."""
    from .crossdoc import cross_document as compute, topic_documents

    return compute(context.result, topic_documents(context.corpus))


def crossdoc_json(value: Any, per_doc: bool) -> Any:
    return value.to_dict(per_doc)
