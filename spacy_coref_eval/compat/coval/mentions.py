"""coval's mention rewrites as small policies on the clusters of one
document, before twinning (Moosavi et al. 2019; docs/coval.md §4–5):
minimum-span identity (MINA), ``NP_only`` and ``remove_nested``, each in
coval's order and with coval's rules."""

from collections.abc import Hashable, Sequence
from typing import NamedTuple, Optional

from ...model.parse_tree import PARSE_FIELD, partial_tree
from ...twinning.minimum import minimum_span
from .read import CovalDocument, CovalSpan


class CovalMention(NamedTuple):
    """A mention as coval compares it: its sentence, first and last line
    in the sentence, identity (the minimum span when
    it has one, else the range) and the label of its partial tree's root."""

    sentence: int
    start: int
    end: int
    identity: Hashable
    root: Optional[str]


Entity = list[CovalMention]


def coval_entities(spans: Sequence[Sequence[CovalSpan]], key: CovalDocument, own: CovalDocument, *, min_spans: bool) -> list[Entity]:
    """Entities of ``(sentence, start, end)`` spans as :class:`CovalMention`
    lists: trees from the key document's words, tags and parse bits; with
    ``min_spans``, identity by minimum span (its fallback words from
    ``own``, the side's own document)."""
    out = []
    for entity in spans:
        mentions = []
        for sentence, start, end in entity:
            words, tags, bits = (key.column(sentence, i, start=start, end=end) for i in (3, 4, PARSE_FIELD))
            tree = partial_tree(words, tags, bits, first=start)
            span = minimum_span(tree, own.column(sentence, 3, start=start, end=end)) if min_spans else None
            identity = ("min", sentence, span) if span else ("span", sentence, start, end)
            mentions.append(CovalMention(sentence, start, end, identity, None if tree is None else tree.label))
        out.append(mentions)
    return out


def np_only(entities: Sequence[Entity]) -> list[Entity]:
    """coval's ``NP_only``: drop every mention whose tree's root is exactly
    ``VP`` (the first mention equal to it, as ``list.remove`` does); an
    entity that lost one survives only with two or more mentions left."""
    out = []
    for entity in entities:
        rest = list(entity)
        for mention in entity:
            if mention.root == "VP":
                rest.pop(next(i for i, x in enumerate(rest) if x.identity == mention.identity))
        if len(rest) == len(entity) or len(rest) > 1:
            out.append(rest)
    return out


def _inside(a: CovalMention, b: CovalMention) -> bool:
    return a.sentence == b.sentence and a.start >= b.start and a.end <= b.end


def remove_nested(entities: Sequence[Entity], keep_singletons: bool) -> list[Entity]:
    """coval's ``remove_nested``: inside each entity, drop the inner one of
    every nested pair of unequal mentions (by their ranges); an entity that
    would keep exactly one mention is left unchanged when singletons are
    kept, else dropped."""
    out = []
    for entity in entities:
        gone = []
        for i, a in enumerate(entity):
            for b in entity[i + 1 :]:
                if a.identity == b.identity:
                    continue
                if _inside(a, b):
                    gone.append(a.identity)
                elif _inside(b, a):
                    gone.append(b.identity)
        if len(entity) != 1 and len(entity) - len(gone) == 1:
            if keep_singletons:
                out.append(list(entity))
        else:
            dropped = set(gone)
            out.append([m for m in entity if m.identity not in dropped])
    return out
