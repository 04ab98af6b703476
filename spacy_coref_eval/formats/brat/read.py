"""Reading brat standoff (https://brat.nlplab.org/standoff.html): text-bound
annotations ``T1<TAB>TYPE START END[;START END...]<TAB>TEXT`` (character
offsets into the ``.txt``; a discontinuous span keeps its fragments),
relations ``R1<TAB>TYPE Arg1:T1 Arg2:T2`` and equivalences
``*<TAB>TYPE T1 T2 ...``. One span annotated twice is one mention. A
text-bound label ending in ``-N`` names an entity, as LitBank writes its
chains (``T384<TAB>Lord_Chancellor-2 69 84``); a mention without one, in
no relation, is a singleton. A file of LitBank TSV lines (``MENTION``,
``COREF``) is read by :mod:`..litbank_tsv`."""

import re
from pathlib import Path
from typing import Optional

from ...errors import CorefInputError
from ..annotation import COREFERENCE_TYPES, AnnotatedDocument, annotated_side, close, read_text
from ..base import ReadOptions
from ..document import Side
from ..inputs import InputLimits, input_text
from ..litbank_tsv.read import tsv_document
from . import FORMAT

CHAIN_LABEL = re.compile(r"^.+-\d+$")
"""A text-bound label naming an entity (LitBank: ``Lord_Chancellor-2``)."""
_OFFSETS = re.compile(r"^\d+ \d+(;\d+ \d+)*$")


def read_brat(path: Path, options: ReadOptions = ReadOptions(), types: Optional[frozenset[str]] = COREFERENCE_TYPES) -> Side:
    """Every ``.ann`` file of a folder (by name), or one file, with its ``.txt``."""
    files = sorted(path.glob("*.ann")) if path.is_dir() else [path]
    if not files:
        raise CorefInputError(f"{path}: no .ann files in this folder")
    return annotated_side(path, FORMAT, [read_document(file, types, (options or ReadOptions()).limits) for file in files])


def read_document(
    path: Path, types: Optional[frozenset[str]] = COREFERENCE_TYPES, limits: Optional[InputLimits] = None
) -> AnnotatedDocument:
    """One ``.ann`` file and its text, read within ``limits``."""
    text = read_text(path, limits)
    lines = input_text(path, limits).splitlines()
    if lines and lines[0].startswith(("MENTION\t", "COREF\t")):
        return tsv_document(path.stem, text, lines, path=path)
    spans: dict[str, tuple[tuple[int, int], ...]] = {}
    labels: list[tuple[str, str]] = []
    chains: list[list[str]] = []
    links: list[tuple[str, str, str]] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        ident, _, rest = line.partition("\t")
        kind = ident[:1]
        if kind == "T":
            annotation, _, _ = rest.partition("\t")
            label, _, offsets = annotation.partition(" ")
            if not _OFFSETS.match(offsets):
                raise CorefInputError(f"{path}, line {number}: a text-bound annotation needs offsets 'START END[;START END]'")
            fragments = tuple(sorted(tuple(int(x) for x in part.split()) for part in offsets.split(";")))
            if any(s > e or e > len(text) for s, e in fragments):
                raise CorefInputError(f"{path}, line {number}: offsets {offsets} lie outside the text ({len(text)} characters)")
            spans[ident] = fragments  # type: ignore[assignment]
            if CHAIN_LABEL.match(label):
                labels.append((label, ident))
        elif kind == "R":
            parts = rest.split()
            if len(parts) != 3:
                raise CorefInputError(f"{path}, line {number}: a relation is 'TYPE Arg1:ID Arg2:ID'")
            links.append((parts[0], parts[1].partition(":")[2], parts[2].partition(":")[2]))
        elif kind == "*":
            parts = rest.split()
            if types is None or (parts and parts[0] in types):
                chains.append(parts[1:])
            else:
                links.extend((parts[0], a, b) for a, b in zip(parts[1:], parts[2:]))
        elif kind in "EAMN#":
            continue
        else:
            raise CorefInputError(f"{path}, line {number}: not a brat annotation line (T, R, E, A, M, N, # or *)")
    order = sorted(set(spans.values()), key=lambda f: (f[0][0], -f[-1][1], f))
    mention = {fragments: m for m, fragments in enumerate(order)}
    of = {ident: mention[fragments] for ident, fragments in spans.items()}
    by_label: dict[str, list[int]] = {}
    for label, ident in labels:
        by_label.setdefault(label, []).append(of[ident])
    entity, closure = close(
        range(len(order)),
        chains=[*by_label.values(), *([of.get(i, i) for i in chain] for chain in chains)],
        links=[(kind, of.get(a, a), of.get(b, b)) for kind, a, b in links],
        types=types,
    )
    return AnnotatedDocument(path.stem, text, order, labels=entity, closure=closure)
