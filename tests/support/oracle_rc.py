"""Naive resolution classes and MUC-RC, written straight from their
definitions (Stoyanov et al. 2009, §4, as docs/resolution_classes.md
states them), with explicit partitions and loops, to check the vectorised code against.

Mentions are ``(start, end)`` tuples, entities lists of them. The naive
classifier reads words only (the lexical fallback) plus optional given
heads; parts of speech are covered by hand-made tests.
"""

import re

from spacy_coref_eval.analysis.resolution.lexicon import (
    CLAUSE_PUNCTUATION,
    DETERMINERS,
    FIRST_SECOND_PERSON,
    GENDERED_THIRD_PERSON,
    OTHER_PRONOUNS,
    POSSESSIVE_MARKERS,
    PREPOSITIONS,
    UNGENDERED_THIRD_PERSON,
    WH_WORDS,
)

PERSONAL = FIRST_SECOND_PERSON | GENDERED_THIRD_PERSON | UNGENDERED_THIRD_PERSON


# --- classes ------------------------------------------------------------------


def wordlike(word):
    return re.search(r"[^\W_]", word) is not None


def head_priority(word):
    lower = word.lower()
    if lower in PERSONAL or lower in OTHER_PRONOUNS:
        return 2
    if lower in DETERMINERS or lower in PREPOSITIONS:
        return 1
    if lower in POSSESSIVE_MARKERS or not wordlike(word):
        return 0
    return 2


def is_cut(word):
    return word.lower() in PREPOSITIONS or word.lower() in WH_WORDS or word in CLAUSE_PUNCTUATION


def fallback_head(words, span):
    start, end = span
    stop = end
    for t in range(start + 1, end):
        if is_cut(words[t]):
            stop = t
            break
    best = None
    for t in range(start, stop):
        if best is None or head_priority(words[t]) >= head_priority(words[best]):
            best = t
    return best


def sentence_initial(words, sentence_starts, token):
    start = max(s for s in sentence_starts if s <= token)
    return all(not wordlike(words[t]) for t in range(start, token))


def head_kind(words, sentence_starts, token, entity):
    """'proper', 'common', 'pronoun' or 'other' by the lexical fallback, for
    a head of a mention of ``entity``."""
    word = words[token]
    lower = word.lower()
    if lower in PERSONAL:
        return "pronoun"
    if (
        lower in OTHER_PRONOUNS
        or lower in DETERMINERS
        or lower in PREPOSITIONS
        or lower in POSSESSIVE_MARKERS
        or not wordlike(word)
        or word.isdigit()
    ):
        return "other"
    if not word[0].isupper():
        return "common"
    if not sentence_initial(words, sentence_starts, token):
        return "proper"
    elsewhere = any(
        words[t] == word and not sentence_initial(words, sentence_starts, t) for start, end in entity for t in range(start, end)
    )
    return "proper" if elsewhere else "common"


def content_words(words, span):
    out = set()
    for t in range(*span):
        lower = words[t].lower()
        if (
            wordlike(words[t])
            and lower not in PERSONAL
            and lower not in OTHER_PRONOUNS
            and lower not in DETERMINERS
            and lower not in PREPOSITIONS
            and lower not in POSSESSIVE_MARKERS
        ):
            out.add(lower)
    return out


def naive_classes(entities, words, sentence_starts, heads=None):
    """Class name (or None) of every mention, by span, of one document."""
    out = {}
    for index, entity in enumerate(entities):
        for position, span in enumerate(entity):
            preceding = [other for other in entity if other < span]
            if not preceding:
                out[span] = None
                continue
            head = heads[index][position] if heads is not None else -1
            if head < 0:
                head = fallback_head(words, span)
            kind = head_kind(words, sentence_starts, head, entity)
            lower = words[head].lower()
            if kind == "pronoun":
                out[span] = "1+2Pr" if lower in FIRST_SECOND_PERSON else "G3Pr" if lower in GENDERED_THIRD_PERSON else "U3Pr"
            elif kind in ("proper", "common"):
                string = [w.lower() for w in words[span[0] : span[1]]]
                if any([w.lower() for w in words[p[0] : p[1]]] == string for p in preceding):
                    suffix = "e"
                elif any(content_words(words, p) & content_words(words, span) for p in preceding):
                    suffix = "p"
                else:
                    suffix = "n"
                out[span] = ("PN-" if kind == "proper" else "CN-") + suffix
            else:
                out[span] = None
    return out


# --- MUC-RC -------------------------------------------------------------------


def parts(entity, partition):
    """The number of parts ``partition`` splits ``entity`` into."""
    return sum(1 for other in partition if entity & other)


def recall_numerator(partition, key):
    return sum(len(k) - parts(k, partition) for k in key)


def precision_numerator(partition, key):
    return sum(len(x) - parts(x, key) for x in partition)


def precision_denominator(partition):
    return sum(len(x) - 1 for x in partition)


def naive_muc_rc(key, response, twin_of, members):
    """``(recall_num, recall_den, precision_num, precision_den)`` of MUC-RC
    for the class whose key mentions are ``members``; ``twin_of`` maps a
    response mention to its key twin (absent: twinless)."""
    G = [frozenset(entity) for entity in key if entity]
    P0 = [k - members for k in G if k - members] + [frozenset([m]) for m in members]
    label = {m: index for index, part in enumerate(P0) for m in part}

    def join(a, b):
        if label[a] != label[b]:
            old = label[b]
            for m in label:
                if label[m] == old:
                    label[m] = label[a]

    key_twin = {twin: r for r, twin in twin_of.items()}
    entity_of_response = {r: entity for entity in response for r in entity}
    for m in members:
        if m not in key_twin:
            continue
        r = key_twin[m]
        for other in entity_of_response[r]:
            if other < r and other in twin_of:
                join(m, twin_of[other])
    F = [frozenset(m for m in label if label[m] == value) for value in set(label.values())]
    return (
        recall_numerator(F, G) - recall_numerator(P0, G),
        recall_numerator(G, G) - recall_numerator(P0, G),
        precision_numerator(F, G) - precision_numerator(P0, G),
        precision_denominator(F) - precision_denominator(P0),
    )
