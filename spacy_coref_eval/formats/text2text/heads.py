"""Heads of mentions that carry none, chosen in the key's dependency trees
as udapi's ``corefud.MoveHead`` chooses them (what text2text-coref's
``text2conllu`` writes; docs/formats.md, text2text)."""

from collections.abc import Sequence
from typing import Optional, Union

from ..conllu.document import CorefUDDocument

ROOT = -1
Parent = Union[int, str]
"""A word's parent: a word of the document, :data:`ROOT`, or an empty
node (its ``sentence:id``, never in a mention of words)."""


class Trees:
    """The basic parent and the enhanced parents of every word of a CoNLL-U
    document (from its HEAD and DEPS columns)."""

    def __init__(self, document: CorefUDDocument) -> None:
        starts = document.sentence_starts.tolist()
        heads, deps = document.token_columns.get(6), document.token_columns.get(8)
        self.parent: list[int] = []
        self.raw_deps: list[str] = deps
        self.first: list[int] = []
        for s in range(len(starts) - 1):
            for w in range(starts[s], starts[s + 1]):
                self.first.append(starts[s])
                head = heads[w] if w < len(heads) else "_"
                self.parent.append(starts[s] + int(head) - 1 if head.isdigit() and head != "0" else ROOT)

    def enhanced(self, w: int) -> list[Parent]:
        raw = self.raw_deps[w] if w < len(self.raw_deps) else "_"
        if raw == "_":
            return [self.parent[w]]
        parents: list[Parent] = []
        for item in raw.split("|"):
            head = item.partition(":")[0]
            if head.isdigit():
                parents.append(ROOT if head == "0" else self.first[w] + int(head) - 1)
            else:
                parents.append(f"{self.first[w]}:{head}")
        return parents

    def head(self, first: int, last: int) -> int:
        """The head of the mention of words ``first .. last``: the one word
        whose parent lies outside, else by enhanced dependencies, else the
        root of their smallest common subtree if it is a candidate, else
        the first word if it is a candidate, else the first candidate."""
        if first == last:
            return first
        words = set(range(first, last + 1))
        basic = [w for w in range(first, last + 1) if self.parent[w] not in words]
        if len(basic) == 1:
            return basic[0]
        candidates = [w for w in basic if not any(p in words for p in self.enhanced(w))]
        if not candidates:
            candidates = [w for w in basic if not all(p in words for p in self.enhanced(w))]
            if not candidates:
                return first
        if len(candidates) == 1:
            return candidates[0]
        if self.common_root(candidates) in candidates:
            return self.common_root(candidates)
        return first if first in candidates else candidates[0]

    def common_root(self, nodes: Sequence[int]) -> int:
        """The root of the smallest subtree holding ``nodes`` (climbing from
        all of them in turn, then down the path climbed alone), as udapi's
        ``find_minimal_common_treelet``."""
        queue = list(nodes)
        inside: dict[int, Optional[int]] = {node: None for node in queue}
        highest: Optional[int] = None
        while len(queue) > 1:
            node = queue.pop(0)
            parent = self.parent[node] if node != ROOT else None
            if parent is None:
                highest = node
            elif parent in inside:
                inside[parent] = None
            else:
                inside[parent] = node
                queue.append(parent)
        highest = queue[0] if highest is None else highest
        below = inside[highest]
        while below is not None:
            highest, below = below, inside[below]
        return highest
