"""Read CoNLL-2012 files line by line, as the reference scorer reads their
marks (docs/formats.md §5); the common case goes to :mod:`.vectorised`.
Errors name the file, line and entity."""

import codecs
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, Optional, Union, cast

import numpy as np

from ...errors import CorefInputError
from ...files import PathLike
from ...model.clusters import Clusters
from ...model.parse_tree import parse_bits
from ...model.tokens import Tokens
from ..base import ReadOptions
from ..document import RawMentions, Side, SideDocument
from ..inputs import InputLimits, check_utf8, open_input, read_input
from . import FORMAT
from .vectorised import BEGIN, END, SimpleFile, parse_columns, tabbed_columns

_ID = r"[^\s()|+\-\x00-\x1f\x7f-\x9f]+"
_TOKEN = re.compile(rf"\(([0-9]+\+[0-9])\)|\(({_ID})\)|\(({_ID})|({_ID})\)|(-)|\||({_ID}|[\s\S])")
_BAD = 6
_FINDALL_LIMIT = 1000
_EMPTY_FIELDS = frozenset(("-", "_"))
_SHOWN = 40


@dataclass
class ConllDocument(SideDocument):
    """One ``#begin document`` block: its clusters and where it came from;
    ``words`` (``None`` unless read with the words) and sentence starts."""

    name: str
    clusters: Clusters
    n_tokens: int
    source: str
    line: int
    words: Optional[list[str]] = None
    sentence_starts: list[int] = field(default_factory=list)
    pos: Optional[list[str]] = None
    """The part-of-speech column (the 5th) of OntoNotes-style files, whose
    token lines have :data:`ONTONOTES_COLUMNS` or more fields; read with
    the words."""
    mentions: Optional[RawMentions] = None
    """The mentions with their entity ids as written, read for
    cross-document scoring (:mod:`..topics`)."""

    def tokens(self) -> Tokens:
        return Tokens(self.words or [], self.sentence_starts or [0], tag=self.pos)


ONTONOTES_COLUMNS = 12
"""Fields of a CoNLL-2012 token line in the OntoNotes layout (document,
part, word number, word, part of speech, parse, lemma, frameset, sense,
speaker, named entities, …, coreference)."""


class ConllFile(dict[str, ConllDocument]):
    """The documents of one CoNLL-2012 file by name, in file order, and the
    reader's ``warnings`` (one line each, naming the file)."""

    def __init__(self, documents: Iterable[tuple[str, ConllDocument]] = (), warnings: Iterable[str] = ()) -> None:
        super().__init__(documents)
        self.warnings: list[str] = list(warnings)


class ConllColumns(Sequence[ConllDocument]):
    """The documents of one file in the simple form kept as columns
    (:class:`~.vectorised.SimpleFile`), for pairing and twinning to read
    at once (docs/formats.md, Columns); the :class:`ConllDocument` s are
    built, all at once, the first time one is asked for."""

    def __init__(self, simple: SimpleFile, source: str) -> None:
        self.simple = simple
        self.source = source
        self._documents: Optional[list[ConllDocument]] = None

    @property
    def names(self) -> list[str]:
        return self.simple.names

    def documents(self) -> list[ConllDocument]:
        if self._documents is None:
            self._documents = [
                ConllDocument(name, clusters, n_tokens, self.source, line=line)
                for name, line, clusters, n_tokens in self.simple.documents()
            ]
        return self._documents

    def __len__(self) -> int:
        return len(self.simple.names)

    def __getitem__(self, index):  # type: ignore[override]
        return self.documents()[index]

    def __iter__(self) -> Iterator[ConllDocument]:
        return iter(self.documents())


class Marks(NamedTuple):
    """The marks of one coreference field, each kind in field order."""

    singles: list[str]
    opens: list[str]
    closes: list[str]
    dashes: int
    dropped: int


def read_conll(path: PathLike, *, with_words: bool = False, with_ids: bool = False, limits: Optional[InputLimits] = None) -> ConllFile:
    """All documents of a CoNLL-2012 file (``.gz`` read transparently), by
    name in file order, with the reader's warnings. ``with_words`` also keeps
    the word column (the 4th field, or the first of a line with fewer than
    five) and sentence starts; ``with_ids`` every document's mentions with
    their entity ids as written (:class:`~..document.RawMentions`).

    Files in the common simple form are read by the vectorised reader
    (:mod:`.conll_vectorised`), their words at a stride of their tab
    separated fields where every line has the same number, everything else
    line by line; all give the same documents. ``limits`` bound what is
    read (:class:`~..inputs.InputLimits`, default from the environment).
    """
    path = Path(path)
    return read_conll_bytes(read_input(path, limits), path, with_words=with_words, with_ids=with_ids)


def read_conll_bytes(data: Union[bytes, bytearray], source: PathLike, *, with_words: bool = False, with_ids: bool = False) -> ConllFile:
    """:func:`read_conll` of a file's bytes (decompressed), ``source``
    naming it in messages."""
    read = _read_bytes(data, Path(source), with_words, with_ids=with_ids)
    assert isinstance(read, ConllFile)
    return read


def _read_bytes(
    data: Union[bytes, bytearray], path: Path, with_words: bool, *, with_ids: bool, columns: bool = False
) -> Union[ConllFile, ConllColumns]:
    """:func:`read_conll_bytes`; with ``columns`` (and neither words nor
    ids) a file in the simple form as :class:`~.columns.ConllColumns`."""
    try:
        if data.startswith(codecs.BOM_UTF8):
            data = data[len(codecs.BOM_UTF8) :]
        check_utf8(data, path)
        raw: Optional[list[RawMentions]] = [] if with_ids else None
        simple = parse_columns(data, raw)
        if simple is not None and columns and not (with_words or with_ids):
            return ConllColumns(simple, str(path))
        if simple is not None and not with_words:
            return _with_ids(
                ConllFile(
                    (name, ConllDocument(name, clusters, n_tokens, str(path), line=line))
                    for name, line, clusters, n_tokens in simple.documents()
                ),
                raw,
            )
        documents = None if simple is None else simple.documents()
        columns_read = None if documents is None else tabbed_columns(data, documents)
        if columns_read is None:
            text = data.decode("utf8")
            del data
            if documents is None:
                return _parse(text, str(path), with_words, with_ids=with_ids)
            lines = text.split("\n")
            columns_read = [_columns(_body(lines, line)) for _, line, _, _ in documents]
        return _with_ids(
            ConllFile(
                (name, ConllDocument(name, clusters, n_tokens, str(path), line=line, words=words, sentence_starts=starts, pos=pos))
                for (name, line, clusters, n_tokens), (words, starts, pos) in zip(
                    cast(list[tuple[str, int, Clusters, int]], documents),
                    columns_read,  # None returned early above
                )
            ),
            raw,
        )
    except MemoryError:
        raise CorefInputError(f"{path}: not enough memory to read this file") from None


def _with_ids(documents: "ConllFile", raw: Optional[list[RawMentions]]) -> "ConllFile":
    for document, mentions in zip(documents.values(), raw or ()):
        document.mentions = mentions
    return documents


def parse_conll(text: str, *, source: str, with_words: bool = False) -> ConllFile:
    """Parse CoNLL-2012 text; errors and warnings name ``source`` and the line.

    Work is proportional to the number of lines with a mark: the document
    structure is found from the ``#`` lines, and a token line ending in a tab
    and ``-`` is never split.
    """
    try:
        return _parse(text, source, with_words)
    except MemoryError:
        raise CorefInputError(f"{source}: not enough memory to read this input") from None


def _parse(text: str, source: str, with_words: bool, *, with_ids: bool = False) -> ConllFile:
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    documents = ConllFile()
    notes = _Notes()
    for name, begin, end, comments in _blocks(lines, source):
        if name in documents:
            raise CorefInputError(f"{source}:{begin + 1}: document {_quote(name)} appears twice (first at line {documents[name].line})")
        body = lines[begin + 1 : end]
        if comments:
            commented = [begin + 2 + i for i, line in enumerate(body) if line[:1] == "#"]
            notes.comments += len(commented)
            notes.first_comment = notes.first_comment or commented[0]
            body = ["" if line[:1] == "#" else line for line in body]
        reader = _DocumentReader(name, source, begin + 1, body=body, notes=notes)
        documents[name] = reader.read(with_words, with_ids)
    documents.warnings.extend(notes.warnings(source))
    return documents


class _Notes:
    """Marks of a file read as the reference scorer reads them, but which
    may not be what the writer meant: counted for one warning."""

    def __init__(self) -> None:
        self.dash_fields = 0
        self.dropped = 0
        self.first: Optional[tuple[int, str]] = None
        self.comments = 0
        self.first_comment = 0

    def warnings(self, source: str) -> list[str]:
        out = []
        if self.comments:
            out.append(
                f"{source}: {self.comments} line(s) starting with '#' inside documents, first at line "
                f"{self.first_comment}, read as comments (a sentence break); a token line starts with its document id"
            )
        if self.first is None:
            return out
        parts = []
        if self.dash_fields:
            parts.append(f"{self.dash_fields} coreference field(s) with '-' among marks (the '-' is ignored)")
        if self.dropped:
            parts.append(f"{self.dropped} double-antecedent mark(s) '(N+M)' (dropped)")
        line, name = self.first
        return out + [
            f"{source}: {' and '.join(parts)}, first at line {line} in document {_quote(name)}; "
            "read as the CoNLL reference scorer reads them"
        ]


def _blocks(lines: list[str], source: str) -> Iterator[tuple[str, int, int, bool]]:
    """``(name, begin, end, has_comments)`` of every document, as 0-based
    indices of its begin and end lines; checks that blocks nest properly and
    that nothing but blank lines stands outside them."""
    structure = [i for i, line in enumerate(lines) if line[:1] == "#"]
    current: Optional[tuple[str, int]] = None
    comments = False
    previous_end = -1
    for i in structure:
        line = lines[i]
        begin = BEGIN.fullmatch(line)
        if begin and not (begin.group(1) or "").strip():
            raise CorefInputError(f"{source}:{i + 1}: '#begin document' without a document name")
        if begin:
            if current is not None:
                raise CorefInputError(
                    f"{source}:{i + 1}: '#begin document' inside document "
                    f"{_quote(current[0])} (opened at line {current[1] + 1}) with no '#end document'"
                )
            _check_outside(lines, previous_end + 1, i, source=source)
            current, comments = (begin.group(1).rstrip(), i), False
        elif END.match(line):
            if current is None:
                raise CorefInputError(f"{source}:{i + 1}: '#end document' with no '#begin document'")
            yield current[0], current[1], i, comments
            current, previous_end = None, i
        else:
            comments = True
    if current is not None:
        raise CorefInputError(f"{source}: document {_quote(current[0])} (line {current[1] + 1}) has no '#end document'")
    _check_outside(lines, previous_end + 1, len(lines), source=source)


def _check_outside(lines: list[str], start: int, stop: int, *, source: str) -> None:
    for i in range(start, stop):
        if lines[i].strip() and lines[i][:1] != "#":
            raise CorefInputError(f"{source}:{i + 1}: token line outside a '#begin document' block")


class _DocumentReader:
    """Reads the mentions of one document from the lines of its body."""

    def __init__(self, name: str, source: str, line: int, *, body: list[str], notes: _Notes) -> None:
        self.name = name
        self.source = source
        self.line = line
        self.body = body
        self.notes = notes
        self.entity_ids: dict[str, int] = {}
        self.open: dict[str, list[int]] = {}
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.labels: list[int] = []

    def read(self, with_words: bool, with_ids: bool = False) -> ConllDocument:
        tokens = [line for line in self.body if line and not line.isspace()]
        for index, line in [(i, line) for i, line in enumerate(tokens) if not line.endswith("\t-") and line != "-"]:
            marks = line[line.rfind("\t") + 1 :]
            if " " in marks or not marks[-1:].strip():
                marks = coreference_field(line)
            if marks not in _EMPTY_FIELDS:
                self._add_marks(marks, index)
        for ident, stack in self.open.items():
            if stack:
                raise CorefInputError(
                    f"{self.source}:{self._line_of(stack[0])}: mention of entity {_shorten(ident)} opens "
                    f"but never closes (document {_quote(self.name)})"
                )
        starts, ends = np.array(self.starts, dtype=np.int64), np.array(self.ends, dtype=np.int64)
        labels = np.array(self.labels, dtype=np.int64)
        clusters = Clusters.from_arrays(starts, ends, labels)
        if not with_words:
            document = ConllDocument(self.name, clusters, len(tokens), self.source, line=self.line)
        else:
            words, sentence_starts, pos = _columns(self.body)
            document = ConllDocument(
                self.name, clusters, len(tokens), self.source, line=self.line, words=words, sentence_starts=sentence_starts, pos=pos
            )
        if with_ids:
            ids = np.array(list(self.entity_ids) or [""], dtype=str)[labels]
            document.mentions = RawMentions(starts, ends, labels, ids)
        return document

    def _line_of(self, token: int) -> int:
        """1-based file line of token ``token`` (for error messages)."""
        seen = -1
        for offset, line in enumerate(self.body):
            if line and not line.isspace():
                seen += 1
                if seen == token:
                    return self.line + 1 + offset
        return self.line

    def _entity(self, ident: str) -> int:
        index = self.entity_ids.get(ident)
        if index is None:
            index = self.entity_ids[ident] = len(self.entity_ids)
        return index

    def _add_marks(self, text: str, token: int) -> None:
        try:
            marks = read_marks(text)
        except ValueError as err:
            raise CorefInputError(
                f"{self.source}:{self._line_of(token)}: cannot read coreference field {_quote(text)} in document {_quote(self.name)}: {err}"
            ) from None
        if marks.dashes or marks.dropped:
            if self.notes.first is None:
                self.notes.first = (self._line_of(token), self.name)
            self.notes.dash_fields += marks.dashes > 0
            self.notes.dropped += marks.dropped
        for ident in marks.singles:
            self._add_mention(token, token, ident)
        for ident in marks.opens:
            self._entity(ident)
            self.open.setdefault(ident, []).append(token)
        for ident in marks.closes:
            stack = self.open.get(ident)
            if not stack:
                raise CorefInputError(
                    f"{self.source}:{self._line_of(token)}: mention of entity {_shorten(ident)} closes but "
                    f"was never opened (document {_quote(self.name)})"
                )
            self._add_mention(stack.pop(), token, ident)

    def _add_mention(self, start: int, last: int, ident: str) -> None:
        self.starts.append(start)
        self.ends.append(last + 1)
        self.labels.append(self._entity(ident))


def coreference_field(line: str) -> str:
    """The coreference field of a token line: what follows the last tab or
    space, or, in a line with tabs where the text between the last tab and
    that field holds ``(`` or ``)``, everything after the last tab (which no
    field can be, so reading it fails)."""
    text = line.rstrip()
    tab = text.rfind("\t")
    space = text.rfind(" ")
    if space < tab or tab < 0:
        return text[max(tab, space) + 1 :]
    before = text[tab + 1 : space]
    if "(" in before or ")" in before:
        return text[tab + 1 :]
    return text[space + 1 :]


def read_marks(text: str) -> Marks:
    """The marks of one coreference field (not ``-`` or ``_``), in linear
    time; a ``ValueError`` names the first text that is not a mark, or says
    there is no mark at all."""
    singles: list[str] = []
    opens: list[str] = []
    closes: list[str] = []
    dashes = dropped = 0
    tokens = _TOKEN.findall(text) if len(text) <= _FINDALL_LIMIT else _tokens_to_first_bad(text)
    for double, single, opening, closing, dash, bad in tokens:
        if single:
            singles.append(single)
        elif opening:
            opens.append(opening)
        elif closing:
            closes.append(closing)
        elif dash:
            dashes += 1
        elif double:
            dropped += 1
        elif bad:
            match = next(match for match in _TOKEN.finditer(text) if match.lastindex == _BAD)
            raise ValueError(f"{_quote(bad)} at character {match.start() + 1} is not part of a mark")
    if not (singles or opens or closes or dropped):
        raise ValueError("no mark (a field without marks is '-' or '_')")
    return Marks(singles, opens, closes, dashes, dropped)


def _tokens_to_first_bad(text: str) -> list[tuple[str, ...]]:
    """The groups of :data:`_TOKEN` matched in ``text``, up to the first one
    that is not part of a mark (so a long bad field costs little memory)."""
    tokens = []
    for match in _TOKEN.finditer(text):
        tokens.append(match.groups(""))
        if match.lastindex == _BAD:
            break
    return tokens


def _shorten(text: str) -> str:
    """``text`` for a message: its first characters when it is long."""
    if len(text) <= _SHOWN:
        return text
    return f"{text[:_SHOWN]}… ({len(text)} characters)"


def _quote(text: str) -> str:
    """``text`` quoted for a message, its first characters when it is long."""
    if len(text) <= _SHOWN:
        return repr(text)
    return f"{text[:_SHOWN]!r}… ({len(text)} characters)"


def _body(lines: list[str], begin: int) -> list[str]:
    """The lines of the document whose ``#begin document`` is line
    ``begin`` (1-based), up to its ``#end document``."""
    end = begin
    while not lines[end].startswith("#"):
        end += 1
    return lines[begin:end]


def _columns(body: list[str]) -> tuple[list[str], list[int], Optional[list[str]]]:
    """The words (the 4th field, or the first of a line with fewer than
    five), sentence starts (after blank lines) and, for OntoNotes-style
    lines, the part-of-speech column of a document's body."""
    words: list[str] = []
    starts: list[int] = []
    pos: Optional[list[str]] = []
    in_sentence = False
    for line in body:
        if not line or line.isspace():
            in_sentence = False
            continue
        if not in_sentence:
            starts.append(len(words))
            in_sentence = True
        fields = line.split()
        words.append(fields[3] if len(fields) > 4 else fields[0])
        if pos is not None:
            if len(fields) >= ONTONOTES_COLUMNS:
                pos.append(fields[4])
            else:
                pos = None
    return words, starts, pos if pos else None


_CONLL_PATTERNS = ("*conll", "*conll.gz")


def read_conll_documents(
    path: PathLike, *, with_words: bool = False, with_ids: bool = False, limits: Optional[InputLimits] = None
) -> ConllFile:
    """Documents of a CoNLL-2012 file, or of a directory's files whose names
    end in ``conll`` or ``conll.gz`` (in name order, e.g. LitBank's
    ``coref/conll``), with the reader's warnings; document names must be
    unique."""
    path = Path(path)
    if not path.is_dir():
        return read_conll(path, with_words=with_words, with_ids=with_ids, limits=limits)
    files = sorted({file for pattern in _CONLL_PATTERNS for file in path.glob(pattern) if file.is_file()})
    if not files:
        raise CorefInputError(f"{path}: no CoNLL files (*conll, *conll.gz) in this directory")
    documents = ConllFile()
    for file in files:
        read = read_conll(file, with_words=with_words, with_ids=with_ids, limits=limits)
        for name, document in read.items():
            if name in documents:
                raise CorefInputError(f"{file}: document {name!r} appears twice (also in {documents[name].source})")
            documents[name] = document
        documents.warnings.extend(read.warnings)
    return documents


def read_side(path: Path, options: ReadOptions) -> Side:
    """A CoNLL-2012 file or directory as a :class:`Side` (the format's reader)."""
    if Path(path).is_file():
        return parse_side(read_input(Path(path), options.limits), Path(path), options)
    documents = read_conll_documents(path, with_words=options.words, with_ids=options.entity_ids, limits=options.limits)
    return Side(path, FORMAT, list(documents.values()), documents.warnings)


def read_parse(path: PathLike) -> dict[str, list[str]]:
    """The parse bits of every document of a CoNLL-2012 file, by the names
    :func:`read_conll` gives (comment lines inside a document are no
    tokens, as there)."""
    text = bytes(open_input(Path(path))).decode("utf8", errors="replace").lstrip("\ufeff")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: dict[str, list[str]] = {}
    for name, begin, end, _ in _blocks(lines, str(path)):
        out[name] = parse_bits([line for line in lines[begin + 1 : end] if line[:1] != "#"])
    return out


def parse_side(data: Union[bytes, bytearray], path: Path, options: ReadOptions) -> Side:
    """The bytes of a CoNLL-2012 file (or some of its documents) as a
    :class:`Side`, ``path`` naming it."""
    read = _read_bytes(data, path, options.words, with_ids=options.entity_ids, columns=not (options.words or options.entity_ids))
    if isinstance(read, ConllColumns):
        return Side(path, FORMAT, read)
    return Side(path, FORMAT, list(read.values()), read.warnings)
