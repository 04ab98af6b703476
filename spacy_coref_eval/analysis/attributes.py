"""What the strata of :mod:`.strata` are cut by (docs/analyses.md §3): the
value of one attribute for every mention of a run's twinning, the key's
mentions by their own value and the response's by theirs. Chain length
comes from the clusters, mention type from the key's tokens, entity type
and ``attr:KEY`` from what the input format keeps (CorefUD CoNLL-U)."""

from collections.abc import Sequence
from typing import Any, Optional, cast

import numpy as np

from ..errors import CorefInputError
from ..formats import ReadOptions, get_format
from ..formats.corpus import match_names, read_side
from ..model.clusters import Clusters, Pair
from ..model.tokens import Tokens
from ..scoring import CorpusResult, Settings
from ..twinning import TwinnedCorpus
from .ranges import ChainLengths
from .resolution.classify import mention_kinds
from .resolution.lexicon import COMMON, OTHER, PRONOUN, PROPER
from .spread import spread_values
from .strata import StratumValues

CHAIN_LENGTH, MENTION_TYPE, ENTITY_TYPE, ATTR = "chain-length", "mention-type", "entity-type", "attr:"
SPREAD, SPREAD_SENTENCES = "spread", "spread-sentences"
ATTRIBUTES: tuple[str, ...] = (CHAIN_LENGTH, MENTION_TYPE, ENTITY_TYPE, ATTR + "KEY", SPREAD, SPREAD_SENTENCES)
DEFAULT_CHAIN_LENGTHS = "1,2-5,6+"
MENTION_TYPES: tuple[str, ...] = ("pronoun", "proper", "nominal", "other")
"""The mention types, by the kind of the mention's head (docs/analyses.md §3)."""
UNKNOWN = "_"
"""The stratum of mentions whose input states no value."""
_COLUMNS = ("pos", "tag", "person", "gender")


def chain_length_values(twinned: TwinnedCorpus, lengths: ChainLengths) -> StratumValues:
    """Every mention's stratum by the size of its entity on its own side
    (after the run's singleton and zero handling)."""
    return StratumValues(CHAIN_LENGTH, lengths.names, lengths.of(_entity_sizes(twinned.key)), lengths.of(_entity_sizes(twinned.response)))


def _entity_sizes(clusters: Clusters) -> np.ndarray:
    return np.bincount(clusters.entity, minlength=clusters.n_entities)[clusters.entity]


def mention_type_values(twinned: TwinnedCorpus, tokens: Sequence[Tokens]) -> StratumValues:
    """Every mention's stratum by the kind of its head, read off the key's
    ``tokens`` (one per document) as the resolution classes read them
    (:func:`~.resolution.classify.mention_kinds`); a response mention is
    read on the key's tokens too."""
    if len(tokens) != twinned.n_docs:
        raise CorefInputError(f"mention types: {len(tokens)} token sequences for {twinned.n_docs} documents")
    columns: list[Optional[list]] = [[] if all(getattr(part, name) is not None for part in tokens) else None for name in _COLUMNS]
    padded = [*tokens, Tokens([], [0], *columns)]
    stacked = Tokens.stack(padded, np.append(twinned.offsets, twinned.size))
    stratum = np.zeros(max(PROPER, COMMON, PRONOUN, OTHER) + 1, dtype=np.int64)
    for index, kind in enumerate((PRONOUN, PROPER, COMMON, OTHER)):
        stratum[kind] = index
    return StratumValues(
        MENTION_TYPE, MENTION_TYPES, stratum[mention_kinds(twinned.key, stacked)], stratum[mention_kinds(twinned.response, stacked)]
    )


def document_values(
    attribute: str,
    result: CorpusResult,
    pairs: Sequence[Pair],
    *,
    key_documents: Sequence[Any],
    response_documents: Sequence[Optional[Any]],
) -> StratumValues:
    """Every mention's stratum by ``entity-type`` or ``attr:KEY``, read
    from each pair's key document and its response document (``None``
    where the response has none) as the format keeps them (CorefUD CoNLL-U:
    :func:`mention_values`); values the input does not state are
    :data:`UNKNOWN`. A key of a format that keeps no such values is an
    error saying what is missing."""
    twinned = result.twinned
    if twinned is None:
        raise CorefInputError("strata need the twinned mentions; results merged from saved counts have none")
    key_values: list[str] = []
    response_values: list[str] = []
    for pair, key_document, response_document in zip(pairs, key_documents, response_documents):
        given = mention_values(key_document, attribute)
        if given is None:
            raise CorefInputError(_not_kept(attribute, key_document))
        key_values += _run_mentions(given, cast(Clusters, pair.key), result.settings, name=pair.name, side="key")
        found = mention_values(response_document, attribute) if response_document is not None else None
        found = found if found is not None else [UNKNOWN] * len(pair.response)
        response_values += _run_mentions(found, cast(Clusters, pair.response), result.settings, name=pair.name, side="response")
    if len(key_values) != len(twinned.key) or len(response_values) != len(twinned.response):
        raise CorefInputError(f"{attribute}: the documents read do not match the run's mentions")
    names = sorted(set(key_values) | set(response_values), key=lambda value: (value == UNKNOWN, value))
    index = {name: i for i, name in enumerate(names)}
    return StratumValues(
        attribute,
        tuple(names),
        np.array([index[v] for v in key_values], dtype=np.int64),
        np.array([index[v] for v in response_values], dtype=np.int64),
    )


def _not_kept(attribute: str, document: Any) -> str:
    what = "entity types (the etype of CorefUD's Entity=)" if attribute == ENTITY_TYPE else f"mention attribute {attribute[len(ATTR) :]!r}"
    return (
        f"--by {attribute} needs {what}, which only CorefUD CoNLL-U input keeps today; the key is read as "
        f"{type(document).__name__} (spaCy span labels and attributes, jsonlines and CoNLL-2012 carry none the "
        "readers keep)"
    )


def _run_mentions(values: Sequence[str], clusters: Clusters, settings: Settings, *, name: str, side: str) -> list[str]:
    """``values`` (one per mention of ``clusters``) of the mentions a run
    with ``settings`` scores: singletons and zeros dropped as
    :func:`~spacy_coref_eval.twinning.twin_corpus` drops them."""
    if len(values) != len(clusters):
        raise CorefInputError(f"document {name!r}: {len(values)} attribute values for the {len(clusters)} {side} mentions")
    kept = np.arange(len(clusters))
    if settings.singletons == "remove":
        mask = clusters.non_singletons()
        kept, clusters = kept[mask], clusters.subset(mask)
    if settings.zeros == "exclude":
        kept = kept[~clusters.zeros()]
    return [values[i] for i in kept.tolist()]


def mention_values(document: Any, attribute: str) -> Optional[list[str]]:
    """The value of ``attribute`` for every mention of a side document's
    clusters, or ``None`` when its format keeps none: for a CorefUD
    CoNLL-U document, ``entity-type`` is the etype its entity states (on
    the first mention that states one) and ``attr:KEY`` the value of
    ``KEY`` in the MISC column of the mention's head word."""
    from ..formats.conllu.side import ConlluSideDocument

    if not isinstance(document, ConlluSideDocument):
        return None
    corefud = document.document
    kept = _kept_mentions(corefud)
    if attribute == ENTITY_TYPE:
        stated: dict[int, str] = {}
        for label, etype in zip(corefud.mention_entity.tolist(), corefud.mention_etype):
            if etype and etype not in ("_", "-"):
                stated.setdefault(label, etype)
        return [stated.get(int(corefud.mention_entity[m]), UNKNOWN) for m in kept]
    if not attribute.startswith(ATTR) or not attribute[len(ATTR) :]:
        raise ValueError(f"unknown attribute {attribute!r}; choose from {', '.join(ATTRIBUTES)}")
    misc = corefud.token_columns.get(9)
    wanted = attribute[len(ATTR) :]
    out = []
    for m in kept:
        if corefud.mention_zero[m] or not misc:
            out.append(UNKNOWN)
            continue
        items = dict(item.partition("=")[::2] for item in misc[int(corefud.mention_head[m])].split("|"))
        out.append(items.get(wanted) or UNKNOWN)
    return out


def _kept_mentions(corefud: Any) -> list[int]:
    """The mention of a CorefUD document behind every mention of its
    clusters: ordered by entity (stably), the first of each set of nodes
    kept, as :meth:`Clusters.from_arrays` builds them."""
    order = np.argsort(corefud.mention_entity, kind="stable").tolist()
    keys = corefud.word_keys()
    seen = set()
    kept = []
    for m in order:
        nodes = corefud.node_keys_of(m, keys)
        if nodes not in seen:
            seen.add(nodes)
            kept.append(m)
    return kept


def stratum_values(
    attribute: str,
    result: CorpusResult,
    chain_lengths: str = DEFAULT_CHAIN_LENGTHS,
    *,
    tokens: Optional[Sequence[Tokens]] = None,
    pairs: Sequence[Pair] = (),
    key_documents: Sequence[Any] = (),
    response_documents: Sequence[Optional[Any]] = (),
    spreads: Optional[str] = None,
) -> StratumValues:
    """The strata of ``attribute`` (:data:`ATTRIBUTES`) for a run: chain
    lengths by ``chain_lengths``, mention types from the key's ``tokens``,
    entity types and ``attr:KEY`` from the paired documents, an entity's
    spread in tokens or (from the key's ``tokens``) sentences by ``spreads``
    (:mod:`.spread`)."""
    twinned = result.twinned
    if twinned is None:
        raise CorefInputError("strata need the twinned mentions; results merged from saved counts have none")
    if attribute == CHAIN_LENGTH:
        return chain_length_values(twinned, ChainLengths.parse(chain_lengths))
    if attribute in (SPREAD, SPREAD_SENTENCES):
        return spread_values(twinned, attribute, spreads, tokens=tokens)
    if attribute == MENTION_TYPE:
        if tokens is None:
            raise CorefInputError("--by mention-type needs the key's tokens")
        return mention_type_values(twinned, tokens)
    if attribute == ENTITY_TYPE or (attribute.startswith(ATTR) and attribute[len(ATTR) :]):
        response_documents = list(response_documents) or [None] * len(pairs)
        return document_values(attribute, result, pairs, key_documents=key_documents, response_documents=response_documents)
    raise ValueError(f"unknown stratum attribute {attribute!r}; choose from {', '.join(ATTRIBUTES)}")


def check_attribute(attribute: str) -> str:
    """``attribute`` if it names strata (:data:`ATTRIBUTES`), else :class:`ValueError`."""
    if attribute in (CHAIN_LENGTH, MENTION_TYPE, ENTITY_TYPE, SPREAD, SPREAD_SENTENCES) or (
        attribute.startswith(ATTR) and attribute[len(ATTR) :]
    ):
        return attribute
    raise ValueError(f"unknown stratum attribute {attribute!r}; choose from {', '.join(ATTRIBUTES)}")


def paired_response_documents(path: Any, options: Any, names: Sequence[str]) -> list[Optional[Any]]:
    """The response documents of the pairs ``names`` (a run's document
    names, in order), read again from ``path`` with the reading
    ``options`` of the run (:class:`~spacy_coref_eval.scoring.Options`):
    by name where the response's documents are named, else by order."""
    given = options.formats[1]
    side = read_side(path, get_format(given) if given else None, ReadOptions("response", options.spans[1], True, False, entity_ids=True))
    documents = side.documents
    if options.pair_by != "order" and side.named:
        by_name = {cast(str, document.name): document for document in documents}  # side.named
        matched = match_names(list(names), list(by_name))
        return [by_name.get(matched.get(name, "")) for name in names]
    return [documents[i] if i < len(documents) else None for i in range(len(names))]
