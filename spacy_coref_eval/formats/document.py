"""What every reader gives: the documents of one file (:class:`Side`),
each a :class:`SideDocument` of its format, which knows how to pair with
a response document of its own or another format."""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Union, cast

import numpy as np

from ..errors import CorefInputError
from ..model.clusters import Clusters, NodeSets
from ..model.tokens import Tokens
from .base import Format

_SPACE = re.compile(r"\s+")


class RawMentions(NamedTuple):
    """A document's mentions as read, before repeated spans are dropped:
    token ranges ``[starts, ends)``, ``labels`` ordering their entities by
    first appearance in the document, and each mention's entity id as
    written in the file (``ids``: integers, or strings where the file's ids
    are not all plain numbers)."""

    starts: np.ndarray
    ends: np.ndarray
    labels: np.ndarray
    ids: np.ndarray


class SideDocument:
    """One document of one side: ``name`` (``None`` where the format stores
    none), ``clusters``, ``n_tokens``, ``sentence_starts`` and ``words``
    (an attribute or a property built when asked for). Subclasses per
    format add what they read and override :meth:`paired_with` where their
    format pairs otherwise than word by word."""

    mentions: Optional[RawMentions] = None
    """The mentions as read with their ids, kept where a reader is asked
    for them (``ReadOptions.entity_ids``) and keeps them (CoNLL-2012)."""

    if TYPE_CHECKING:  # fields or properties, as each format keeps them

        @property
        def name(self) -> Optional[str]: ...

        @property
        def clusters(self) -> Clusters: ...

        @property
        def n_tokens(self) -> int: ...

        @property
        def sentence_starts(self) -> Union[Sequence[int], np.ndarray]: ...

        @property
        def words(self) -> list[str]: ...

    def tokens(self) -> Tokens:
        """The words and sentences, and whatever token attributes the
        format gives, for the analyses (resolution classes, the report)."""
        return Tokens(self.words, self.sentence_starts if len(self.sentence_starts) else [0])

    def same_words(self, other: "SideDocument") -> bool:
        """Whether ``other`` has the same words (compared as the CoNLL-2012
        writer writes them, so that a converted file pairs with its source)."""
        mine, theirs = self.words, other.words
        return mine == theirs or [conll_column(w) for w in mine] == [conll_column(w) for w in theirs]

    def lost_in(self, target: Format) -> Optional[str]:
        """What a file of format ``target`` cannot hold of this document
        (``None``: it all fits), for ``convert`` to refuse."""
        return None

    def changed_in(self, target: Format) -> Optional[str]:
        """What a file of format ``target`` holds of this document only in
        another form (``None``: nothing), for ``convert`` to say (and to
        refuse when ``target`` is this document's own format)."""
        return None

    def sentence_ids(self) -> Sequence[Optional[str]]:
        """The id of every sentence where the format gives them, else ``()``."""
        return ()

    def mention_ids(self) -> Optional[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Every mention's ``[start, end)`` on this document's tokens and its
        entity id as the file writes it (strings), where the format has ids
        and they were read; else ``None`` (entities are then known by order)."""
        mentions = getattr(self, "mentions", None)
        if mentions is None:
            return None
        return mentions.starts, mentions.ends, mentions.ids.astype(str)

    def paired_with(self, response: "SideDocument") -> "Paired":
        """This key document paired with ``response``: the response's
        clusters on this document's tokens. A response that places itself
        (:meth:`placed_on`) does so; otherwise the words must be the same
        (:class:`WordMismatch` says where they part)."""
        placed = response.placed_on(self)
        if placed is not None:
            return placed
        if not self.same_words(response):
            raise WordMismatch(f"different words: {difference(self.words, response.words, 'word', joiner=' ', width=6)}")
        return Paired(self, response.clusters)

    def placed_on(self, key: "SideDocument") -> Optional["Paired"]:
        """``None``: the key's format pairs this document. A format whose
        documents put themselves on any key's words (system outputs, through
        their text or words: :mod:`.sysout`) returns the pair."""
        return None


@dataclass(frozen=True)
class Paired:
    """A key document (renumbered where its format pairs so), the
    response's clusters on its tokens, and how many response spans could
    not be placed on them (scored as twinless)."""

    key: SideDocument
    response: Clusters
    unmapped: int = 0
    alignment: Optional["AlignmentReport"] = None
    """What putting the response on the key's tokens changed, for formats
    whose text or words may differ from the key's."""


@dataclass(frozen=True)
class AlignmentReport:
    """What aligning one response document onto its key changed, in
    ``unit`` s (``"characters"`` or ``"words"``): units of the key missing
    from the response (``inserted`` back), units of the response not in the
    key (``deleted``), units that differ (``replaced``); mentions whose ends
    fell inside a key token and were moved outward (``snapped``), mentions
    that could not be placed (``dropped``: on deleted text or outside the
    document), mention strings found nowhere (``unplaced``), and tags
    rewritten or dropped by a repair (``repaired``); ``drift`` says where
    the texts first differ (empty when they agree); ``paired`` how the
    document was paired with its key document (``"name"`` or ``"order"``,
    set by pairing)."""

    unit: str
    inserted: int = 0
    deleted: int = 0
    replaced: int = 0
    snapped: int = 0
    dropped: int = 0
    unplaced: int = 0
    repaired: int = 0
    drift: str = ""
    paired: str = ""

    def changed(self) -> bool:
        return any((self.inserted, self.deleted, self.replaced, self.snapped, self.dropped, self.unplaced, self.repaired))

    def to_dict(self) -> dict[str, Any]:
        """The counts by name (``drift`` only when the texts differ,
        ``paired`` when known)."""
        out: dict[str, Any] = {name: getattr(self, name) for name in ALIGNMENT_COUNTS}
        return {
            "unit": self.unit,
            **out,
            **({"drift": self.drift} if self.drift else {}),
            **({"paired": self.paired} if self.paired else {}),
        }


ALIGNMENT_COUNTS = ("inserted", "deleted", "replaced", "snapped", "dropped", "unplaced", "repaired")


def total_alignment(reports: Mapping[str, AlignmentReport]) -> AlignmentReport:
    """The counts of all ``reports`` summed (unit ``"mixed"`` when they
    count different units)."""
    units = sorted({report.unit for report in reports.values()})
    sums = {name: sum(getattr(report, name) for report in reports.values()) for name in ALIGNMENT_COUNTS}
    return AlignmentReport(units[0] if len(units) == 1 else "mixed", **sums)


PAIRED_BY = ("name", "order")


def pairing_counts(reports: Mapping[str, AlignmentReport]) -> dict[str, int]:
    """How many of the documents of ``reports`` were paired by name and by order."""
    return {how: sum(report.paired == how for report in reports.values()) for how in PAIRED_BY}


class WordMismatch(CorefInputError):
    """A key and a response document that cannot be paired: the message
    says where they part (pairing adds the files and the document)."""


@dataclass(frozen=True)
class Side:
    """The documents of one input file (or directory) in its format, and
    the reader's warnings."""

    path: Path
    format: Format
    documents: Sequence[SideDocument]
    warnings: list[str] = field(default_factory=list)

    @property
    def named(self) -> bool:
        return all(document.name is not None for document in self.documents)


@dataclass
class WordsDocument(SideDocument):
    """A document given by its words: what writers take, and what a
    format whose reader has nothing more to keep can give."""

    name: Optional[str]
    clusters: Clusters
    words: list[str]
    sentence_starts: Sequence[int] = ()

    @property
    def n_tokens(self) -> int:
        return len(self.words)


def difference(key: Sequence[str], response: Sequence[str], unit: str, *, joiner: str, width: int) -> str:
    """Where two sequences first differ, with an excerpt of each."""
    at = next((i for i, (a, b) in enumerate(zip(key, response)) if a != b), min(len(key), len(response)))
    return (
        f"from {unit} {at} the key reads {_excerpt(key, at, joiner, width=width)} "
        f"and the response {_excerpt(response, at, joiner, width=width)}"
    )


def _excerpt(items: Sequence[str], at: int, joiner: str, *, width: int) -> str:
    part = joiner.join(items[at : at + width])
    return repr(part) if part else "nothing (end of document)"


PART_NAME = re.compile(r"^\((.*)\); part (\d+)$")
"""A CoNLL-2012 document name ``(NAME); part NNN``."""


def bare_name(name: str) -> str:
    """``NAME`` of a CoNLL-2012 ``(NAME); part NNN``, else ``name``: the
    name jsonlines doc_keys and file stems use."""
    match = PART_NAME.match(name)
    return name if match is None else match.group(1)


def document_names(documents: Sequence[SideDocument]) -> list[str]:
    """Every document's name, ``doc{index}`` where it has none."""
    return [d.name if d.name is not None else f"doc{index}" for index, d in enumerate(documents)]


def check_written_name(name: str, title: str, *, unicode_lines: bool = False) -> None:
    """Refuse a document name that would not read back from a format that
    writes it on a line of its own (``title``): empty, holding a line break
    or with white space around it.

    Parameters
    ----------
    unicode_lines : the format's reader also ends lines at every Unicode
        line boundary of :meth:`str.splitlines` (U+2028, ``\\x0c``, ...)
    """
    broken = name.splitlines() != [name] if unicode_lines else "\r" in name or "\n" in name
    if not name.strip() or name != name.strip() or broken:
        raise CorefInputError(
            f"document {name!r}: {title} cannot hold this name (it must be one line without white space around it); rename the document"
        )


def first_scattered(names: Sequence[str], documents: Sequence[SideDocument], title: str) -> None:
    """Raise :class:`CorefInputError` for the first document with a mention
    that is not a token range (a discontinuous CorefUD mention, or one
    that skips an empty node): format ``title`` holds spans only."""
    for name, document in zip(names, documents):
        scattered = document.clusters.scattered()
        if scattered.any():
            m = int(scattered.argmax())
            raise CorefInputError(
                f"document {name!r}: {int(scattered.sum())} mention(s) are not token ranges (the first covers tokens "
                f"{cast(NodeSets, document.clusters.nodes).of(m).tolist()}), and {title} holds spans only"
            )


def conll_column(text: str) -> str:
    """``text`` as :func:`~.conll.write.format_conll` writes it in one column: white space
    runs become ``_``, and empty text is ``_``. Compare words with a CoNLL
    file written by it through this function (a spaCy token ``"\\n"`` is
    written as ``_``)."""
    return _SPACE.sub("_", text) or "_"
