"""The CoNLL-U line parser: lines, sentences, fields, IDs, comments and
``Entity=`` values of a whole file found with array operations on its
bytes; documents built from them (docs/formats.md, CorefUD CoNLL-U)."""
import re
from typing import Dict, List, Optional, Tuple, Union

import numpy as np

from ...arrays import range_values
from ...errors import CorefInputError
from .document import MAJOR_BITS, MINOR_BITS, ConlluFile, CorefUDDocument, EmptyNode, TokenColumns, empty_document, node_key
from .entities import DocumentLayout, EntityHeader, MentionReader

_NEWDOC = re.compile(r"^# newdoc(?:\s+id\s*=\s*(.+))?$")
_SENT_ID = re.compile(r"^# sent_id\s*=?\s*(\S+)")
_GLOBAL_ENTITY = re.compile(r"^# global\.Entity\s*=\s*(\S+)")
_EMPTY_ID = re.compile(r"^(\d+)\.(\d+)$")
_RANGE_ID = re.compile(r"^(\d+)-(\d+)$")


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


class FileParser:
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
        self.headers: List[Tuple[int, EntityHeader]] = []

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
                self.headers.append((position, EntityHeader(found.group(1), line + 1, self.source)))
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
            return empty_document(name, self.source, line)
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
        reader = MentionReader(DocumentLayout(
            self.source, name, self.headers, self.row_line, first_row, sentence_rows, words_before, set(multiword),
            dict(zip(empty_rows, range(len(empty_rows)))), empty_nodes,
        ))
        lo, hi = np.searchsorted(entity_rows, [first_row, stop_row])
        if hi > lo:
            text = self.decode(_gather(self.buffer, entity_starts[lo:hi], entity_ends[lo:hi]))
            reader.read((entity_rows[lo:hi] - first_row).tolist(), text)
        document = CorefUDDocument(
            name=name,
            source=self.source,
            line=line,
            words=words,
            token_columns=TokenColumns(self.column, word_starts, word_ends),
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
            if minor >= 1 << MINOR_BITS or major >= 1 << MAJOR_BITS:
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
