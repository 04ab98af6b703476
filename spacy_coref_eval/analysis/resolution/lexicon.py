"""The fixed vocabulary of the resolution classes (docs/resolution_classes.md):
the class names and count columns, the word lists of the lexical fallback
and the Universal and Penn Treebank tag tables."""

import re
from typing import Callable

import numpy as np

from ...model.clusters import Clusters
from ...model.tokens import Tokens

RESOLUTION_CLASSES: tuple[str, ...] = ("PN-e", "PN-p", "PN-n", "CN-e", "CN-p", "CN-n", "1+2Pr", "G3Pr", "U3Pr")
NONE = "none"
ANAPHORIC = "anaphoric"
MEMBER_COLUMNS: tuple[str, ...] = (*RESOLUTION_CLASSES, NONE, ANAPHORIC)
"""Columns of the class counts: the members of each class, the mentions in
no class (first mentions included), and the anaphoric mentions (those not
first in their gold entity, whatever their class). The first ten add up to
all key mentions."""
CLASS_INDEX = {name: index for index, name in enumerate(RESOLUTION_CLASSES)}

Classifier = Callable[[Clusters, Tokens], np.ndarray]
"""A resolution classifier: the class index (into :data:`RESOLUTION_CLASSES`)
of every mention of the clusters, -1 for none."""


# --- word lists of the lexical fallback ---------------------------------------

FIRST_SECOND_PERSON = frozenset(
    (
        "i",
        "me",
        "my",
        "mine",
        "myself",
        "we",
        "us",
        "our",
        "ours",
        "ourselves",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "thou",
        "thee",
        "thy",
        "thine",
        "thyself",
        "ye",
        "y'all",
    )
)
GENDERED_THIRD_PERSON = frozenset(("he", "him", "his", "himself", "she", "her", "hers", "herself"))
UNGENDERED_THIRD_PERSON = frozenset(("it", "its", "itself", "they", "them", "their", "theirs", "themselves", "themself", "'em"))
OTHER_PRONOUNS = frozenset(
    (
        "who",
        "whom",
        "whose",
        "which",
        "what",
        "whoever",
        "whomever",
        "whatever",
        "whichever",
        "someone",
        "somebody",
        "something",
        "anyone",
        "anybody",
        "anything",
        "everyone",
        "everybody",
        "everything",
        "nobody",
        "nothing",
        "none",
        "oneself",
    )
)
DETERMINERS = frozenset(
    (
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "some",
        "any",
        "no",
        "every",
        "each",
        "all",
        "both",
        "either",
        "neither",
        "another",
        "such",
        "many",
        "much",
        "few",
        "several",
        "enough",
        "certain",
    )
)
PREPOSITIONS = frozenset(
    (
        "of",
        "in",
        "to",
        "for",
        "with",
        "on",
        "at",
        "by",
        "from",
        "about",
        "as",
        "into",
        "like",
        "through",
        "after",
        "over",
        "between",
        "against",
        "during",
        "without",
        "before",
        "under",
        "around",
        "among",
        "amongst",
        "upon",
        "within",
        "towards",
        "toward",
        "across",
        "behind",
        "beyond",
        "beside",
        "besides",
        "near",
        "onto",
        "till",
        "until",
        "unto",
        "via",
        "per",
        "than",
        "throughout",
        "underneath",
        "despite",
        "except",
        "inside",
        "outside",
        "along",
        "amid",
        "amidst",
        "above",
        "below",
        "beneath",
        "since",
        "concerning",
        "regarding",
        "versus",
        "o'er",
    )
)
WH_WORDS = frozenset(("who", "whom", "whose", "which", "whoever", "whatever", "where", "when", "why", "how"))
CLAUSE_PUNCTUATION = frozenset((",", ";", ":", "(", ")", "[", "]", "--", "—", "–", "-LRB-", "-RRB-"))
POSSESSIVE_MARKERS = frozenset(("'s", "'", "’s", "’"))
CLAUSE_PUNCTUATION_LOWER = frozenset(word.lower() for word in CLAUSE_PUNCTUATION)

PRONOUN_PERSON: dict[str, tuple[int, bool]] = {
    **{word: (1, False) for word in FIRST_SECOND_PERSON},
    **{word: (3, True) for word in GENDERED_THIRD_PERSON},
    **{word: (3, False) for word in UNGENDERED_THIRD_PERSON},
}
WORDLIKE = re.compile(r"[^\W_]")


# --- head kinds and tag tables ------------------------------------------------

PROPER, COMMON, PRONOUN, OTHER, CAPITALISED = 0, 1, 2, 3, 4

UPOS_KIND = {"PROPN": PROPER, "NOUN": COMMON, "PRON": PRONOUN}
UPOS_NOMINAL = frozenset(("PROPN", "NOUN", "PRON", "NUM"))
UPOS_NOT_CONTENT = frozenset(("DET", "ADP", "PRON", "PUNCT"))
PTB_KIND = {"NNP": PROPER, "NNPS": PROPER, "NN": COMMON, "NNS": COMMON, "PRP": PRONOUN, "PRP$": PRONOUN}
PTB_NOMINAL = frozenset(("NNP", "NNPS", "NN", "NNS", "PRP", "PRP$", "CD", "WP", "EX"))
PTB_PUNCTUATION = frozenset(("``", "''", ",", ".", ":", "-LRB-", "-RRB-", "#", "$", "HYPH", "NFP"))
PTB_NOT_CONTENT = PTB_PUNCTUATION | frozenset(("DT", "PDT", "WDT", "IN", "TO", "PRP", "PRP$", "WP", "WP$", "EX", "POS"))
PTB_CUT = frozenset(("IN", "TO", "WDT", "WP", "WP$", ",", ":", "-LRB-", "-RRB-"))
