"""Reading LitBank's TSV (:mod:`.`) into documents of character spans of
the ``.txt``."""

from collections.abc import Sequence
from pathlib import Path

from ...errors import CorefInputError
from ..annotation import AnnotatedDocument, annotated_side, close, read_text
from ..base import ReadOptions
from ..document import Side
from ..inputs import input_text
from . import FORMAT


def read_litbank_tsv(path: Path, options: ReadOptions = ReadOptions()) -> Side:
    """Every ``.ann`` TSV file of a folder (by name), or one file, with its ``.txt``."""
    files = sorted(path.glob("*.ann")) if path.is_dir() else [path]
    if not files:
        raise CorefInputError(f"{path}: no .ann files in this folder")
    documents, limits = [], (options or ReadOptions()).limits
    for file in files:
        documents.append(tsv_document(file.stem, read_text(file, limits), input_text(file, limits).splitlines(), path=file))
    return annotated_side(path, FORMAT, documents)


def token_offsets(text: str) -> list[list[tuple[int, int]]]:
    """The characters ``(start, end)`` of every token of every line of ``text``."""
    out: list[list[tuple[int, int]]] = []
    at = 0
    for line in text.split("\n"):
        tokens, position = [], at
        for token in line.split(" "):
            if token:
                tokens.append((position, position + len(token)))
            position += len(token) + 1
        out.append(tokens)
        at += len(line) + 1
    return out


def tsv_document(name: str, text: str, lines: Sequence[str], *, path: Path) -> AnnotatedDocument:
    """One TSV file's mentions on ``text``."""
    tokens = token_offsets(text)
    spans: dict[str, tuple[tuple[int, int], ...]] = {}
    labels: dict[str, list[str]] = {}
    links: list[tuple[str, str, str]] = []
    for number, line in enumerate(lines, 1):
        fields = line.split("\t")
        if fields[0] == "MENTION" and len(fields) >= 6:
            try:
                s1, t1, s2, t2 = (int(x) for x in fields[2:6])
                spans[fields[1]] = ((tokens[s1][t1][0], tokens[s2][t2][1]),)
            except (ValueError, IndexError):
                raise CorefInputError(f"{path}, line {number}: MENTION coordinates outside the text") from None
        elif fields[0] == "COREF" and len(fields) >= 3:
            labels.setdefault(fields[2], []).append(fields[1])
        elif len(fields) == 3 and fields[0].isupper():
            links.append((fields[0].lower(), fields[1], fields[2]))
        elif line.strip():
            raise CorefInputError(f"{path}, line {number}: not a LitBank TSV line (MENTION, COREF, or a relation as COP)")
    order = sorted(set(spans.values()), key=lambda f: (f[0][0], -f[-1][1], f))
    mention = {fragments: m for m, fragments in enumerate(order)}
    chains = [[mention[spans[i]] if i in spans else i for i in members] for members in labels.values()]
    of = {ident: mention[fragments] for ident, fragments in spans.items()}
    entity, closure = close(range(len(order)), chains=chains, links=[(k, of.get(a, a), of.get(b, b)) for k, a, b in links])
    return AnnotatedDocument(name, text, order, labels=entity, closure=closure)
