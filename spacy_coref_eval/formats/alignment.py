"""Put predicted clusters on the reference doc's tokens.

In a spaCy ``Example`` the predicted doc may be tokenised differently from
the reference doc, and its text may differ in white space (spaCy's own
``Example.alignment`` ignores white space too). Spans are compared by their
place among the text's non-white-space characters, never by raw token
indices: a predicted span maps onto the reference tokens that start and end
at the same non-white-space characters. Texts whose non-white-space
characters differ cannot be aligned and raise :class:`CorefInputError`
naming the document. A span whose boundaries fall inside a reference token
cannot be mapped; it stays a response mention but is placed past the end of
the reference doc, so it is twinless.
"""
from dataclasses import replace
from typing import TYPE_CHECKING, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

import numpy as np

from ..clusters import Clusters
from ..errors import CorefInputError
from .docbin.spans import doc_clusters, missing_groups

if TYPE_CHECKING:
    from spacy.tokens import Doc
    from spacy.training import Example

Offsets = Tuple[np.ndarray, np.ndarray]

_WHITE_SPACE = np.array([ord(c) for c in map(chr, range(0x3000 + 1)) if c.isspace()], dtype=np.uint32)


def token_offsets(doc: "Doc") -> Offsets:
    """Character start and end of every token of ``doc``."""
    from spacy.attrs import IDX, LENGTH

    if len(doc) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    array = doc.to_array([IDX, LENGTH]).astype(np.int64)
    return array[:, 0], array[:, 0] + array[:, 1]


def visible_offsets(text: str, offsets: Offsets) -> Tuple[np.ndarray, Offsets]:
    """The non-white-space characters of ``text`` (as code points) and the
    token offsets counted in them."""
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    visible = ~np.isin(codes, _WHITE_SPACE)
    before = np.concatenate([[0], np.cumsum(visible)])
    return codes[visible], (before[offsets[0]], before[offsets[1]])


def map_spans(starts: np.ndarray, ends: np.ndarray, source: Offsets, target: Offsets) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
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
    name: str, response: Clusters, reference: Tuple[str, Offsets], predicted: Tuple[str, Offsets]
) -> Tuple[Clusters, int]:
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
    starts, ends, ok = map_spans(response.starts, response.ends, pred_visible, ref_visible)
    unmapped = int((~ok).sum())
    past_end = n_reference + np.arange(unmapped)
    starts[~ok] = past_end
    ends[~ok] = past_end + 1
    heads = None
    if response.heads is not None:
        known = response.heads >= 0
        safe = np.where(known, response.heads, 0)
        heads, _, head_ok = map_spans(safe, safe + 1, pred_visible, ref_visible)
        heads = np.where(known & head_ok, heads, -1)
    mapped = Clusters.from_arrays(starts, ends, response.entity, heads)
    return replace(mapped, repeated=mapped.repeated + response.repeated), unmapped


def aligned_clusters(name: str, reference: "Doc", predicted: "Doc", readers: Sequence) -> Tuple[Clusters, Clusters, int]:
    """Key clusters from ``reference``, response clusters from ``predicted``
    on the reference's tokens (:func:`align_clusters`), and the number of
    predicted spans that could not be mapped. ``readers`` are the key's and
    the response's cluster readers."""
    key = doc_clusters(reference, readers[0])
    response = doc_clusters(predicted, readers[1])
    if _same_tokens(reference, predicted):
        return key, response, 0
    mapped, unmapped = align_clusters(
        name, response, (reference.text, token_offsets(reference)), (predicted.text, token_offsets(predicted))
    )
    return key, mapped, unmapped


def _same_tokens(reference: "Doc", predicted: "Doc") -> bool:
    """Whether two docs have the same tokens and spaces (so the same text),
    found without building either text."""
    from spacy.attrs import ORTH, SPACY

    if len(reference) != len(predicted):
        return False
    return bool(np.array_equal(reference.to_array([ORTH, SPACY]), predicted.to_array([ORTH, SPACY])))


def example_pairs(
    examples: Iterable["Example"], readers: Sequence, names: Optional[Sequence[str]] = None
) -> Tuple[List[Tuple[str, Clusters, Clusters]], List[str]]:
    """``(name, key, response)`` of every example (reference read by
    ``readers[0]``, prediction by ``readers[1]`` and put on the reference's
    tokens), named ``names[i]`` or ``example i``, and warnings: spans that
    could not be mapped, and a side none of whose docs holds a span group
    its reader reads (it would score 0 without a word)."""
    pairs = []
    unmapped: Dict[str, int] = {}
    found: List[Set[str]] = [set(), set()]
    for index, example in enumerate(examples):
        name = names[index] if names is not None else f"example {index}"
        key, response, n_unmapped = aligned_clusters(name, example.reference, example.predicted, readers)
        found[0].update(example.reference.spans)
        found[1].update(example.predicted.spans)
        if n_unmapped:
            unmapped[name] = n_unmapped
        pairs.append((name, key, response))
    notes = []
    for side, reader, groups in zip(("reference", "predicted"), readers, found):
        missing = missing_groups(reader, groups) if pairs else None
        if missing:
            notes.append(
                f"the {side} docs hold no coreference span group ({missing}), so every {side} entity is "
                f"missing; choose the span groups with the scorer's {side}_reader (or reader)"
            )
    return pairs, notes + unmapped_warnings(unmapped)


def _text_difference(reference: np.ndarray, predicted: np.ndarray) -> str:
    """Where two texts' non-white-space characters first differ."""
    n = min(len(reference), len(predicted))
    differ = np.flatnonzero(reference[:n] != predicted[:n])
    at = int(differ[0]) if len(differ) else n

    def excerpt(chars: np.ndarray) -> str:
        part = "".join(map(chr, chars[at:at + 20].tolist()))
        return repr(part) if part else "nothing (end of text)"

    return (
        "the reference and predicted texts differ beyond white space, so their spans cannot be aligned: "
        f"from non-space character {at} the reference reads {excerpt(reference)} "
        f"and the prediction {excerpt(predicted)}"
    )


MAX_LISTED = 10


def unmapped_warnings(unmapped: Mapping[str, int]) -> List[str]:
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
