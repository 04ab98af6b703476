"""A string-match baseline (docs/long-documents.md §6): the key's own
mentions, those with the same text — lowercased words joined by one space
— in one entity (``string``), and where the key marks heads, those with
the same head word, lowercased (``head``); the lemma baseline every ECB+
paper reports (Ahmed et al. 2023), computed one way. ``spacy-coref-eval
baseline`` writes it as a response; ``score --baseline`` scores it beside
the system."""

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import CorefInputError
from ..model.clusters import Clusters, Pair
from ..scoring import score_pairs
from .registry import Context

VARIANTS = ("string", "head")


def baseline_clusters(key: Clusters, words: Sequence[str], by: str = "string") -> Clusters:
    """The key's mentions with the same text (``by="string"``) or head word
    (``by="head"``) in one entity, numbered by first appearance."""
    lowered = [word.lower() for word in words]
    starts, ends = key.starts.tolist(), key.ends.tolist()
    if by == "head":
        if key.heads is None:
            raise CorefInputError("the head-match baseline needs mention heads, which the key does not mark")
        forms = [lowered[h] if 0 <= h < len(lowered) else "" for h in key.heads.tolist()]
    else:
        forms = [" ".join(lowered[s:e]) for s, e in zip(starts, ends)]
    position = np.lexsort((key.ends, key.starts))
    label: dict[str, int] = {}
    entity = np.zeros(len(forms), dtype=np.int64)
    for m in position.tolist():
        entity[m] = label.setdefault(forms[m], len(label))
    order = np.lexsort((key.ends, key.starts, entity))
    heads = None if key.heads is None else key.heads[order]
    nodes = None if key.nodes is None else key.nodes.take(order)
    return Clusters(key.starts[order], key.ends[order], entity[order], len(label), heads=heads, repeated=0, nodes=nodes)


def variants_of(key_has_heads: bool) -> list[str]:
    """The baselines a key allows: ``string``, and ``head`` where it marks heads."""
    return list(VARIANTS) if key_has_heads else ["string"]


def compute(context: Context) -> dict[str, Any]:
    """The ``baseline`` block: each variant's scores, with the run's settings."""
    corpus = context.corpus
    if corpus is None or not corpus.pairs:
        raise CorefInputError("--baseline needs the key's documents and words")
    words = corpus.words()
    pairs = list(corpus.pairs)
    keys = [pair.key if isinstance(pair.key, Clusters) else Clusters.from_entities(pair.key) for pair in pairs]
    out: dict[str, Any] = {}
    for variant in variants_of(all(key.heads is not None for key in keys) and bool(keys)):
        scored = [Pair(pair.name, key, baseline_clusters(key, words[pair.name], variant), pair.n_tokens) for pair, key in zip(pairs, keys)]
        out[variant] = {"metrics": score_pairs(scored, context.result.settings, keep_twinned=False).metrics()}
    return out
