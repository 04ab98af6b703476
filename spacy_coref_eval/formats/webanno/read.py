"""Reading WebAnno TSV 3 chain layers (:mod:`.`)."""

import re
from pathlib import Path
from typing import Optional

from ...errors import CorefInputError
from ..annotation import annotated_side
from ..annotation.records import text_document
from ..base import ReadOptions
from ..document import Side
from ..inputs import InputLimits, input_text
from . import FORMAT

_LINK = re.compile(r"^(.*)->(\d+)-(\d+)$")
_ESCAPES = {"\\t": "\t", "\\n": "\n", "\\r": "\r", "\\\\": "\\"}


def read_webanno(path: Path, options: ReadOptions = ReadOptions()) -> Side:
    """One ``.tsv`` file, or every ``.tsv`` file of a folder (by name)."""
    files = sorted(path.glob("*.tsv")) if path.is_dir() else [path]
    if not files:
        raise CorefInputError(f"{path}: no .tsv files in this folder")
    return annotated_side(path, FORMAT, [read_document(file, (options or ReadOptions()).limits) for file in files])


def _columns(header: list[tuple[str, list[str]]]) -> dict[int, str]:
    """The relation column of every chain layer, by column index (the
    three token columns first)."""
    out: dict[int, str] = {}
    at = 3
    for kind, features in header:
        if kind == "T_CH":
            names = features[1:] if len(features) > 1 else ["referenceType", "referenceRelation"]
            relation = names.index("referenceRelation") if "referenceRelation" in names else 1
            out[at + relation] = features[0]
            at += 2
        else:
            at += max(1, len(features) - 1)
    return out


def read_document(path: Path, limits: Optional[InputLimits] = None):
    """One TSV 3 file as a document of its chain layers' mentions, read
    within ``limits``."""
    lines = input_text(path, limits).splitlines()
    if not lines or not lines[0].startswith("#FORMAT=WebAnno TSV 3"):
        raise CorefInputError(f"{path}, line 1: not WebAnno TSV 3 (it begins '#FORMAT=WebAnno TSV 3')")
    header: list[tuple[str, list[str]]] = []
    tokens: list[tuple[int, int, str]] = []
    sentences: list[int] = []
    mentions: dict[tuple[str, int, int], list[tuple[int, int]]] = {}
    for number, line in enumerate(lines, 1):
        if line.startswith("#T_"):
            kind, _, spec = line[1:].partition("=")
            header.append((kind, spec.split("|")))
            continue
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        try:
            start, end = (int(x) for x in fields[1].split("-"))
        except (IndexError, ValueError):
            raise CorefInputError(f"{path}, line {number}: a token line is 'SENTENCE-TOKEN<TAB>BEGIN-END<TAB>TEXT...'") from None
        if "." not in fields[0]:
            tokens.append((start, end, _unescape(fields[2])))
            if fields[0].endswith("-1"):
                sentences.append(start)
        for column, layer in _columns(header).items():
            if column >= len(fields) or fields[column] in ("_", "*", ""):
                continue
            for value in fields[column].split("|"):
                match = _LINK.match(value)
                if match is not None:
                    mentions.setdefault((layer, int(match.group(2)), int(match.group(3))), []).append((start, end))
    text = _text(tokens, sentences)
    spans = {key: [(min(s for s, _ in parts), max(e for _, e in parts))] for key, parts in mentions.items()}
    chains: dict[tuple[str, int], list[tuple[str, int, int]]] = {}
    for key in sorted(spans, key=lambda k: (k[0], k[1], k[2])):
        chains.setdefault((key[0], key[1]), []).append(key)
    return text_document(path.name.split(".")[0], text, spans, links=[], source=str(path), chains=list(chains.values()))


def _unescape(word: str) -> str:
    return re.sub(r"\\[tnr\\]", lambda m: _ESCAPES[m.group(0)], word) if "\\" in word else word


def _text(tokens: list[tuple[int, int, str]], sentences: list[int]) -> str:
    """The document's text: every token at its offsets, spaces between, a
    line break before every sentence (``#Text=`` block) but the first."""
    size = max((end for _, end, _ in tokens), default=0)
    chars = [" "] * size
    for start in sentences:
        if start > 0:
            chars[start - 1] = "\n"
    for start, end, word in tokens:
        if len(word) == end - start:
            chars[start:end] = word
        else:
            chars[start:end] = "_" * (end - start)
    return "".join(chars)
