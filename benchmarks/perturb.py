"""Seeded system responses made from gold clusters, for tests and benchmarks.

A response differs from the key the way real systems differ: mentions
dropped, spurious mentions added, boundaries shifted by a token, entities
split in two and pairs of entities merged. The same seed gives the same
response.
"""

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from spacy_coref_eval.formats.conll.write import crossing_mentions
from spacy_coref_eval.model.clusters import Clusters


@dataclass(frozen=True)
class Errors:
    """Rates of each kind of error, per mention or per entity."""

    drop: float = 0.1
    add: float = 0.1
    shift: float = 0.1
    split: float = 0.1
    merge: float = 0.05


def perturb(clusters: Clusters, n_tokens: int, rng: np.random.Generator, errors: Errors = Errors(), writable: bool = True) -> Clusters:
    """A response for ``clusters`` (on a document of ``n_tokens`` tokens).
    ``writable`` drops mentions that cross another mention of their entity,
    which CoNLL-2012 brackets cannot express (as no system's CoNLL output
    has them)."""
    starts, ends, labels = clusters.starts.copy(), clusters.ends.copy(), clusters.entity.copy()
    n_entities = clusters.n_entities
    n = len(starts)

    shift = rng.random(n) < errors.shift
    move = rng.choice(np.array([-1, 1]), size=n)
    at_start = rng.random(n) < 0.5
    new_starts = np.where(shift & at_start, starts + move, starts)
    new_ends = np.where(shift & ~at_start, ends + move, ends)
    valid = (new_starts >= 0) & (new_ends <= n_tokens) & (new_ends > new_starts)
    starts, ends = np.where(valid, new_starts, starts), np.where(valid, new_ends, ends)

    split = rng.random(max(n_entities, 1))[:n_entities] < errors.split
    half = rng.random(n) < 0.5
    moved = split[labels] & half
    labels = np.where(moved, labels + n_entities, labels)

    merge_into = np.arange(2 * n_entities)
    merging = rng.random(2 * n_entities) < errors.merge
    if 2 * n_entities:
        merge_into[merging] = rng.integers(0, 2 * n_entities, size=int(merging.sum()))
    labels = merge_into[labels]

    keep = rng.random(n) >= errors.drop
    starts, ends, labels = starts[keep], ends[keep], labels[keep]

    n_added = rng.binomial(n, errors.add) if n_tokens else 0
    add_starts = rng.integers(0, max(n_tokens, 1), size=n_added)
    add_ends = np.minimum(add_starts + rng.integers(1, 4, size=n_added), n_tokens)
    singleton = rng.random(n_added) < 0.5
    add_labels = np.where(singleton, 2 * n_entities + np.arange(n_added), rng.integers(0, max(2 * n_entities, 1), size=n_added))
    response = Clusters.from_arrays(
        np.concatenate([starts, add_starts]), np.concatenate([ends, add_ends]), np.concatenate([labels, add_labels])
    )
    return response.subset(~crossing_mentions(response)) if writable else response


def perturb_corpus(
    key: Mapping[str, Clusters], n_tokens: Mapping[str, int], seed: int = 0, errors: Errors = Errors()
) -> dict[str, Clusters]:
    """A response for every document, from one seed."""
    rng = np.random.default_rng(seed)
    return {name: perturb(clusters, n_tokens[name], rng, errors) for name, clusters in key.items()}


def synthetic_key(n_mentions: int, seed: int = 0, mentions_per_entity: int = 4) -> Clusters:
    """One long document: ``n_mentions`` non-overlapping mentions of 1–3
    tokens in ``n_mentions / mentions_per_entity`` entities."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, 4, size=n_mentions)
    gaps = rng.integers(1, 6, size=n_mentions)
    starts = np.cumsum(gaps + np.r_[0, lengths[:-1]])
    labels = rng.integers(0, max(n_mentions // mentions_per_entity, 1), size=n_mentions)
    return Clusters.from_arrays(starts, starts + lengths, labels)
