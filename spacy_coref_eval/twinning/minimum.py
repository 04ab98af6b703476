"""Minimum spans from a mention's partial parse tree, as coval's MINA
computes them (Moosavi, Born, Poesio & Strube 2019, "Using Automatically
Extracted Minimum Spans to Disentangle Coreference Evaluation from Boundary
Detection"); docs/coval.md §3 gives the rules and coval's quirks kept."""

import math
from collections.abc import Sequence
from typing import Optional

from ..model.parse_tree import ParseNode

MinSpan = frozenset[tuple[str, int]]
"""A minimum span: (terminal group words, group index) pairs."""

NOUN_FAMILY = ("NP", "NM", "QP", "NX")
VERB_FAMILY = ("VP",)
_NOT_HEADS = ("CC", "DT", "IN")


def _valid_word(word: str, tag: str) -> bool:
    plain = any(c.isalpha() or c.isdigit() for c in word) or word == "%"
    return plain and word not in ("-LRB-", "-RRB-") and tag not in _NOT_HEADS


def valid_terminal(node: ParseNode) -> bool:
    """A terminal group is valid when one of its words has a letter or a
    digit (or is ``%``), is no bracket token and is not tagged CC, DT or IN."""
    tags = node.tags or []
    words = node.label.split()
    if len(words) == 1:
        return _valid_word(words[0], tags[0] if tags else "")
    return any(_valid_word(w, tags[i] if i < len(tags) else "") for i, w in enumerate(words))


def family(root: ParseNode) -> Optional[tuple[str, ...]]:
    """The labels a search may descend through, from the root's label or
    else its children's (nominal unless only verbal phrases are there)."""
    head = root.label[:2]
    if head == "VP":
        return VERB_FAMILY
    if head in ("NP", "NM"):
        return NOUN_FAMILY
    if not root.children:
        return None
    heads = {c.label[:2] for c in root.children}
    if "NP" in heads or "NM" in heads:
        return NOUN_FAMILY
    return VERB_FAMILY if "VP" in heads else NOUN_FAMILY


def _shallowest(start: ParseNode, labels: Optional[tuple[str, ...]], out: set[tuple[str, int]], *, dynamic: bool) -> None:
    best = math.inf
    queue = [(start, 0)]
    for node, depth in queue:
        if dynamic and labels is None:
            if node.label[:2] in ("NP", "NM"):
                labels = NOUN_FAMILY
            elif node.label[:2] == "VP":
                labels = VERB_FAMILY
        if node.terminal and depth <= best:
            if valid_terminal(node):
                out.add((node.label, node.index))
                best = min(best, depth)
        elif depth < best and node.children and (depth == 0 or not labels or node.label[:2] in labels):
            terminals_too = bool(labels and node.label[:2] in labels)
            queue.extend((c, depth + 1) for c in node.children if terminals_too or not c.terminal)


def minimum_span(root: Optional[ParseNode], words: Sequence[str]) -> Optional[MinSpan]:
    """MINA: the shallowest valid terminal groups reachable from the
    mention's top-level noun (or verb) phrases; a valid group directly
    under the root wins at once; without any, every word of the mention
    with its position in the mention. ``None`` without a tree."""
    if root is None:
        return None
    labels = family(root)
    out: set[tuple[str, int]] = set()
    tops: list[ParseNode] = []
    if root.terminal and valid_terminal(root):
        out.add((root.label, root.index))
    elif root.children:
        out.update((c.label, c.index) for c in root.children if c.terminal and valid_terminal(c))
        if not out:
            tops = [c for c in root.children if c.children and labels and c.label[:2] in labels]
    if not out:
        if tops:
            for top in tops:
                _shallowest(top, labels, out, dynamic=False)
        else:
            _shallowest(root, None, out, dynamic=True)
    if not out:
        out = {(w, i) for i, w in enumerate(words)}
    return frozenset(out) if out else None
