"""The resolution classifier of Stoyanov et al. (2009, §4), as
docs/resolution_classes.md §1-2 reads it: every anaphoric key mention's
head, its kind, and for names and common nouns its string match; linear
in tokens and mentions (§5)."""

from dataclasses import dataclass

import numpy as np

from ...arrays import expand_ranges
from ...errors import CorefInputError
from ...model.clusters import Clusters
from ...model.tokens import Tokens
from .lexicon import CAPITALISED, CLASS_INDEX, COMMON, OTHER, PRONOUN, PROPER
from .order import anaphoric, position_order
from .strings import merged_spans, string_matches
from .token_info import TokenInfo, take, wordlike


def classify_mentions(clusters: Clusters, tokens: Tokens) -> np.ndarray:
    """The resolution class of every mention (an index into
    :data:`RESOLUTION_CLASSES`, -1 for none), after Stoyanov et al. (2009,
    §4) as docs/resolution_classes.md §1-2 reads it. Parts of speech come
    from ``tokens.pos``, else ``tokens.tag``, else the word lists; heads
    from ``clusters.heads`` where given, else the fallback rule.

    Python reads each token covered by a mention of an entity with two or
    more mentions once, and each distinct word once; mentions are handled
    by their boundaries, never token by token (§5).
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
    given = mentions.heads[candidates] if mentions.heads is not None else np.full(len(candidates), -1)
    table = _TokenTable.of(tokens, mentions, given[given >= 0])
    head = np.where(given >= 0, given, _fallback_heads(mentions.starts[candidates], mentions.ends[candidates], table))
    kind = table.at(head, "kind")
    uncertain = np.flatnonzero(kind == CAPITALISED)
    if len(uncertain):
        kind[uncertain] = _settle_capitalised(tokens, table, mentions, heads=head[uncertain], owners=candidates[uncertain])
    found = _pronoun_classes(table, head, kind == PRONOUN)
    nominal = np.flatnonzero((kind == PROPER) | (kind == COMMON))
    if len(nominal):
        words, content = table.spread("word", -1), table.spread("content", False)
        match = string_matches(mentions, rank, candidates[nominal], word=words, content=content)
        found[nominal] = np.where(kind[nominal] == PROPER, CLASS_INDEX["PN-e"], CLASS_INDEX["CN-e"]) + match
    classes[np.flatnonzero(compared)[candidates]] = found
    return classes


def mention_kinds(clusters: Clusters, tokens: Tokens) -> np.ndarray:
    """The kind of every mention's head, :data:`~.lexicon.PROPER`,
    :data:`~.lexicon.COMMON`, :data:`~.lexicon.PRONOUN` or
    :data:`~.lexicon.OTHER`, read as :func:`classify_mentions` reads the
    heads of anaphors (docs/resolution_classes.md §2), for every mention."""
    kinds = np.full(len(clusters), OTHER, dtype=np.int64)
    if len(clusters) == 0:
        return kinds
    _check_tokens(clusters, tokens)
    given = clusters.heads if clusters.heads is not None else np.full(len(clusters), -1, dtype=np.int64)
    table = _TokenTable.of(tokens, clusters, given[given >= 0])
    head = np.where(given >= 0, given, _fallback_heads(clusters.starts, clusters.ends, table))
    kinds = table.at(head, "kind")
    uncertain = np.flatnonzero(kinds == CAPITALISED)
    if len(uncertain):
        kinds[uncertain] = _settle_capitalised(tokens, table, clusters, heads=head[uncertain], owners=uncertain)
    return kinds


def _check_tokens(clusters: Clusters, tokens: Tokens) -> None:
    if clusters.extent > len(tokens):
        raise CorefInputError(f"a mention or head reaches token {clusters.extent - 1}, beyond the {len(tokens)} tokens given")


@dataclass(frozen=True)
class _TokenTable:
    """:class:`TokenInfo` of the tokens that some mention covers or that
    are a given head, each read once (``positions``, ascending), and the
    row of every token position (``row``, -1 for the others)."""

    tokens: Tokens
    positions: np.ndarray
    row: np.ndarray
    info: TokenInfo

    @classmethod
    def of(cls, tokens: Tokens, mentions: Clusters, heads: np.ndarray) -> "_TokenTable":
        n = len(tokens)
        depth = np.cumsum(np.bincount(mentions.starts, minlength=n + 1) - np.bincount(mentions.ends, minlength=n + 1))
        read = depth[:n] > 0
        read[heads] = True
        positions = np.flatnonzero(read)
        row = np.full(n, -1, dtype=np.int64)
        row[positions] = np.arange(len(positions))
        return cls(tokens, positions, row, TokenInfo.of(tokens, positions))

    def at(self, positions: np.ndarray, name: str) -> np.ndarray:
        """Field ``name`` of the tokens at ``positions`` (all read)."""
        return getattr(self.info, name)[self.row[positions]]

    def spread(self, name: str, missing: object) -> np.ndarray:
        """Field ``name`` of every token position, ``missing`` where unread."""
        values = getattr(self.info, name)
        out = np.full(len(self.row), missing, dtype=values.dtype)
        out[self.positions] = values
        return out

    def where(self, name: str, value: object) -> np.ndarray:
        """The positions, ascending, whose field ``name`` equals ``value``."""
        return self.positions[getattr(self.info, name) == value]

    def sentence_initial(self, positions: np.ndarray) -> np.ndarray:
        """:func:`_sentence_initial` of each position, each distinct one
        walked once."""
        distinct, back = np.unique(positions, return_inverse=True)
        return _sentence_initial(self.tokens, distinct)[back.reshape(-1)]


def _fallback_heads(starts: np.ndarray, ends: np.ndarray, table: _TokenTable) -> np.ndarray:
    """The fallback head of each mention: the last token of highest
    priority before the first cut after its first token (§2), found by
    binary search among the cut and priority positions."""
    cuts = table.where("cut", True)
    stop = ends.copy()
    if len(cuts):
        after = np.searchsorted(cuts, starts + 1)
        cut = cuts[np.minimum(after, len(cuts) - 1)]
        stop = np.where((after < len(cuts)) & (cut < ends), cut, ends)
    head = stop - 1
    for priority in (1, 2):
        at = table.where("priority", priority)
        if len(at):
            before = np.searchsorted(at, stop) - 1
            last = at[np.maximum(before, 0)]
            head = np.where((before >= 0) & (last >= starts), last, head)
    return head


def _settle_capitalised(tokens: Tokens, table: _TokenTable, mentions: Clusters, *, heads: np.ndarray, owners: np.ndarray) -> np.ndarray:
    """Proper name or common noun for capitalised heads read lexically
    (``heads`` of mentions ``owners``): a proper name unless at a sentence
    start, where it is one only if the same word occurs away from a
    sentence start in a mention of the same entity. Evidence is looked up
    by binary search in each asked entity's merged spans."""
    out = np.full(len(heads), PROPER, dtype=np.int64)
    initial = table.sentence_initial(heads)
    if not initial.any():
        return out
    n_types, width = int(table.info.type.max()) + 1, len(tokens) + 1
    asked, pair = np.unique(mentions.entity[owners[initial]] * n_types + table.at(heads[initial], "type"), return_inverse=True)
    asked_entity, asked_type = asked // n_types, asked % n_types
    wanted = np.zeros(n_types, dtype=bool)
    wanted[asked_type] = True
    rows = np.flatnonzero(wanted[table.info.type])
    rows = rows[~table.sentence_initial(table.positions[rows])]
    evidence = np.sort(table.info.type[rows] * width + table.positions[rows])
    chosen = np.zeros(mentions.n_entities, dtype=bool)
    chosen[asked_entity] = True
    picked = chosen[mentions.entity]
    span_entity, span_start, span_end = merged_spans(mentions.entity[picked], mentions.starts[picked], mentions.ends[picked])
    first = np.searchsorted(span_entity, asked_entity)
    last = np.searchsorted(span_entity, asked_entity, side="right")
    which, span = expand_ranges(first, last)
    base = asked_type[which] * width
    hit = np.searchsorted(evidence, base + span_end[span]) > np.searchsorted(evidence, base + span_start[span])
    seen = np.zeros(len(asked), dtype=bool)
    seen[which[hit]] = True
    out[initial] = np.where(seen[pair.reshape(-1)], PROPER, COMMON)
    return out


def _sentence_initial(tokens: Tokens, positions: np.ndarray) -> np.ndarray:
    """Whether each token (one with a letter or digit) is the first such
    token of its sentence: walks back over the tokens before it, all of
    them at once, while they have none."""
    starts = np.asarray(tokens.sentence_starts)
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


def _pronoun_classes(table: _TokenTable, head: np.ndarray, pronoun: np.ndarray) -> np.ndarray:
    """1+2Pr, G3Pr or U3Pr by the person and gender of each pronoun head,
    -1 for a pronoun of no known person and for every other head."""
    found = np.full(len(head), -1, dtype=np.int64)
    person, gendered = table.at(head[pronoun], "person"), table.at(head[pronoun], "gendered")
    found[pronoun] = np.select(
        [(person == 1) | (person == 2), (person == 3) & gendered, person == 3],
        [CLASS_INDEX["1+2Pr"], CLASS_INDEX["G3Pr"], CLASS_INDEX["U3Pr"]],
        -1,
    )
    return found
