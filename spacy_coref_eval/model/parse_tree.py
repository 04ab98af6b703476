"""The parse column (the 6th field) of CoNLL-2012 files and the partial
parse tree of a mention built from it as coval builds it (Moosavi et al.
2019, "Using Automatically Extracted Minimum Spans to Disentangle
Coreference Evaluation from Boundary Detection"; docs/coval.md §2).

Read only when minimum spans or the NP-only filter ask for it: the common
reading path never looks at this column."""

from collections.abc import Sequence
from typing import Optional

PARSE_FIELD = 5
NO_PARSE = "-"


class ParseNode:
    """A node of a mention's partial tree: a constituent (``label`` its
    letters only) or a *terminal group*, a run of words not separated by
    a bracket (``label`` the words joined by one space, ``tags`` their parts
    of speech, ``index`` the token where the run was flushed)."""

    __slots__ = ("label", "tags", "index", "terminal", "children")

    def __init__(self, label: str, tags: Optional[list[str]], index: int, *, terminal: bool) -> None:
        self.label = label
        self.tags = tags
        self.index = index
        self.terminal = terminal
        self.children: list[ParseNode] = []

    def __repr__(self) -> str:
        return render(self) or ""


def parse_bits(body: Sequence[str]) -> list[str]:
    """The parse bit of every token line of a document's body (``-`` for
    a line with no parse field)."""
    out = []
    for line in body:
        if not line or line.isspace():
            continue
        fields = line.split()
        out.append(fields[PARSE_FIELD] if len(fields) > PARSE_FIELD + 1 else NO_PARSE)
    return out


def _has_plain_word(words: Sequence[str]) -> bool:
    return any(w.isalpha() or w.isdigit() for w in words)


class _Builder:
    def __init__(self) -> None:
        self.stack: list[ParseNode] = []
        self.roots: list[ParseNode] = []
        self.last: Optional[ParseNode] = None
        self.label = ""
        self.label_open = False
        self.words: list[str] = []
        self.tags: list[str] = []

    def place(self, node: ParseNode) -> None:
        if self.stack:
            self.stack[-1].children.append(node)
        else:
            self.stack.append(node)

    def open_label(self, index: int) -> None:
        node = ParseNode(self.label, None, index, terminal=False)
        if self.stack:
            self.stack[-1].children.append(node)
        self.stack.append(node)
        self.label = ""

    def flush(self, index: int, plain_only: bool) -> None:
        if self.words and (not plain_only or _has_plain_word(self.words)):
            self.place(ParseNode(" ".join(self.words), self.tags, index, terminal=True))
        self.words, self.tags = [], []

    def pop(self) -> None:
        self.last = self.stack.pop()
        if not self.stack:
            self.roots.append(self.last)


def partial_tree(words: Sequence[str], tags: Sequence[str], bits: Sequence[str], *, first: int) -> Optional[ParseNode]:
    """The partial tree of a mention whose tokens have these words, parts
    of speech and parse bits, its first token numbered ``first``: the
    constituents opening inside the mention, truncated at its end, over
    terminal groups (docs/coval.md §2). Several roots get an artificial
    ``NP`` root; ``None`` when nothing opens or no word is seen (bits ``-``)."""
    b = _Builder()
    last_line = len(bits) - 1
    for k, bit in enumerate(bits):
        at = first + k
        for ch in bit:
            if ch == "(":
                if b.label_open:
                    b.open_label(at)
                b.flush(at, True)
                b.label_open = True
            elif ch == "*":
                b.words = b.words + [words[k]]
                b.tags = b.tags + [tags[k]]
                if b.label_open:
                    b.open_label(at)
                    b.label_open = False
                elif b.label:
                    b.roots.append(ParseNode(b.label, None, at, terminal=False))
            elif ch == ")":
                b.flush(at, False)
                if b.stack:
                    b.pop()
                b.label_open = False
            elif ch.isalpha():
                b.label += ch
        if k == last_line and bit:
            b.flush(at, False)
    while b.stack:
        b.pop()
    if len(b.roots) > 1:
        top = ParseNode("NP", None, first, terminal=False)
        top.children = list(b.roots)
        return top
    return b.last


def render(node: Optional[ParseNode]) -> Optional[str]:
    """A tree as text: ``(LABEL children)``, terminal groups as
    ``{word/TAG …@index}`` (the notation of docs/coval.md)."""
    if node is None:
        return None
    inner = " ".join(render(c) or "" for c in node.children)
    if node.terminal:
        tags = node.tags or []
        body = " ".join(f"{w}/{tags[i] if i < len(tags) else '?'}" for i, w in enumerate(node.label.split()))
        return f"{{{body}@{node.index}}}" + (f" {inner}" if inner else "")
    return f"({node.label}{' ' + inner if inner else ''})"
