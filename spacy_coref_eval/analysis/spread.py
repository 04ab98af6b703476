"""Strata by spread (docs/long-documents.md §1): how far an entity reaches,
from the start of its first mention to the start of its last, in tokens
(``--by spread``) or sentences (``--by spread-sentences``, from the key's
sentence starts), cut by ranges written as chain lengths are
(:class:`~.attributes.ChainLengths`, from 0 on). CRAC 2026 (Novák et al.)
asks for long-range entities, those spanning many words and sentences; a
singleton spreads 0."""

from collections.abc import Sequence
from typing import Optional

import numpy as np

from ..errors import CorefInputError
from ..model.clusters import Clusters
from ..twinning import TwinnedCorpus
from .ranges import ChainLengths
from .strata import StratumValues

DEFAULT_SPREADS = {"spread": "0,1-99,100-999,1000-9999,10000+", "spread-sentences": "0,1-4,5-19,20-99,100+"}
"""Default ranges: a news text (≈ 30 sentences, 700 tokens) falls in the
first three, a novel (LitBank's 2,000-token excerpts to 200,000-token
books) reaches the last."""


def spreads_of(attribute: str, spec: Optional[str]):
    """The ranges of ``spec`` (default :data:`DEFAULT_SPREADS`), from 0 on."""
    return ChainLengths.parse(spec or DEFAULT_SPREADS[attribute], first=0)


def spread_values(
    twinned: TwinnedCorpus, attribute: str, spec: Optional[str] = None, *, tokens: Optional[Sequence] = None
) -> StratumValues:
    """Every mention's stratum by the spread of its entity on its own side,
    in tokens, or for ``spread-sentences`` in sentences of the key's
    ``tokens`` (one :class:`~spacy_coref_eval.model.tokens.Tokens` per
    document)."""
    ranges = spreads_of(attribute, spec)
    position = None
    if attribute == "spread-sentences":
        if tokens is None:
            raise CorefInputError("--by spread-sentences needs the key's sentences (tokens)")
        position = sentence_index(twinned, tokens)
    key = ranges.of(entity_spread(twinned.key, position))
    response = ranges.of(entity_spread(twinned.response, position))
    return StratumValues(attribute, ranges.names, key, response)


def entity_spread(clusters: Clusters, position: Optional[np.ndarray] = None) -> np.ndarray:
    """For every mention, its entity's spread: the last mention's start
    minus the first's, in tokens, or in the units of ``position`` (a value
    per stacked token)."""
    starts = clusters.starts.astype(np.int64)
    if position is not None:
        starts = position[np.minimum(starts, len(position) - 1)] if len(position) else starts * 0
    first = np.full(clusters.n_entities, np.iinfo(np.int64).max, dtype=np.int64)
    last = np.full(clusters.n_entities, np.iinfo(np.int64).min, dtype=np.int64)
    np.minimum.at(first, clusters.entity, starts)
    np.maximum.at(last, clusters.entity, starts)
    return (last - first)[clusters.entity]


def sentence_index(twinned: TwinnedCorpus, tokens: Sequence) -> np.ndarray:
    """The sentence of every stacked token within its document, read off
    each document's sentence starts."""
    if len(tokens) != twinned.n_docs:
        raise CorefInputError(f"sentences: {len(tokens)} token sequences for {twinned.n_docs} documents")
    ends = np.append(twinned.offsets, twinned.size).astype(np.int64)
    out = np.zeros(int(twinned.size), dtype=np.int64)
    for d, part in enumerate(tokens):
        local = np.arange(ends[d + 1] - ends[d], dtype=np.int64)
        starts = np.asarray(part.sentence_starts, dtype=np.int64)
        if not len(starts):
            starts = np.zeros(1, dtype=np.int64)
        out[ends[d] : ends[d + 1]] = np.maximum(np.searchsorted(starts, local, side="right") - 1, 0)
    return out
