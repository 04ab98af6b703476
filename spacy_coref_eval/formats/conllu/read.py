"""Read coreference from CorefUD 1.x CoNLL-U files.

A file holds one or more documents, each starting at a ``# newdoc`` comment
(named by its ``id``; a ``# newdoc`` without id, or sentences before the first
one, get the document's 1-based position in the file as name, as the CorefUD
scorer does). Sentences are blocks of token lines separated by blank lines.
Only lines whose ID is an integer are **words**; multiword-token ranges
(``3-4``) are skipped and empty nodes (``8.1``) are kept apart, so word
positions (0-based through the document) are identical in a key and a
response whatever empty nodes either has.

Coreference is read from the ``Entity=`` attribute of the MISC column, whose
fields are named by the most recent ``# global.Entity`` header (for example
``eid-etype-head-other``; ``GRP`` is read as ``eid``, ``entity`` as
``etype``). ``(e1-person-2`` opens a mention of entity ``e1``, ``e1)``
closes the latest open mention of ``e1`` and ``(e1-person-1)`` is a mention
of one node. A discontinuous mention is written as numbered subspans,
``(e1[1/2]`` ... ``e1[1/2])`` ... ``(e1[2/2]`` ... ``e1[2/2])``. As in udapi
(the reference library the CorefUD scorer reads files with):

- a mention is the set of nodes from where each subspan opens to where it
  closes, empty nodes in between included, all in one sentence;
- its head is node number ``head`` (1-based) of that set in sentence order,
  taken from the opening of the last subspan; without a ``head`` field in
  the header (or value in the chunk) the head is the first node;
- a **zero mention** is one whose head is an empty node.

``Bridge=`` and ``SplitAnte=`` are read past and counted in one warning.

Mentions are stored column-wise (:class:`CorefUDDocument`): the first and
one-past-last word, entity index, head and flags as arrays, word sets only
for discontinuous mentions, and empty-node sets only where a mention covers
empty nodes. :meth:`CorefUDDocument.mentions` gives one :class:`Mention` per
mention. Nodes are identified across files by :func:`node_key` (sentence,
ID), which is how the CorefUD scorer identifies words (its ``linear`` match of
empty nodes).
"""
import codecs
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Set, Tuple, Union

import numpy as np

from ...arrays import range_values
from ...errors import CorefInputError
from ..inputs import read_input

PathLike = Union[str, Path]

_NEWDOC = re.compile(r"^# newdoc(?:\s+id\s*=\s*(.+))?$")
_SENT_ID = re.compile(r"^# sent_id\s*=?\s*(\S+)")
_GLOBAL_ENTITY = re.compile(r"^# global\.Entity\s*=\s*(\S+)")
_ENTITY_VALUE = re.compile(r"(?:\([^()]+\)?|[^()]+\))+")
_SUBSPAN = re.compile(r"^([^\[\]]+)\[(\d+)/(\d+)\]$")
_EMPTY_ID = re.compile(r"^(\d+)\.(\d+)$")
_RANGE_ID = re.compile(r"^(\d+)-(\d+)$")
_FORBIDDEN_IN_EID = frozenset("=| \t[]")
_MINOR_BITS = 16
_MAJOR_BITS = 24


def node_key(sentence: int, major: int, minor: int = 0) -> int:
    """A node's identity within a document, comparable between files with the
    same sentences: sentence index, then the integer part of the CoNLL-U ID,
    then its decimal part (0 for a word). Keys sort in document order."""
    return (sentence << (_MAJOR_BITS + _MINOR_BITS)) | (major << _MINOR_BITS) | minor


class Mention(NamedTuple):
    """One mention as a set of nodes.

    ``words`` are sorted document word positions (empty nodes excluded) and
    ``empty`` sorted indices into :attr:`CorefUDDocument.empty_nodes`. The
    head is word ``head``, or empty node ``head`` when ``zero``.
    ``contiguous`` means a single subspan: the words are a range, whatever
    empty nodes lie inside it."""

    eid: str
    etype: Optional[str]
    words: Tuple[int, ...]
    empty: Tuple[int, ...]
    head: int
    zero: bool
    contiguous: bool
    line: int


@dataclass(frozen=True)
class EmptyNode:
    """An empty node (ID ``major.minor``): sentence index, ID, the number of
    document words before it, its identity (:func:`node_key`), form, and
    enhanced dependencies as ``(node_key of the parent, relation)``."""

    sentence: int
    id: str
    after: int
    key: int
    form: str
    deps: Tuple[Tuple[int, str], ...]
    line: int


@dataclass
class CorefUDDocument:
    """One document of a CoNLL-U file.

    Words: ``words`` (forms) and their ``upos``, ``xpos`` and ``feats``
    columns as written (these three decoded on first use); ``sentence_starts[s]`` is the first word of sentence
    ``s`` (one extra entry: the number of words), ``sentence_ids[s]`` its
    ``# sent_id`` (None without one) and ``sentence_lines[s]`` the line of its
    first token line; ``word_ords[w]`` is the integer ID of word ``w``.

    Mentions, in order of opening (document order of their first node; at
    one node, as the chunks are written), column-wise: ``mention_entity``
    (index into ``entities``, the entity ids in order of first opening),
    ``mention_start``/``mention_end`` (first word and one past the last; for
    a mention of empty nodes only, both are the position of the first
    one's ``after``), ``mention_head``, ``mention_zero`` (head is an empty
    node: ``mention_head`` indexes ``empty_nodes``), ``mention_contiguous``,
    ``mention_line`` and ``mention_etype``. ``mention_words`` holds the word
    sets of discontinuous mentions and ``mention_empty`` the empty-node sets
    of mentions that cover empty nodes, by mention index.
    """

    name: str
    source: str
    line: int
    words: List[str]
    token_columns: "_Columns"
    sentence_starts: np.ndarray
    sentence_ids: List[Optional[str]]
    sentence_lines: List[int]
    word_ords: np.ndarray
    empty_nodes: Tuple[EmptyNode, ...]
    entities: Tuple[str, ...]
    mention_entity: np.ndarray
    mention_start: np.ndarray
    mention_end: np.ndarray
    mention_head: np.ndarray
    mention_zero: np.ndarray
    mention_contiguous: np.ndarray
    mention_line: np.ndarray
    mention_etype: List[Optional[str]]
    mention_words: Dict[int, Tuple[int, ...]] = field(default_factory=dict)
    mention_empty: Dict[int, Tuple[int, ...]] = field(default_factory=dict)

    @property
    def upos(self) -> List[str]:
        """The UPOS column of every word (read on first use)."""
        return self.token_columns.get(3)

    @property
    def xpos(self) -> List[str]:
        return self.token_columns.get(4)

    @property
    def feats(self) -> List[str]:
        return self.token_columns.get(5)

    @property
    def n_words(self) -> int:
        return len(self.words)

    @property
    def n_sentences(self) -> int:
        return len(self.sentence_ids)

    def __len__(self) -> int:
        return len(self.mention_entity)

    def word_sentences(self) -> np.ndarray:
        """The sentence index of every word."""
        return np.repeat(np.arange(self.n_sentences, dtype=np.int64), np.diff(self.sentence_starts))

    def word_keys(self) -> np.ndarray:
        """:func:`node_key` of every word."""
        sentences = self.word_sentences()
        return (sentences << (_MAJOR_BITS + _MINOR_BITS)) | (self.word_ords << _MINOR_BITS)

    def words_of(self, m: int) -> Tuple[int, ...]:
        """The sorted word positions of mention ``m``."""
        words = self.mention_words.get(m)
        if words is None:
            return tuple(range(int(self.mention_start[m]), int(self.mention_end[m])))
        return words

    def node_keys_of(self, m: int, word_keys: Optional[np.ndarray] = None) -> Tuple[int, ...]:
        """The sorted :func:`node_key` of every node (words and empty nodes)
        of mention ``m``: the CorefUD scorer's identity of a mention."""
        keys = self.word_keys() if word_keys is None else word_keys
        nodes = [int(keys[w]) for w in self.words_of(m)]
        nodes += [self.empty_nodes[e].key for e in self.mention_empty.get(m, ())]
        return tuple(sorted(nodes))

    def head_key_of(self, m: int, word_keys: Optional[np.ndarray] = None) -> int:
        """:func:`node_key` of the head of mention ``m``."""
        if self.mention_zero[m]:
            return self.empty_nodes[int(self.mention_head[m])].key
        keys = self.word_keys() if word_keys is None else word_keys
        return int(keys[int(self.mention_head[m])])

    def mentions(self) -> List[Mention]:
        """Every mention as a :class:`Mention`, in stored order."""
        return [
            Mention(
                self.entities[int(self.mention_entity[m])],
                self.mention_etype[m],
                self.words_of(m),
                self.mention_empty.get(m, ()),
                int(self.mention_head[m]),
                bool(self.mention_zero[m]),
                bool(self.mention_contiguous[m]),
                int(self.mention_line[m]),
            )
            for m in range(len(self))
        ]


@dataclass
class ConlluFile:
    """The documents of one file, by name in file order, and how many
    ``Bridge=`` and ``SplitAnte=`` annotations were read past."""

    source: str
    documents: Dict[str, CorefUDDocument]
    bridges: int = 0
    split_antecedents: int = 0

    def warnings(self) -> List[str]:
        if not (self.bridges or self.split_antecedents):
            return []
        return [
            f"{self.source}: {self.bridges} Bridge= and {self.split_antecedents} SplitAnte= "
            "annotation(s) read past: only identity coreference (Entity=) is scored"
        ]


def read_conllu(path: PathLike) -> ConlluFile:
    """Read a CorefUD CoNLL-U file (``.gz`` read transparently)."""
    path = Path(path)
    try:
        data = bytes(read_input(path))
    except MemoryError:
        raise CorefInputError(f"{path}: not enough memory to read this file") from None
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    return _FileParser(data, str(path)).parse()


def parse_conllu(text: str, source: str = "<string>") -> ConlluFile:
    """Parse CoNLL-U text; errors name ``source``, the line and the entity."""
    return _FileParser(text.encode("utf8"), source).parse()


def check_aligned(key: CorefUDDocument, response: CorefUDDocument) -> None:
    """Raise :class:`CorefInputError` unless the two documents have the same
    sentences with the same words (empty nodes are not compared, as in the
    CorefUD scorer 1.2). Sentence ids are compared where both files give
    them. The message names the response file, document and the first
    sentence that differs."""
    same_words = key.words == response.words
    same_sentences = np.array_equal(key.sentence_starts, response.sentence_starts)
    same_ids = all(
        k is None or r is None or k == r for k, r in zip(key.sentence_ids, response.sentence_ids)
    )
    if same_words and same_sentences and same_ids:
        return
    for s in range(min(key.n_sentences, response.n_sentences)):
        detail = _sentence_difference(key, response, s)
        if detail:
            raise CorefInputError(
                f"{response.source}:{response.sentence_lines[s]}: document {response.name!r}, "
                f"sentence {s + 1}{_sent_id(response, s)}: {detail} (key: {key.source}:{key.sentence_lines[s]})"
            )
    raise CorefInputError(
        f"{response.source}: document {response.name!r} has {response.n_sentences} sentence(s), "
        f"the key {key.source} has {key.n_sentences}; the first "
        f"{'extra' if response.n_sentences > key.n_sentences else 'missing'} one is sentence "
        f"{min(key.n_sentences, response.n_sentences) + 1}"
    )


def _sent_id(document: CorefUDDocument, s: int) -> str:
    ident = document.sentence_ids[s]
    return f" (sent_id {ident})" if ident is not None else ""


def _sentence_difference(key: CorefUDDocument, response: CorefUDDocument, s: int) -> str:
    k_id, r_id = key.sentence_ids[s], response.sentence_ids[s]
    if k_id is not None and r_id is not None and k_id != r_id:
        return f"sent_id {r_id!r} differs from the key's {k_id!r}"
    k_words = key.words[key.sentence_starts[s]:key.sentence_starts[s + 1]]
    r_words = response.words[response.sentence_starts[s]:response.sentence_starts[s + 1]]
    for i, (k, r) in enumerate(zip(k_words, r_words)):
        if k != r:
            return f"word {i + 1} is {r!r}, the key's is {k!r}"
    if len(k_words) != len(r_words):
        return f"{len(r_words)} word(s), the key's has {len(k_words)}"
    return ""


class _Columns:
    """Columns of a document's words, decoded from the file's bytes on first
    use."""

    def __init__(self, parser: Optional["_FileParser"], starts: np.ndarray, ends: np.ndarray) -> None:
        self.parser = parser
        self.starts = starts
        self.ends = ends
        self.cache: Dict[int, List[str]] = {}

    def get(self, column: int) -> List[str]:
        if column not in self.cache:
            if self.parser is None:
                self.cache[column] = []
            else:
                self.cache[column] = self.parser.column(self.starts[:, column], self.ends[:, column])
        return self.cache[column]


class _Header:
    __slots__ = ("text", "eid", "etype", "head", "line", "splits")

    def __init__(self, text: str, line: int, source: str) -> None:
        fields = text.split("-")
        self.text = text
        self.line = line
        eid = [i for i, f in enumerate(fields) if f in ("eid", "GRP")]
        if not eid:
            raise CorefInputError(f"{source}:{line}: '# global.Entity = {text}' names no eid (or GRP) field")
        self.eid = eid[0]
        etype = [i for i, f in enumerate(fields) if f in ("etype", "entity")]
        self.etype = etype[0] if etype else None
        self.head = fields.index("head") if "head" in fields else None
        self.splits = max(i for i in (self.eid, self.etype, self.head) if i is not None) + 1


class _Sentence:
    __slots__ = ("row", "rows", "line", "sent_id")

    def __init__(self, row: int, rows: int, line: int, sent_id: Optional[str]) -> None:
        self.row = row
        self.rows = rows
        self.line = line
        self.sent_id = sent_id


def _gather(buffer: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> bytes:
    """The byte ranges ``[starts, ends)`` of ``buffer``, each followed by a
    newline, as one bytes object (each range must be followed in
    ``buffer`` by one byte, which is overwritten)."""
    if not len(starts):
        return b""
    out = buffer[range_values(starts, ends + 1)]
    out[np.cumsum(ends + 1 - starts) - 1] = 10
    return out.tobytes()


class _FileParser:
    """The whole file at once: lines, sentences, fields and ``Entity``
    values are found with array operations on the bytes, and strings are
    made only for the columns kept."""

    def __init__(self, data: bytes, source: str) -> None:
        if b"\r" in data:
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        if not data.endswith(b"\n"):
            data += b"\n"
        self.data = data
        self.buffer = np.frombuffer(data, dtype=np.uint8)
        self.source = source
        self.headers: List[Tuple[int, _Header]] = []

    def decode(self, raw: bytes) -> str:
        try:
            return raw.decode("utf8")
        except UnicodeDecodeError as err:
            line = self.data.count(b"\n", 0, self._byte_of(raw, err.start)) + 1
            raise CorefInputError(f"{self.source}:{line}: not UTF-8 text: {err.reason}") from None

    def _byte_of(self, raw: bytes, offset: int) -> int:
        found = self.data.find(raw[max(0, offset - 40):offset + 1])
        return found + min(offset, 40) if found >= 0 else 0

    def column(self, starts: np.ndarray, ends: np.ndarray) -> List[str]:
        text = self.decode(_gather(self.buffer, starts, ends))
        return text.split("\n")[:-1]

    def parse(self) -> ConlluFile:
        buffer = self.buffer
        separators = np.flatnonzero((buffer <= 10) | (buffer == 124))
        kinds = buffer[separators]
        newlines = separators[kinds == 10]
        self.tabs = separators[kinds == 9]
        self.pipes = separators[kinds == 124]
        line_start = np.zeros(len(newlines), dtype=np.int64)
        line_start[1:] = newlines[:-1] + 1
        first = buffer[line_start]
        blank = first == 10
        odd = np.flatnonzero((first == 32) | (first == 9))
        for line in odd.tolist():
            if not self.data[line_start[line]:newlines[line]].strip():
                blank[line] = True
        comment = first == 35
        token = ~(blank | comment)
        inside = np.flatnonzero(comment[1:] & token[:-1])
        if len(inside):
            raise CorefInputError(f"{self.source}:{int(inside[0]) + 2}: comment line inside a sentence "
                                  "(comments precede the token lines of their sentence)")
        token_lines = np.flatnonzero(token)
        self.row_line = token_lines + 1
        previous = np.zeros(len(token), dtype=bool)
        previous[1:] = token[:-1]
        sentence_lines = np.flatnonzero(token & ~previous)
        sentence_rows = np.searchsorted(token_lines, sentence_lines)
        n_rows = len(token_lines)
        row_counts = np.diff(np.append(sentence_rows, n_rows))
        sent_ids, documents = self._comments(comment, line_start, newlines, sentence_lines, token_lines)
        sentences = [
            _Sentence(row, rows, line + 1, sent_ids.get(s))
            for s, (row, rows, line) in enumerate(zip(sentence_rows.tolist(), row_counts.tolist(),
                                                      sentence_lines.tolist()))
        ]
        self._fields(line_start[token_lines], newlines[token_lines])
        self._ids(sentence_rows, row_counts)
        if sentences and (not documents or documents[0][2] > 0):
            documents.insert(0, ("", sentences[0].line, 0))
        documents = [(name or str(index), line, first) for index, (name, line, first) in enumerate(documents, 1)]
        entity_rows, entity_starts, entity_ends = self._misc_items()
        parsed: Dict[str, CorefUDDocument] = {}
        bounds = [first_sentence for _, _, first_sentence in documents[1:]] + [len(sentences)]
        for (name, line, first_sentence), stop in zip(documents, bounds):
            if name in parsed:
                raise CorefInputError(
                    f"{self.source}:{line}: document {name!r} appears twice (first at line {parsed[name].line})"
                )
            parsed[name] = self._document(
                name, line, sentences[first_sentence:stop], entity_rows, entity_starts, entity_ends
            )
        return ConlluFile(self.source, parsed, self.bridges, self.split_antecedents)

    def _comments(self, comment: np.ndarray, line_start: np.ndarray, newlines: np.ndarray,
                  sentence_lines: np.ndarray, token_lines: np.ndarray):
        """Sentence ids by sentence, and documents ``(name, line, first
        sentence)``; records the ``# global.Entity`` headers."""
        buffer = self.buffer
        candidates = np.flatnonzero(comment & (newlines - line_start >= 9))
        prefixes = buffer[line_start[candidates, None] + np.arange(2, 9)]
        is_sent_id = (prefixes == np.frombuffer(b"sent_id", dtype=np.uint8)).all(axis=1)
        other = np.zeros(len(candidates), dtype=bool)
        for prefix in (b"newdoc", b"global."):
            pattern = np.frombuffer(prefix, dtype=np.uint8)
            other |= (prefixes[:, :len(pattern)] == pattern).all(axis=1)
        sent_id_lines = candidates[is_sent_id]
        texts = self.column(line_start[sent_id_lines], newlines[sent_id_lines])
        owners = np.searchsorted(sentence_lines, sent_id_lines).tolist()
        sent_ids: Dict[int, str] = {}
        match = _SENT_ID.match
        for owner, text in zip(owners, texts):
            found = match(text)
            if found:
                sent_ids[owner] = found.group(1)
        others = candidates[other]
        short_newdoc = np.flatnonzero(comment & (newlines - line_start == 8))
        short_newdoc = short_newdoc[
            (buffer[line_start[short_newdoc, None] + np.arange(8)] == np.frombuffer(b"# newdoc", dtype=np.uint8)).all(axis=1)
        ]
        if len(short_newdoc):
            others = np.union1d(others, short_newdoc)
        documents: List[Tuple[str, int, int]] = []
        owners = np.searchsorted(sentence_lines, others).tolist()
        positions = np.searchsorted(token_lines, others).tolist()
        for line, owner, position in zip(others.tolist(), owners, positions):
            text = self.decode(self.data[int(line_start[line]):int(newlines[line])])
            found = _NEWDOC.match(text)
            if found:
                documents.append(((found.group(1) or "").strip(), line + 1, owner))
                continue
            found = _GLOBAL_ENTITY.match(text)
            if found:
                self.headers.append((position, _Header(found.group(1), line + 1, self.source)))
        return sent_ids, documents

    def _fields(self, starts: np.ndarray, ends: np.ndarray) -> None:
        """Byte offsets of the ten fields of every token line: field ``k``
        of row ``r`` is ``[self.field_start[r, k], self.field_end[r, k])``."""
        tabs = self.tabs
        if len(tabs) == 9 * len(starts):
            inner = tabs.reshape(-1, 9)
            if not len(inner) or ((inner[:, 0] > starts).all() and (inner[:, 8] < ends).all()):
                self.field_start = np.column_stack((starts, inner + 1))
                self.field_end = np.column_stack((inner, ends))
                return
        first_tab = np.searchsorted(tabs, starts)
        counts = np.searchsorted(tabs, ends) - first_tab
        bad = np.flatnonzero(counts != 9)
        if len(bad):
            row = int(bad[0])
            raise CorefInputError(f"{self.source}:{int(self.row_line[row])}: {int(counts[row]) + 1} tab-separated "
                                  "field(s), a CoNLL-U token line has 10")
        inner = tabs[first_tab[:, None] + np.arange(9)]
        self.field_start = np.column_stack((starts, inner + 1))
        self.field_end = np.column_stack((inner, ends))

    def _misc_items(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rows with an ``Entity`` attribute in MISC and where its values
        start and end; counts the ``Bridge`` and ``SplitAnte`` (or ``Split``)
        attributes."""
        buffer = self.buffer
        misc_start, misc_end = self.field_start[:, 9], self.field_end[:, 9]
        pipes = self.pipes
        pipe_row = np.searchsorted(misc_start, pipes, "right") - 1
        in_misc = (pipe_row >= 0) & (pipes < misc_end[np.maximum(pipe_row, 0)])
        pipes, pipe_row = pipes[in_misc], pipe_row[in_misc]
        following = np.append(pipes, len(buffer))
        starts = np.concatenate((misc_start, pipes + 1))
        rows = np.concatenate((np.arange(len(misc_start)), pipe_row))
        ends = np.minimum(
            np.concatenate((following[np.searchsorted(pipes, misc_start)], following[1:])), misc_end[rows]
        )
        first = buffer[np.minimum(starts, len(buffer) - 1)]
        wanted = np.flatnonzero((first == ord("E")) | (first == ord("B")) | (first == ord("S")))
        starts, rows, ends = starts[wanted], rows[wanted], ends[wanted]
        heads = buffer[np.minimum(starts[:, None] + np.arange(10), len(buffer) - 1)]

        def having(name: bytes) -> np.ndarray:
            pattern = np.frombuffer(name, dtype=np.uint8)
            return (heads[:, :len(pattern)] == pattern).all(axis=1)

        self.bridges = int(having(b"Bridge=").sum())
        self.split_antecedents = int((having(b"SplitAnte=") | having(b"Split=")).sum())
        entity = np.flatnonzero(having(b"Entity=") & (ends > starts + 7))
        entity = entity[np.argsort(starts[entity], kind="stable")]
        return rows[entity], starts[entity] + 7, ends[entity]

    def _document(self, name: str, line: int, sentences: List[_Sentence], entity_rows: np.ndarray,
                  entity_starts: np.ndarray, entity_ends: np.ndarray):
        if not sentences:
            return _empty_document(name, self.source, line)
        first_row = sentences[0].row
        stop_row = sentences[-1].row + sentences[-1].rows
        starts, ends = self.field_start[first_row:stop_row], self.field_end[first_row:stop_row]
        sentence_rows = [sentence.row - first_row for sentence in sentences]
        plain = self.row_plain[first_row:stop_row]
        lengths = np.add.reduceat(plain.astype(np.int64), sentence_rows).tolist()
        if 0 in lengths:
            raise CorefInputError(f"{self.source}:{sentences[lengths.index(0)].line}: sentence without words")
        multiword: List[int] = []
        empty_rows: List[int] = []
        empty_nodes: List[EmptyNode] = []
        words_before = None
        word_rows: Union[slice, np.ndarray] = slice(None)
        if not plain.all():
            words_before = np.zeros(len(plain) + 1, dtype=np.int64)
            np.cumsum(plain, out=words_before[1:])
            self._special_rows(first_row, sentence_rows, words_before, multiword, empty_rows, empty_nodes)
            word_rows = plain
        n_before = int(sum(lengths))
        sentence_starts = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=sentence_starts[1:])
        word_starts, word_ends = starts[word_rows], ends[word_rows]
        words = self.column(word_starts[:, 1], word_ends[:, 1])
        word_ords = np.arange(1, n_before + 1, dtype=np.int64) - np.repeat(sentence_starts[:-1], lengths)
        reader = _MentionReader(self, name, sentences, first_row, sentence_rows, words_before, set(multiword),
                                dict(zip(empty_rows, range(len(empty_rows)))), empty_nodes)
        lo, hi = np.searchsorted(entity_rows, [first_row, stop_row])
        if hi > lo:
            text = self.decode(_gather(self.buffer, entity_starts[lo:hi], entity_ends[lo:hi]))
            reader.read((entity_rows[lo:hi] - first_row).tolist(), text)
        document = CorefUDDocument(
            name=name,
            source=self.source,
            line=line,
            words=words,
            token_columns=_Columns(self, word_starts, word_ends),
            sentence_starts=sentence_starts,
            sentence_ids=[sentence.sent_id for sentence in sentences],
            sentence_lines=[sentence.line for sentence in sentences],
            word_ords=word_ords,
            empty_nodes=tuple(empty_nodes),
            **reader.columns(),
        )
        return document

    def _ids(self, sentence_rows: np.ndarray, row_counts: np.ndarray) -> None:
        """Check that every integer ID is the next word's number in its
        sentence; note which rows have other IDs (multiword ranges, empty
        nodes: ``row_plain`` false) and each row's next word number
        (``row_expected``)."""
        buffer = self.buffer
        starts, ends = self.field_start[:, 0], self.field_end[:, 0]
        lengths = ends - starts
        width = 7
        chars = buffer[np.minimum(starts[:, None] + np.arange(width), len(buffer) - 1)] - np.uint8(48)
        inside = np.arange(width) < lengths[:, None]
        plain = ((chars <= 9) | ~inside).all(axis=1) & (lengths >= 1) & (lengths <= width)
        value = np.zeros(len(starts), dtype=np.int64)
        for k in range(width):
            more = inside[:, k]
            value[more] = value[more] * 10 + chars[more, k]
        sentence_of_row = np.repeat(np.arange(len(sentence_rows)), row_counts)
        special = np.zeros(len(plain) + 1, dtype=np.int64)
        np.cumsum(~plain, out=special[1:])
        first = sentence_rows[sentence_of_row]
        expected = np.arange(len(plain)) - first - (special[:-1] - special[first]) + 1
        bad = np.flatnonzero(plain & (value != expected))
        if len(bad):
            row = int(bad[0])
            ident = self.decode(self.data[int(starts[row]):int(ends[row])])
            raise CorefInputError(f"{self.source}:{int(self.row_line[row])}: ID {ident} where word "
                                  f"{int(expected[row])} is due")
        self.row_plain = plain
        self.row_expected = expected

    def _special_rows(self, first_row: int, sentence_rows: List[int],
                      words_before: np.ndarray, multiword: List[int], empty_rows: List[int],
                      empty_nodes: List[EmptyNode]) -> None:
        """Check the multiword ranges and empty nodes of a document and note
        where they are (document rows)."""
        rows = np.flatnonzero(~self.row_plain[first_row:first_row + len(words_before) - 1])
        owners = (np.searchsorted(sentence_rows, rows, "right") - 1).tolist()
        absolute = rows + first_row
        idents = self.column(self.field_start[absolute, 0], self.field_end[absolute, 0])
        lines = self.row_line[absolute].tolist()
        expected_words = self.row_expected[absolute].tolist()
        last_empty = (-1, 0, 0)
        for r, s, ident, line, expected in zip(rows.tolist(), owners, idents, lines, expected_words):
            row = first_row + r
            range_match = _RANGE_ID.match(ident)
            if range_match:
                low, high = int(range_match.group(1)), int(range_match.group(2))
                if low != expected or high < low:
                    raise CorefInputError(f"{self.source}:{line}: multiword token {ident} where word {expected} is due")
                multiword.append(r)
                continue
            empty_match = _EMPTY_ID.match(ident)
            if not empty_match:
                raise CorefInputError(f"{self.source}:{line}: ID {ident!r} where word {expected} is due")
            major, minor = int(empty_match.group(1)), int(empty_match.group(2))
            if major != expected - 1 or minor == 0 or (s, major, minor) <= last_empty:
                raise CorefInputError(f"{self.source}:{line}: empty node {ident} out of order (after word {expected - 1})")
            if minor >= 1 << _MINOR_BITS or major >= 1 << _MAJOR_BITS:
                raise CorefInputError(f"{self.source}:{line}: empty node ID {ident} is too large")
            last_empty = (s, major, minor)
            empty_rows.append(r)
            form, deps = (
                self.decode(self.data[int(self.field_start[row, k]):int(self.field_end[row, k])]) for k in (1, 8)
            )
            empty_nodes.append(EmptyNode(s, ident, int(words_before[r]), node_key(s, major, minor), form,
                                         self._deps(deps, s, line), line))

    def _deps(self, text: str, sentence: int, line: int) -> Tuple[Tuple[int, str], ...]:
        if text == "_":
            return ()
        deps = []
        for item in text.split("|"):
            parent, sep, relation = item.partition(":")
            major, dot, minor = parent.partition(".")
            if not sep or not major.isdigit() or (dot and not minor.isdigit()):
                raise CorefInputError(f"{self.source}:{line}: malformed DEPS item {item!r}")
            deps.append((node_key(sentence, int(major), int(minor) if dot else 0), relation))
        return tuple(deps)


def _empty_document(name: str, source: str, line: int) -> CorefUDDocument:
    none = np.zeros(0, dtype=np.int64)
    flags = np.zeros(0, dtype=bool)
    return CorefUDDocument(
        name, source, line, [], _Columns(None, none, none), np.zeros(1, dtype=np.int64), [], [], none, (), (),
        none, none, none, none, flags, flags, none, [],
    )


def _field(parts: List[str], index: Optional[int]) -> Optional[str]:
    """Field ``index`` of an opening chunk split at dashes, if present."""
    return parts[index] if index is not None and index < len(parts) else None


class _MentionReader:
    """Pairs the brackets of one document's ``Entity=`` values.

    Rows are the document's token lines counted from its first one. The
    values are cut into chunks by one regular expression; a loop pairs
    openings and closings per entity (the latest open mention of an entity
    closes first, as in udapi) and the rest is done on arrays."""

    def __init__(self, parser: _FileParser, name: str, sentences: List[_Sentence], first_row: int,
                 sentence_rows: List[int], words_before: Optional[np.ndarray], multiword: Set[int],
                 row_empty: Dict[int, int], empty_nodes: List[EmptyNode]) -> None:
        self.source = parser.source
        self.headers = parser.headers
        self.row_line = parser.row_line
        self.name = name
        self.sentences = sentences
        self.first_row = first_row
        self.sentence_rows = sentence_rows
        self.words_before = words_before
        self.multiword = multiword
        self.row_empty = row_empty
        self.empty_nodes = empty_nodes
        self.entities: Dict[str, int] = {}
        self.start: List[int] = []
        self.end: List[int] = []
        self.entity: List[int] = []
        self.bodies: List[Tuple[List[str], _Header]] = []
        self.last_part: Dict[int, Tuple[List[str], _Header]] = {}
        self.spans: Dict[int, List[List[int]]] = {}
        self.part: Dict[int, Tuple[int, int]] = {}
        self.pending: Dict[str, int] = {}
        self.stacks: Dict[str, List[int]] = {}

    def line_of(self, row: int) -> int:
        return int(self.row_line[self.first_row + row])

    def read(self, rows: List[int], text: str) -> None:
        """Pair the brackets of the ``Entity`` values ``text`` (one a line)
        of ``rows``."""
        if "\0" in text:
            row = rows[text[:text.index("\0")].count("\n")]
            raise CorefInputError(f"{self.source}:{self.line_of(row)}: malformed Entity= value (NUL character)")
        if self.multiword and not self.multiword.isdisjoint(rows):
            row = min(self.multiword.intersection(rows))
            raise CorefInputError(f"{self.source}:{self.line_of(row)}: Entity= on a multiword token line")
        self._pair(rows, text)

    def _malformed(self, rows: List[int], text: str) -> CorefInputError:
        for row, value in zip(rows, text.split("\n")):
            if not _ENTITY_VALUE.fullmatch(value):
                return CorefInputError(f"{self.source}:{self.line_of(row)}: malformed Entity={value}")
        return CorefInputError(f"{self.source}: malformed Entity= value")  # pragma: no cover

    def _header_at(self, row: int) -> Tuple[Optional[_Header], int]:
        """The header in force at ``row`` and the row where the next starts."""
        absolute = row + self.first_row
        chosen = None
        for position, header in self.headers:
            if position <= absolute:
                chosen = header
            else:
                return chosen, position - self.first_row
        return chosen, 1 << 62

    def _pair(self, rows: List[int], text: str) -> None:
        start, end, entity, bodies = self.start, self.end, self.entity, self.bodies
        entities = self.entities
        stacks = self.stacks
        part_of = self.part
        n_rows = len(rows)
        i = 0
        row = rows[0]
        header, next_header = self._header_at(row)
        if header is None:
            raise CorefInputError(f"{self.source}:{self.line_of(row)}: Entity= annotation but no "
                                  "'# global.Entity' header before it")
        eid_i, split = header.eid, header.splits
        pieces = text.replace("(", "\0(").replace(")", ")\0").replace("\n", "\0\n\0").split("\0")
        for chunk in filter(None, pieces):
            first = chunk[0]
            if first == "(":
                single = chunk[-1] == ")"
                parts = (chunk[1:-1] if single else chunk[1:]).split("-", split)
                try:
                    eid = parts[eid_i]
                except IndexError:
                    raise CorefInputError(f"{self.source}:{self.line_of(row)}: Entity chunk {chunk} has no eid "
                                          f"(header {header.text})") from None
                index = entities.get(eid)
                if index is None:
                    if self._rare_opening(eid, parts, row, single, header):
                        continue
                    index = entities[eid]
                seq = len(start)
                start.append(row)
                entity.append(index)
                bodies.append((parts, header))
                if single:
                    end.append(row)
                else:
                    end.append(-1)
                    stack = stacks.get(eid)
                    if stack is None:
                        stacks[eid] = [seq]
                    else:
                        stack.append(seq)
            elif first == "\n":
                i += 1
                if i == n_rows:
                    break
                row = rows[i]
                if row >= next_header:
                    header, next_header = self._header_at(row)
                    eid_i, split = header.eid, header.splits
            elif chunk[-1] == ")" and len(chunk) > 1:
                closing = chunk[:-1]
                stack = stacks.get(closing)
                if stack and (not part_of or stack[-1] not in part_of):
                    end[stack.pop()] = row
                else:
                    self._rare_closing(closing, row)
            else:
                raise self._malformed(rows, text)

    def _rare_opening(self, eid: str, parts: List[str], row: int, single: str, header: _Header) -> bool:
        """Check a new entity id, or open a subspan of a discontinuous
        mention. True when the chunk has been dealt with."""
        if not eid:
            raise CorefInputError(f"{self.source}:{self.line_of(row)}: Entity chunk with an empty eid")
        if eid[-1] != "]":
            if not _FORBIDDEN_IN_EID.isdisjoint(eid):
                raise CorefInputError(f"{self.source}:{self.line_of(row)}: entity id {eid!r} contains a character "
                                      "not allowed in ids")
            self.entities[eid] = len(self.entities)
            return False
        line = self.line_of(row)
        eid, part, total = self._subspan(eid, line)
        if not _FORBIDDEN_IN_EID.isdisjoint(eid):
            raise CorefInputError(f"{self.source}:{line}: entity id {eid!r} contains a character not allowed in ids")
        if eid not in self.entities:
            self.entities[eid] = len(self.entities)
        stack = self.stacks.setdefault(eid, [])
        if part == 1:
            if eid in self.pending:
                raise CorefInputError(f"{self.source}:{line}: entity {eid}: a discontinuous mention opens before the "
                                      "last subspan of the previous one")
            seq = len(self.start)
            self.start.append(row)
            self.end.append(-1)
            self.entity.append(self.entities[eid])
            self.bodies.append((parts, header))
            self.spans[seq] = [[row, -1]]
            if total > 1:
                self.pending[eid] = seq
        else:
            seq = self.pending.get(eid, -1)
            if seq < 0 or self.part[seq] != (part - 1, total) or self.spans[seq][-1][1] < 0:
                raise CorefInputError(
                    f"{self.source}:{line}: entity {eid}: subspan [{part}/{total}] opens, but no discontinuous "
                    f"mention of {eid} has its subspan [{part - 1}/{total}] read and closed"
                )
            self.spans[seq].append([row, -1])
            self.last_part[seq] = (parts, header)
            if part == total:
                del self.pending[eid]
        self.part[seq] = (part, total)
        stack.append(seq)
        if single:
            self._close_subspan(eid, part, row, line)
        return True

    def _rare_closing(self, body: str, row: int) -> None:
        line = self.line_of(row)
        if body[-1] == "]":
            eid, part, _ = self._subspan(body, line)
            self._close_subspan(eid, part, row, line)
            return
        if "-" in body or not _FORBIDDEN_IN_EID.isdisjoint(body):
            raise CorefInputError(f"{self.source}:{line}: malformed closing bracket {body})")
        stack = self.stacks.get(body)
        if not stack:
            raise CorefInputError(f"{self.source}:{line}: entity {body}: a mention closes here that was never opened")
        part, total = self.part[stack[-1]]
        raise CorefInputError(f"{self.source}:{line}: entity {body}: {body}) closes the open subspan "
                              f"{body}[{part}/{total}] (close it with {body}[{part}/{total}]))")

    def _close_subspan(self, eid: str, part: int, row: int, line: int) -> None:
        stack = self.stacks.get(eid)
        if not stack:
            raise CorefInputError(f"{self.source}:{line}: entity {eid}: a mention closes here that was never opened")
        seq = stack[-1]
        if self.part.get(seq, (0, 0))[0] != part:
            raise CorefInputError(f"{self.source}:{line}: entity {eid}: subspan {eid}[{part}/..]) does not close the "
                                  f"innermost open mention of {eid} (opened at line {self.line_of(self.start[seq])})")
        stack.pop()
        self.spans[seq][-1][1] = row
        if part == self.part[seq][1]:
            self.end[seq] = row

    def _subspan(self, eid: str, line: int) -> Tuple[str, int, int]:
        match = _SUBSPAN.match(eid)
        if not match:
            raise CorefInputError(f"{self.source}:{line}: malformed discontinuous mention id {eid!r} (e.g. e1[1/2])")
        part, total = int(match.group(2)), int(match.group(3))
        if not 1 <= part <= total:
            raise CorefInputError(f"{self.source}:{line}: subspan {eid!r}: the part must lie in 1..number of parts")
        return match.group(1), part, total

    def columns(self) -> Dict[str, object]:
        n = len(self.start)
        starts = np.array(self.start, dtype=np.int64)
        ends = np.array(self.end, dtype=np.int64)
        entity_ids = tuple(self.entities)
        if n and ends.min() < 0:
            m = int(np.argmax(ends < 0))
            if m in self.part and self.spans[m][-1][1] >= 0:
                part, total = self.part[m]
                raise CorefInputError(
                    f"{self.source}:{self.line_of(self.start[m])}: discontinuous mention of entity "
                    f"{entity_ids[self.entity[m]]} opened here has {part} of its {total} subspans (document {self.name!r})"
                )
            raise CorefInputError(f"{self.source}:{self.line_of(self.start[m])}: mention of entity "
                                  f"{entity_ids[self.entity[m]]} opened here is never closed (document {self.name!r})")
        sentence_rows = np.array(self.sentence_rows, dtype=np.int64)
        crossing = np.searchsorted(sentence_rows, starts, "right") != np.searchsorted(sentence_rows, ends, "right")
        if crossing.any():
            m = int(np.argmax(crossing))
            raise CorefInputError(
                f"{self.source}:{self.line_of(self.start[m])}: mention of entity {entity_ids[self.entity[m]]} "
                f"opened here closes at line {self.line_of(self.end[m])}, in another sentence; CorefUD mentions "
                f"lie within one sentence (document {self.name!r})"
            )
        etypes = [_field(parts, header.etype) for parts, header in self.bodies]
        heads = self._head_numbers()
        lines = self.row_line[self.first_row + starts] if n else np.zeros(0, dtype=np.int64)
        zero = np.zeros(n, dtype=bool)
        contiguous = np.ones(n, dtype=bool)
        words_of: Dict[int, Tuple[int, ...]] = {}
        empty_of: Dict[int, Tuple[int, ...]] = {}
        if self.words_before is None:
            word_start, word_end = starts, ends + 1
            special = list(self.spans)
        else:
            word_start, word_end = self.words_before[starts], self.words_before[ends + 1]
            special = sorted(set(self.spans) | set(self._with_empty_nodes(starts, ends)))
        nodes = word_end - word_start
        head_words = word_start + heads - 1
        for m in special:
            words, empties, head, is_zero, n_nodes = self._node_sets(m, int(heads[m]))
            nodes[m] = n_nodes
            if m in self.spans:
                contiguous[m] = False
                words_of[m] = words
            if empties:
                empty_of[m] = empties
            word_start[m] = words[0] if words else self.empty_nodes[empties[0]].after
            word_end[m] = words[-1] + 1 if words else word_start[m]
            head_words[m] = head
            zero[m] = is_zero
        bad = (heads < 1) | (heads > nodes)
        if bad.any():
            m = int(np.argmax(bad))
            raise CorefInputError(
                f"{self.source}:{lines[m]}: entity {entity_ids[self.entity[m]]}: head index {heads[m]} outside the "
                f"mention's {nodes[m]} node(s) (document {self.name!r})"
            )
        return dict(
            entities=entity_ids,
            mention_entity=np.array(self.entity, dtype=np.int64),
            mention_start=word_start,
            mention_end=word_end,
            mention_head=head_words,
            mention_zero=zero,
            mention_contiguous=contiguous,
            mention_line=lines,
            mention_etype=etypes,
            mention_words=words_of,
            mention_empty=empty_of,
        )

    def _head_numbers(self) -> np.ndarray:
        """The head field of every mention (of its last subspan's opening),
        1 where there is none."""
        if all(header.head is None for _, header in self.bodies):
            return np.ones(len(self.bodies), dtype=np.int64)
        numbers = []
        for m, (parts, header) in enumerate(self.bodies):
            if m in self.last_part:
                parts, header = self.last_part[m]
            value = _field(parts, header.head)
            if value is None:
                numbers.append(1)
                continue
            try:
                numbers.append(int(value))
            except ValueError:
                raise CorefInputError(
                    f"{self.source}:{self.line_of(self.start[m])}: entity {tuple(self.entities)[self.entity[m]]}: "
                    f"head index {value!r} is not a number"
                ) from None
        return np.array(numbers, dtype=np.int64)

    def _with_empty_nodes(self, starts: np.ndarray, ends: np.ndarray) -> List[int]:
        if not self.row_empty:
            return []
        empty_rows = np.array(sorted(self.row_empty), dtype=np.int64)
        inside = np.searchsorted(empty_rows, ends, "right") - np.searchsorted(empty_rows, starts, "left")
        return np.flatnonzero(inside > 0).tolist()

    def _node_sets(self, m: int, head: int) -> Tuple[Tuple[int, ...], Tuple[int, ...], int, bool, int]:
        """Words, empty nodes, head (word or empty node), whether the head
        is an empty node, and the number of nodes of mention ``m``."""
        spans = self.spans.get(m, [[self.start[m], self.end[m]]])
        rows = [r for a, b in spans for r in range(a, b + 1)]
        if self.words_before is None:
            if not 1 <= head <= len(rows):
                return tuple(rows), (), -1, False, len(rows)
            return tuple(rows), (), rows[head - 1], False, len(rows)
        before = self.words_before
        empty = self.row_empty
        nodes = [(r in empty, empty[r] if r in empty else int(before[r])) for r in rows if r not in self.multiword]
        words = tuple(index for is_empty, index in nodes if not is_empty)
        empties = tuple(index for is_empty, index in nodes if is_empty)
        if not 1 <= head <= len(nodes):
            return words, empties, -1, False, len(nodes)
        is_zero, head_index = nodes[head - 1]
        return words, empties, head_index, is_zero, len(nodes)
