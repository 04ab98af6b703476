"""Put a response's clusters on the key's tokens through the text: spans
are compared by their place among the non-white-space characters
(docs/formats.md §4). spaCy docs on other tokens (:mod:`.spans`); system
outputs (:mod:`.place`), whose quotes and bracket escapes are folded too
(:mod:`.characters`) and whose spans are snapped outward to whole key
words (:mod:`.words`), and what aligning changed
(:mod:`.report`, :mod:`.excerpts`)."""

from .characters import Folded, fold, quote_kinds, replaced_characters, visible_before, visible_characters, visible_codes
from .excerpts import character_excerpt, shown_words, text_excerpt, word_excerpt
from .place import Placed, align_text, fold_characters, place_characters, place_units, same_characters
from .report import alignment_warning, placed_report
from .spans import MAX_LISTED, Offsets, align_clusters, map_spans, unmapped_warnings, visible_offsets
from .words import KeyText, VisibleWords, WordBounds, visible_words

__all__ = [
    "MAX_LISTED",
    "Folded",
    "KeyText",
    "Offsets",
    "Placed",
    "VisibleWords",
    "WordBounds",
    "align_clusters",
    "align_text",
    "alignment_warning",
    "character_excerpt",
    "fold",
    "fold_characters",
    "map_spans",
    "place_characters",
    "place_units",
    "placed_report",
    "quote_kinds",
    "replaced_characters",
    "same_characters",
    "shown_words",
    "text_excerpt",
    "unmapped_warnings",
    "visible_before",
    "visible_characters",
    "visible_codes",
    "visible_offsets",
    "visible_words",
    "word_excerpt",
]
