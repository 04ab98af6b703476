"""The resolution classifier of Stoyanov et al. (2009, §4), as
docs/resolution_classes.md §1-2 reads it: every anaphoric key mention's
head, its kind, and for names and common nouns its string match."""
import numpy as np

from ...arrays import expand_ranges
from ...clusters import Clusters
from ...errors import CorefInputError
from ...formats.tokens import Tokens
from .lexicon import CAPITALISED, CLASS_INDEX, COMMON, PRONOUN, PROPER
from .order import anaphoric, position_order
from .token_info import TokenInfo, take, wordlike


def classify_mentions(clusters: Clusters, tokens: Tokens) -> np.ndarray:
    """The resolution class of every mention (an index into
    :data:`RESOLUTION_CLASSES`, -1 for none), after Stoyanov et al. (2009,
    §4) as docs/resolution_classes.md §1-2 reads it. Parts of speech come
    from ``tokens.pos``, else ``tokens.tag``, else the word lists; heads
    from ``clusters.heads`` where given, else the fallback rule.

    Python touches each token of the mentions of entities with two or more
    mentions once, and each distinct word once; the rest is array work.
    """
    classes = np.full(len(clusters), -1, dtype=np.int64)
    if len(clusters) == 0:
        return classes
    _check_tokens(clusters, tokens)
    order, rank = position_order(clusters.starts, clusters.ends)
    later = anaphoric(clusters.entity, order)
    if not later.any():
        return classes
    compared = clusters.non_singletons()
    mentions, rank = clusters.subset(compared), rank[compared]
    candidates = np.flatnonzero(later[compared])
    owner, token = expand_ranges(mentions.starts, mentions.ends)
    given = mentions.heads[candidates] if mentions.heads is not None else np.full(len(candidates), -1)
    info = TokenInfo.of(tokens, np.concatenate([token, given[given >= 0]]))
    head = _head_entries(mentions, owner, info, candidates, given)
    kind = info.kind[head]
    uncertain = np.flatnonzero(kind == CAPITALISED)
    if len(uncertain):
        kind[uncertain] = _resolve_capitalised(
            tokens, info, mentions.entity[owner], head[uncertain], mentions.entity[candidates[uncertain]]
        )
    found = np.full(len(candidates), -1, dtype=np.int64)
    pronoun = np.flatnonzero(kind == PRONOUN)
    person, gendered = info.person[head[pronoun]], info.gendered[head[pronoun]]
    found[pronoun] = np.select(
        [(person == 1) | (person == 2), (person == 3) & gendered, person == 3],
        [CLASS_INDEX["1+2Pr"], CLASS_INDEX["G3Pr"], CLASS_INDEX["U3Pr"]],
        -1,
    )
    nominal = np.flatnonzero((kind == PROPER) | (kind == COMMON))
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
        base = np.where(kind[nominal] == PROPER, CLASS_INDEX["PN-e"], CLASS_INDEX["CN-e"])
        found[nominal] = base + match[index[chosen]]
    classes[np.flatnonzero(compared)[candidates]] = found
    return classes


def _check_tokens(clusters: Clusters, tokens: Tokens) -> None:
    if clusters.extent > len(tokens):
        raise CorefInputError(
            f"a mention or head reaches token {clusters.extent - 1}, beyond the {len(tokens)} tokens given"
        )



def _head_entries(
    clusters: Clusters, owner: np.ndarray, info: TokenInfo, candidates: np.ndarray, given: np.ndarray
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
    tokens: Tokens, info: TokenInfo, row_entity: np.ndarray, heads: np.ndarray, head_entity: np.ndarray
) -> np.ndarray:
    """Proper name or common noun for capitalised heads read lexically
    (rows ``heads`` of ``info``, of mentions of ``head_entity``): a proper
    name unless at a sentence start, where it is one only if the same word
    occurs away from a sentence start in a mention of the same entity
    (``row_entity`` gives the entity of each mention token row)."""
    head_tokens = info.token[heads]
    out = np.full(len(heads), PROPER, dtype=np.int64)
    initial = _sentence_initial(tokens, head_tokens)
    if not initial.any():
        return out
    n_types = int(info.type.max()) + 1
    asked = head_entity[initial] * n_types + info.type[heads[initial]]
    codes = row_entity * n_types + info.type[: len(row_entity)]
    evidence = np.flatnonzero(member(codes, asked))
    seen = codes[evidence[~_sentence_initial(tokens, info.token[evidence])]]
    out[initial] = np.where(member(asked, seen), PROPER, COMMON)
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
        found = wordlike(take(tokens.words, back[pending]))
        reached = ~found & (back[pending] == first[pending])
        initial[pending[reached]] = True
        pending = pending[~found & ~reached]
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


def member(values: np.ndarray, of: np.ndarray) -> np.ndarray:
    """Whether each value is one of ``of``: :func:`numpy.isin` by binary
    search, without the ``numpy.unique`` that imports ``numpy.ma``."""
    if len(of) == 0:
        return np.zeros(len(values), dtype=bool)
    of = np.sort(of)
    return of[np.minimum(np.searchsorted(of, values), len(of) - 1)] == values
