"""Put a response's clusters on the key's tokens through the text: spans
are compared by their place among the non-white-space characters
(docs/formats.md §4). For spaCy docs a span whose ends fall inside a key
token is placed past the document's end, so it is twinless, and counted;
for system outputs (:func:`fold`, :func:`align_text`, :func:`place_units`)
quotes and bracket escapes are folded too, and such a span is snapped
outward to whole key tokens and counted."""
import json
import re
from dataclasses import dataclass, replace
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..clusters import Clusters
from ..errors import CorefInputError
from .document import AlignmentReport, WordMismatch


Offsets = Tuple[np.ndarray, np.ndarray]

_WHITE_SPACE = np.array([ord(c) for c in map(chr, range(0x3000 + 1)) if c.isspace()], dtype=np.uint32)


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


# Character alignment of system outputs (docs/formats.md, Alignment onto the key)

_ZERO_WIDTH = (0x0, 0x200B, 0xFEFF)
_SINGLE_QUOTES = "'‘’‚‛`"
_DOUBLE_QUOTES = '"“”„‟'
_APOSTROPHE = ord("'")
_STRINGS = frozenset((str,))
_NO_UNITS = np.zeros(0, dtype=np.int64)
_TABLE = 0x10000
_WIDTH = np.ones(_TABLE, dtype=np.int64)
"""Units per character: 0 for white space and zero width, 2 for a double
quote (folded to ``''``), else 1 (characters past the table too)."""
_WIDTH[_WHITE_SPACE] = 0
_WIDTH[list(_ZERO_WIDTH)] = 0
_WIDTH[[ord(c) for c in _DOUBLE_QUOTES]] = 2
_QUOTE = np.zeros(_TABLE, dtype=bool)
_QUOTE[[ord(c) for c in _SINGLE_QUOTES + _DOUBLE_QUOTES]] = True
_ESCAPES = re.compile(r"-[LR][RSC]B-")
_ESCAPED = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}"}


@dataclass(frozen=True)
class Folded:
    """A text reduced to what alignment compares: ``units`` are its
    characters without white space, quotes folded (every single quote to
    ``'``, every double quote to ``''``) and Penn Treebank bracket escapes
    (``-LRB-``) to their brackets; ``codes`` are the text's characters,
    ``before[i]`` the number of units before character ``i`` (``len(text)
    + 1`` entries), and ``special`` the units that come from a quote or an
    escape, the only ones whose character may differ from the unit."""

    units: np.ndarray
    codes: np.ndarray
    before: np.ndarray
    special: np.ndarray
    text: str

    def __len__(self) -> int:
        return len(self.units)

    def character(self, unit: int) -> int:
        """The text's character holding ``unit`` (its length at the end)."""
        return int(np.searchsorted(self.before, unit, side="right")) - 1


def _codes(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)


def visible_characters(text: str) -> np.ndarray:
    """Mask of the characters of ``text`` that alignment compares (neither
    white space nor zero width), as :func:`fold` counts them."""
    return _WIDTH[np.minimum(_codes(text), _TABLE - 1)] > 0


def fold(text: str) -> Folded:
    """The :class:`Folded` form of ``text`` (linear in its length)."""
    codes = _codes(text)
    looked_up = np.minimum(codes, _TABLE - 1)
    width = _WIDTH.take(looked_up)
    quotes = np.flatnonzero(_QUOTE.take(looked_up))
    escapes = [(m.start(), m.end(), m.group()) for m in _ESCAPES.finditer(text)] if "B-" in text else []
    folded = codes.copy() if len(quotes) or escapes else codes
    if len(quotes):
        folded[quotes] = _APOSTROPHE
    if escapes:
        width = width.copy()
        for start, end, escape in escapes:
            folded[start] = ord(_ESCAPED[escape])
            width[start + 1:end] = 0
    before = np.zeros(len(codes) + 1, dtype=np.int64)
    np.cumsum(width, out=before[1:])
    if not len(quotes) and not escapes:
        return Folded(folded.compress(width.astype(bool)), codes, before, _NO_UNITS, text)
    doubles = quotes[width[quotes] == 2]
    special = np.concatenate([before[quotes], before[doubles] + 1, before[[start for start, _, _ in escapes]]])
    return Folded(np.repeat(folded, width), codes, before, np.unique(special), text)


def replaced_characters(key: Folded, text: Folded) -> np.ndarray:
    """The characters of ``text`` that differ from ``key``'s at the same
    units (two folded texts with the same units)."""
    units = np.union1d(key.special, text.special)
    key_at = np.searchsorted(key.before, units, side="right") - 1
    text_at = np.searchsorted(text.before, units, side="right") - 1
    replaced = text_at[key.codes.take(key_at) != text.codes.take(text_at)]
    if len(replaced) < 2:
        return replaced
    return replaced[np.concatenate(([True], replaced[1:] != replaced[:-1]))]


@dataclass(frozen=True)
class WordBounds:
    """Every key word's first unit and end (``[starts, ends)``)."""

    starts: np.ndarray
    ends: np.ndarray


@dataclass(frozen=True)
class KeyText(WordBounds):
    """The key's words as one :class:`Folded` text (the words joined by a
    character of no unit) and every word's units ``[starts, ends)``."""

    words: Sequence[str]
    folded: Folded

    @classmethod
    def of(cls, words: Sequence[str]) -> "KeyText":
        """The words joined by NUL, a character of no unit, whose places
        give the words' bounds (the words' lengths where a word holds one)."""
        try:
            folded = fold("\0".join(words))
        except TypeError:
            words = [str(word) for word in words]
            folded = fold("\0".join(words))
        cuts = np.flatnonzero(folded.codes == 0)
        if len(cuts) == len(words) - 1:
            units = np.concatenate(([0], folded.before[cuts], [len(folded)]))
        else:
            bounds = np.zeros(len(words) + 1, dtype=np.int64)
            np.cumsum(np.fromiter(map(len, words), dtype=np.int64, count=len(words)) + 1, out=bounds[1:])
            bounds[1:] -= 1
            units = folded.before[np.maximum(bounds, 0)]
        return cls(units[:-1], units[1:], words, folded)

    def word_at(self, unit: int) -> int:
        """The word holding ``unit``."""
        return int(np.searchsorted(self.ends, unit, side="right"))

    def excerpt(self, unit: int, width: int = 6) -> str:
        """``word N 'w w w'`` from the word holding ``unit``."""
        if unit >= len(self.folded):
            return "the end of the key's words"
        return word_excerpt(self.words, self.word_at(unit), width)


def text_excerpt(folded: Folded, unit: int, width: int = 30) -> str:
    """``character N '...'`` of a response text from ``unit``."""
    if unit >= len(folded):
        return "the end of the response text"
    return character_excerpt(folded.text, folded.character(unit), width)


def character_excerpt(text: str, at: int, width: int = 30) -> str:
    """``character N '...'`` of a response text from its character ``at``."""
    return f"response character {at} {text[at:at + width]!r}"


def word_excerpt(words: Sequence[str], word: int, width: int = 6) -> str:
    """``word N 'w w w'`` of the key from its word ``word``."""
    return shown_words(word, words[word:word + width])


def shown_words(word: int, shown: Sequence[str]) -> str:
    """``word N 'w w w'``: the key's words ``shown`` from its word ``word``."""
    return f"key word {word} {' '.join(shown)!r}"


@dataclass(frozen=True)
class Placed:
    """Mentions put on the key's words: new ``starts`` and ``ends`` (words,
    end exclusive), ``kept`` (False: dropped) and ``snapped`` masks."""

    starts: np.ndarray
    ends: np.ndarray
    kept: np.ndarray
    snapped: np.ndarray


def place_units(key: "WordBounds", starts: np.ndarray, ends: np.ndarray) -> Placed:
    """Mentions given as units ``[starts, ends)`` of the key's folded text
    placed on the key's words by the one rule (docs/formats.md): a mention
    becomes the words it touches, from the word holding its first unit to
    the word holding its last (``snapped`` where that moves an end); a
    mention of no unit is dropped."""
    kept = ends > starts
    solid_words = key.ends > key.starts
    every = bool(solid_words.all())
    solid = None if every else np.flatnonzero(solid_words)
    n = len(solid_words) if every else len(solid)
    if not n:
        zeros = np.zeros(len(starts), dtype=np.int64)
        return Placed(zeros, zeros, np.zeros(len(starts), dtype=bool), np.zeros(len(starts), dtype=bool))
    solid_ends = key.ends if solid is None else key.ends.take(solid)
    first = np.minimum(np.searchsorted(solid_ends, starts, side="right"), n - 1)
    last = np.minimum(np.searchsorted(solid_ends, ends - 1, side="right"), n - 1)
    if solid is not None:
        first, last = solid.take(first), solid.take(last)
    snapped = kept & ((key.starts.take(first) != starts) | (key.ends.take(last) != ends))
    return Placed(first, last + 1, kept, snapped)


_VISIBLE = _WIDTH > 0
_QUOTE_KIND = np.zeros(_TABLE, dtype=np.int8)
"""1 for a single quote, 2 for a double quote (its units folded alike)."""
_QUOTE_KIND[[ord(c) for c in _SINGLE_QUOTES]] = 1
_QUOTE_KIND[[ord(c) for c in _DOUBLE_QUOTES]] = 2


def quote_kinds(codes: np.ndarray) -> np.ndarray:
    """The kind of quote of every character (:data:`_QUOTE_KIND`)."""
    return _QUOTE_KIND.take(np.minimum(codes.astype(np.int64), _TABLE - 1))


def visible_codes(text: str) -> Tuple[np.ndarray, np.ndarray]:
    """The codes of ``text`` and the mask of those that have a unit (as
    bytes where ``text`` is ASCII, UTF-16 code units where each character
    is one)."""
    if text.isascii():
        codes = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
        others = np.flatnonzero(codes < 0x20)
    else:
        codes = np.frombuffer(text.encode("utf-16-le"), dtype=np.uint16)
        if len(codes) != len(text):
            codes = _codes(text)
        others = np.flatnonzero((codes < 0x20) | (codes > 0x7E))
    visible = codes > 0x20
    if len(others):
        visible[others] = _VISIBLE.take(np.minimum(codes.take(others).astype(np.int64), _TABLE - 1))
    return codes, visible


def visible_before(hidden: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The visible characters before each character ``at``, given the
    places of the ``hidden`` ones (no unit), in increasing order."""
    return at - np.searchsorted(hidden, at)


@dataclass(frozen=True)
class VisibleWords(WordBounds):
    """The key's words as their visible characters (``chars``, as codes),
    every word's first visible character and end (``[starts, ends)``), and
    ``source``, which gives words ``[start, stop)`` themselves (asked only
    to say where a response text drifts)."""

    chars: np.ndarray
    source: Callable[[int, int], Sequence[str]]


def visible_words(words: Sequence[str]) -> Optional[VisibleWords]:
    """:class:`VisibleWords` of ``words``; ``None`` where a word is not a
    string or holds ``B-`` (perhaps a bracket escape, which needs
    :func:`fold`)."""
    try:
        joined = "".join(words)
    except TypeError:
        return None
    if "B-" in joined:
        return None
    codes, visible = visible_codes(joined)
    ends = np.cumsum(np.fromiter(map(len, words), dtype=np.int64, count=len(words)))
    starts = np.concatenate(([0], ends[:-1])) if len(ends) else ends
    hidden = np.flatnonzero(~visible)
    if len(hidden):
        codes, starts, ends = codes.compress(visible), visible_before(hidden, starts), visible_before(hidden, ends)
    return VisibleWords(starts, ends, codes, lambda start, stop: words[start:stop])


_JSON_QUOTE = ord('"')
_JSON_ESCAPES = np.zeros(_TABLE, dtype=np.int64)
"""The character of each two-character JSON escape, by its letter."""
for _letter, _character in zip('"/bfnrt', '"/\b\f\n\r\t'):
    _JSON_ESCAPES[ord(_letter)] = ord(_character)
_HEX = np.zeros(_TABLE, dtype=np.int64)
_HEX[[ord(c) for c in "0123456789abcdefABCDEF"]] = [*range(16), *range(10, 16)]
_HEX_PLACES = np.array([4096, 256, 16, 1])
_NOT_ESCAPED = np.zeros(_TABLE, dtype=bool)
"""Characters an escape may not stand for here: those of ``B-`` (looked
for in the text) and surrogates (the halves of one character)."""
_NOT_ESCAPED[[ord("B"), ord("-")]] = True
_NOT_ESCAPED[0xD800:0xE000] = True


def _json_escapes(codes: np.ndarray) -> Optional[Tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The escapes of JSON text ``codes`` (no ``\\\\`` in it): the
    character each stands for, the places of their backslashes and those of
    the rest of their characters; ``None`` where an escape stands for a
    character of :data:`_NOT_ESCAPED`."""
    escapes = np.flatnonzero(codes == ord("\\"))
    letters = codes.take(escapes + 1)
    values = _JSON_ESCAPES.take(letters)
    unicode = np.flatnonzero(letters == ord("u"))
    if len(unicode):
        digits = codes.take(escapes.take(unicode)[:, None] + np.arange(2, 6))
        values[unicode] = _HEX.take(digits) @ _HEX_PLACES
    if _NOT_ESCAPED.take(values).any():
        return None
    widths = np.ones(len(escapes), dtype=np.int64)
    widths[unicode] = 5
    firsts = np.cumsum(widths) - widths
    rest = np.repeat(escapes + 1 - firsts, widths) + np.arange(int(widths.sum()))
    return values, escapes, rest


def json_visible_words(sentences: str, n_words: int, n_lists: int) -> Optional[VisibleWords]:
    """:class:`VisibleWords` of the words of ``sentences``, the JSON text of
    lists of lists, ``n_lists`` lists in all, whose inner lists hold
    ``n_words`` values between them (jsonlines' ``sentences`` as read, or
    several joined), found in the text without decoding it into words (but
    those :attr:`~VisibleWords.source` is asked for): its strings are the
    words where it holds ``n_words`` strings and no other list and no
    object. ``None`` where it holds
    anything else, ``\\\\`` or ``B-``, or an escape for ``B``, ``-`` or
    half a character: :func:`visible_words` reads those."""
    if "B-" in sentences:
        return None
    codes, visible = visible_codes(sentences)
    is_quote = codes == _JSON_QUOTE
    if "\\" in sentences:
        escaped = _json_escapes(codes) if "\\\\" not in sentences else None
        if escaped is None:
            return None
        values, escapes, rest = escaped
        codes = codes.astype(np.uint16) if codes.dtype == np.uint8 else codes.copy()
        codes[escapes] = values
        visible[escapes] = _VISIBLE.take(values)
        visible[rest] = False
        is_quote[rest] = False
    quotes = np.flatnonzero(is_quote)
    if len(quotes) != 2 * n_words:
        return None
    if sentences.count("[") != n_lists or "{" in sentences:
        opening = np.flatnonzero((codes == ord("[")) | (codes == ord("{")))
        outside = opening.compress(np.searchsorted(quotes, opening) % 2 == 0)
        if len(outside) != n_lists or (codes.take(outside) != ord("[")).any():
            return None
    inside = (np.cumsum(is_quote, dtype=np.int8) & 1).view(bool) & ~is_quote
    visible &= inside
    opens, closes = quotes[0::2], quotes[1::2]
    lengths = closes - opens - 1
    if np.count_nonzero(visible) != np.count_nonzero(inside):
        lost = np.flatnonzero(inside ^ visible)
        lengths -= np.bincount(np.searchsorted(opens, lost) - 1, minlength=n_words)
    ends = np.cumsum(lengths)

    def source(start: int, stop: int) -> List[str]:
        bounds = zip(opens[start:stop].tolist(), (closes[start:stop] + 1).tolist())
        return [json.loads(sentences[a:b]) for a, b in bounds]

    return VisibleWords(ends - lengths, ends, codes.compress(visible), source)


def same_characters(key: VisibleWords, text: str, starts: np.ndarray,
                    ends: np.ndarray) -> Optional[Tuple[Placed, AlignmentReport]]:
    """:func:`place_characters` when the visible characters of ``text`` are
    those of the key's words (``key``), but for quotes of one kind (a double
    quote for a double quote), and neither holds a bracket escape: then
    every visible character is as many units in both, so the visible
    characters stand for the units, and need no folding. ``None`` for any
    other text, which needs :func:`fold`."""
    if "B-" in text:
        return None
    codes, visible = visible_codes(text)
    hidden = np.flatnonzero(~visible)
    chars = codes.compress(visible) if len(hidden) else codes
    key_chars = key.chars
    if len(key_chars) != len(chars):
        return None
    differ = np.flatnonzero(key_chars != chars)
    if len(differ):
        kinds = quote_kinds(chars.take(differ))
        if not (kinds.all() and np.array_equal(kinds, quote_kinds(key_chars.take(differ)))):
            return None
    placed = place_units(key, visible_before(hidden, starts), visible_before(hidden, ends))
    if not len(differ):
        return placed, AlignmentReport("characters")
    at = int(differ[0])
    character = int(np.flatnonzero(visible)[at])
    word = int(np.searchsorted(key.ends, at, side="right"))
    drift = f"{character_excerpt(text, character, 12)} against {shown_words(word, key.source(word, word + 3))}"
    return placed, AlignmentReport("characters", replaced=len(differ), drift=drift)


def place_characters(words: Sequence[str], text: str, starts: np.ndarray,
                     ends: np.ndarray) -> Tuple[Placed, AlignmentReport]:
    """Mentions given as characters ``[starts, ends)`` of a response
    ``text`` placed on the key's ``words`` (:func:`fold_characters`),
    through :func:`same_characters` where it applies."""
    key = visible_words(words)
    same = same_characters(key, text, starts, ends) if key is not None else None
    return same if same is not None else fold_characters(words, text, starts, ends)


def fold_characters(words: Sequence[str], text: str, starts: np.ndarray,
                    ends: np.ndarray) -> Tuple[Placed, AlignmentReport]:
    """Mentions given as characters ``[starts, ends)`` of a response
    ``text`` placed on the key's ``words`` by folding both
    (:func:`align_text`, :func:`place_units`)."""
    key = KeyText.of(words)
    folded = fold(text)
    report = align_text(key, folded)
    return place_units(key, folded.before[starts], folded.before[ends]), report


def align_text(key: KeyText, text: Folded) -> AlignmentReport:
    """Check that a response text has the key's units (else
    :class:`~.document.WordMismatch` saying where they part) and
    count the characters that agree only by folding (``replaced``)."""
    if not np.array_equal(key.folded.units, text.units):
        n = min(len(key.folded), len(text))
        differ = np.flatnonzero(key.folded.units[:n] != text.units[:n])
        at = int(differ[0]) if len(differ) else n
        raise WordMismatch(
            "a response text that differs from the key's words beyond white space, quotes and bracket escapes: "
            f"from {text_excerpt(text, at)} against {key.excerpt(at)}"
        )
    characters = replaced_characters(key.folded, text)
    if not len(characters):
        return AlignmentReport("characters")
    at = int(text.before[characters[0]])
    drift = f"{text_excerpt(text, at, 12)} against {key.excerpt(at, 3)}"
    return AlignmentReport("characters", replaced=len(characters), drift=drift)


def placed_report(report: AlignmentReport, placed: Placed, dropped: int = 0) -> AlignmentReport:
    """``report`` with the snapped and dropped mentions of ``placed`` (and
    ``dropped`` more, dropped before placing) added."""
    return replace(
        report, snapped=report.snapped + int(placed.snapped.sum()),
        dropped=report.dropped + dropped + int((~placed.kept).sum()),
    )


def alignment_warning(reports: Mapping[str, AlignmentReport], shown: int = 3) -> List[str]:
    """One warning summing up what aligning the responses onto the key
    changed, naming the first ``shown`` documents it changed. Characters
    that differ only as quotes or bracket escapes move no mention and are
    left to the JSON and HTML report."""
    totals: Dict[str, int] = {}
    changed = []
    for name, report in reports.items():
        counts = [(f"{report.unit} {kind}", getattr(report, kind)) for kind in ("inserted", "deleted", "replaced")
                  if report.unit != "characters"]
        counts += [(f"mentions {kind}", getattr(report, kind)) for kind in ("snapped", "dropped", "unplaced")]
        counts = [(label, n) for label, n in counts if n]
        if counts:
            changed.append(name)
        for label, n in counts:
            totals[label] = totals.get(label, 0) + n
    if not changed:
        return []
    counted = ", ".join(f"{n} {label}" for label, n in totals.items())
    named = ", ".join(repr(name) for name in changed[:shown]) + (", ..." if len(changed) > shown else "")
    return [
        f"aligning the response onto the key changed {len(changed)} of {len(reports)} document(s): {counted} "
        f"({named}; see 'alignment' in the JSON or the HTML report)"
    ]
