"""Write CoNLL-2012 files (docs/formats.md, CoNLL-2012)."""

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Union

import numpy as np

from ...errors import CorefInputError
from ...files import PathLike, open_output
from ...model.clusters import Clusters
from ..document import SideDocument, check_written_name, conll_column, document_names


def format_conll(
    name: str, words: Sequence[str], clusters: Clusters, *, sentence_starts: Union[Sequence[int], np.ndarray] = ()
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
    check_written_name(name, "CoNLL-2012")
    check_nesting(name, clusters, "CoNLL-2012 brackets")
    opens: dict[int, list[tuple[int, int]]] = {}
    closes: dict[int, list[tuple[int, int]]] = {}
    singles: dict[int, list[int]] = {}
    for start, end, entity in zip(clusters.starts.tolist(), clusters.ends.tolist(), clusters.entity.tolist()):
        if end - start == 1:
            singles.setdefault(start, []).append(entity)
        else:
            opens.setdefault(start, []).append((end, entity))
            closes.setdefault(end - 1, []).append((start, entity))
    doc_id = conll_column(name.split(";")[0].strip().strip("()").lstrip("#") or "-")
    breaks = set(sentence_starts) - {0}
    yield f"#begin document {name}"
    for token, word in enumerate(words):
        if token in breaks:
            yield ""
        marks = [f"({e}" for _, e in sorted(opens.get(token, []), key=lambda x: -x[0])]
        marks += [f"({e})" for e in singles.get(token, [])]
        marks += [f"{e})" for _, e in sorted(closes.get(token, []), key=lambda x: -x[0])]
        yield f"{doc_id}\t0\t{token}\t{conll_column(word)}\t{'|'.join(marks) or '-'}"
    yield ""
    yield "#end document"


def check_nesting(name: str, clusters: Clusters, brackets: str) -> None:
    """Raise :class:`CorefInputError` naming document ``name`` when two
    mentions of one entity overlap without nesting (``brackets`` cannot
    express that)."""
    crossing = crossing_mentions(clusters)
    if crossing.any():
        first = int(np.argmax(crossing))
        raise CorefInputError(
            f"document {name!r}: mention ({clusters.starts[first]}, {clusters.ends[first]}) of entity "
            f"{clusters.entity[first]} overlaps another mention of that entity without nesting; "
            f"{brackets} cannot express that"
        )


def crossing_mentions(clusters: Clusters) -> np.ndarray:
    """Mask of the mentions that overlap an earlier mention (by start, then
    longest first) of their entity without nesting in it or containing it."""
    out = np.zeros(len(clusters), dtype=bool)
    order = np.lexsort((-clusters.ends, clusters.starts, clusters.entity))
    stack: list[int] = []
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


def write_conll(
    path: PathLike,
    documents: Iterable[tuple[str, Sequence[str], Clusters, Union[Sequence[int], np.ndarray]]],
    inputs: Iterable[PathLike] = (),
) -> None:
    """Write ``(name, words, clusters, sentence_starts)`` documents to a
    file, atomically and never over one of ``inputs``."""
    with open_output(path, "w", inputs, make_parents=True) as out:
        for name, words, clusters, sentence_starts in documents:
            for line in format_conll(name, words, clusters, sentence_starts=sentence_starts):
                out.write(line + "\n")


def write_side(path: Path, documents: Sequence[SideDocument], inputs: Sequence[Path]) -> list[str]:
    """The documents as a CoNLL-2012 file (the format's writer)."""
    names = document_names(documents)
    write_conll(path, [(name, d.words, d.clusters, d.sentence_starts) for name, d in zip(names, documents)], inputs)
    return []
