"""Read (and write) coreference in CoNLL-2012 files.

A document runs from ``#begin document NAME`` to ``#end document``; NAME is the
rest of the begin line (trailing white space removed, so that key and response
files that differ only there still pair up). Token lines hold fields separated
by tabs or spaces; the last field marks mentions with ``(id``, ``id)`` and
``(id)``, several per field separated by ``|`` or concatenated. Blank lines
separate sentences. Tokens are numbered from 0 through the whole document.

Within one field the marks are applied as the reference scorer (v8.01) applies
them: one-token mentions first, then openings, then closings, each left to
right; a closing pairs with the latest unclosed opening of the same id. So
entities are ordered by their first mark and mentions within an entity by
where they close, which decides which copy of a repeated span is kept (SPEC
§3).
"""
import gzip
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..clusters import Clusters
from ..errors import CorefInputError

PathLike = Union[str, Path]

_BEGIN = re.compile(r"^#\s*begin document (.*)$")
_END = re.compile(r"#\s*end document")
_FIELD = re.compile(r"(?:\([^()|\s]+\)|\([^()|\s]+|[^()|\s]+\)|\|)+")
_MARK = re.compile(r"\(([^()|\s]+)\)|\(([^()|\s]+)|([^()|\s]+)\)")
_EMPTY_FIELDS = frozenset(("-", "_"))


@dataclass
class ConllDocument:
    """One ``#begin document`` block: its clusters and where it came from."""

    name: str
    clusters: Clusters
    n_tokens: int
    source: str
    line: int
    words: Optional[List[str]] = None
    sentence_starts: List[int] = field(default_factory=list)


def read_conll(path: PathLike, *, with_words: bool = False) -> Dict[str, ConllDocument]:
    """All documents of a CoNLL-2012 file (``.gz`` read transparently), by
    name in file order. ``with_words`` also keeps the word column (the 4th
    field, or the first of a line with fewer than five) and sentence starts."""
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf8", newline=None) as handle:
            return parse_conll(handle, source=str(path), with_words=with_words)
    except OSError as err:
        raise CorefInputError(f"{path}: cannot read file: {err}") from None
    except UnicodeDecodeError as err:
        raise CorefInputError(f"{path}: not UTF-8 text: {err}") from None


def read_conll_string(text: str, source: str = "<string>", **kwargs) -> Dict[str, ConllDocument]:
    """Like :func:`read_conll`, from a string."""
    return parse_conll(io.StringIO(text), source=source, **kwargs)


def parse_conll(lines: Iterable[str], *, source: str, with_words: bool = False) -> Dict[str, ConllDocument]:
    """Parse CoNLL-2012 lines; errors name ``source`` and the line number."""
    documents: Dict[str, ConllDocument] = {}
    reader: Optional[_DocumentReader] = None
    lineno = 0
    for lineno, line in enumerate(lines, 1):
        if line.startswith("#"):
            begin = _BEGIN.match(line.rstrip("\r\n"))
            if begin:
                if reader is not None:
                    raise CorefInputError(
                        f"{source}:{lineno}: '#begin document' inside document "
                        f"{reader.name!r} (opened at line {reader.line}) with no '#end document'"
                    )
                name = begin.group(1).rstrip()
                if name in documents:
                    raise CorefInputError(
                        f"{source}:{lineno}: document {name!r} appears twice "
                        f"(first at line {documents[name].line})"
                    )
                reader = _DocumentReader(name, source, lineno, with_words)
            elif _END.match(line):
                if reader is None:
                    raise CorefInputError(f"{source}:{lineno}: '#end document' with no '#begin document'")
                documents[reader.name] = reader.finish(lineno)
                reader = None
            continue
        if reader is None:
            if line.strip():
                raise CorefInputError(f"{source}:{lineno}: token line outside a '#begin document' block")
            continue
        reader.add_line(line, lineno)
    if reader is not None:
        raise CorefInputError(
            f"{source}: document {reader.name!r} (line {reader.line}) has no '#end document'"
        )
    return documents


class _DocumentReader:
    """Accumulates the mentions of one document, line by line."""

    def __init__(self, name: str, source: str, line: int, with_words: bool) -> None:
        self.name = name
        self.source = source
        self.line = line
        self.n_tokens = 0
        self.entity_ids: Dict[str, int] = {}
        self.open: Dict[str, List[Tuple[int, int]]] = {}
        self.starts: List[int] = []
        self.ends: List[int] = []
        self.labels: List[int] = []
        self.words: Optional[List[str]] = [] if with_words else None
        self.sentence_starts: List[int] = []
        self.in_sentence = False

    def add_line(self, line: str, lineno: int) -> None:
        fields = line.rsplit(None, 1)
        if not fields:
            self.in_sentence = False
            return
        if self.words is not None:
            if not self.in_sentence:
                self.sentence_starts.append(self.n_tokens)
            self.in_sentence = True
            columns = line.split()
            self.words.append(columns[3] if len(columns) > 4 else columns[0])
        marks = fields[-1]
        if marks not in _EMPTY_FIELDS:
            self._add_marks(marks, lineno)
        self.n_tokens += 1

    def _entity(self, ident: str) -> int:
        index = self.entity_ids.get(ident)
        if index is None:
            index = self.entity_ids[ident] = len(self.entity_ids)
        return index

    def _add_marks(self, marks: str, lineno: int) -> None:
        if not _FIELD.fullmatch(marks):
            raise CorefInputError(
                f"{self.source}:{lineno}: cannot read coreference field {marks!r} "
                f"in document {self.name!r}"
            )
        token = self.n_tokens
        found = _MARK.findall(marks)
        for ident, _, _ in found:
            if ident:
                self._add_mention(token, token, ident)
        for _, ident, _ in found:
            if ident:
                self._entity(ident)
                self.open.setdefault(ident, []).append((token, lineno))
        for _, _, ident in found:
            if not ident:
                continue
            stack = self.open.get(ident)
            if not stack:
                raise CorefInputError(
                    f"{self.source}:{lineno}: mention of entity {ident} closes but was "
                    f"never opened (document {self.name!r})"
                )
            start, _ = stack.pop()
            self._add_mention(start, token, ident)

    def _add_mention(self, start: int, last: int, ident: str) -> None:
        self.starts.append(start)
        self.ends.append(last + 1)
        self.labels.append(self._entity(ident))

    def finish(self, lineno: int) -> ConllDocument:
        for ident, stack in self.open.items():
            if stack:
                raise CorefInputError(
                    f"{self.source}:{stack[0][1]}: mention of entity {ident} opens but "
                    f"never closes (document {self.name!r} ends at line {lineno})"
                )
        clusters = Clusters.from_arrays(
            np.array(self.starts, dtype=np.int64),
            np.array(self.ends, dtype=np.int64),
            np.array(self.labels, dtype=np.int64),
        )
        return ConllDocument(
            self.name, clusters, self.n_tokens, self.source, self.line,
            self.words, self.sentence_starts,
        )


def format_conll(
    name: str,
    words: Sequence[str],
    clusters: Clusters,
    sentence_starts: Sequence[int] = (),
) -> Iterator[str]:
    """Lines of one document in CoNLL-2012 form (document, part, token index,
    word, coreference), with entity ids ``0..n-1`` in stored order."""
    opens: Dict[int, List[Tuple[int, int]]] = {}
    closes: Dict[int, List[Tuple[int, int]]] = {}
    singles: Dict[int, List[int]] = {}
    for start, end, entity in zip(clusters.starts.tolist(), clusters.ends.tolist(), clusters.entity.tolist()):
        if end - start == 1:
            singles.setdefault(start, []).append(entity)
        else:
            opens.setdefault(start, []).append((end, entity))
            closes.setdefault(end - 1, []).append((start, entity))
    doc_id = name.split(";")[0].strip().strip("()") or "-"
    breaks = set(sentence_starts) - {0}
    yield f"#begin document {name}"
    for token, word in enumerate(words):
        if token in breaks:
            yield ""
        marks = [f"({e}" for _, e in sorted(opens.get(token, []), key=lambda x: -x[0])]
        marks += [f"({e})" for e in singles.get(token, [])]
        marks += [f"{e})" for _, e in sorted(closes.get(token, []), key=lambda x: -x[0])]
        yield f"{doc_id}\t0\t{token}\t{word}\t{'|'.join(marks) or '-'}"
    yield ""
    yield "#end document"


def write_conll(path: PathLike, documents: Iterable[Tuple[str, Sequence[str], Clusters, Sequence[int]]]) -> None:
    """Write ``(name, words, clusters, sentence_starts)`` documents to a file."""
    with open(path, "w", encoding="utf8") as out:
        for name, words, clusters, sentence_starts in documents:
            for line in format_conll(name, words, clusters, sentence_starts):
                out.write(line + "\n")

