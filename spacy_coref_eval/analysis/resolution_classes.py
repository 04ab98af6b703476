"""Resolution classes, MUC-RC and the CPP prediction of Stoyanov, Gilbert,
Cardie and Riloff (2009, "Conundrums in Noun Phrase Coreference Resolution",
§4).

Every key mention with a prior referent (one that is not the first mention
of its gold entity, "anaphoric") falls into one of nine classes
(:data:`RESOLUTION_CLASSES`) by the kind of its head and, for names and
common nouns, by how its string matches the preceding mentions of its
entity; anything else is in no class. :func:`count_resolution_classes`
scores a response on each class with MUC-RC and counts the members of each
class; :func:`class_profile` turns the class mix of a corpus into the CPP
prediction of a system's MUC score on it.

Everything here works on many documents at once, stacked on disjoint token
ranges (:meth:`Clusters.stack`, :meth:`Tokens.stack`), in time linear in
the number of mentions and mention tokens (sorts aside). Counts are per
document and additive, so they merge across shards like every other count.
"""
import json
import re
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ..arrays import expand_ranges
from ..assignment import connected_blocks
from ..clusters import Clusters
from ..counting.counts import FIELDS
from ..counting.rates import prf_arrays, ratio
from ..errors import CorefInputError
from ..formats.tokens import MISSING as _MISSING
from ..formats.tokens import Tokens

if TYPE_CHECKING:
    from ..scoring import CorpusResult

RESOLUTION_CLASSES: Tuple[str, ...] = ("PN-e", "PN-p", "PN-n", "CN-e", "CN-p", "CN-n", "1+2Pr", "G3Pr", "U3Pr")
NONE = "none"
ANAPHORIC = "anaphoric"
MEMBER_COLUMNS: Tuple[str, ...] = (*RESOLUTION_CLASSES, NONE, ANAPHORIC)
"""Columns of the class counts: the members of each class, the mentions in
no class (first mentions included), and the anaphoric mentions (those not
first in their gold entity, whatever their class). The first ten add up to
all key mentions."""
CLASS_INDEX = {name: index for index, name in enumerate(RESOLUTION_CLASSES)}

TABLE4_AVERAGE: Dict[str, float] = {
    "PN-e": 0.89, "PN-p": 0.74, "PN-n": 0.21, "CN-e": 0.67, "CN-p": 0.39, "CN-n": 0.18,
    "1+2Pr": 0.70, "G3Pr": 0.80, "U3Pr": 0.48,
}
"""MUC-RC F1 per class, the average column of Stoyanov et al. (2009),
Table 4: the default scores of the CPP prediction."""

Classifier = Callable[[Clusters, Tokens], np.ndarray]
"""A resolution classifier: the class index (into :data:`RESOLUTION_CLASSES`)
of every mention of the clusters, -1 for none."""



# --- word lists of the lexical fallback ---------------------------------------

FIRST_SECOND_PERSON = frozenset((
    "i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves", "you", "your", "yours",
    "yourself", "yourselves", "thou", "thee", "thy", "thine", "thyself", "ye", "y'all",
))
GENDERED_THIRD_PERSON = frozenset(("he", "him", "his", "himself", "she", "her", "hers", "herself"))
UNGENDERED_THIRD_PERSON = frozenset((
    "it", "its", "itself", "they", "them", "their", "theirs", "themselves", "themself", "'em",
))
OTHER_PRONOUNS = frozenset((
    "who", "whom", "whose", "which", "what", "whoever", "whomever", "whatever", "whichever",
    "someone", "somebody", "something", "anyone", "anybody", "anything", "everyone", "everybody",
    "everything", "nobody", "nothing", "none", "oneself",
))
DETERMINERS = frozenset((
    "a", "an", "the", "this", "that", "these", "those", "some", "any", "no", "every", "each", "all",
    "both", "either", "neither", "another", "such", "many", "much", "few", "several", "enough", "certain",
))
PREPOSITIONS = frozenset((
    "of", "in", "to", "for", "with", "on", "at", "by", "from", "about", "as", "into", "like", "through",
    "after", "over", "between", "against", "during", "without", "before", "under", "around", "among",
    "amongst", "upon", "within", "towards", "toward", "across", "behind", "beyond", "beside", "besides",
    "near", "onto", "till", "until", "unto", "via", "per", "than", "throughout", "underneath", "despite",
    "except", "inside", "outside", "along", "amid", "amidst", "above", "below", "beneath", "since",
    "concerning", "regarding", "versus", "o'er",
))
WH_WORDS = frozenset(("who", "whom", "whose", "which", "whoever", "whatever", "where", "when", "why", "how"))
CLAUSE_PUNCTUATION = frozenset((",", ";", ":", "(", ")", "[", "]", "--", "—", "–", "-LRB-", "-RRB-"))
POSSESSIVE_MARKERS = frozenset(("'s", "'", "’s", "’"))
_CLAUSE_PUNCTUATION_LOWER = frozenset(word.lower() for word in CLAUSE_PUNCTUATION)

_PRONOUN_PERSON: Dict[str, Tuple[int, bool]] = {
    **{word: (1, False) for word in FIRST_SECOND_PERSON},
    **{word: (3, True) for word in GENDERED_THIRD_PERSON},
    **{word: (3, False) for word in UNGENDERED_THIRD_PERSON},
}
_WORDLIKE = re.compile(r"[^\W_]")

# Head kinds.
_PROPER, _COMMON, _PRONOUN, _OTHER, _CAPITALISED = 0, 1, 2, 3, 4

_UPOS_KIND = {"PROPN": _PROPER, "NOUN": _COMMON, "PRON": _PRONOUN}
_UPOS_NOMINAL = frozenset(("PROPN", "NOUN", "PRON", "NUM"))
_UPOS_NOT_CONTENT = frozenset(("DET", "ADP", "PRON", "PUNCT"))
_PTB_KIND = {"NNP": _PROPER, "NNPS": _PROPER, "NN": _COMMON, "NNS": _COMMON, "PRP": _PRONOUN, "PRP$": _PRONOUN}
_PTB_NOMINAL = frozenset(("NNP", "NNPS", "NN", "NNS", "PRP", "PRP$", "CD", "WP", "EX"))
_PTB_PUNCTUATION = frozenset(("``", "''", ",", ".", ":", "-LRB-", "-RRB-", "#", "$", "HYPH", "NFP"))
_PTB_NOT_CONTENT = _PTB_PUNCTUATION | frozenset((
    "DT", "PDT", "WDT", "IN", "TO", "PRP", "PRP$", "WP", "WP$", "EX", "POS",
))
_PTB_CUT = frozenset(("IN", "TO", "WDT", "WP", "WP$", ",", ":", "-LRB-", "-RRB-"))


# --- the classifier -----------------------------------------------------------


def classify_mentions(clusters: Clusters, tokens: Tokens) -> np.ndarray:
    """The resolution class of every mention (an index into
    :data:`RESOLUTION_CLASSES`, -1 for none), after Stoyanov et al. (2009, §4).

    Only a mention that is not the first of its gold entity by position
    ((start, end) order) gets a class. Its class then depends on its head
    token, found as follows:

    - the mention's head from ``clusters.heads`` (spaCy ``Span.root``, the
      heads of a CoNLL-U reader) where it is given and not -1;
    - otherwise the rule of the lexical fallback: the head is the last word
      before the first preposition, where "the first preposition" is the
      first token after the mention's first token that is a preposition or
      subordinating conjunction (UPOS ``ADP``/``SCONJ``, tag ``IN``/``TO``,
      or, for a token without a tag, one of :data:`PREPOSITIONS`), a
      wh-word (:data:`WH_WORDS`, tag ``WDT``/``WP``/``WP$``, or ``that``
      tagged ``PRON``) or clause punctuation (:data:`CLAUSE_PUNCTUATION`,
      tag ``,``/``:``/``-LRB-``/``-RRB-``); "the last word" is the last
      nominal (UPOS ``NOUN``, ``PROPN``, ``PRON``, ``NUM``, their Penn tags,
      or, for a token without a tag, any word but a determiner, preposition
      or possessive marker) before it, else the last token with a letter or
      digit, else the last token.

    Each token's part of speech is read from ``tokens.pos`` when given,
    else ``tokens.tag``, else from the word (lexical fallback). The head is

    - a proper name: UPOS ``PROPN``, tag ``NNP(S)``; lexically, a
      capitalised word not at a sentence start (not its sentence's first
      token with a letter or digit). A capitalised head at a sentence start
      is uncertain; the paper is silent, and here it is a proper name when
      the same word, capitalised alike, occurs away from a sentence start
      in some mention of the same gold entity, else a common noun;
    - a common noun: UPOS ``NOUN``, tag ``NN(S)``; lexically, any other
      word with a letter that is not in the word lists;
    - a pronoun: UPOS ``PRON`` (or ``DET`` with a ``Person`` feature), tag
      ``PRP``/``PRP$``; lexically, a word of the three person lists. Its
      person and gender come from ``tokens.person``/``tokens.gender`` where
      given, else from those lists: person 1 or 2 is 1+2Pr, person 3 with
      gender ``Masc`` or ``Fem`` G3Pr, person 3 otherwise U3Pr; a pronoun
      of no known person (who, this, someone, ...) is in no class;
    - anything else (numbers, adjectives, other pronouns, ...): no class.

    A proper name or common noun is then ``-e`` when some preceding mention
    of its gold entity has the same words (case-insensitive), else ``-p``
    when some preceding mention shares a content word with it, else ``-n``.
    Content words are all the mention's words but determiners, prepositions,
    pronouns, punctuation and possessive markers (by the same signals as
    above: UPOS ``DET``/``ADP``/``PRON``/``PUNCT``, their Penn tags and
    ``POS``, or the word lists, a token without a letter or digit being
    punctuation); they are compared case-insensitively.

    Python touches each token of the mentions of entities with two or more
    mentions once, and each distinct word once; the rest is array work.
    """
    classes = np.full(len(clusters), -1, dtype=np.int64)
    if len(clusters) == 0:
        return classes
    _check_tokens(clusters, tokens)
    order, rank = _position_order(clusters.starts, clusters.ends)
    anaphoric = _anaphoric(clusters.entity, order)
    if not anaphoric.any():
        return classes
    compared = clusters.non_singletons()
    mentions, rank = clusters.subset(compared), rank[compared]
    candidates = np.flatnonzero(anaphoric[compared])
    owner, token = expand_ranges(mentions.starts, mentions.ends)
    given = mentions.heads[candidates] if mentions.heads is not None else np.full(len(candidates), -1)
    info = _TokenInfo.of(tokens, np.concatenate([token, given[given >= 0]]))
    head = _head_entries(mentions, owner, info, candidates, given)
    kind = info.kind[head]
    uncertain = np.flatnonzero(kind == _CAPITALISED)
    if len(uncertain):
        kind[uncertain] = _resolve_capitalised(
            tokens, info, mentions.entity[owner], head[uncertain], mentions.entity[candidates[uncertain]]
        )
    found = np.full(len(candidates), -1, dtype=np.int64)
    pronoun = np.flatnonzero(kind == _PRONOUN)
    person, gendered = info.person[head[pronoun]], info.gendered[head[pronoun]]
    found[pronoun] = np.select(
        [(person == 1) | (person == 2), (person == 3) & gendered, person == 3],
        [CLASS_INDEX["1+2Pr"], CLASS_INDEX["G3Pr"], CLASS_INDEX["U3Pr"]],
        -1,
    )
    nominal = np.flatnonzero((kind == _PROPER) | (kind == _COMMON))
    if len(nominal):
        chosen = candidates[nominal]
        matched = np.zeros(mentions.n_entities, dtype=bool)
        matched[mentions.entity[chosen]] = True
        keep = matched[mentions.entity]
        rows = keep[owner]
        index = np.cumsum(keep) - 1
        match = _string_matches(
            mentions.entity[keep], rank[keep], index[owner[rows]], info.word[: len(token)][rows],
            info.content[: len(token)][rows],
        )
        base = np.where(kind[nominal] == _PROPER, CLASS_INDEX["PN-e"], CLASS_INDEX["CN-e"])
        found[nominal] = base + match[index[chosen]]
    classes[np.flatnonzero(compared)[candidates]] = found
    return classes


def _check_tokens(clusters: Clusters, tokens: Tokens) -> None:
    if clusters.extent > len(tokens):
        raise CorefInputError(
            f"a mention or head reaches token {clusters.extent - 1}, beyond the {len(tokens)} tokens given"
        )


def _position_order(starts: np.ndarray, ends: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """The mentions in (start, end) order, and the rank of each in it."""
    order = np.lexsort((ends, starts))
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return order, rank


def _anaphoric(entity: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Mask of the mentions that are not the first of their entity, the
    mentions being in ``order``."""
    anaphoric = np.ones(len(entity), dtype=bool)
    _, first = np.unique(entity[order], return_index=True)
    anaphoric[order[first]] = False
    return anaphoric


def _take(values: Sequence[Any], positions: np.ndarray) -> List[Any]:
    """``[values[i] for i in positions]`` at C speed."""
    if len(positions) < 2:
        return [values[i] for i in positions.tolist()]
    return list(itemgetter(*positions.tolist())(values))


def _member(values: np.ndarray, of: np.ndarray) -> np.ndarray:
    """Whether each value is one of ``of``: :func:`numpy.isin` by binary
    search, without the ``numpy.unique`` that imports ``numpy.ma``."""
    if len(of) == 0:
        return np.zeros(len(values), dtype=bool)
    of = np.sort(of)
    return of[np.minimum(np.searchsorted(of, values), len(of) - 1)] == values


def _ids(values: List[Any]) -> Tuple[np.ndarray, List[Any]]:
    """The id of every value (by first appearance) and the distinct values."""
    index = {value: i for i, value in enumerate(dict.fromkeys(values))}
    return np.fromiter(map(index.__getitem__, values), dtype=np.int64, count=len(values)), list(index)


def _wordlike(words: List[str]) -> np.ndarray:
    """Whether each word has a letter or a digit."""
    out = np.fromiter(map(str.isalnum, words), dtype=bool, count=len(words))
    for i in np.flatnonzero(~out).tolist():
        out[i] = _WORDLIKE.search(words[i]) is not None
    return out


@dataclass(frozen=True)
class _TokenInfo:
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
    def of(cls, tokens: Tokens, token: np.ndarray) -> "_TokenInfo":
        type_of, types = _ids(_take(tokens.words, token))
        lexical = _lexical_table(types)
        columns = {name: values[type_of] for name, values in lexical.items()}
        tagged = np.zeros(len(token), dtype=bool)
        determiner = np.zeros(len(token), dtype=bool)
        for name, reading in (("pos", _upos_row), ("tag", _ptb_row)):
            if getattr(tokens, name) is None:
                continue
            values = _take(getattr(tokens, name), token)
            label_of, labels = _ids(values)
            if name == "pos":
                determiner = np.array([label == "DET" for label in labels], dtype=bool)[label_of]
            rows = [reading(label) for label in labels]
            known = np.array([row is not None for row in rows], dtype=bool)[label_of] & ~tagged
            for field_name in ("kind", "cut", "priority", "content"):
                per_label = np.array([row[field_name] if row else 0 for row in rows], dtype=np.int64)
                columns[field_name] = np.where(known, per_label[label_of], columns[field_name])
            clause = columns["clause"] | (columns["that"] & (columns["kind"] == _PRONOUN))
            columns["cut"] = np.where(known, columns["cut"] | clause, columns["cut"])
            tagged |= known
        person, gendered = columns["person"], columns["gendered"]
        if tokens.person is not None:
            label_of, labels = _ids(_take(tokens.person, token))
            given = np.array([_person_code(label) for label in labels], dtype=np.int64)[label_of]
            person = np.where(given > 0, given, person)
            columns["kind"] = np.where(determiner & (given > 0), _PRONOUN, columns["kind"])
        if tokens.gender is not None:
            label_of, labels = _ids(_take(tokens.gender, token))
            given_gender = np.array([label not in _MISSING for label in labels], dtype=bool)[label_of]
            marked = np.array([("Masc" in label) or ("Fem" in label) for label in labels], dtype=bool)[label_of]
            gendered = np.where(given_gender, marked, gendered)
        return cls(
            token, type_of, columns["word"], columns["kind"], columns["cut"].astype(bool), columns["priority"],
            columns["content"].astype(bool), person, gendered.astype(bool),
        )


def _lexical_table(types: List[str]) -> Dict[str, np.ndarray]:
    """The lexical fallback's reading of each word type (all arrays over
    ``types``): lower-cased word id, head kind, cut, priority, content,
    person, gender, whether it starts a clause (a wh-word or clause
    punctuation) and whether it is ``that``."""
    word_of, lowers = _ids(list(map(str.lower, types)))
    n = len(types)
    wordlike = _wordlike(types)
    digits = np.fromiter(map(str.isdigit, types), dtype=bool, count=n)
    capitalised = np.fromiter(map(str.isupper, map(itemgetter(slice(0, 1)), types)), dtype=bool, count=n)
    lower_index = {word: i for i, word in enumerate(lowers)}

    def among(words: Iterable[str]) -> np.ndarray:
        return np.isin(word_of, [lower_index[w] for w in words if w in lower_index])

    person_of, gender_of = np.zeros(len(lowers), dtype=np.int64), np.zeros(len(lowers), dtype=bool)
    for word, (person, gendered) in _PRONOUN_PERSON.items():
        if word in lower_index:
            person_of[lower_index[word]], gender_of[lower_index[word]] = person, gendered
    personal, other_pronoun = among(_PRONOUN_PERSON), among(OTHER_PRONOUNS)
    function_word = among(DETERMINERS | PREPOSITIONS)
    punctuation = among(POSSESSIVE_MARKERS) | ~wordlike
    return {
        "word": word_of,
        "kind": np.select(
            [personal, other_pronoun | function_word | punctuation | digits, capitalised],
            [_PRONOUN, _OTHER, _CAPITALISED],
            _COMMON,
        ),
        "cut": among(PREPOSITIONS | WH_WORDS | _CLAUSE_PUNCTUATION_LOWER),
        "priority": np.select([personal | other_pronoun, function_word, punctuation], [2, 1, 0], 2),
        "content": ~(personal | other_pronoun | function_word | punctuation),
        "person": person_of[word_of],
        "gendered": gender_of[word_of],
        "clause": among(WH_WORDS | _CLAUSE_PUNCTUATION_LOWER),
        "that": among(("that",)),
    }


def _upos_row(label: str) -> Optional[Dict[str, int]]:
    """Head kind, cut, priority and content of a Universal POS tag."""
    if label in _MISSING:
        return None
    return {
        "kind": _UPOS_KIND.get(label, _OTHER),
        "cut": int(label in ("ADP", "SCONJ")),
        "priority": 2 if label in _UPOS_NOMINAL else (0 if label == "PUNCT" else 1),
        "content": int(label not in _UPOS_NOT_CONTENT),
    }


def _ptb_row(label: str) -> Optional[Dict[str, int]]:
    """Head kind, cut, priority and content of a Penn Treebank tag."""
    if label in _MISSING:
        return None
    return {
        "kind": _PTB_KIND.get(label, _OTHER),
        "cut": int(label in _PTB_CUT),
        "priority": 2 if label in _PTB_NOMINAL else (0 if label in _PTB_PUNCTUATION or label == "POS" else 1),
        "content": int(label not in _PTB_NOT_CONTENT),
    }


def _person_code(value: str) -> int:
    """1, 2 or 3 from a ``Person`` value (the first of several), else 0."""
    value = value.strip()
    return int(value[0]) if value[:1] in ("1", "2", "3") else 0


def _head_entries(
    clusters: Clusters, owner: np.ndarray, info: _TokenInfo, candidates: np.ndarray, given: np.ndarray
) -> np.ndarray:
    """For every candidate mention, the row of ``info`` holding its head:
    its ``given`` head where that is >= 0 (the rows after the mention
    tokens, in order), else the fallback rule on its tokens (``owner``
    gives the mention of each token row)."""
    sizes = clusters.ends - clusters.starts
    first_entry = np.cumsum(sizes) - sizes
    local = np.arange(len(owner)) - first_entry[owner]
    width = int(sizes.max()) + 1
    cut = info.cut[: len(owner)] & (local > 0)
    first_cut = np.minimum.reduceat(np.where(cut, local, sizes[owner]), first_entry)
    score = np.where(local < first_cut[owner], info.priority[: len(owner)] * width + local, -1)
    heads = (first_entry + np.maximum.reduceat(score, first_entry) % width)[candidates]
    has = given >= 0
    heads[has] = len(owner) + np.arange(int(has.sum()))
    return heads


def _resolve_capitalised(
    tokens: Tokens, info: _TokenInfo, row_entity: np.ndarray, heads: np.ndarray, head_entity: np.ndarray
) -> np.ndarray:
    """Proper name or common noun for capitalised heads read lexically
    (rows ``heads`` of ``info``, of mentions of ``head_entity``): a proper
    name unless at a sentence start, where it is one only if the same word
    occurs away from a sentence start in a mention of the same entity
    (``row_entity`` gives the entity of each mention token row)."""
    head_tokens = info.token[heads]
    out = np.full(len(heads), _PROPER, dtype=np.int64)
    initial = _sentence_initial(tokens, head_tokens)
    if not initial.any():
        return out
    n_types = int(info.type.max()) + 1
    asked = head_entity[initial] * n_types + info.type[heads[initial]]
    codes = row_entity * n_types + info.type[: len(row_entity)]
    evidence = np.flatnonzero(_member(codes, asked))
    seen = codes[evidence[~_sentence_initial(tokens, info.token[evidence])]]
    out[initial] = np.where(_member(asked, seen), _PROPER, _COMMON)
    return out


def _sentence_initial(tokens: Tokens, positions: np.ndarray) -> np.ndarray:
    """Whether each token (one with a letter or digit) is the first such
    token of its sentence: walks back over the tokens before it, all of
    them at once, while they have none."""
    starts = tokens.sentence_starts
    first = starts[np.searchsorted(starts, positions, side="right") - 1]
    initial = positions == first
    pending = np.flatnonzero(~initial)
    back = positions.copy()
    while len(pending):
        back[pending] -= 1
        wordlike = _wordlike(_take(tokens.words, back[pending]))
        reached = ~wordlike & (back[pending] == first[pending])
        initial[pending[reached]] = True
        pending = pending[~wordlike & ~reached]
    return initial


def _string_matches(
    entity: np.ndarray, rank: np.ndarray, owner: np.ndarray, word: np.ndarray, content: np.ndarray
) -> np.ndarray:
    """For every mention: 0 if a preceding mention of its entity has the
    same lower-cased words, else 1 if one shares a content word with it,
    else 2. ``owner``, ``word`` and ``content`` describe the mentions'
    tokens, mention by mention."""
    n = len(entity)
    out = np.full(n, 2, dtype=np.int64)
    holder = owner[content]
    if len(holder):
        keys = entity[holder] * (int(word.max()) + 1) + word[content]
        ranks = rank[holder]
        order = np.lexsort((ranks, keys))
        keys, ranks, holder = keys[order], ranks[order], holder[order]
        starts = np.ones(len(keys), dtype=bool)
        starts[1:] = keys[1:] != keys[:-1]
        earliest = ranks[starts][np.cumsum(starts) - 1]
        out[holder[earliest < ranks]] = 1
    out[_exact_repeats(entity, rank, owner, word)] = 0
    return out


def _exact_repeats(entity: np.ndarray, rank: np.ndarray, owner: np.ndarray, word: np.ndarray) -> np.ndarray:
    """Mask of the mentions whose word sequence equals that of an earlier
    mention of their entity. Sequences are grouped by a polynomial hash and
    every group is then checked word by word; a collision (never seen)
    falls back to comparing tuples."""
    n = len(entity)
    sizes = np.bincount(owner, minlength=n)
    first_entry = np.cumsum(sizes) - sizes
    local = np.arange(len(owner)) - first_entry[owner]
    powers = np.cumprod(np.full(int(sizes.max()), 0x9E3779B97F4A7C15, dtype=np.uint64), dtype=np.uint64)
    hashes = np.add.reduceat((word.astype(np.uint64) + np.uint64(1)) * powers[local], first_entry)
    order = np.lexsort((rank, hashes, entity * (int(sizes.max()) + 1) + sizes))
    same = np.zeros(n, dtype=bool)
    same[1:] = (entity[order][1:] == entity[order][:-1]) & (sizes[order][1:] == sizes[order][:-1])
    same[1:] &= hashes[order][1:] == hashes[order][:-1]
    repeats = np.empty(n, dtype=bool)
    repeats[order] = same
    original = np.empty(n, dtype=np.int64)
    original[order] = order[np.maximum.accumulate(np.where(same, 0, np.arange(n)))]
    copies = np.flatnonzero(repeats)
    copy_of, rows = expand_ranges(first_entry[copies], first_entry[copies] + sizes[copies])
    source_rows = rows - first_entry[copies][copy_of] + first_entry[original[copies]][copy_of]
    if np.array_equal(word[rows], word[source_rows]):
        return repeats
    words = word.tolist()
    seen = set()
    out = np.zeros(n, dtype=bool)
    for mention in np.argsort(rank, kind="stable").tolist():
        begin = int(first_entry[mention])
        key = (int(entity[mention]), tuple(words[begin:begin + int(sizes[mention])]))
        out[mention] = key in seen
        seen.add(key)
    return out


# --- MUC-RC -------------------------------------------------------------------


def count_resolution_classes(
    key: Clusters,
    response: Clusters,
    twins: np.ndarray,
    classes: np.ndarray,
    key_doc: Optional[np.ndarray] = None,
    response_doc: Optional[np.ndarray] = None,
    n_docs: int = 1,
) -> Tuple[np.ndarray, np.ndarray]:
    """MUC-RC counts of every class and the class members, per document.

    ``key`` and ``response`` may hold many documents stacked on disjoint
    token ranges; ``twins[r]`` is the key twin of response mention ``r`` or
    -1 (a matcher's output), ``classes[m]`` the class of key mention ``m``
    (-1 none), ``key_doc``/``response_doc`` the document of every mention
    (default: all in document 0).

    MUC-RC (Stoyanov et al. 2009, §4) of class C: G is the key partition;
    P0 is G with every C mention taken out into a singleton; F is P0 plus
    the system's decisions for C: each twinned C mention m is joined with
    every twinned mention that precedes m in m's response entity, where
    "precedes" means an earlier response mention by (start, end) position
    (under exact matching the positions of the key twins); links to
    twinless response mentions are ignored. With MUC's R(X) = Σ_k (|k| −
    parts of k in X), P(X) = Σ_x (|x| − parts of x in G) and D(X) = Σ_x
    (|x| − 1), recall = (R(F) − R(P0)) / (R(G) − R(P0)) and precision =
    (P(F) − P(P0)) / (D(F) − D(P0)).

    All three partitions cover the key mentions, P0 refines G and F is a
    union of P0 parts, so R(X) = P(X) = N − c(X) for c(X) the nonempty
    cells of G × X, c(P0) = |P0| and c(G) = |G|: the four counts are
    |P0| − c(F), |P0| − |G|, |P0| − c(F) and |P0| − |F|. The joins of C are
    the response entity's twinned mentions up to its last C mention (when
    that is not its first), so F is the connected components of one
    bipartite graph of P0 parts and response entities; all nine classes
    are counted in one pass.

    Returns ``muc_rc`` of shape ``(n_docs, 9, 4)`` (:data:`FIELDS` per
    class of :data:`RESOLUTION_CLASSES`) and ``members`` of shape
    ``(n_docs, 11)`` (:data:`MEMBER_COLUMNS`).
    """
    n_classes = len(RESOLUTION_CLASSES)
    twins, classes, key_doc, response_doc = _checked(key, response, twins, classes, key_doc, response_doc, n_docs)
    n_entities = key.n_entities
    entity_doc = np.zeros(n_entities, dtype=np.int64)
    entity_doc[key.entity] = key_doc

    columns = np.where(classes >= 0, classes, n_classes)
    members = np.zeros((n_docs, len(MEMBER_COLUMNS)))
    members[:, : n_classes + 1] = np.bincount(
        key_doc * (n_classes + 1) + columns, minlength=n_docs * (n_classes + 1)
    ).reshape(n_docs, n_classes + 1)
    anaphoric = _anaphoric(key.entity, _position_order(key.starts, key.ends)[0])
    members[:, -1] = np.bincount(key_doc[anaphoric], minlength=n_docs)

    classified = classes >= 0
    in_class = np.bincount(
        key.entity[classified] * n_classes + classes[classified], minlength=n_entities * n_classes
    ).reshape(n_entities, n_classes)
    sizes = np.bincount(key.entity, minlength=n_entities)[:, None]
    parts_added = np.where(in_class > 0, in_class + (sizes > in_class) - 1, 0)
    cells = (entity_doc[:, None] * n_classes + np.arange(n_classes)).ravel()
    recall_den = np.bincount(cells, parts_added.ravel(), minlength=n_docs * n_classes).reshape(n_docs, n_classes)

    touched, blocks, cells = _joins(key, response, twins, classes, entity_doc, n_docs)
    muc_rc = np.zeros((n_docs, n_classes, len(FIELDS)))
    muc_rc[..., 0] = touched - cells
    muc_rc[..., 1] = recall_den
    muc_rc[..., 2] = touched - cells
    muc_rc[..., 3] = touched - blocks
    return muc_rc, members


def _checked(
    key: Clusters,
    response: Clusters,
    twins: np.ndarray,
    classes: np.ndarray,
    key_doc: Optional[np.ndarray],
    response_doc: Optional[np.ndarray],
    n_docs: int,
) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The inputs of :func:`count_resolution_classes` as int64 arrays,
    after checking that they fit together."""
    twins = np.asarray(twins, dtype=np.int64).reshape(-1)
    classes = np.asarray(classes, dtype=np.int64).reshape(-1)
    key_doc = np.zeros(len(key), dtype=np.int64) if key_doc is None else np.asarray(key_doc, dtype=np.int64)
    response_doc = (
        np.zeros(len(response), dtype=np.int64) if response_doc is None else np.asarray(response_doc, dtype=np.int64)
    )
    if len(classes) != len(key) or len(key_doc) != len(key):
        raise CorefInputError(f"resolution classes: {len(key)} key mentions but {len(classes)} classes "
                              f"and {len(key_doc)} documents")
    if len(twins) != len(response) or len(response_doc) != len(response):
        raise CorefInputError(f"resolution classes: {len(response)} response mentions but {len(twins)} twins "
                              f"and {len(response_doc)} documents")
    if len(classes) and (classes.min() < -1 or classes.max() >= len(RESOLUTION_CLASSES)):
        raise CorefInputError(
            f"resolution classes: a class index {int(classes.min() if classes.min() < -1 else classes.max())} "
            f"is not -1 or in 0 .. {len(RESOLUTION_CLASSES) - 1}"
        )
    for docs, side in ((key_doc, "key"), (response_doc, "response")):
        if len(docs) and (docs.min() < 0 or docs.max() >= n_docs):
            raise CorefInputError(f"resolution classes: a {side} mention's document is not in 0 .. {n_docs - 1}")
    found = twins >= 0
    if len(twins) and (twins.max() >= len(key) or twins.min() < -1):
        raise CorefInputError("resolution classes: a twin is not a key mention")
    if np.any(np.bincount(twins[found], minlength=len(key)) > 1):
        raise CorefInputError("resolution classes: a key mention has two response twins")
    if np.any(key_doc[twins[found]] != response_doc[found]):
        raise CorefInputError(
            "resolution classes: a response mention is twinned with a key mention of another document"
        )
    return twins, classes, key_doc, response_doc


def _joins(
    key: Clusters, response: Clusters, twins: np.ndarray, classes: np.ndarray, entity_doc: np.ndarray, n_docs: int
) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per document and class: the P0 parts touched by a join, the parts of
    F they form (blocks) and the cells of G × F they form, each ``(n_docs,
    n_classes)``; parts not touched count 1 on every side and cancel."""
    n_classes, n_key, n_entities = len(RESOLUTION_CLASSES), len(key), key.n_entities
    shape = (n_docs, n_classes)
    twinned = np.flatnonzero(twins >= 0)
    if len(twinned) == 0:
        return np.zeros(shape), np.zeros(shape), np.zeros(shape)
    order = twinned[np.lexsort((response.ends[twinned], response.starts[twinned], response.entity[twinned]))]
    group_entity = response.entity[order]
    new_group = np.ones(len(order), dtype=bool)
    new_group[1:] = group_entity[1:] != group_entity[:-1]
    group = np.cumsum(new_group) - 1
    group_start = np.flatnonzero(new_group)
    local = np.arange(len(order)) - group_start[group]
    mention = twins[order]
    mention_class = classes[mention]
    width = n_entities + n_key

    classed = np.flatnonzero(mention_class >= 0)
    if not len(classed):
        return np.zeros(shape), np.zeros(shape), np.zeros(shape)
    classed = classed[np.argsort(mention_class[classed], kind="stable")]
    cell = mention_class[classed] * len(group_start) + group[classed]
    final = classed[np.append(cell[1:] != cell[:-1], True)]
    final = final[local[final] >= 1]
    if not len(final):
        return np.zeros(shape), np.zeros(shape), np.zeros(shape)
    run, entry = expand_ranges(group_start[group[final]], group_start[group[final]] + local[final] + 1)
    c = mention_class[final][run]
    joined = mention[entry]
    rows = np.where(mention_class[entry] == c, n_entities + joined, key.entity[joined]) + c * width
    cols = group[final][run] + c * len(group_start)
    part_ids, row = _dense(rows, n_classes * width)
    _, col = _dense(cols, n_classes * len(group_start))
    block = connected_blocks(row, col, len(part_ids), int(col.max()) + 1).of_edge
    part_block = np.empty(len(part_ids), dtype=np.int64)
    part_block[row] = block
    part_class, part_local = part_ids // width, part_ids % width
    part_entity = np.where(part_local < n_entities, part_local, key.entity[np.maximum(part_local - n_entities, 0)])
    part_cell = part_class * n_docs + entity_doc[part_entity]

    def per_cell(cells: np.ndarray) -> np.ndarray:
        return np.bincount(cells, minlength=n_docs * n_classes).reshape(n_classes, n_docs).T

    block_cell = np.full(int(part_block.max()) + 1, -1, dtype=np.int64)
    block_cell[part_block] = part_cell
    cell_order = np.lexsort((part_entity, part_block))
    new_cell = np.ones(len(cell_order), dtype=bool)
    new_cell[1:] = (part_block[cell_order][1:] != part_block[cell_order][:-1]) | (
        part_entity[cell_order][1:] != part_entity[cell_order][:-1]
    )
    return per_cell(part_cell), per_cell(block_cell[block_cell >= 0]), per_cell(part_cell[cell_order[new_cell]])


def _dense(values: np.ndarray, bound: int) -> Tuple[np.ndarray, np.ndarray]:
    """The distinct values (all below ``bound``), ascending, and the rank of
    each value among them: ``np.unique(values, return_inverse=True)`` in
    linear time."""
    present = np.zeros(bound, dtype=bool)
    present[values] = True
    rank = np.cumsum(present) - 1
    return np.flatnonzero(present), rank[values]


def muc_rc_rates(muc_rc: np.ndarray) -> Dict[str, np.ndarray]:
    """Recall, precision and F1 of MUC-RC counts of shape ``(..., 4)``,
    0/0 = 0."""
    return prf_arrays(np.asarray(muc_rc, dtype=np.float64))


# --- the class mix and CPP ----------------------------------------------------


def cpp_prediction(members: np.ndarray, scores: Optional[Mapping[str, float]] = None) -> float:
    """CPP (Stoyanov et al. 2009, §4): the MUC score predicted for a corpus
    from its class mix, Σ_C share(C) · score(C), where share(C) is the
    members of C over all anaphoric mentions (:data:`MEMBER_COLUMNS`; a
    stack of documents is summed first) and score(C) a MUC-RC F1, by
    default :data:`TABLE4_AVERAGE`. A class with members needs a score."""
    total = _total_members(members)
    scores = TABLE4_AVERAGE if scores is None else scores
    shares = ratio(total[: len(RESOLUTION_CLASSES)], total[-1])
    prediction = 0.0
    for name, share in zip(RESOLUTION_CLASSES, shares.tolist()):
        if total[CLASS_INDEX[name]] > 0:
            if name not in scores:
                raise CorefInputError(f"CPP: no score for resolution class {name!r}, which has members")
            prediction += share * float(scores[name])
    return prediction


def class_profile(members: np.ndarray, scores: Optional[Mapping[str, float]] = None) -> Dict[str, Any]:
    """The class mix of a corpus, as Table 4's # and % columns: the count
    and share (over anaphoric mentions) of every class, the mentions in no
    class, the anaphoric mentions, and the CPP prediction with ``scores``
    (default :data:`TABLE4_AVERAGE`)."""
    total = _total_members(members)
    shares = ratio(total[: len(RESOLUTION_CLASSES)], total[-1]).tolist()
    return {
        "classes": {
            name: {"count": int(total[i]), "share": shares[i]} for i, name in enumerate(RESOLUTION_CLASSES)
        },
        NONE: int(total[len(RESOLUTION_CLASSES)]),
        ANAPHORIC: int(total[-1]),
        "cpp": cpp_prediction(total, scores),
    }


def _total_members(members: np.ndarray) -> np.ndarray:
    members = np.asarray(members, dtype=np.float64)
    if members.shape[-1:] != (len(MEMBER_COLUMNS),):
        raise CorefInputError(f"class counts must have {len(MEMBER_COLUMNS)} columns ({', '.join(MEMBER_COLUMNS)})")
    return members.reshape(-1, len(MEMBER_COLUMNS)).sum(axis=0)


def read_class_scores(source: Union[str, Path, Mapping[str, Any]]) -> Dict[str, float]:
    """Per-class MUC-RC F1 for :func:`cpp_prediction`, from a JSON file (or
    its parsed content) in one of two shapes: ``{"PN-e": 0.9, ...}`` (a
    value may also be ``{"f1": 0.9}``), or a document with a
    ``"resolution_classes"`` block of ``{"PN-e": {"muc_rc": {"f1": 0.9}},
    ...}`` as :meth:`ResolutionClassResult.to_dict` writes it. Other keys
    of that block are skipped; in the plain shape an unknown class name is
    an error. Every score must be a number in [0, 1]."""
    where = "class scores"
    if isinstance(source, Mapping):
        data: Any = source
    else:
        where = str(source)
        try:
            data = json.loads(Path(source).read_text(encoding="utf8"))
        except (OSError, UnicodeDecodeError, ValueError) as err:
            raise CorefInputError(f"{where}: cannot read per-class scores: {err}") from None
    if not isinstance(data, Mapping):
        raise CorefInputError(f"{where}: per-class scores must be a JSON object")
    block = data.get("resolution_classes", data)
    nested = block is not data
    if not isinstance(block, Mapping):
        raise CorefInputError(f"{where}: 'resolution_classes' must be a JSON object")
    out: Dict[str, float] = {}
    for name, value in block.items():
        if name not in CLASS_INDEX:
            if nested:
                continue
            raise CorefInputError(f"{where}: {name!r} is not a resolution class ({', '.join(RESOLUTION_CLASSES)})")
        if isinstance(value, Mapping):
            value = value.get("muc_rc", value)
            value = value.get("f1") if isinstance(value, Mapping) else None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise CorefInputError(f"{where}: the score of {name!r} must be an F1 between 0 and 1, not {value!r}")
        out[name] = float(value)
    if not out:
        raise CorefInputError(f"{where}: no per-class scores found")
    return out


# --- a corpus -----------------------------------------------------------------


@dataclass
class ResolutionClassResult:
    """MUC-RC counts ``(n_docs, 9, 4)`` and class members ``(n_docs, 11)``
    of the documents ``names``."""

    names: List[str]
    muc_rc: np.ndarray
    members: np.ndarray

    def rates(self) -> Dict[str, np.ndarray]:
        """Micro-averaged recall, precision and F1 per class (arrays of 9)."""
        return muc_rc_rates(self.muc_rc.sum(axis=0))

    def class_scores(self) -> Dict[str, float]:
        """MUC-RC F1 per class, as :func:`cpp_prediction` takes them."""
        return dict(zip(RESOLUTION_CLASSES, self.rates()["f1"].tolist()))

    def to_dict(self, scores: Optional[Mapping[str, float]] = None) -> Dict[str, Any]:
        """The ``resolution_classes`` block of a JSON report: per class its
        members (``count``, ``share`` of the anaphoric mentions) and MUC-RC
        rates with their counts; then ``none``, ``anaphoric`` and the CPP
        prediction of this corpus's mix with ``scores`` (default
        :data:`TABLE4_AVERAGE`)."""
        profile = class_profile(self.members, scores)
        totals = self.muc_rc.sum(axis=0)
        rates = {name: values.tolist() for name, values in self.rates().items()}
        out: Dict[str, Any] = {}
        for i, name in enumerate(RESOLUTION_CLASSES):
            muc_rc = {rate: values[i] for rate, values in rates.items()}
            muc_rc.update(zip(FIELDS, totals[i].tolist()))
            out[name] = {**profile["classes"][name], "muc_rc": muc_rc}
        out[NONE] = {"count": profile[NONE]}
        out[ANAPHORIC] = {"count": profile[ANAPHORIC]}
        out["cpp"] = profile["cpp"]
        return out

    def document(self, index: int) -> "ResolutionClassResult":
        """The counts of one document alone."""
        return ResolutionClassResult(
            [self.names[index]], self.muc_rc[index:index + 1], self.members[index:index + 1]
        )


def score_resolution_classes(
    result: "CorpusResult", tokens: Sequence[Tokens], classify: Classifier = classify_mentions
) -> ResolutionClassResult:
    """Classes and MUC-RC of every document of a scoring run, read off the
    run's own twinning (:attr:`CorpusResult.twinned`, so the same matcher
    and singleton handling), ``tokens[d]`` holding document ``d``'s token
    information. The run must have been scored with the documents' lengths
    (``score_pairs(..., lengths=...)``) so that the tokens stack on its
    document ranges; all documents go through the classifier and the
    counting at once."""
    twinned = result.twinned
    if twinned is None:
        raise CorefInputError("resolution classes need the twinned mentions; results merged from saved counts have none")
    if len(tokens) != twinned.n_docs:
        raise CorefInputError(f"resolution classes: {len(tokens)} token sequences for {twinned.n_docs} documents")
    lengths = np.array([len(part) for part in tokens], dtype=np.int64)
    ranges = np.diff(np.append(twinned.offsets, twinned.size)) if twinned.n_docs else lengths
    key = twinned.key
    reach = np.maximum(key.ends, key.heads + 1 if key.heads is not None else 0) - twinned.offsets[twinned.key_doc]
    beyond = reach > lengths[twinned.key_doc]
    if beyond.any():
        mention = int(np.argmax(beyond))
        doc = int(twinned.key_doc[mention])
        raise CorefInputError(
            f"document {result.names[doc]!r}: a mention or head reaches token {int(reach[mention]) - 1}, "
            f"beyond the {int(lengths[doc])} tokens given"
        )
    crowded = (lengths >= ranges) & (lengths > 0)
    if crowded.any():
        doc = int(np.argmax(crowded))
        raise CorefInputError(
            f"document {result.names[doc]!r}: its {int(lengths[doc])} tokens do not fit the run's document range; "
            "score it with score_pairs(..., lengths=...)"
        )
    stacked = Tokens.stack(list(tokens), twinned.offsets)
    classes = np.asarray(classify(twinned.key, stacked))
    if classes.shape != (len(twinned.key),):
        raise CorefInputError(f"the resolution classifier gave {classes.shape} classes for {len(twinned.key)} mentions")
    muc_rc, members = count_resolution_classes(
        twinned.key, twinned.response, twinned.twins, classes, twinned.key_doc, twinned.response_doc, twinned.n_docs
    )
    return ResolutionClassResult(list(result.names), muc_rc, members)
