"""Character outputs placed on the key's words (formats/alignment/place.py
place_characters): where the response text has the key's visible
characters, :func:`same_characters` places them without folding; it must
give what folding gives (KeyText.of, fold, align_text, place_units: the
general path) on every text, the alignment report included, and leave
every other text to the general path."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from spacy_coref_eval.formats.alignment import (
    KeyText,
    align_text,
    fold,
    place_characters,
    place_units,
    same_characters,
    visible_codes,
    visible_words,
)
from spacy_coref_eval.formats.document import WordMismatch
from tests.support.strategies import deterministic

PIECES = [
    "a",
    "Bc",
    "é",
    "\U0001f600",
    ".",
    "'",
    "’",
    "‘",
    "`",
    '"',
    "“",
    "”",
    "``",
    "''",
    "-LRB-",
    "(",
    "B-",
    "\u00a0",
    "\u200b",
    "\x00",
    "\n",
]
SAME = {
    "'": ["’", "‘", "`"],
    "’": ["'"],
    '"': ["“", "”", "„"],
    "“": ['"'],
    "”": ['"', "“"],
    "``": ["“", '"'],
    "''": ["”", '"'],
    "-LRB-": ["("],
    "(": ["-LRB-"],
}
SPACES = ["", " ", " ", "  ", "\n", "\t", "\u3000", "\u200b"]

words_lists = st.lists(st.lists(st.sampled_from(PIECES), min_size=1, max_size=3).map("".join), max_size=10)


def general(words, text, starts, ends):
    """The path that folds both texts, as placed_on took it before."""
    key, folded = KeyText.of(words), fold(text)
    report = align_text(key, folded)
    return place_units(key, folded.before[starts], folded.before[ends]), report


def outcome(place, words, text, starts, ends):
    try:
        placed, report = place(words, text, starts=starts, ends=ends)
    except WordMismatch as err:
        return str(err)
    return [placed.starts.tolist(), placed.ends.tolist(), placed.kept.tolist(), placed.snapped.tolist()], report


@st.composite
def written(draw, words):
    """The words as a system might write them: joined by any white space
    (or none), quotes and escapes in another form, and now and then a
    character inserted or deleted."""
    parts = []
    for word in words:
        parts.append(draw(st.sampled_from(SPACES)))
        parts.append(draw(st.sampled_from([word, *SAME.get(word, [])])))
    text = "".join(parts) + draw(st.sampled_from(SPACES))
    edit = draw(st.sampled_from(["none", "none", "none", "insert", "delete"]))
    if text and edit != "none":
        at = draw(st.integers(0, len(text) - 1))
        text = text[:at] + draw(st.sampled_from(PIECES)) + text[at:] if edit == "insert" else text[:at] + text[at + 1 :]
    return text


@deterministic(600)
@given(words_lists, st.data())
def test_placing_characters_gives_what_folding_gives(words, data):
    text = data.draw(written(words))
    spans = data.draw(st.lists(st.tuples(st.integers(0, len(text)), st.integers(0, len(text))), max_size=8))
    spans = [(min(a, b), max(a, b)) for a, b in spans]
    starts = np.array([a for a, _ in spans], dtype=np.int64)
    ends = np.array([b for _, b in spans], dtype=np.int64)
    assert outcome(place_characters, words, text, starts, ends) == outcome(general, words, text, starts, ends)


@deterministic(300)
@given(words_lists.filter(lambda words: not any(part in "".join(words) for part in ("B-", "\x00"))))
def test_a_text_of_the_keys_characters_is_placed_without_folding(words):
    """White space, and quotes of one kind for another, are all a text may
    change for the fast path to apply (words without escapes or NUL)."""
    kind = {"'": "’", "’": "‘", "`": "'", '"': "“", "“": "”", "”": '"'}
    text = " ".join("".join(kind.get(c, c) for c in word) for word in words)
    ends = np.array([len(text)], dtype=np.int64)
    assert same_characters(visible_words(words), text, starts=np.zeros(1, dtype=np.int64), ends=ends) is not None


@pytest.mark.parametrize(
    "words,text",
    [
        (["``", "Hi", "''"], "“Hi”"),  # two quote characters for one
        (["a", "b"], "a c"),  # another text
    ],
)
def test_other_texts_are_left_to_folding(words, text):
    ends = np.array([len(text)], dtype=np.int64)
    assert same_characters(visible_words(words), text, starts=np.zeros(1, dtype=np.int64), ends=ends) is None


@pytest.mark.parametrize("words", [["-LRB-", "a", "-RRB-"], [1, "b"]])
def test_words_with_escapes_or_not_strings_are_left_to_folding(words):
    """Bracket escapes, and words that are not strings."""
    assert visible_words(words) is None


def test_typographic_quotes_are_replaced_characters_with_their_drift():
    words = ["He", "said", '"', "hi", '"', "."]
    text = "He said “hi”."
    placed, report = place_characters(words, text, starts=np.array([8, 9]), ends=np.array([12, 11]))
    assert same_characters(visible_words(words), text, starts=np.array([8, 9]), ends=np.array([12, 11])) is not None
    assert (report.replaced, report.drift) == (2, "response character 8 '“hi”.' against key word 2 '\" hi \"'")
    assert placed.starts.tolist() == [2, 3] and placed.ends.tolist() == [5, 4]


@pytest.mark.parametrize("first,stop", [(0, 0x80), (0, 0xD800), (0xE000, 0x10000), (0x1F600, 0x1F610)])
def test_visible_characters_are_all_but_white_space_and_zero_width(first, stop):
    """ASCII text (read as bytes), text of one UTF-16 unit a character,
    and text beyond it (read as code points)."""
    text = "".join(map(chr, range(first, stop)))
    expected = [not c.isspace() and c not in "\x00\u200b\ufeff" for c in text]
    codes, visible = visible_codes(text)
    assert visible.tolist() == expected and codes.tolist() == list(map(ord, text))
