"""Matchers decide which response mention is the twin of which key mention
(Stoyanov et al. 2009; SPEC §3). A matcher is called with the key and the
response :class:`~spacy_coref_eval.clusters.Clusters` and returns, for every
response mention, the index of its key twin or -1."""
from typing import Any, Dict, Protocol, Union

import numpy as np

from ..clusters import Clusters


class Matcher(Protocol):
    """Twins response mentions with key mentions, one-to-one."""

    name: str

    def __call__(self, key: Clusters, response: Clusters) -> np.ndarray: ...

    def config(self) -> Dict[str, Any]: ...


def exact_twins(key: Clusters, response: Clusters) -> np.ndarray:
    """Twin of each response mention with the same (start, end) in the key,
    else -1; O((n + m) log n). Spans are unique on each side, so the twins
    are one-to-one."""
    twins = np.full(len(response), -1, dtype=np.int64)
    if len(key) == 0 or len(response) == 0:
        return twins
    width = int(max(key.ends.max(), response.ends.max())) + 1
    key_codes = key.starts * width + key.ends
    order = np.argsort(key_codes, kind="stable")
    sorted_codes = key_codes[order]
    codes = response.starts * width + response.ends
    position = np.minimum(np.searchsorted(sorted_codes, codes), len(sorted_codes) - 1)
    found = sorted_codes[position] == codes
    twins[found] = order[position[found]]
    return twins


class ExactMatcher:
    """Same start and end: the CoNLL reference scorer's matching."""

    name = "exact"

    def __call__(self, key: Clusters, response: Clusters) -> np.ndarray:
        return exact_twins(key, response)

    def config(self) -> Dict[str, Any]:
        return {"match": self.name}


def get_matcher(matcher: Union[str, Matcher, None]) -> Matcher:
    """A matcher object from a name or an object (``None`` means exact)."""
    if matcher is None or matcher == "exact":
        return ExactMatcher()
    if isinstance(matcher, str):
        raise ValueError(f"unknown matcher {matcher!r}")
    return matcher
