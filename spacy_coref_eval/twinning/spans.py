"""Span geometry for twinning: which key and response mentions have the
same tokens (:func:`exact_twins`) and which overlap
(:func:`overlapping_pairs`), by sorting and binary search on spans, never
by comparing all pairs."""

import numpy as np

from ..arrays import expand_ranges
from ..model.clusters import Clusters, set_codes


def exact_twins(key: Clusters, response: Clusters) -> np.ndarray:
    """Twin of each response mention with the same tokens in the key, else
    -1; O((n + m) log n) on ranges. Mentions are unique on each side, so the
    twins are one-to-one. A mention whose token set is not its range can
    only equal another such set, which is compared as a set."""
    twins = np.full(len(response), -1, dtype=np.int64)
    if len(key) == 0 or len(response) == 0:
        return twins
    key_odd, response_odd = key.scattered(), response.scattered()
    width = int(max(key.ends.max(), response.ends.max())) + 1
    if key.nodes is None:
        order, sorted_codes = _sorted_spans(key, width)
    else:
        key_codes = np.where(key_odd, -1, key.starts * width + key.ends)
        order = np.argsort(key_codes, kind="stable")
        sorted_codes = key_codes[order]
    codes = response.starts * width + response.ends
    position = np.minimum(np.searchsorted(sorted_codes, codes), len(sorted_codes) - 1)
    found = (sorted_codes[position] == codes) & ~response_odd
    twins[found] = order[position[found]]
    if response_odd.any() and key_odd.any():
        key_ids, response_ids = np.flatnonzero(key_odd), np.flatnonzero(response_odd)
        assert key.nodes is not None and response.nodes is not None  # odd mentions are token sets
        key_codes, response_codes = set_codes(key.nodes.take(key_ids), response.nodes.take(response_ids))
        by_code = dict(zip(key_codes.tolist(), key_ids.tolist()))
        twins[response_ids] = [by_code.get(code, -1) for code in response_codes.tolist()]
    return twins


def twinless_by_span(key: Clusters, response: Clusters) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`exact_twins`, and the mentions left without a twin on each
    side, ordered by (start, end): both sides sorted by span once, then
    merged (two sorted runs, so the stable sort of their concatenation is a
    linear merge). Mentions that are token sets take :func:`exact_twins`
    and a sort of the rest."""
    if key.nodes is not None or response.nodes is not None:
        return _twinless_of_sets(key, response)
    twins = np.full(len(response), -1, dtype=np.int64)
    width = 1 + max((int(side.ends.max()) for side in (key, response) if len(side)), default=0)
    key_order, key_codes = _sorted_spans(key, width)
    response_order, response_codes = _sorted_spans(response, width)
    key_free, response_free = np.ones(len(key), dtype=bool), np.ones(len(response), dtype=bool)
    if len(key) and len(response):
        codes = np.concatenate([key_codes, response_codes])
        merged = np.argsort(codes, kind="stable")
        codes = codes[merged]
        pair = np.flatnonzero((codes[1:] == codes[:-1]) & (merged[:-1] < len(key)) & (merged[1:] >= len(key)))
        key_rank, response_rank = merged[pair], merged[pair + 1] - len(key)
        twins[response_order[response_rank]] = key_order[key_rank]
        key_free[key_rank] = response_free[response_rank] = False
    return twins, key_order[key_free], response_order[response_free]


def _twinless_of_sets(key: Clusters, response: Clusters) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`twinless_by_span` where some mentions are token sets."""
    twins = exact_twins(key, response)
    taken = np.zeros(len(key), dtype=bool)
    taken[twins[twins >= 0]] = True
    free_keys, free_responses = np.flatnonzero(~taken), np.flatnonzero(twins < 0)
    return (
        twins,
        free_keys[np.lexsort((key.ends[free_keys], key.starts[free_keys]))],
        free_responses[np.lexsort((response.ends[free_responses], response.starts[free_responses]))],
    )


def _sorted_spans(clusters: Clusters, width: int) -> tuple[np.ndarray, np.ndarray]:
    """The mentions ordered by (start, end), and their spans as sorted codes
    start · width + end."""
    codes = clusters.starts * width + clusters.ends
    order = np.argsort(codes, kind="stable")
    return order, codes[order]


def overlapping_pairs(
    key_starts: np.ndarray, key_ends: np.ndarray, *, response_starts: np.ndarray, response_ends: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Indices ``(i, j)`` of every key span i that shares a token with
    response span j, each pair once.

    Spans overlap iff one starts inside the other: r starts in [k.start, k.end),
    or k starts in (r.start, r.end). With both sides sorted by start, each
    case is one contiguous range per span, found by binary search, so this
    costs O((n + m) log(n + m) + c) for c overlapping pairs, never O(n · m).
    """
    key_order = np.argsort(key_starts, kind="stable")
    response_order = np.argsort(response_starts, kind="stable")
    keys, responses = overlaps_by_start(
        key_starts[key_order],
        key_ends[key_order],
        response_starts=response_starts[response_order],
        response_ends=response_ends[response_order],
    )
    return key_order[keys], response_order[responses]


def overlaps_by_start(
    key_starts: np.ndarray, key_ends: np.ndarray, *, response_starts: np.ndarray, response_ends: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`overlapping_pairs` of spans already sorted by start on both
    sides. Where each range begins (the responses starting before each key,
    the keys starting at or before each response) comes from one merge of
    the two sorted runs of starts, keys first among equals; where it ends,
    from binary search."""
    n_keys = len(key_starts)
    merged = np.argsort(np.concatenate([key_starts, response_starts]), kind="stable")
    position = np.empty(len(merged), dtype=np.int64)
    position[merged] = np.arange(len(merged))
    keys_a, responses_a = expand_ranges(position[:n_keys] - np.arange(n_keys), np.searchsorted(response_starts, key_ends, "left"))
    responses_b, keys_b = expand_ranges(
        position[n_keys:] - np.arange(len(response_starts)), np.searchsorted(key_starts, response_ends, "left")
    )
    return np.concatenate([keys_a, keys_b]), np.concatenate([responses_a, responses_b])
