"""The tags of LLM-track text read and repaired as text2text-coref's
``clean`` repairs them, then made mentions as its ``text2conllu`` makes
them (docs/formats.md, text2text)."""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Optional

_TAG = re.compile(r"(\[?)e(\d+)(\]?)")


@dataclass
class TagCounts:
    """What the repair changed: ``invalid`` tags dropped (no ``e<digits>``
    with a bracket), tags of words with several ``|`` dropped
    (``pipes``), ``stray`` closings made one-word mentions, openings left
    ``unclosed`` (lost), and ``openings`` written in the response."""

    invalid: int = 0
    pipes: int = 0
    stray: int = 0
    unclosed: int = 0
    openings: int = 0
    first: Optional[str] = field(default=None, compare=False)

    @property
    def repaired(self) -> int:
        return self.invalid + self.pipes + self.stray + self.unclosed


def split_token(token: str) -> tuple[str, Optional[str]]:
    """A written word's form and its tag text (``None`` without ``|``)."""
    form, bar, tags = token.partition("|")
    return form, tags if bar else None


def count_openings(tokens: Sequence[str]) -> int:
    """The openings (``[eN`` or ``[eN]``) written on words with one ``|``."""
    total = 0
    for token in tokens:
        parts = token.split("|")
        if len(parts) == 2:
            total += sum(1 for tag in parts[1].split(",") if tag.startswith("[") and _TAG.match(tag))
    return total


def sentence_mentions(tokens: Sequence[Optional[str]], counts: TagCounts, where: str = "") -> list[tuple[str, int, int]]:
    """The mentions ``(entity id, first, last)`` (positions in ``tokens``) of
    one key sentence whose words are ``tokens`` (``None``: a word put back
    without tags). Each word's tags are read left to right: ``[eN]`` is a
    one-word mention, ``eN]`` closes the latest open ``[eN`` of the
    sentence or, with none open, is a one-word mention; openings still
    open at the sentence's end are lost; unparseable tags are dropped."""
    stacks: dict[str, list[int]] = {}
    found: list[tuple[str, int, int]] = []
    for position, token in enumerate(tokens):
        if token is None or "|" not in token:
            continue
        parts = token.split("|")
        if len(parts) > 2:
            counts.pipes += sum(1 for part in parts[1:] for tag in part.split(",") if tag)
            counts.first = counts.first or f"{where}word {token!r} has several '|'"
            continue
        for tag in parts[1].split(","):
            match = _TAG.match(tag)
            if match is None or not (match.group(1) or match.group(3)):
                counts.invalid += 1
                counts.first = counts.first or f"{where}tag {tag!r} of word {token!r}"
                continue
            opening, number, closing = match.groups()
            eid = "e" + number
            if opening and closing:
                found.append((eid, position, position))
            elif opening:
                stacks.setdefault(eid, []).append(position)
            elif stacks.get(eid):
                found.append((eid, stacks[eid].pop(), position))
            else:
                counts.stray += 1
                found.append((eid, position, position))
    counts.unclosed += sum(len(stack) for stack in stacks.values())
    return found
