"""The CoNLL-U line parser: lines, sentences, fields, IDs, comments and
``Entity=`` values of a whole file found with array operations on its
bytes; documents built from them (docs/formats.md, CorefUD CoNLL-U)."""

import re
from collections.abc import Iterable
from itertools import chain
from typing import Optional, Union

import numpy as np

from ...arrays import lexsort
from ...errors import CorefInputError
from .document import MAJOR_BITS, MINOR_BITS, ConlluFile, CorefUDDocument, EmptyNode, TokenColumns, empty_document, node_key
from .entities import DocumentLayout, EntityHeader, MentionReader
from .vectorised import any_of, begins, byte_words, gather_lines, numbers, starts_with, strings

NEWDOC = re.compile(r"^# newdoc(?:\s+id\s*=\s*(.+))?$")
_SENT_IDS = re.compile(r"^# sent_id(?:[^\S\n]*=?[^\S\n]*(\S+))?", re.MULTILINE)
r"""``# sent_id`` lines, one a line, each matched at its start: the id is
what ``^# sent_id\s*=?\s*(\S+)`` matches in the line alone, or empty."""
_GLOBAL_ENTITY = re.compile(r"^# global\.Entity\s*=\s*(\S+)")


def ids_per_document(global_entity: Iterable[str]) -> bool:
    """Whether a file's ``# global.Entity`` lines declare ``GRP`` entity
    ids, which udapi makes unique within a document, so that the order of
    a document's entities depends on that document alone (docs/corefud.md §8)."""
    return any("GRP" in line for line in global_entity)


_EMPTY_ID = re.compile(r"^(\d+)\.(\d+)$")
_RANGE_ID = re.compile(r"^(\d+)-(\d+)$")
_NL, _TAB, _DASH, _PIPE = 10, 9, 45, 124
_ATTRIBUTE_INITIALS = b"EBS"
"""The first bytes of the MISC attributes read: ``Entity=``, ``Bridge=``,
``Split=`` and ``SplitAnte=``."""
_MAX_ID_DIGITS = 7
"""Longer IDs are not words (a sentence has fewer than 10 million)."""


class FileParser:
    """The whole file at once: lines, sentences, fields and ``Entity``
    values are found with array operations on the bytes, and strings are
    made only for the columns kept. The brackets of each document are
    paired by :class:`~.entities.MentionReader`, which also explains what
    is wrong."""

    def __init__(self, data: Union[bytes, bytearray], source: str, seen: Optional[dict[str, int]] = None) -> None:
        if b"\r" in data:
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        if not data.endswith(b"\n"):
            data += b"\n"
        self.data = data
        self.buffer = np.frombuffer(data, dtype=np.uint8)
        self.words8 = byte_words(data)
        self.source = source
        self.seen = seen
        self.headers: list[tuple[int, EntityHeader]] = []

    def decode(self, raw: Union[bytes, bytearray]) -> str:
        try:
            return raw.decode("utf8")
        except UnicodeDecodeError as err:
            line = self.data.count(b"\n", 0, self._byte_of(raw, err.start)) + 1
            raise CorefInputError(f"{self.source}:{line}: not UTF-8 text: {err.reason}") from None

    def _byte_of(self, raw: Union[bytes, bytearray], offset: int) -> int:
        found = self.data.find(raw[max(0, offset - 40) : offset + 1])
        return found + min(offset, 40) if found >= 0 else 0

    def column(self, starts: np.ndarray, ends: np.ndarray) -> list[str]:
        text = self.decode(gather_lines(self.buffer, starts, ends))
        return text.split("\n")[:-1]

    def parse(self) -> ConlluFile:
        buffer = self.buffer
        separators = np.flatnonzero((buffer <= _NL) | (buffer == _PIPE))
        kinds = buffer[separators]
        newlines = separators[kinds == _NL]
        self.tabs = separators[kinds == _TAB]
        self.pipes = separators[kinds == _PIPE]
        line_start = np.zeros(len(newlines), dtype=np.int64)
        line_start[1:] = newlines[:-1] + 1
        first = buffer[line_start]
        blank = first == 10
        odd = np.flatnonzero((first == 32) | (first == 9))
        for line in odd.tolist():
            if not self.data[line_start[line] : newlines[line]].strip():
                blank[line] = True
        comment = first == 35
        token = ~(blank | comment)
        inside = np.flatnonzero(comment[1:] & token[:-1])
        if len(inside):
            raise CorefInputError(
                f"{self.source}:{int(inside[0]) + 2}: comment line inside a sentence (comments precede the token lines of their sentence)"
            )
        token_lines = np.flatnonzero(token)
        self.row_line = token_lines + 1
        previous = np.zeros(len(token), dtype=bool)
        previous[1:] = token[:-1]
        sentence_lines = np.flatnonzero(token & ~previous)
        sentence_rows = np.searchsorted(token_lines, sentence_lines)
        n_rows = len(token_lines)
        row_counts = np.diff(np.append(sentence_rows, n_rows))
        n_sentences = len(sentence_rows)
        self.sentence_ids, documents = self._comments(comment, line_start, newlines, sentence_lines=sentence_lines, token_lines=token_lines)
        self.sentence_rows = np.append(sentence_rows, n_rows)
        self.sentence_lines = (sentence_lines + 1).tolist()
        self._fields(line_start[token_lines], newlines[token_lines])
        self._ids(sentence_rows, row_counts)
        if n_sentences and (not documents or documents[0][2] > 0):
            documents.insert(0, ("", self.sentence_lines[0], 0))
        documents = [(name or str(index), line, first) for index, (name, line, first) in enumerate(documents, 1)]
        self.words_before = np.zeros(n_rows + 1, dtype=np.int64)
        np.cumsum(self.row_plain, out=self.words_before[1:])
        self.sentence_words = np.diff(self.words_before[self.sentence_rows])
        self._entity_values()
        self.words = self._all_words()
        document_sentences = [first for _, _, first in documents] + [n_sentences]
        document_rows = self.sentence_rows[document_sentences]
        self._cut(document_sentences, document_rows)
        parsed: dict[str, CorefUDDocument] = {}
        for d, ((name, line, first_sentence), stop) in enumerate(zip(documents, document_sentences[1:])):
            if name in parsed:
                raise CorefInputError(f"{self.source}:{line}: document {name!r} appears twice (first at line {parsed[name].line})")
            parsed[name] = self._document(d, name, line, first_sentence=first_sentence, stop_sentence=stop)
        _entities_in_file_order(parsed, self.per_document, self.seen)
        return ConlluFile(self.source, parsed, self.bridges, self.split_antecedents)

    def _cut(self, document_sentences: list[int], document_rows: np.ndarray) -> None:
        """Where what :meth:`_document` reads of each document lies, found
        for every document at once (``document_sentences`` and
        ``document_rows``: the first sentence and row of each, then their
        numbers): its rows and words, its multiword ranges
        (``multiword_rows``), other rows that are not words
        (``other_rows``), sentences without words (``wordless``),
        ``Entity=`` values and ``SplitAnte=`` links."""
        self.multiword_rows = np.flatnonzero(self.row_multiword)
        self.other_rows = np.flatnonzero(~self.row_plain & ~self.row_multiword)
        self.wordless = np.flatnonzero(self.sentence_words == 0)
        self.cuts = [
            document_rows.tolist(),
            self.words_before[document_rows].tolist(),
            np.searchsorted(self.wordless, document_sentences).tolist(),
        ]
        self.cuts += [
            np.searchsorted(rows, document_rows).tolist()
            for rows in (self.multiword_rows, self.other_rows, self.entity_rows, self.split_rows)
        ]

    @property
    def per_document(self) -> bool:
        """Whether entity ids are ``GRP``, which udapi makes document-unique
        (docs/corefud.md §8)."""
        return ids_per_document(header.text for _, header in self.headers)

    def _comments(
        self, comment: np.ndarray, line_start: np.ndarray, newlines: np.ndarray, *, sentence_lines: np.ndarray, token_lines: np.ndarray
    ):
        """The ``# sent_id`` of every sentence (``None`` without one), and
        documents ``(name, line, first sentence)``; records the
        ``# global.Entity`` headers."""
        words = self.words8
        candidates = np.flatnonzero(comment & (newlines - line_start >= 9))
        starts = line_start[candidates]
        heads = words[starts + 10]
        sent_id_lines = candidates[begins(heads, b"sent_id") & (self.buffer[starts + 1] == ord(" "))]
        other = begins(heads, b"newdoc") | begins(heads, b"global.")
        found = self._sentence_ids(line_start[sent_id_lines], newlines[sent_id_lines])
        owners = np.searchsorted(sentence_lines, sent_id_lines)
        ids = np.full(len(sentence_lines) + 1, None, dtype=object)
        given = np.flatnonzero(found != "")
        owners = owners[given]
        last = np.append(owners[1:] != owners[:-1], True)[: len(owners)]
        ids[owners[last]] = found[given[last]]
        sent_ids: list[Optional[str]] = ids.tolist()
        others = candidates[other]
        short_newdoc = np.flatnonzero(comment & (newlines - line_start == 8))
        short_newdoc = short_newdoc[starts_with(words, line_start[short_newdoc], b"# newdoc")]
        if len(short_newdoc):
            others = np.sort(np.concatenate((others, short_newdoc)))
        documents: list[tuple[str, int, int]] = []
        owners = np.searchsorted(sentence_lines, others).tolist()
        positions = np.searchsorted(token_lines, others).tolist()
        for line, owner, position in zip(others.tolist(), owners, positions):
            text = self.decode(self.data[int(line_start[line]) : int(newlines[line])])
            match = NEWDOC.match(text)
            if match:
                documents.append(((match.group(1) or "").strip(), line + 1, owner))
                continue
            match = _GLOBAL_ENTITY.match(text)
            if match:
                self.headers.append((position, EntityHeader(match.group(1), line + 1, self.source)))
        return sent_ids[:-1], documents

    def _sentence_ids(self, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """What :data:`_SENT_IDS` finds in each ``# sent_id`` line from
        ``starts`` to ``ends`` (empty without an id). The lines
        ``# sent_id = ID`` whose ID is printable ASCII are cut on arrays;
        only the others are decoded (and so checked as UTF-8)."""
        text = np.frombuffer(gather_lines(self.buffer, starts, ends), dtype=np.uint8)
        stops = np.cumsum(ends + 1 - starts) - 1
        begins_at = stops - (ends - starts)
        plain = starts_with(self.words8, starts, b"# sent_id = ") & (ends - starts > 12)
        unprintable = np.flatnonzero((text < 0x21) | (text > 0x7E))
        plain &= np.searchsorted(unprintable, begins_at + 12) == np.searchsorted(unprintable, stops)
        found = np.empty(len(starts), dtype=object)
        cut, matched = np.flatnonzero(plain), np.flatnonzero(~plain)
        found[cut] = np.array(strings(text, begins_at[cut] + 12, stops[cut]), dtype=object)
        if len(matched):
            lines = self.decode(gather_lines(text, begins_at[matched], stops[matched]))
            found[matched] = np.array(_SENT_IDS.findall(lines), dtype=object)
        return found

    def _fields(self, starts: np.ndarray, ends: np.ndarray) -> None:
        """The tabs of every token line (``row_tabs``, nine a row), which
        with its start and end (``row_start``, ``row_end``) bound its ten
        fields (:meth:`field`)."""
        tabs = self.tabs
        self.row_start, self.row_end = starts, ends
        if len(tabs) == 9 * len(starts):
            inner = tabs.reshape(-1, 9)
            if not len(inner) or ((inner[:, 0] > starts).all() and (inner[:, 8] < ends).all()):
                self.row_tabs = inner
                return
        first_tab = np.searchsorted(tabs, starts)
        counts = np.searchsorted(tabs, ends) - first_tab
        bad = np.flatnonzero(counts != 9)
        if len(bad):
            row = int(bad[0])
            raise CorefInputError(
                f"{self.source}:{int(self.row_line[row])}: {int(counts[row]) + 1} tab-separated field(s), a CoNLL-U token line has 10"
            )
        self.row_tabs = tabs[first_tab[:, None] + np.arange(9)]

    def field(self, k: int, rows: Union[slice, np.ndarray] = slice(None)) -> tuple[np.ndarray, np.ndarray]:
        """Where field ``k`` (0 to 9) of each of ``rows`` starts and ends."""
        start = self.row_start[rows] if k == 0 else self.row_tabs[rows, k - 1] + 1
        return start, self.row_end[rows] if k == 9 else self.row_tabs[rows, k]

    def _entity_values(self) -> None:
        """The ``Entity`` values in MISC (``entity_text``: each followed by a
        newline, the ``k``-th from ``entity_offsets[k]``, on row
        ``entity_rows[k]``); counts the ``Bridge`` and ``SplitAnte`` (or
        ``Split``) attributes. An attribute starts MISC or follows a ``|``
        in it."""
        buffer = self.buffer
        misc_start, misc_end = self.field(9)
        pipes = self.pipes
        pipes = pipes[any_of(buffer[pipes + 1], _ATTRIBUTE_INITIALS)]
        pipe_row = np.searchsorted(misc_start, pipes, "right") - 1
        in_misc = (pipe_row >= 0) & (pipes < misc_end[np.maximum(pipe_row, 0)])
        pipes = pipes[in_misc]
        starts = np.concatenate((misc_start, pipes + 1))
        rows = np.concatenate((np.arange(len(misc_start)), pipe_row[in_misc]))
        first = buffer[np.minimum(starts, len(buffer) - 1)]
        named = any_of(first, _ATTRIBUTE_INITIALS)
        starts, rows = starts[named], rows[named]
        heads = self.words8[starts + 8]
        self.bridges = int(begins(heads, b"Bridge=").sum())
        split = begins(heads, b"Split=")
        split_ante = np.flatnonzero(begins(heads, b"SplitAnt"))
        split[split_ante] = starts_with(self.words8, starts[split_ante] + 8, b"e=")
        self.split_antecedents = int(split.sum())
        self._split_values(starts, rows, split, split_ante=split_ante, misc_end=misc_end)
        entity = begins(heads, b"Entity=")
        order = np.argsort(starts[entity], kind="stable")
        starts, rows = starts[entity][order] + 7, rows[entity][order]
        ends = np.minimum(np.append(self.pipes, len(buffer))[np.searchsorted(self.pipes, starts)], misc_end[rows])
        kept = ends > starts
        starts, ends, self.entity_rows = starts[kept], ends[kept], rows[kept]
        self.entity_text = np.frombuffer(gather_lines(buffer, starts, ends), dtype=np.uint8)
        self.entity_offsets = np.zeros(len(starts) + 1, dtype=np.int64)
        np.cumsum(ends + 1 - starts, out=self.entity_offsets[1:])

    def _split_values(
        self, starts: np.ndarray, rows: np.ndarray, split: np.ndarray, *, split_ante: np.ndarray, misc_end: np.ndarray
    ) -> None:
        """The ``SplitAnte=`` values (``Split=`` where a row has no
        ``SplitAnte=``, as udapi reads them) as ``(row, text)``, by row."""
        ante = np.zeros(len(split), dtype=bool)
        ante[split_ante] = split[split_ante]
        has_ante = np.zeros(len(self.row_start), dtype=bool)
        has_ante[rows[ante]] = True
        chosen = np.flatnonzero(split)
        chosen = chosen[ante[chosen] | ~has_ante[rows[chosen]]]
        begin = starts[chosen] + np.where(ante[chosen], 10, 6)
        end = np.minimum(np.append(self.pipes, len(self.buffer))[np.searchsorted(self.pipes, begin)], misc_end[rows[chosen]])
        order = np.argsort(begin, kind="stable")
        self.split_rows = rows[chosen][order]
        self.split_texts = [self.decode(self.data[b:e]) for b, e in zip(begin[order].tolist(), end[order].tolist())]

    def _split_antecedents(self, name: str, lo: int, hi: int) -> tuple[tuple[str, str, int], ...]:
        """The ``SplitAnte=`` links ``lo`` to ``hi`` (those of one document);
        a value that is not ``ANTE<PLURAL,...`` with two different entity
        ids is refused, naming the line."""
        out = []
        for row, text in zip(self.split_rows[lo:hi].tolist(), self.split_texts[lo:hi]):
            line = int(self.row_line[row])
            for link in text.split(","):
                ante, less, plural = link.partition("<")
                if not less or not ante or not plural or "<" in plural:
                    raise CorefInputError(
                        f"{self.source}:{line}: document {name!r}: SplitAnte link {link!r} is not ANTECEDENT<PLURAL (two entity ids)"
                    )
                if ante == plural:
                    raise CorefInputError(
                        f"{self.source}:{line}: document {name!r}: SplitAnte={link}: entity {ante} is its own split antecedent"
                    )
                out.append((ante, plural, line))
        return tuple(out)

    def _all_words(self) -> Optional[list[str]]:
        """Every word of the file, or ``None`` when they are not all UTF-8
        (each document then decodes its own, naming the line at fault)."""
        rows = np.flatnonzero(self.row_plain)
        try:
            text = gather_lines(self.buffer, *self.field(1, rows)).decode("utf8")
        except UnicodeDecodeError:
            return None
        return text.split("\n")[:-1]

    def _document(self, d: int, name: str, line: int, *, first_sentence: int, stop_sentence: int) -> CorefUDDocument:
        """Document ``d``, of sentences ``first_sentence`` to ``stop_sentence``
        (excluded), its brackets paired by the state machine."""
        if first_sentence == stop_sentence:
            return empty_document(name, self.source, line)
        (
            (first_row, first_word, wordless, multiword_lo, other_lo, entity_lo, split_lo),
            (stop_row, stop_word, wordless_hi, multiword_hi, other_hi, entity_hi, split_hi),
        ) = ([cut[d] for cut in self.cuts], [cut[d + 1] for cut in self.cuts])
        if wordless < wordless_hi:
            raise CorefInputError(f"{self.source}:{self.sentence_lines[int(self.wordless[wordless])]}: sentence without words")
        sentence_rows = (self.sentence_rows[first_sentence:stop_sentence] - first_row).tolist()
        sentence_lines = self.sentence_lines[first_sentence:stop_sentence]
        multiword: list[int] = []
        empty_rows: list[int] = []
        empty_nodes: list[EmptyNode] = []
        words_before = None
        all_words = multiword_lo == multiword_hi and other_lo == other_hi
        if not all_words:
            words_before = self.words_before[first_row : stop_row + 1] - self.words_before[first_row]
            multiword.extend((self.multiword_rows[multiword_lo:multiword_hi] - first_row).tolist())
            self._special_rows(
                first_row,
                sentence_rows,
                words_before,
                rows=self.other_rows[other_lo:other_hi] - first_row,
                multiword=multiword,
                empty_rows=empty_rows,
                empty_nodes=empty_nodes,
            )
        sentence_starts = self.words_before[self.sentence_rows[first_sentence : stop_sentence + 1]]
        sentence_starts -= first_word

        def token_column(k: int) -> list[str]:
            rows = slice(first_row, stop_row) if all_words else first_row + np.flatnonzero(self.row_plain[first_row:stop_row])
            return self.column(*self.field(k, rows))

        words = token_column(1) if self.words is None else self.words[first_word:stop_word]
        reader = MentionReader(
            DocumentLayout(
                self.source,
                name,
                self.headers,
                self.row_line,
                first_row,
                sentence_rows,
                words_before,
                set(multiword),
                dict(zip(empty_rows, range(len(empty_rows)))),
                empty_nodes,
            )
        )
        if entity_hi > entity_lo:
            text = self.decode(self.entity_text[self.entity_offsets[entity_lo] : self.entity_offsets[entity_hi]].tobytes())
            reader.read((self.entity_rows[entity_lo:entity_hi] - first_row).tolist(), text)
        mentions = reader.columns()
        return CorefUDDocument(
            name=name,
            source=self.source,
            line=line,
            words=words,
            token_columns=TokenColumns(token_column),
            sentence_starts=sentence_starts,
            sentence_ids=self.sentence_ids[first_sentence:stop_sentence],
            sentence_lines=sentence_lines,
            word_ords=self.word_ords[first_word:stop_word],
            empty_nodes=tuple(empty_nodes),
            **mentions,
            split_antecedents=self._split_antecedents(name, split_lo, split_hi),
        )

    def _ids(self, sentence_rows: np.ndarray, row_counts: np.ndarray) -> None:
        """Check that every integer ID is the next word's number in its
        sentence; note which rows have other IDs (multiword ranges, empty
        nodes: ``row_plain`` false), which of those are multiword ranges
        that start at the next word (``row_multiword``; longer ones than
        8 bytes are left to :meth:`_special_rows`), and each row's next
        word number (``row_expected``)."""
        starts, ends = self.field(0)
        value, plain = numbers(self.words8, starts, ends)
        plain &= ends - starts <= _MAX_ID_DIGITS
        row_sentence = np.repeat(np.arange(len(sentence_rows)), row_counts)
        special = np.zeros(len(plain) + 1, dtype=np.int64)
        np.cumsum(~plain, out=special[1:])
        first = sentence_rows[row_sentence]
        expected = np.arange(len(plain)) - first - (special[:-1] - special[first]) + 1
        bad = np.flatnonzero(plain & (value != expected))
        if len(bad):
            row = int(bad[0])
            ident = self.decode(self.data[int(starts[row]) : int(ends[row])])
            raise CorefInputError(f"{self.source}:{int(self.row_line[row])}: ID {ident} where word {int(expected[row])} is due")
        self.row_plain = plain
        self.row_expected = expected
        self.word_ords = value[plain]
        others = np.flatnonzero(~plain)
        window = self.words8[starts[others] + 8].view(np.uint8).reshape(-1, 8)
        dash = (window == _DASH) & (np.arange(8) < (ends - starts)[others, None])
        looks_like_range = dash.any(axis=1)
        ranges = others[looks_like_range]
        middle = starts[ranges] + np.argmax(dash[looks_like_range], axis=1)
        low, low_plain = numbers(self.words8, starts[ranges], middle)
        high, high_plain = numbers(self.words8, middle + 1, ends[ranges])
        well_formed = low_plain & high_plain & (low == expected[ranges]) & (high >= low)
        self.row_multiword = np.zeros(len(plain), dtype=bool)
        self.row_multiword[ranges[well_formed]] = True

    def _special_rows(
        self,
        first_row: int,
        sentence_rows: list[int],
        words_before: np.ndarray,
        *,
        rows: np.ndarray,
        multiword: list[int],
        empty_rows: list[int],
        empty_nodes: list[EmptyNode],
    ) -> None:
        """Check the ``rows`` of a document that are neither words nor
        well-formed multiword ranges (document rows): multiword ranges and
        empty nodes; note where they are."""
        if not len(rows):
            return
        owners = (np.searchsorted(sentence_rows, rows, "right") - 1).tolist()
        absolute = rows + first_row
        idents = self.column(*self.field(0, absolute))
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
            form, deps = (self.decode(self.data[slice(*map(int, self.field(k, row)))]) for k in (1, 8))
            empty_nodes.append(
                EmptyNode(s, ident, int(words_before[r]), node_key(s, major, minor), form=form, deps=self._deps(deps, s, line), line=line)
            )

    def _deps(self, text: str, sentence: int, line: int) -> tuple[tuple[int, str], ...]:
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


def _entities_in_file_order(
    documents: dict[str, CorefUDDocument], per_document: bool = False, seen: Optional[dict[str, int]] = None
) -> None:
    """Order each document's entities as udapi does (docs/corefud.md §2):
    by their first mention in the whole file, mentions compared by first
    node, then more nodes first, then last word, then eid. An eid used in
    an earlier document therefore comes first, unless the ids are ``GRP``
    (``per_document``), which udapi prefixes with the document's number.
    ``seen`` ranks the eids of documents before these (read apart,
    docs/streaming.md §3): each comes before every eid first mentioned
    here, in the order of its rank. The entities of every document are
    sorted at once, document first; only the documents whose order
    changes are rewritten."""
    with_entities = [document for document in documents.values() if document.entities]
    if not with_entities:
        return
    entity_bounds = np.zeros(len(with_entities) + 1, dtype=np.int64)
    np.cumsum([len(document.entities) for document in with_entities], out=entity_bounds[1:])
    eids = list(chain.from_iterable(document.entities for document in with_entities))
    keys = _first_mention_keys(with_entities, entity_bounds)
    if not per_document:
        index: dict[str, int] = {}
        codes = np.array([index.setdefault(eid, len(index)) for eid in eids], dtype=np.int64)
        order = lexsort((keys[:, 2], keys[:, 1], keys[:, 0], codes))
        first = order[np.r_[True, codes[order][1:] != codes[order][:-1]]]
        in_file = np.empty((len(index), 3), dtype=np.int64)
        in_file[codes[first]] = keys[first]
        if seen:
            ranks = np.array([seen.get(eid, -1) for eid in index], dtype=np.int64)
            known = np.flatnonzero(ranks >= 0)
            in_file[known] = 0
            in_file[known, 0] = ranks[known] - len(seen)
        keys = in_file[codes]
    entity_document = np.repeat(np.arange(len(with_entities)), np.diff(entity_bounds))
    columns = (keys[:, 2], keys[:, 1], keys[:, 0], entity_document)
    order = lexsort(columns)
    if np.logical_and.reduce([column[order][1:] == column[order][:-1] for column in columns]).any():
        names = np.unique(np.array(eids), return_inverse=True)[1].ravel()
        order = lexsort((names, *columns))
    moved = np.zeros(len(with_entities), dtype=bool)
    moved[entity_document[order != np.arange(len(order))]] = True
    for d in np.flatnonzero(moved).tolist():
        lo, hi = entity_bounds[d : d + 2].tolist()
        _order_entities(with_entities[d], order[lo:hi] - lo)


def _order_entities(document: CorefUDDocument, order: np.ndarray) -> None:
    """The document's entities in ``order``."""
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    document.mention_entity = rank[document.mention_entity]
    document.entities = tuple(document.entities[e] for e in order.tolist())


def _first_mention_keys(documents: list[CorefUDDocument], entity_bounds: np.ndarray) -> np.ndarray:
    """For every entity of ``documents`` (those of document ``d`` from
    ``entity_bounds[d]``), its first mention's place in udapi's mention
    order: the line of its first node, minus its number of nodes, its last
    word."""
    counts = [len(document) for document in documents]
    entity = np.concatenate([document.mention_entity for document in documents])
    entity += np.repeat(entity_bounds[:-1], counts)
    line = np.concatenate([document.mention_line for document in documents])
    end = np.concatenate([document.mention_end for document in documents])
    sizes = end - np.concatenate([document.mention_start for document in documents])
    last = end - 1
    base = 0
    for document, count in zip(documents, counts):
        for m, words in document.mention_words.items():
            sizes[base + m] = len(words)
            if words:
                last[base + m] = words[-1]
        for m, empties in document.mention_empty.items():
            sizes[base + m] += len(empties)
        base += count
    order = lexsort((last, -sizes, line, entity))
    first = order[np.r_[True, entity[order][1:] != entity[order][:-1]]]
    keys = np.full((int(entity_bounds[-1]), 3), np.iinfo(np.int64).max, dtype=np.int64)
    keys[entity[first]] = np.stack([line[first], -sizes[first], last[first]], axis=1)
    return keys
