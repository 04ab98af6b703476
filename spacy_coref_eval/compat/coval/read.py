"""CoNLL-2012 files read as coval reads them (docs/coval.md §1), for
``--preset coval``: sentences are blocks between blank lines, a mention is
``(sentence, start, end)`` with line positions inside its block, marks are
scanned character by character, and duplicate mentions are kept.

coval reads differently from the reference scorer (it keeps a mention given
twice, and ``(1)|(2)`` puts one mention in two entities), so its numbers
need its own reading; the common path (:mod:`.read`) is not involved."""

from dataclasses import dataclass, field
from pathlib import Path

from ...errors import CorefInputError
from ...files import PathLike
from ...formats.inputs import open_input
from ...model.parse_tree import NO_PARSE, PARSE_FIELD

CovalSpan = tuple[int, int, int]
"""``(sentence, start, end)``: a mention, ``end`` inclusive."""


@dataclass
class CovalDocument:
    """One document as coval reads it: its sentences (lists of token lines
    split into fields) and its entities in coval's order."""

    name: str
    sentences: list[list[list[str]]] = field(default_factory=list)

    def column(self, sentence: int, index: int, *, start: int, end: int) -> list[str]:
        """Field ``index`` of lines ``start..end`` of a sentence (``-`` for
        the parse column of a line without it, ``''`` for words)."""
        rows = self.sentences[sentence][start : end + 1]
        if index == PARSE_FIELD:
            return [r[index] if len(r) > index else NO_PARSE for r in rows]
        return [r[index] if len(r) > 4 else "" for r in rows]

    def has_parse(self) -> bool:
        """Whether some token line has a parse bit other than ``-`` (a
        line with more than six fields, as coval's check reads it)."""
        return any(len(r) > PARSE_FIELD + 1 and r[PARSE_FIELD] != NO_PARSE for lines in self.sentences for r in lines)

    def entities(self) -> list[list[CovalSpan]]:
        """Entities in the order coval lists them (by first mention end),
        mentions by end. A close without an open is read past, as coval
        does, unless it leaves its entity empty (coval then divides by
        zero): a :class:`CorefInputError`."""
        clusters: dict[int, list[CovalSpan]] = {}
        pending: dict[int, list[int]] = {}
        empty: dict[int, tuple[int, int]] = {}
        for s, lines in enumerate(self.sentences):
            for t, fields in enumerate(lines):
                singles, opens, closes = marks(fields[-1], self.name)
                for ident in singles:
                    clusters.setdefault(ident, []).append((s, t, t))
                for ident in opens:
                    pending.setdefault(ident, []).append(t)
                for ident in closes:
                    clusters.setdefault(ident, [])
                    if pending.get(ident):
                        clusters[ident].append((s, pending[ident].pop(), t))
                    elif not clusters[ident]:
                        empty.setdefault(ident, (s, t))
        for ident, (s, t) in empty.items():
            if not clusters[ident]:
                raise CorefInputError(
                    f"document {self.name!r}, sentence {s + 1}, token {t + 1}: entity {ident} closes a mention "
                    "that never opened and has no other (coval reads (1(2 as (2, losing the first open, "
                    "and then divides by zero)"
                )
        return list(clusters.values())


def marks(text: str, document: str) -> tuple[list[int], list[int], list[int]]:
    """coval's scan of a coreference field: single-token, opening and
    closing entity ids, each in field order (docs/coval.md §1)."""
    singles: list[int] = []
    opens: list[int] = []
    closes: list[int] = []
    digits = ""
    opened = False
    for ch in text:
        if ch.isdigit():
            digits += ch
        elif ch == "(":
            digits, opened = "", True
        elif ch == ")":
            if opened:
                if digits:
                    singles.append(int(digits))
                opened = False
            elif digits:
                closes.append(int(digits))
            digits = ""
        elif ch == "|":
            if opened:
                if not digits:
                    raise CorefInputError(f"document {document!r}: coreference field {text!r} opens no entity id")
                opens.append(int(digits))
                opened, digits = False, ""
            elif digits:
                raise CorefInputError(f"document {document!r}: coreference field {text!r} (coval stops on it)")
    if opened and digits:
        opens.append(int(digits))
    return singles, opens, closes


def read_coval(path: PathLike) -> dict[str, CovalDocument]:
    """The documents of a CoNLL-2012 file as coval reads them, by name
    (trailing spaces dropped; a name seen again continues its document)."""
    text = bytes(open_input(Path(path))).decode("utf8", errors="replace").lstrip("\ufeff")
    documents: dict[str, CovalDocument] = {}
    current = None
    after_blank = True
    for line in text.replace("\r\n", "\n").split("\n"):
        if line.startswith("#begin document"):
            name = line[len("#begin document ") :].rstrip()
            current = documents.setdefault(name, CovalDocument(name))
            after_blank = not current.sentences or after_blank
        elif line.startswith("#end document"):
            current = None
        elif current is not None:
            blank = not line.strip()
            if not current.sentences or (blank and not after_blank):
                current.sentences.append([])
            after_blank = blank
            if not blank:
                current.sentences[-1].append(line.split())
    for document in documents.values():
        while document.sentences and not document.sentences[-1]:
            document.sentences.pop()
    return documents
