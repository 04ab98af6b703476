"""The key's words read from the JSON text of jsonlines ``sentences``
without decoding them (formats/alignment/json_words.py): the same
visible characters and word bounds as from the decoded words
(visible_words), on random words written every way json.dumps writes them;
anything but lists of lists of strings is refused."""

import json
from dataclasses import replace

import numpy as np
from hypothesis import given, strategies as st

from spacy_coref_eval.formats.alignment import json_visible_words, visible_words
from tests.support.strategies import deterministic

PIECES = [
    "a",
    "Bc",
    "B",
    "-",
    "é",
    "\U0001f600",
    ".",
    '"',
    "“",
    "\\",
    "/",
    "\t",
    " ",
    "\u00a0",
    "\u200b",
    "[",
    "]",
    "{",
    ",",
    ":",
    "\n",
    "\x00",
    "\x7f",
]
words = st.lists(st.sampled_from(PIECES), max_size=3).map("".join)
sentences = st.lists(st.lists(words, max_size=5), max_size=4)
dumping = st.fixed_dictionaries(
    {
        "ensure_ascii": st.booleans(),
        "separators": st.sampled_from([(", ", ": "), (",", ":"), (" ,\n", " : ")]),
        "indent": st.sampled_from([None, 1]),
    }
)


def decoded(flat):
    """:func:`visible_words` of the words, which refuses ``B-`` even across
    two words (a bracket escape lies within one word) where the JSON text
    reader, seeing the words apart, need not: for those, the words with
    ``B`` read as ``C`` (:data:`PIECES` hold no ``C``) and its code put back."""
    expected = visible_words(flat)
    if expected is not None or any("B-" in word for word in flat):
        return expected
    renamed = visible_words([word.replace("B", "C") for word in flat])
    chars = np.where(renamed.chars == ord("C"), ord("B"), renamed.chars).astype(renamed.chars.dtype)
    return replace(renamed, chars=chars)


def same(found, expected):
    return (found is None) == (expected is None) and (
        found is None or all(np.array_equal(getattr(found, member), getattr(expected, member)) for member in ("chars", "starts", "ends"))
    )


@deterministic(600)
@given(sentences, dumping)
def test_words_read_from_json_text_are_the_decoded_words(value, options):
    text = json.dumps(value, **options)
    flat = [word for sentence in value for word in sentence]
    found = json_visible_words(text, len(flat), len(value) + 1)
    expected = decoded(flat)
    if found is not None:
        assert same(found, expected)
        assert found.source(0, len(flat)) == flat
    plain = "\\\\" not in text and "B-" not in text and not (options["ensure_ascii"] and "\U0001f600" in "".join(flat))
    assert (found is not None) == plain


@deterministic(300)
@given(st.lists(sentences, min_size=1, max_size=3), dumping)
def test_joined_texts_are_read_as_one(values, options):
    """Several ``sentences`` texts joined, as a batch of documents reads them."""
    texts = [json.dumps(value, **options) for value in values]
    flat = [word for value in values for sentence in value for word in sentence]
    found = json_visible_words("".join(texts), len(flat), sum(len(value) + 1 for value in values))
    assert found is None or same(found, decoded(flat))


others = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | words,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(words, inner, max_size=2),
    max_leaves=6,
)


@deterministic(400)
@given(st.lists(st.lists(others, max_size=4), max_size=3), dumping)
def test_values_that_are_not_strings_are_refused(value, options):
    """Numbers, null, nested lists, objects: such a text is read only if it
    holds strings alone, in lists of lists."""
    text = json.dumps(value, **options)
    flat = [item for sentence in value for item in sentence]
    found = json_visible_words(text, len(flat), len(value) + 1)
    if not all(isinstance(item, str) for item in flat):
        assert found is None
    else:
        assert found is None or same(found, decoded(flat))
