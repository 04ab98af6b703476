"""What the classifier reads off each token: head kind, head-region cut,
head priority, content word, pronoun person and gender, from parts of
speech, morphology or the lexical fallback (docs/resolution_classes.md §2)."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Optional

import numpy as np

from ...model.tokens import MISSING, Tokens
from .lexicon import (
    CAPITALISED,
    CLAUSE_PUNCTUATION_LOWER,
    COMMON,
    DETERMINERS,
    OTHER,
    OTHER_PRONOUNS,
    POSSESSIVE_MARKERS,
    PREPOSITIONS,
    PRONOUN,
    PRONOUN_PERSON,
    PTB_CUT,
    PTB_KIND,
    PTB_NOMINAL,
    PTB_NOT_CONTENT,
    PTB_PUNCTUATION,
    UPOS_KIND,
    UPOS_NOMINAL,
    UPOS_NOT_CONTENT,
    WH_WORDS,
    WORDLIKE,
)


def take(values: Sequence[Any], positions: np.ndarray) -> list[Any]:
    """``[values[i] for i in positions]`` at C speed."""
    if len(positions) < 2:
        return [values[i] for i in positions.tolist()]
    return list(itemgetter(*positions.tolist())(values))


def ids(values: list[Any]) -> tuple[np.ndarray, list[Any]]:
    """The id of every value (by first appearance) and the distinct values."""
    index = {value: i for i, value in enumerate(dict.fromkeys(values))}
    return np.fromiter(map(index.__getitem__, values), dtype=np.int64, count=len(values)), list(index)


def wordlike(words: list[str]) -> np.ndarray:
    """Whether each word has a letter or a digit."""
    out = np.fromiter(map(str.isalnum, words), dtype=bool, count=len(words))
    for i in np.flatnonzero(~out).tolist():
        out[i] = WORDLIKE.search(words[i]) is not None
    return out


@dataclass(frozen=True)
class TokenInfo:
    """For a list of token positions (``token``, repeats allowed): the
    case-sensitive word type, the lower-cased word id, the head kind,
    whether it ends a head region (``cut``), its priority as a head (2
    nominal, 1 other word, 0 punctuation or possessive marker), whether it
    is a content word, and the person (0 unknown) and gender of a pronoun."""

    token: np.ndarray
    type: np.ndarray
    word: np.ndarray
    kind: np.ndarray
    cut: np.ndarray
    priority: np.ndarray
    content: np.ndarray
    person: np.ndarray
    gendered: np.ndarray

    @classmethod
    def of(cls, tokens: Tokens, token: np.ndarray) -> "TokenInfo":
        type_of, types = ids(take(tokens.words, token))
        lexical = lexical_table(types)
        columns = {name: values[type_of] for name, values in lexical.items()}
        tagged = np.zeros(len(token), dtype=bool)
        determiner = np.zeros(len(token), dtype=bool)
        for name, reading in (("pos", upos_row), ("tag", ptb_row)):
            if getattr(tokens, name) is None:
                continue
            values = take(getattr(tokens, name), token)
            label_of, labels = ids(values)
            if name == "pos":
                determiner = np.array([label == "DET" for label in labels], dtype=bool)[label_of]
            rows = [reading(label) for label in labels]
            known = np.array([row is not None for row in rows], dtype=bool)[label_of] & ~tagged
            for field_name in ("kind", "cut", "priority", "content"):
                per_label = np.array([row[field_name] if row else 0 for row in rows], dtype=np.int64)
                columns[field_name] = np.where(known, per_label[label_of], columns[field_name])
            clause = columns["clause"] | (columns["that"] & (columns["kind"] == PRONOUN))
            columns["cut"] = np.where(known, columns["cut"] | clause, columns["cut"])
            tagged |= known
        person, gendered = columns["person"], columns["gendered"]
        if tokens.person is not None:
            label_of, labels = ids(take(tokens.person, token))
            given = np.array([person_code(label) for label in labels], dtype=np.int64)[label_of]
            person = np.where(given > 0, given, person)
            columns["kind"] = np.where(determiner & (given > 0), PRONOUN, columns["kind"])
        if tokens.gender is not None:
            label_of, labels = ids(take(tokens.gender, token))
            given_gender = np.array([label not in MISSING for label in labels], dtype=bool)[label_of]
            marked = np.array([("Masc" in label) or ("Fem" in label) for label in labels], dtype=bool)[label_of]
            gendered = np.where(given_gender, marked, gendered)
        return cls(
            token,
            type_of,
            columns["word"],
            columns["kind"],
            cut=columns["cut"].astype(bool),
            priority=columns["priority"],
            content=columns["content"].astype(bool),
            person=person,
            gendered=gendered.astype(bool),
        )


def lexical_table(types: list[str]) -> dict[str, np.ndarray]:
    """The lexical fallback's reading of each word type (all arrays over
    ``types``): lower-cased word id, head kind, cut, priority, content,
    person, gender, whether it starts a clause (a wh-word or clause
    punctuation) and whether it is ``that``."""
    word_of, lowers = ids(list(map(str.lower, types)))
    n = len(types)
    is_wordlike = wordlike(types)
    digits = np.fromiter(map(str.isdigit, types), dtype=bool, count=n)
    capitalised = np.fromiter(map(str.isupper, map(itemgetter(slice(0, 1)), types)), dtype=bool, count=n)
    lower_index = {word: i for i, word in enumerate(lowers)}

    def among(words: Iterable[str]) -> np.ndarray:
        return np.isin(word_of, [lower_index[w] for w in words if w in lower_index])

    person_of, gender_of = np.zeros(len(lowers), dtype=np.int64), np.zeros(len(lowers), dtype=bool)
    for word, (person, gendered) in PRONOUN_PERSON.items():
        if word in lower_index:
            person_of[lower_index[word]], gender_of[lower_index[word]] = person, gendered
    personal, other_pronoun = among(PRONOUN_PERSON), among(OTHER_PRONOUNS)
    function_word = among(DETERMINERS | PREPOSITIONS)
    punctuation = among(POSSESSIVE_MARKERS) | ~is_wordlike
    return {
        "word": word_of,
        "kind": np.select(
            [personal, other_pronoun | function_word | punctuation | digits, capitalised], [PRONOUN, OTHER, CAPITALISED], COMMON
        ),
        "cut": among(PREPOSITIONS | WH_WORDS | CLAUSE_PUNCTUATION_LOWER),
        "priority": np.select([personal | other_pronoun, function_word, punctuation], [2, 1, 0], 2),
        "content": ~(personal | other_pronoun | function_word | punctuation),
        "person": person_of[word_of],
        "gendered": gender_of[word_of],
        "clause": among(WH_WORDS | CLAUSE_PUNCTUATION_LOWER),
        "that": among(("that",)),
    }


def upos_row(label: str) -> Optional[dict[str, int]]:
    """Head kind, cut, priority and content of a Universal POS tag."""
    if label in MISSING:
        return None
    return {
        "kind": UPOS_KIND.get(label, OTHER),
        "cut": int(label in ("ADP", "SCONJ")),
        "priority": 2 if label in UPOS_NOMINAL else (0 if label == "PUNCT" else 1),
        "content": int(label not in UPOS_NOT_CONTENT),
    }


def ptb_row(label: str) -> Optional[dict[str, int]]:
    """Head kind, cut, priority and content of a Penn Treebank tag."""
    if label in MISSING:
        return None
    return {
        "kind": PTB_KIND.get(label, OTHER),
        "cut": int(label in PTB_CUT),
        "priority": 2 if label in PTB_NOMINAL else (0 if label in PTB_PUNCTUATION or label == "POS" else 1),
        "content": int(label not in PTB_NOT_CONTENT),
    }


def person_code(value: str) -> int:
    """1, 2 or 3 from a ``Person`` value (the first of several), else 0."""
    value = value.strip()
    return int(value[0]) if value[:1] in ("1", "2", "3") else 0
