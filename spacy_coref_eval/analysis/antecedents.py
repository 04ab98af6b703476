"""Link recall by antecedent distance (docs/long-documents.md §2): every
key mention after the first of its entity links to its antecedent, the
nearest preceding mention of that entity (by start, then end); the link's
distance is the tokens from the antecedent's start to the mention's. Per
distance range, the share of those links the response also makes: found
when the mention's twin and the antecedent's twin lie in one response
entity."""

from typing import Any

import numpy as np

from ..errors import CorefInputError
from ..twinning import TwinnedCorpus
from .ranges import ChainLengths
from .registry import Context

DEFAULT_DISTANCES = "0-9,10-49,50-199,200-999,1000+"
"""Distance ranges in tokens: within a sentence, a paragraph, a page, a
chapter, and beyond."""


def antecedent_links(twinned: TwinnedCorpus) -> tuple[np.ndarray, np.ndarray]:
    """The distance of every key mention to its antecedent and whether the
    response links the two, for the mentions that have one."""
    key = twinned.key
    order = np.lexsort((key.ends, key.starts, key.entity))
    same = key.entity[order][1:] == key.entity[order][:-1]
    mention, antecedent = order[1:][same], order[:-1][same]
    distance = (key.starts[mention] - key.starts[antecedent]).astype(np.int64)
    key_twin = np.full(len(key), -1, dtype=np.int64)
    found = np.flatnonzero(twinned.twins >= 0)
    key_twin[twinned.twins[found]] = found
    a, b = key_twin[mention], key_twin[antecedent]
    both = (a >= 0) & (b >= 0)
    linked = np.zeros(len(mention), dtype=bool)
    linked[both] = twinned.response.entity[a[both]] == twinned.response.entity[b[both]]
    return distance, linked


def compute(context: Context) -> dict[str, Any]:
    """The ``antecedent_distance`` block: per distance range (``--distances``)
    the key links, those found, and their recall; then the total."""
    twinned = context.result.twinned
    if twinned is None:
        raise CorefInputError("antecedent distances need the twinned mentions; results merged from saved counts have none")
    ranges = ChainLengths.parse(context.values.get("distances") or DEFAULT_DISTANCES, first=0)
    distance, linked = antecedent_links(twinned)
    bucket = ranges.of(distance)
    links = np.bincount(bucket, minlength=len(ranges.names))
    found = np.bincount(bucket, weights=linked, minlength=len(ranges.names)).astype(np.int64)

    def entry(n: int, k: int) -> dict[str, Any]:
        return {"links": int(n), "found": int(k), "recall": k / n if n else 0.0}

    buckets = {name: entry(links[i], found[i]) for i, name in enumerate(ranges.names)}
    return {"unit": "tokens", "buckets": buckets, "total": entry(len(distance), int(linked.sum()))}


def check(values: dict[str, Any], scoring: Any = None) -> None:
    """The ``--distances`` ranges readable."""
    ChainLengths.parse(values.get("distances") or DEFAULT_DISTANCES, first=0)
