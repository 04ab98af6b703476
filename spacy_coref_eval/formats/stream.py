"""Reading a corpus a batch of documents at a time (docs/streaming.md): an
index of every document's byte range, found in one pass over each file;
the two indexes paired as whole sides pair (:func:`.corpus.pair_sides`);
batches of pairs within a byte budget, each read from its ranges by the
format's own reader and checked against the index. Whatever the index
cannot promise to read as the whole file reads raises :class:`Fallback`,
and the caller reads the whole files instead."""

import gzip
import os
import re
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from tempfile import TemporaryDirectory, mkstemp
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Optional, cast

import numpy as np

from ..errors import CorefInputError
from ..files import PathLike
from ..model.clusters import Clusters, Pair
from .base import DocumentIndex, Format, ReadOptions
from .conll.read import ConllDocument
from .corpus import Corpus, PairedDocuments, length_warnings, pair_by_name_or_order, pair_columns, pair_triples
from .document import Side, SideDocument
from .index import Entry, Fallback
from .inputs import InputLimits, check_lines, gzip_size
from .registry import format_of, get_format

if TYPE_CHECKING:
    from tempfile import TemporaryDirectory

_CHUNK = 1 << 20
_BOM = b"\xef\xbb\xbf"


@dataclass
class FileIndex:
    """The documents of one file (:attr:`path`) by byte range; ``file``
    holds its bytes (the file itself, or a decompressed copy of a ``.gz``);
    ``header`` (a CoNLL-U file's one ``# global.Entity`` line) is put
    before every batch that does not start the file; ``seen`` (CoNLL-U
    only) ranks the eids of the documents read so far, or is ``None``
    where the order of a document's entities depends on it alone (``GRP``
    ids, other formats)."""

    path: Path
    file: Path
    format: Format
    entries: list[Entry]
    header: bytes = b""
    seen: Optional[dict[str, int]] = None

    def read(self, ids: Sequence[int]) -> bytes:
        """The bytes of the documents ``ids``, in that order."""
        parts = [self.header] if ids and ids[0] != 0 and self.header else []
        with open(self.file, "rb") as handle:
            at = 0
            while at < len(ids):
                stop = at + 1
                while stop < len(ids) and ids[stop] == ids[stop - 1] + 1:
                    stop += 1
                first, last = self.entries[ids[at]], self.entries[ids[stop - 1]]
                handle.seek(first.start)
                parts.append(handle.read(last.end - first.start))
                at = stop
        return b"".join(parts)


def _scan(
    path: Path, pattern: "re.Pattern[bytes]", first: Optional[bytes], *, copy: Optional[Path], max_input: int, max_line: int
) -> Iterator[tuple[int, Optional["re.Match[bytes]"]]]:
    """``(offset in the file, match)`` of every line that ``pattern``
    matches at its start, among the lines starting with the byte ``first``
    (``None``: every line), reading ``_CHUNK`` bytes at a time
    (decompressed into ``copy`` for a ``.gz``); the last item is the
    file's size and ``None``. :class:`Fallback` (the whole file's reading
    then says what is wrong) as soon as the file outgrows ``max_input``
    bytes or a line ``max_line``, so that a gzip bomb is not inflated."""
    size = 0
    buffer = bytearray(b"\n")
    base = -1
    out = None
    try:
        if copy is not None and gzip_size(path) > max_input:
            raise Fallback(f"{path}: larger than the maximum input size")
        out = open(copy, "wb") if copy is not None else None
        with gzip.open(path, "rb") if copy is not None else open(path, "rb") as stream:
            while True:
                chunk = stream.read(_CHUNK)
                size += len(chunk)
                if size > max_input:
                    raise Fallback(f"{path}: larger than the maximum input size")
                if len(buffer) - 1 > max_line:
                    raise Fallback(f"{path}: a line longer than the maximum line length")
                if out is not None:
                    out.write(chunk)
                buffer += chunk
                if chunk and b"\n" not in chunk:
                    continue
                cut = len(buffer) if not chunk else buffer.rfind(b"\n")
                view = np.frombuffer(buffer, dtype=np.uint8, count=cut)
                if first:
                    starts = np.flatnonzero(view == first[0])
                    starts = starts[view[np.maximum(starts - 1, 0)] == 0x0A]
                else:
                    starts = np.flatnonzero(view == 0x0A) + 1
                del view
                for start in starts.tolist():
                    match = pattern.match(buffer, start, cut)
                    if match is not None:
                        yield base + start, match
                if not chunk:
                    yield size, None
                    return
                del buffer[:cut]
                base += cut
    except (OSError, EOFError, zlib.error) as err:
        raise Fallback(f"{path}: {err}") from None
    finally:
        if out is not None:
            out.close()


def index_file(path: Path, fmt: Format, folder: Path, *, limits: Optional[InputLimits] = None) -> FileIndex:
    """The documents of a file by byte range, found by its format's
    :class:`~.base.DocumentIndex` (a ``.gz`` decompressed into ``folder``)
    within ``limits``; :class:`Fallback` where its documents cannot be told
    apart so."""
    limits = InputLimits.from_environ() if limits is None else limits
    if fmt.index is None or not path.is_file():
        raise Fallback(f"{path}: {fmt.title} is read whole")
    copy = None
    if path.suffix == ".gz":
        descriptor, name = mkstemp(".plain", dir=folder)
        os.close(descriptor)
        copy = Path(name)
    max_line = limits.max_input_bytes if fmt.index.long_lines else limits.max_line_bytes
    scan = _scan(path, re.compile(fmt.index.pattern), fmt.index.first, copy=copy, max_input=limits.max_input_bytes, max_line=max_line)
    entries, header, ordered = fmt.index.entries(scan)
    index = FileIndex(path, copy or path, fmt, entries, header=header, seen={} if ordered else None)
    with open(index.file, "rb") as handle:
        if handle.read(len(_BOM)) == _BOM:
            raise Fallback(f"{path}: starts with a byte order mark")
    names = [entry.name for entry in entries]
    if not entries or len(set(names)) != len(names):
        raise Fallback(f"{path}: no documents, or a name given twice")
    return index


class Repeats(NamedTuple):
    """What a warning about repeated mentions reads of one side's clusters."""

    repeated: int
    memberships: Optional[bool]


@dataclass
class Batch:
    """What one batch leaves once its documents are dropped: their counts,
    their repeated mentions ``(name, key, response)``, the rest of their
    pairing (:class:`~.corpus.PairedDocuments` without documents), and
    what the CoNLL-U reader's warning adds up of each side (``notes``:
    ``(Bridge=, SplitAnte=)``, or ``None``)."""

    paired: PairedDocuments
    counts: Any = None
    repeated: list[tuple[str, Repeats, Repeats]] = field(default_factory=list)
    notes: tuple[Optional[tuple[int, int]], ...] = (None, None)


@dataclass
class StreamPlan:
    """Two indexed files paired: ``triples`` ``(name, key entry, response
    entry or None)`` in key order, the pairing's warnings, the response's
    document names, and ``batches``: consecutive triples ``[start, stop)``
    within the byte budget."""

    key: FileIndex
    response: FileIndex
    triples: list[tuple[str, int, Optional[int]]]
    warnings: list[str]
    response_names: list[str]
    options: tuple[ReadOptions, ReadOptions]
    positional: bool
    limits: InputLimits = field(default_factory=InputLimits)
    batches: list[tuple[int, int]] = field(default_factory=list)
    folder: Optional["TemporaryDirectory"] = None
    following: int = 0
    """The batch an ordered file (:attr:`FileIndex.seen`) is read at next."""

    def __enter__(self) -> "StreamPlan":
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.folder is not None:
            self.folder.cleanup()

    def sizes(self) -> list[int]:
        """The bytes of every triple, key and response."""
        key, response = self.key.entries, self.response.entries
        return [_size(key[k]) + (0 if r is None else _size(response[r])) for _, k, r in self.triples]

    @property
    def ordered(self) -> bool:
        """Whether a file's batches are read in order, one after another
        (CoNLL-U whose entity order depends on the documents before)."""
        return self.key.seen is not None or self.response.seen is not None

    def read(self, batch: int) -> tuple[PairedDocuments, tuple[Optional[tuple[int, int]], ...]]:
        """The documents of one batch read and paired (:func:`.corpus.pair_triples`),
        and what each side's reader notes (:attr:`Batch.notes`)."""
        triples, key, response, notes = self._sides(batch)
        columns = pair_columns(triples, key, response, positional=self.positional)
        if columns is not None:
            return columns, notes
        try:
            return pair_triples(
                _documents(triples, key, response),
                self.key.path,
                self.response.path,
                positional=self.positional,
                first=self.batches[batch][0],
            ), notes
        except CorefInputError as err:
            raise Fallback(str(err)) from None

    def documents(self, batch: int) -> list[tuple[str, SideDocument, Optional[SideDocument]]]:
        """The documents of one batch read, ``(name, key, response or
        None)``, not yet paired (cross-document pairing pairs them by topic,
        :mod:`.topics`)."""
        triples, key, response, _ = self._sides(batch)
        return _documents(triples, key, response)

    def _sides(self, batch: int) -> tuple[list[tuple[str, int, Optional[int]]], Side, Side, tuple[Optional[tuple[int, int]], ...]]:
        """One batch's triples, both sides' documents read, and their notes."""
        if self.ordered:
            if batch != self.following:
                raise Fallback("the batches of a CoNLL-U file read out of order")
            self.following += 1
        start, stop = self.batches[batch]
        triples = self.triples[start:stop]
        key, key_notes = self._side(self.key, [k for _, k, _ in triples], self.options[0])
        response_ids = [r for _, _, r in triples if r is not None]
        response, response_notes = self._side(self.response, response_ids, replace(self.options[1], paired_with=key))
        return triples, key, response, (key_notes, response_notes)

    def count(self, batch: int, count: Callable[[list[Pair]], Any]) -> Batch:
        """One batch read and counted by ``count`` (the pairs' counts);
        its documents dropped."""
        paired, notes = self.read(batch)
        try:
            counts = count(paired.pairs)
        except CorefInputError as err:
            raise Fallback(str(err)) from None
        repeated = [
            cast(
                tuple[str, Repeats, Repeats],
                (
                    pair.name,
                    *(
                        Repeats(c.repeated, True if c.memberships is not None else None)
                        for c in cast(tuple[Clusters, Clusters], (pair.key, pair.response))
                    ),
                ),
            )
            for pair in paired.repeated()
        ]
        paired.pairs, paired.key_documents = [], []
        return Batch(paired, counts, repeated, notes)

    def _side(self, index: FileIndex, ids: list[int], options: ReadOptions) -> tuple[Side, Optional[tuple[int, int]]]:
        """The documents ``ids`` of one file read by its format's reader,
        checked against the index; by the index's own ``read_batch`` where
        it has one, with what that notes for the file's warning."""
        notes = None
        document_index = cast(DocumentIndex, index.format.index)  # an index only of a format that has one
        read_batch = document_index.read_batch
        parse = index.format.parse
        if read_batch is None and parse is None:
            raise Fallback(f"{index.path}: {index.format.title} is read whole")
        data = index.read(ids)
        try:
            long_lines = document_index.long_lines
            check_lines(data, index.path, self.limits.max_input_bytes if long_lines else self.limits.max_line_bytes)
            if read_batch is not None:
                side, notes = read_batch(data, index.path, index.seen)
            else:
                side = cast(Callable[..., Side], parse)(data, index.path, options)  # not None: checked above
        except (CorefInputError, ValueError) as err:
            raise Fallback(str(err)) from None
        names = getattr(side.documents, "names", None) or [d.name for d in side.documents]
        if side.format is not index.format or names != [index.entries[i].name for i in ids]:
            raise Fallback(f"{index.path}: read otherwise in parts")
        if side.warnings:
            raise Fallback(f"{index.path}: the reader's warnings name lines of the whole file")
        return side, notes

    def map(self, count: Callable[[list[Pair]], Any], n_process: int = 1) -> list[Batch]:
        """Every batch counted (:meth:`count`), in order; with ``n_process``
        > 1 in that many forked processes, each reading and counting
        consecutive batches of about equal bytes (one process where a
        file's batches are read in order, :attr:`ordered`)."""
        sizes = self.sizes()
        groups = _balanced([sum(sizes[a:b]) for a, b in self.batches], 1 if self.ordered else n_process)
        self.following = 0
        for index in (self.key, self.response):
            if index.seen is not None:
                index.seen.clear()
        if len(groups) < 2 or not _can_fork():
            return _each(self, count, range(len(self.batches)))
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        global _FORKED
        _FORKED = (self, count)
        try:
            with ProcessPoolExecutor(len(groups), mp_context=multiprocessing.get_context("fork")) as pool:
                return [out for part in pool.map(_forked_group, groups) for out in part]
        finally:
            _FORKED = None

    def read_unpaired(self) -> Optional[tuple[int, int]]:
        """The response documents the key lacks read, a batch at a time, as
        the whole file reads them: an error or a reader's warning in one
        raises :class:`Fallback` (the whole files' reading reports it), so
        that what is reported does not depend on the files' size. Returns
        what the reader notes of them (:attr:`Batch.notes`)."""
        paired = {r for _, _, r in self.triples if r is not None}
        unpaired = [r for r in range(len(self.response.entries)) if r not in paired]
        sizes = [_size(self.response.entries[r]) for r in unpaired]
        total: Optional[tuple[int, int]] = None
        for start, stop in batches(sizes, self.limits.batch_bytes):
            _, notes = self._side(self.response, unpaired[start:stop], self.options[1])
            if notes is not None:
                total = notes if total is None else (total[0] + notes[0], total[1] + notes[1])
        return total

    def corpus(self, batches: Sequence[Batch], unpaired: Optional[tuple[int, int]] = None) -> Corpus:
        """The paired corpus's warnings and response names (no documents:
        they were read and dropped batch by batch); ``unpaired`` is what
        :meth:`read_unpaired` returned."""
        paired = PairedDocuments(positional=self.positional)
        for batch in batches:
            paired.extend(batch.paired)
        notes: list[str] = []
        for side, index in enumerate((self.key, self.response)):
            batch_warnings = cast(DocumentIndex, index.format.index).batch_warnings
            if batch_warnings is not None:
                counts = [note for note in (batch.notes[side] for batch in batches) if note is not None]
                if side == 1 and unpaired is not None:
                    counts.append(unpaired)
                notes += batch_warnings(index.path, (sum(c[0] for c in counts), sum(c[1] for c in counts)))
        notes = list(dict.fromkeys(notes))
        return Corpus([], [], notes + self.warnings + paired.warnings(), self.response_names, alignment=paired.alignment, streamed=True)


def _documents(triples: Sequence[tuple[str, int, Optional[int]]], key: Side, response: Side) -> list[tuple[str, Any, Any]]:
    """The triples with the documents read for them."""
    documents = iter(response.documents)
    return [(name, document, None if r is None else next(documents)) for (name, _, r), document in zip(triples, key.documents)]


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def _size(entry: Entry) -> int:
    return entry.end - entry.start


_FORKED: Optional[tuple[StreamPlan, Callable[[list[Pair]], Any]]] = None
"""The plan and work of :meth:`StreamPlan.map`, for the processes it forks."""


def _forked_group(batches: Sequence[int]) -> list[Any]:
    assert _FORKED is not None, "set before the workers were forked"
    plan, count = _FORKED
    return _each(plan, count, batches)


def _each(plan: StreamPlan, count: Callable[[list[Pair]], Any], batches: Iterable[int]) -> list[Batch]:
    """Every batch counted in turn."""
    return [plan.count(batch, count) for batch in batches]


def _balanced(sizes: Sequence[int], n: int) -> list[list[int]]:
    """Consecutive batches in at most ``n`` groups of about equal bytes."""
    total = sum(sizes) or 1
    groups: list[list[int]] = [[] for _ in range(max(1, n))]
    before = 0
    for batch, size in enumerate(sizes):
        groups[min(len(groups) - 1, (before + size // 2) * len(groups) // total)].append(batch)
        before += size
    return [group for group in groups if group]


def plan_stream(
    key_path: PathLike,
    response_path: PathLike,
    formats: tuple[Optional[str], Optional[str]] = (None, None),
    *,
    pair_by: Optional[str] = None,
    n_process: int = 1,
    limits: Optional[InputLimits] = None,
    entity_ids: bool = False,
) -> StreamPlan:
    """Both files indexed (:func:`index_file`) and paired as
    :func:`.corpus.read_corpus` pairs them without words or tokens, in
    batches of at most ``limits.batch_bytes`` (:class:`~.inputs.InputLimits`,
    default from the environment; with ``n_process`` > 1 at most a quarter
    of each process's share); the plan removes its decompressed copies on
    leaving its ``with`` block; ``entity_ids`` reads the mentions with
    their ids (cross-document). :class:`Fallback` where the files are to
    be read whole: two files of fewer than ``limits.stream_from`` bytes
    together, or ``limits.batch_bytes`` 0."""
    limits = InputLimits.from_environ() if limits is None else limits
    budget = limits.batch_bytes
    if budget <= 0:
        raise Fallback("streaming turned off")
    paths = Path(key_path), Path(response_path)
    key_format, response_format = (format_of(path, given) for path, given in zip(paths, formats))
    if key_format.index is None or response_format.index is None:
        raise Fallback(f"{key_format.title} and {response_format.title} are read whole")
    if key_format is not response_format and (key_format.index.alone or response_format.index.alone):
        raise Fallback(f"{key_format.title} and {response_format.title} are not streamed together")
    if all(path.is_file() for path in paths) and sum(path.stat().st_size for path in paths) < limits.stream_from:
        raise Fallback(f"files of fewer than {limits.stream_from} bytes together are read whole")
    folder = TemporaryDirectory(prefix="coref-eval-")
    try:
        key, response = _index_pair(paths, (key_format, response_format), Path(folder.name), n_process=n_process, limits=limits)
        positional = key_format.positional and response_format.positional
        sides = [Side(index.path, index.format, index.entries) for index in (key, response)]  # type: ignore[arg-type]
        try:
            triples, warnings, response_names = pair_by_name_or_order(sides[0], sides[1], pair_by)
        except CorefInputError as err:
            raise Fallback(str(err)) from None
        key_ids = {id(entry): i for i, entry in enumerate(key.entries)}
        response_ids = {id(entry): i for i, entry in enumerate(response.entries)}
        options = (
            ReadOptions("key", None, not positional, entity_ids=entity_ids, limits=limits),
            ReadOptions("response", None, not positional, entity_ids=entity_ids, limits=limits),
        )
        plan = StreamPlan(
            key,
            response,
            [(name, key_ids[id(k)], None if r is None else response_ids[id(r)]) for name, k, r in triples],
            warnings,
            response_names=response_names,
            options=options,
            positional=positional,
            limits=limits,
            folder=folder,
        )
        for index, ids in ((key, [k for _, k, _ in plan.triples]), (response, [r for _, _, r in plan.triples if r is not None])):
            if index.seen is not None and ids != list(range(len(index.entries))):
                raise Fallback(f"{index.path}: a CoNLL-U file whose documents are not all read in file order")
    except BaseException:
        folder.cleanup()
        raise
    plan.batches = batches(plan.sizes(), budget, 1 if plan.ordered else n_process)
    return plan


def _index_pair(
    paths: Sequence[Path], formats: Sequence[Format], folder: Path, *, n_process: int, limits: InputLimits
) -> tuple[FileIndex, FileIndex]:
    """Both files indexed (:func:`index_file`); with ``n_process`` > 1 the
    response in a forked process while this one indexes the key."""
    if n_process < 2 or not _can_fork():
        return index_file(paths[0], formats[0], folder, limits=limits), index_file(paths[1], formats[1], folder, limits=limits)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
        future = pool.submit(_index_apart, paths[1], formats[1].name, folder, limits=limits)
        key = index_file(paths[0], formats[0], folder, limits=limits)
        response = future.result()
    return key, replace(response, format=formats[1])


def _index_apart(path: Path, name: str, folder: Path, *, limits: InputLimits) -> FileIndex:
    """:func:`index_file` in a forked process, returned without its
    format (the parent's own object is put back)."""
    return replace(index_file(path, get_format(name), folder, limits=limits), format=None)  # type: ignore[arg-type]


def batches(sizes: Sequence[int], budget: int, n_process: int = 1) -> list[tuple[int, int]]:
    """Consecutive ``[start, stop)`` whose sizes add up to at most
    ``budget`` (one larger item a batch of its own); with ``n_process`` > 1
    the budget is at most a quarter of each process's share."""
    if n_process > 1:
        budget = max(1, min(budget, sum(sizes) // (4 * n_process)))
    out: list[tuple[int, int]] = []
    start, total = 0, 0
    for i, size in enumerate(sizes):
        if i > start and total + size > budget:
            out.append((start, i))
            start, total = i, 0
        total += size
    if start < len(sizes):
        out.append((start, len(sizes)))
    return out


def stream_topic_sides(
    key_path: Path,
    response_path: Path,
    *,
    formats: tuple[Optional[str], Optional[str]] = (None, None),
    pattern: Optional[str] = None,
    pair_by: Optional[str] = None,
    limits: Optional[InputLimits] = None,
) -> Optional["Corpus"]:
    """:func:`~.corpus.pair_topic_sides` of two CoNLL-2012 files read a batch of
    documents at a time (docs/streaming.md), each document kept as its
    mentions with their ids, name, token count and sentence starts, its
    clusters and bytes dropped once read; ``None`` where the files are to
    be read whole."""
    from .topics import pair_topics

    try:
        with plan_stream(key_path, response_path, formats, pair_by=pair_by, limits=limits, entity_ids=True) as plan:
            triples = [
                (name, _mentions_only(key), None if response is None else _mentions_only(response))
                for batch in range(len(plan.batches))
                for name, key, response in plan.documents(batch)
            ]
            plan.read_unpaired()
            warnings, response_names = plan.warnings, plan.response_names
            sides = (
                Side(plan.key.path, plan.key.format, [key for _, key, _ in triples]),
                Side(plan.response.path, plan.response.format, [r for _, _, r in triples if r is not None]),
            )
    except Fallback:
        return None
    pairs, documents = pair_topics(triples, pattern, sides)
    return Corpus(pairs, list(documents), warnings + length_warnings(triples), response_names)


def _mentions_only(document: SideDocument) -> ConllDocument:
    if not isinstance(document, ConllDocument) or document.mentions is None:
        raise Fallback(f"document {document.name!r}: read without its entity ids")
    return replace(document, clusters=Clusters(), words=None, pos=None)
