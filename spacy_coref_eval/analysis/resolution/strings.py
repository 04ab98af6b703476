"""String matches of the resolution classes (docs/resolution_classes.md §2,
§5): whether a mention repeats the words of a preceding mention of its
entity, else shares a content word with one, from mention boundaries,
prefix sums and exact substring ids, never from every mention's tokens."""

import numpy as np

from ...arrays import expand_ranges, range_values
from ...model.clusters import Clusters

_BASE = 0x9E3779B97F4A7C15


def string_matches(mentions: Clusters, rank: np.ndarray, chosen: np.ndarray, *, word: np.ndarray, content: np.ndarray) -> np.ndarray:
    """For mentions ``chosen``: 0 if a preceding mention (by ``rank``) of
    its entity has the same words, else 1 if one shares a content word with
    it, else 2. ``word`` (lower-cased word id) and ``content`` are given
    for every token position a mention covers."""
    keep = np.zeros(mentions.n_entities, dtype=bool)
    keep[mentions.entity[chosen]] = True
    kept = np.flatnonzero(keep[mentions.entity])
    index = np.full(len(mentions), -1, dtype=np.int64)
    index[kept] = np.arange(len(kept))
    entity, starts, ends, ranks = mentions.entity[kept], mentions.starts[kept], mentions.ends[kept], rank[kept]
    asked = index[chosen]
    exact = exact_repeats(entity, starts, ends, rank=ranks, word=word)[asked]
    wanted = np.zeros(len(kept), dtype=bool)
    wanted[asked[~exact]] = True
    shared = shares_content_word(entity, starts, ends, rank=ranks, word=word, content=content, wanted=wanted)[asked]
    return np.where(exact, 0, np.where(shared, 1, 2))


def merged_spans(entity: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The union of every entity's spans as disjoint spans ``(entity,
    start, end)``, sorted by entity, then start."""
    if len(entity) == 0:
        return entity, starts, ends
    order = np.lexsort((starts, entity))
    entity, starts, ends = entity[order], starts[order], ends[order]
    reach = _reach_before(entity, ends)
    new = starts > reach
    first = np.flatnonzero(new)
    return entity[first], starts[first], np.maximum.reduceat(ends, first)


def _reach_before(entity: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """For spans sorted by entity, then start: the furthest end of the
    spans of the same entity before each (-1 for an entity's first)."""
    width = int(ends.max()) + 2
    running = np.maximum.accumulate(entity * width + ends)
    reach = np.full(len(entity), -1, dtype=np.int64)
    same = entity[1:] == entity[:-1]
    reach[1:][same] = running[:-1][same] - entity[1:][same] * width
    return reach


def exact_repeats(entity: np.ndarray, starts: np.ndarray, ends: np.ndarray, *, rank: np.ndarray, word: np.ndarray) -> np.ndarray:
    """Mask of the mentions whose words equal those of a mention of their
    entity of lower ``rank``. A polynomial hash from prefix sums picks the
    mentions that may repeat one; those are then compared exactly by
    :func:`substring_ids`."""
    n = len(entity)
    repeats = np.zeros(n, dtype=bool)
    if n == 0:
        return repeats
    lengths = ends - starts
    word, starts = _compacted(word, starts, ends)
    hashes = _span_hashes(word, starts, starts + lengths)
    order = np.lexsort((rank, hashes, lengths, entity))
    same = (entity[order][1:] == entity[order][:-1]) & (lengths[order][1:] == lengths[order][:-1])
    same &= hashes[order][1:] == hashes[order][:-1]
    maybe = np.zeros(n, dtype=bool)
    maybe[order[1:][same]] = maybe[order[:-1][same]] = True
    picked = np.flatnonzero(maybe)
    if not len(picked):
        return repeats
    first, last = substring_ids(word, starts[picked], lengths[picked])
    order = np.lexsort((rank[picked], last, first, lengths[picked], entity[picked]))
    keys = np.stack([entity[picked], lengths[picked], first, last])[:, order]
    repeats[picked[order[1:]]] = (keys[:, 1:] == keys[:, :-1]).all(axis=0)
    return repeats


def _span_hashes(word: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Σ_i (word[start + i] + 1) · B^i mod 2^64 of every span, from one
    prefix sum over all positions (B is odd, so B^-start undoes the shift)."""
    n = len(word)
    powers = np.cumprod(np.full(n + 1, _BASE, dtype=np.uint64), dtype=np.uint64)
    powers = np.concatenate([np.ones(1, dtype=np.uint64), powers[:-1]])
    inverse = np.cumprod(np.full(n + 1, pow(_BASE, -1, 1 << 64), dtype=np.uint64), dtype=np.uint64)
    inverse = np.concatenate([np.ones(1, dtype=np.uint64), inverse[:-1]])
    terms = (word + 1).astype(np.uint64) * powers[:n]
    prefix = np.concatenate([np.zeros(1, dtype=np.uint64), np.cumsum(terms, dtype=np.uint64)])
    return (prefix[ends] - prefix[starts]) * inverse[starts]


def substring_ids(word: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two ids per span such that spans of equal length have equal words
    exactly when they have equal ids: the ids of the span's first and last
    2^k words, k = floor(log2 length), where the id of every run of 2^k
    words is built from two runs of 2^(k-1) (prefix doubling; one sort per
    level, over the words of the union of the spans only)."""
    ids, starts = _compacted(word, starts, starts + lengths)
    ids = ids.astype(np.int64) + 1
    levels = np.frexp(lengths)[1].astype(np.int64) - 1
    first = np.empty(len(starts), dtype=np.int64)
    last = np.empty(len(starts), dtype=np.int64)
    for level in range(int(levels.max()) + 1):
        at = np.flatnonzero(levels == level)
        first[at] = ids[starts[at]]
        last[at] = ids[starts[at] + lengths[at] - (1 << level)]
        if level < int(levels.max()):
            half = 1 << level
            runs = len(ids) - half
            _, ids = np.unique(ids[:runs] * (int(ids.max()) + 1) + ids[half : half + runs], return_inverse=True)
            ids = ids.reshape(-1)
    return first, last


def _compacted(word: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The words of the union of the spans, one stretch after another, and
    where each span starts in them."""
    _, region_start, region_end = merged_spans(np.zeros(len(starts), dtype=np.int64), starts, ends)
    sizes = region_end - region_start
    shift = np.cumsum(sizes) - sizes - region_start
    return word[range_values(region_start, region_end)], starts + shift[np.searchsorted(region_start, starts, "right") - 1]


def shares_content_word(
    entity: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    *,
    rank: np.ndarray,
    word: np.ndarray,
    content: np.ndarray,
    wanted: np.ndarray,
    budget: int = 0,
) -> np.ndarray:
    """For the ``wanted`` mentions: whether a mention of their entity of
    lower ``rank`` has a content word (case-insensitively) that they have.

    In (start, end) order, the mentions of an entity before a mention m
    cover, of m's tokens, a prefix [start, reach): a content token there is
    shared outright. m's other tokens are the tokens that m is the first
    of its entity to cover; these pieces partition the entity's union, and
    only entities with a wanted mention not settled by its prefix walk
    theirs, in batches of about ``budget`` tokens (default: the number of
    positions and mentions, at least 2^20), so that memory stays linear
    (§5)."""
    out = np.zeros(len(entity), dtype=bool)
    if not wanted.any():
        return out
    order = np.lexsort((rank, entity))
    reach = _reach_before(entity[order], ends[order])
    cut = np.empty(len(entity), dtype=np.int64)
    cut[order] = np.clip(reach, starts[order], ends[order])
    counts = np.concatenate([[0], np.cumsum(content)])
    out[wanted] = counts[cut[wanted]] > counts[starts[wanted]]
    open_ = wanted & ~out & (counts[ends] > counts[cut])
    if not open_.any():
        return out
    walking = np.zeros(int(entity.max()) + 1, dtype=bool)
    walking[entity[open_]] = True
    pieces = np.flatnonzero(walking[entity] & (ends > cut))
    pieces = pieces[np.lexsort((rank[pieces], entity[pieces]))]
    sizes = ends[pieces] - cut[pieces]
    budget = budget or max(len(word) + len(entity), 1 << 20)
    total = np.cumsum(sizes)
    new_entity = np.r_[True, entity[pieces][1:] != entity[pieces][:-1]]
    batch = np.maximum.accumulate(np.where(new_entity, (total - sizes) // budget, 0))
    n_words = int(word.max()) + 1
    for part in np.split(pieces, np.flatnonzero(np.diff(batch)) + 1):
        _walk_pieces(part, entity, cut, ends=ends, rank=rank, word=word, n_words=n_words, content=content, open_=open_, out=out)
    return out


def _walk_pieces(
    pieces: np.ndarray,
    entity: np.ndarray,
    cut: np.ndarray,
    *,
    ends: np.ndarray,
    rank: np.ndarray,
    word: np.ndarray,
    n_words: int,
    content: np.ndarray,
    open_: np.ndarray,
    out: np.ndarray,
) -> None:
    """Settle the ``open_`` mentions among ``pieces`` (whole entities, in
    rank order within each): the earliest rank at which each (entity,
    content word) occurs, against the rank of every open mention having it."""
    owner, token = expand_ranges(cut[pieces], ends[pieces])
    owner = pieces[owner]
    keep = content[token]
    owner, token = owner[keep], token[keep]
    keys = entity[owner] * n_words + word[token]
    order = np.argsort(keys, kind="stable")
    keys, owner = keys[order], owner[order]
    starts = np.r_[True, keys[1:] != keys[:-1]]
    earliest = rank[owner][starts][np.cumsum(starts) - 1]
    settled = owner[(earliest < rank[owner]) & open_[owner]]
    out[settled] = True
