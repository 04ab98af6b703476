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
import codecs
import gzip
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..clusters import Clusters
from ..errors import CorefInputError
from ..files import open_output
from .conll_vectorised import BEGIN, END, parse_simple

PathLike = Union[str, Path]

_FIELD = re.compile(r"(?:\([^()|\s]+\)|\([^()|\s]+|[^()|\s]+\)|\|)+")
_MARK = re.compile(r"\(([^()|\s]+)\)|\(([^()|\s]+)|([^()|\s]+)\)")
_EMPTY_FIELDS = frozenset(("-", "_"))
_SPACE = re.compile(r"\s+")


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
    field, or the first of a line with fewer than five) and sentence starts.

    Files in the common simple form are read by the vectorised reader
    (:mod:`.conll_vectorised`), everything else line by line; both give the
    same documents.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as err:
        raise CorefInputError(f"{path}: cannot read file: {err}") from None
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    if not with_words:
        simple = parse_simple(data)
        if simple is not None:
            return {
                name: ConllDocument(name, clusters, n_tokens, str(path), line)
                for name, line, clusters, n_tokens in simple
            }
    try:
        text = data.decode("utf8")
    except UnicodeDecodeError as err:
        raise CorefInputError(f"{path}: not UTF-8 text: {err}") from None
    return parse_conll(text, source=str(path), with_words=with_words)


def read_conll_string(text: str, source: str = "<string>", **kwargs) -> Dict[str, ConllDocument]:
    """Like :func:`read_conll`, from a string."""
    return parse_conll(text, source=source, **kwargs)


def parse_conll(text: str, *, source: str, with_words: bool = False) -> Dict[str, ConllDocument]:
    """Parse CoNLL-2012 text; errors name ``source`` and the line number.

    Work is proportional to the number of lines with a mark: the document
    structure is found from the ``#`` lines, and a token line ending in
    ``-`` is never split.
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    documents: Dict[str, ConllDocument] = {}
    for name, begin, end, comments in _blocks(lines, source):
        if name in documents:
            raise CorefInputError(
                f"{source}:{begin + 1}: document {name!r} appears twice "
                f"(first at line {documents[name].line})"
            )
        body = lines[begin + 1:end]
        if comments:
            body = ["" if line[:1] == "#" else line for line in body]
        reader = _DocumentReader(name, source, begin + 1, body)
        documents[name] = reader.read(with_words)
    return documents


def _blocks(lines: List[str], source: str) -> Iterator[Tuple[str, int, int, bool]]:
    """``(name, begin, end, has_comments)`` of every document, as 0-based
    indices of its begin and end lines; checks that blocks nest properly and
    that nothing but blank lines stands outside them."""
    structure = [i for i, line in enumerate(lines) if line[:1] == "#"]
    current: Optional[Tuple[str, int]] = None
    comments = False
    previous_end = -1
    for i in structure:
        line = lines[i]
        begin = BEGIN.fullmatch(line)
        if begin:
            if current is not None:
                raise CorefInputError(
                    f"{source}:{i + 1}: '#begin document' inside document "
                    f"{current[0]!r} (opened at line {current[1] + 1}) with no '#end document'"
                )
            _check_outside(lines, previous_end + 1, i, source)
            current, comments = (begin.group(1).rstrip(), i), False
        elif END.match(line):
            if current is None:
                raise CorefInputError(f"{source}:{i + 1}: '#end document' with no '#begin document'")
            yield current[0], current[1], i, comments
            current, previous_end = None, i
        else:
            comments = True
    if current is not None:
        raise CorefInputError(
            f"{source}: document {current[0]!r} (line {current[1] + 1}) has no '#end document'"
        )
    _check_outside(lines, previous_end + 1, len(lines), source)


def _check_outside(lines: List[str], start: int, stop: int, source: str) -> None:
    for i in range(start, stop):
        if lines[i].strip() and lines[i][:1] != "#":
            raise CorefInputError(f"{source}:{i + 1}: token line outside a '#begin document' block")


class _DocumentReader:
    """Reads the mentions of one document from the lines of its body."""

    def __init__(self, name: str, source: str, line: int, body: List[str]) -> None:
        self.name = name
        self.source = source
        self.line = line
        self.body = body
        self.entity_ids: Dict[str, int] = {}
        self.open: Dict[str, List[int]] = {}
        self.starts: List[int] = []
        self.ends: List[int] = []
        self.labels: List[int] = []

    def read(self, with_words: bool) -> ConllDocument:
        tokens = [line for line in self.body if line and not line.isspace()]
        for index, line in [(i, line) for i, line in enumerate(tokens) if line[-1] != "-"]:
            marks = line.rsplit(None, 1)[-1]
            if marks not in _EMPTY_FIELDS:
                self._add_marks(marks, index)
        for ident, stack in self.open.items():
            if stack:
                raise CorefInputError(
                    f"{self.source}:{self._line_of(stack[0])}: mention of entity {ident} opens "
                    f"but never closes (document {self.name!r})"
                )
        clusters = Clusters.from_arrays(
            np.array(self.starts, dtype=np.int64),
            np.array(self.ends, dtype=np.int64),
            np.array(self.labels, dtype=np.int64),
        )
        words, sentence_starts = (self._words(tokens), self._sentence_starts()) if with_words else (None, [])
        return ConllDocument(self.name, clusters, len(tokens), self.source, self.line, words, sentence_starts)

    def _line_of(self, token: int) -> int:
        """1-based file line of token ``token`` (for error messages)."""
        seen = -1
        for offset, line in enumerate(self.body):
            if line and not line.isspace():
                seen += 1
                if seen == token:
                    return self.line + 1 + offset
        return self.line

    @staticmethod
    def _words(tokens: List[str]) -> List[str]:
        out = []
        for line in tokens:
            columns = line.split()
            out.append(columns[3] if len(columns) > 4 else columns[0])
        return out

    def _sentence_starts(self) -> List[int]:
        starts: List[int] = []
        token, in_sentence = 0, False
        for line in self.body:
            if line and not line.isspace():
                if not in_sentence:
                    starts.append(token)
                token, in_sentence = token + 1, True
            else:
                in_sentence = False
        return starts

    def _entity(self, ident: str) -> int:
        index = self.entity_ids.get(ident)
        if index is None:
            index = self.entity_ids[ident] = len(self.entity_ids)
        return index

    def _add_marks(self, marks: str, token: int) -> None:
        if not _FIELD.fullmatch(marks):
            raise CorefInputError(
                f"{self.source}:{self._line_of(token)}: cannot read coreference field {marks!r} "
                f"in document {self.name!r}"
            )
        found = _MARK.findall(marks)
        for ident, _, _ in found:
            if ident:
                self._add_mention(token, token, ident)
        for _, ident, _ in found:
            if ident:
                self._entity(ident)
                self.open.setdefault(ident, []).append(token)
        for _, _, ident in found:
            if not ident:
                continue
            stack = self.open.get(ident)
            if not stack:
                raise CorefInputError(
                    f"{self.source}:{self._line_of(token)}: mention of entity {ident} closes but "
                    f"was never opened (document {self.name!r})"
                )
            self._add_mention(stack.pop(), token, ident)

    def _add_mention(self, start: int, last: int, ident: str) -> None:
        self.starts.append(start)
        self.ends.append(last + 1)
        self.labels.append(self._entity(ident))


def format_conll(
    name: str,
    words: Sequence[str],
    clusters: Clusters,
    sentence_starts: Sequence[int] = (),
) -> Iterator[str]:
    """Lines of one document in CoNLL-2012 form (document, part, token index,
    word, coreference), with entity ids ``0..n-1`` in stored order. White
    space inside the document id or a word (a spaCy token such as ``"\\n"``)
    is written as ``_`` so that the columns stay intact.

    Two mentions of one entity that overlap without one containing the
    other cannot be written: brackets of one id pair up last-opened
    first-closed when read back, so they would come back as two other
    spans. They raise :class:`CorefInputError`.
    """
    crossing = crossing_mentions(clusters)
    if crossing.any():
        first = int(np.argmax(crossing))
        raise CorefInputError(
            f"document {name!r}: mention ({clusters.starts[first]}, {clusters.ends[first]}) of entity "
            f"{clusters.entity[first]} overlaps another mention of that entity without nesting; "
            "CoNLL-2012 brackets cannot express that"
        )
    opens: Dict[int, List[Tuple[int, int]]] = {}
    closes: Dict[int, List[Tuple[int, int]]] = {}
    singles: Dict[int, List[int]] = {}
    for start, end, entity in zip(clusters.starts.tolist(), clusters.ends.tolist(), clusters.entity.tolist()):
        if end - start == 1:
            singles.setdefault(start, []).append(entity)
        else:
            opens.setdefault(start, []).append((end, entity))
            closes.setdefault(end - 1, []).append((start, entity))
    doc_id = _column(name.split(";")[0].strip().strip("()") or "-")
    breaks = set(sentence_starts) - {0}
    yield f"#begin document {name}"
    for token, word in enumerate(words):
        if token in breaks:
            yield ""
        marks = [f"({e}" for _, e in sorted(opens.get(token, []), key=lambda x: -x[0])]
        marks += [f"({e})" for e in singles.get(token, [])]
        marks += [f"{e})" for _, e in sorted(closes.get(token, []), key=lambda x: -x[0])]
        yield f"{doc_id}\t0\t{token}\t{_column(word)}\t{'|'.join(marks) or '-'}"
    yield ""
    yield "#end document"


def crossing_mentions(clusters: Clusters) -> np.ndarray:
    """Mask of the mentions that overlap an earlier mention (by start, then
    longest first) of their entity without nesting in it or containing it."""
    out = np.zeros(len(clusters), dtype=bool)
    order = np.lexsort((-clusters.ends, clusters.starts, clusters.entity))
    stack: List[int] = []
    previous = -1
    for index in order.tolist():
        entity, start, end = int(clusters.entity[index]), int(clusters.starts[index]), int(clusters.ends[index])
        if entity != previous:
            stack, previous = [], entity
        while stack and stack[-1] <= start:
            stack.pop()
        if stack and end > stack[-1]:
            out[index] = True
            continue
        stack.append(end)
    return out


def _column(text: str) -> str:
    """``text`` as one column: white space runs become ``_``."""
    return _SPACE.sub("_", text) or "_"


def write_conll(
    path: PathLike, documents: Iterable[Tuple[str, Sequence[str], Clusters, Sequence[int]]], inputs: Iterable[PathLike] = ()
) -> None:
    """Write ``(name, words, clusters, sentence_starts)`` documents to a
    file, atomically and never over one of ``inputs``."""
    with open_output(path, "w", inputs, make_parents=True) as out:
        for name, words, clusters, sentence_starts in documents:
            for line in format_conll(name, words, clusters, sentence_starts):
                out.write(line + "\n")

