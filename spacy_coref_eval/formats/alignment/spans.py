"""Spans of spaCy docs on other tokens of the same text: compared by their
place among the non-white-space characters (docs/formats.md §4); a span
whose ends fall inside a key token is placed past the document's end, so
it is twinless, and counted."""

from collections.abc import Mapping
from dataclasses import replace

import numpy as np

from ...errors import CorefInputError
from ...model.clusters import Clusters
from .characters import WHITE_SPACE

Offsets = tuple[np.ndarray, np.ndarray]


def visible_offsets(text: str, offsets: Offsets) -> tuple[np.ndarray, Offsets]:
    """The non-white-space characters of ``text`` (as code points) and the
    token offsets counted in them."""
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    visible = ~np.isin(codes, WHITE_SPACE)
    before = np.concatenate([[0], np.cumsum(visible)])
    return codes[visible], (before[offsets[0]], before[offsets[1]])


def map_spans(starts: np.ndarray, ends: np.ndarray, source: Offsets, *, target: Offsets) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Token spans on ``source`` tokens mapped onto ``target`` tokens (both
    given as character offsets on one text); returns new starts, ends and a
    mask of the spans that map exactly. Tokens of no character (white space
    in visible offsets) are never a span's first or last token."""
    char_starts = source[0][starts]
    char_ends = source[1][ends - 1]
    solid = np.flatnonzero(target[1] > target[0])
    if len(solid) == 0:
        zeros = np.zeros(len(starts), dtype=np.int64)
        return zeros, zeros, np.zeros(len(starts), dtype=bool)
    solid_starts, solid_ends = target[0][solid], target[1][solid]
    at_start = np.minimum(np.searchsorted(solid_starts, char_starts), len(solid) - 1)
    at_end = np.minimum(np.searchsorted(solid_ends, char_ends), len(solid) - 1)
    ok = (char_ends > char_starts) & (solid_starts[at_start] == char_starts) & (solid_ends[at_end] == char_ends)
    new_starts, new_ends = solid[at_start], solid[at_end] + 1
    return new_starts, new_ends, ok


def align_clusters(
    name: str, response: Clusters, reference: tuple[str, Offsets], *, predicted: tuple[str, Offsets]
) -> tuple[Clusters, int]:
    """``response`` (on the predicted tokens) on the reference tokens, and
    the number of its spans that could not be mapped (placed past the
    reference's last token, hence twinless). ``reference`` and ``predicted``
    are each a text and its token offsets. Callers skip it for docs with
    the same tokens, whose spans need no mapping."""
    (ref_text, ref_offsets), (pred_text, pred_offsets) = reference, predicted
    n_reference = len(ref_offsets[0])
    ref_chars, ref_visible = visible_offsets(ref_text, ref_offsets)
    pred_chars, pred_visible = visible_offsets(pred_text, pred_offsets)
    if not np.array_equal(ref_chars, pred_chars):
        raise CorefInputError(f"document {name!r}: {_text_difference(ref_chars, pred_chars)}")
    if len(response) == 0:
        return response, 0
    starts, ends, ok = map_spans(response.starts, response.ends, pred_visible, target=ref_visible)
    unmapped = int((~ok).sum())
    past_end = n_reference + np.arange(unmapped)
    starts[~ok] = past_end
    ends[~ok] = past_end + 1
    heads = None
    if response.heads is not None:
        known = response.heads >= 0
        safe = np.where(known, response.heads, 0)
        heads, _, head_ok = map_spans(safe, safe + 1, pred_visible, target=ref_visible)
        heads = np.where(known & head_ok, heads, -1)
    mapped = Clusters.from_arrays(starts, ends, response.entity, heads=heads)
    return replace(mapped, repeated=mapped.repeated + response.repeated), unmapped


def _text_difference(reference: np.ndarray, predicted: np.ndarray) -> str:
    """Where two texts' non-white-space characters first differ."""
    n = min(len(reference), len(predicted))
    differ = np.flatnonzero(reference[:n] != predicted[:n])
    at = int(differ[0]) if len(differ) else n

    def excerpt(chars: np.ndarray) -> str:
        part = "".join(map(chr, chars[at : at + 20].tolist()))
        return repr(part) if part else "nothing (end of text)"

    return (
        "the reference and predicted texts differ beyond white space, so their spans cannot be aligned: "
        f"from non-space character {at} the reference reads {excerpt(reference)} "
        f"and the prediction {excerpt(predicted)}"
    )


MAX_LISTED = 10


def unmapped_warnings(unmapped: Mapping[str, int]) -> list[str]:
    """One warning counting the predicted spans that could not be put on
    reference tokens, per document (``unmapped``: name -> count)."""
    if not unmapped:
        return []
    counted = ", ".join(f"{name}: {n}" for name, n in list(unmapped.items())[:MAX_LISTED])
    more = ", ..." if len(unmapped) > MAX_LISTED else ""
    return [
        f"{sum(unmapped.values())} predicted span(s) in {len(unmapped)} document(s) do not start "
        f"and end on reference token boundaries; scored as twinless response mentions ({counted}{more})"
    ]
