"""Where two texts part, said in words: excerpts of a response text and of
the key's words for messages and alignment reports."""

from collections.abc import Sequence

from .characters import Folded


def text_excerpt(folded: Folded, unit: int, width: int = 30) -> str:
    """``character N '...'`` of a response text from ``unit``."""
    if unit >= len(folded):
        return "the end of the response text"
    return character_excerpt(folded.text, folded.character(unit), width)


def character_excerpt(text: str, at: int, width: int = 30) -> str:
    """``character N '...'`` of a response text from its character ``at``."""
    return f"response character {at} {text[at : at + width]!r}"


def word_excerpt(words: Sequence[str], word: int, width: int = 6) -> str:
    """``word N 'w w w'`` of the key from its word ``word``."""
    return shown_words(word, words[word : word + width])


def shown_words(word: int, shown: Sequence[str]) -> str:
    """``word N 'w w w'``: the key's words ``shown`` from its word ``word``."""
    return f"key word {word} {' '.join(shown)!r}"
