"""Put predicted clusters on the reference doc's tokens.

In a spaCy ``Example`` the predicted doc may be tokenised differently from
the reference doc. Spans are compared through character offsets, never raw
token indices: a predicted span maps onto the reference tokens that start and
end at the same characters. A span whose boundaries fall inside a reference
token cannot be mapped; it stays a response mention but is placed past the end
of the reference doc, so it is twinless.
"""
from dataclasses import replace
from typing import List, Mapping, Tuple

import numpy as np
from spacy.attrs import IDX, LENGTH
from spacy.tokens import Doc

from ..clusters import Clusters
from .spans import ClusterReader, doc_clusters


def token_offsets(doc: Doc) -> Tuple[np.ndarray, np.ndarray]:
    """Character start and end of every token of ``doc``."""
    if len(doc) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    array = doc.to_array([IDX, LENGTH]).astype(np.int64)
    return array[:, 0], array[:, 0] + array[:, 1]


def map_spans(
    starts: np.ndarray,
    ends: np.ndarray,
    source: Tuple[np.ndarray, np.ndarray],
    target: Tuple[np.ndarray, np.ndarray],
) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Token spans on ``source`` tokens mapped onto ``target`` tokens (both
    given as character offsets); returns new starts, ends and a mask of the
    spans that map exactly."""
    char_starts = source[0][starts]
    char_ends = source[1][ends - 1]
    new_starts = np.searchsorted(target[0], char_starts)
    new_last = np.searchsorted(target[1], char_ends)
    n = len(target[0])
    ok = (new_starts < n) & (new_last < n)
    ok[ok] &= (target[0][new_starts[ok]] == char_starts[ok]) & (target[1][new_last[ok]] == char_ends[ok])
    return new_starts, new_last + 1, ok


def aligned_clusters(reference: Doc, predicted: Doc, reader: ClusterReader) -> Tuple[Clusters, Clusters, int]:
    """Key clusters from ``reference``, response clusters from ``predicted``
    on the reference's tokens, and the number of predicted spans that could
    not be mapped (placed past the reference's end, hence twinless)."""
    key = doc_clusters(reference, reader)
    response = doc_clusters(predicted, reader)
    if len(response) == 0:
        return key, response, 0
    ref_offsets = token_offsets(reference)
    pred_offsets = token_offsets(predicted)
    if len(ref_offsets[0]) == len(pred_offsets[0]) and all(
        np.array_equal(a, b) for a, b in zip(ref_offsets, pred_offsets)
    ):
        return key, response, 0
    starts, ends, ok = map_spans(response.starts, response.ends, pred_offsets, ref_offsets)
    unmapped = int((~ok).sum())
    past_end = len(reference) + np.arange(unmapped)
    starts[~ok] = past_end
    ends[~ok] = past_end + 1
    heads = None
    if response.heads is not None:
        heads, _, head_ok = map_spans(response.heads, response.heads + 1, pred_offsets, ref_offsets)
        heads = np.where(head_ok, heads, -1)
    mapped = Clusters.from_arrays(starts, ends, response.entity, heads)
    return key, replace(mapped, repeated=mapped.repeated + response.repeated), unmapped


MAX_LISTED = 10


def unmapped_warnings(unmapped: Mapping[str, int]) -> List[str]:
    """One warning counting the predicted spans that could not be put on
    reference tokens, per document (``unmapped``: name -> count)."""
    if not unmapped:
        return []
    listed = ", ".join(f"{name}: {n}" for name, n in list(unmapped.items())[:MAX_LISTED])
    more = ", ..." if len(unmapped) > MAX_LISTED else ""
    return [
        f"{sum(unmapped.values())} predicted span(s) in {len(unmapped)} document(s) do not start "
        f"and end on reference token boundaries; scored as twinless response mentions "
        f"({listed}{more})"
    ]
