"""Write jsonlines files (docs/formats.md, jsonlines)."""

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Union

import numpy as np

from ...files import PathLike, open_output
from ...model.clusters import Clusters
from ..document import SideDocument, document_names


def split_sentences(words: Sequence[str], sentence_starts: Union[Sequence[int], np.ndarray]) -> list[list[str]]:
    """The words of a document as its sentences (the ``sentences`` field),
    one sentence when no start is given."""
    starts = sorted({int(start) for start in sentence_starts if 0 < int(start) < len(words)} | {0})
    bounds = starts + [len(words)]
    return [list(words[a:b]) for a, b in zip(bounds, bounds[1:])]


def write_jsonlines(
    path: PathLike, documents: Iterable[tuple[str, list[list[str]], Clusters]], field: str = "clusters", *, inputs: Iterable[PathLike] = ()
) -> None:
    """Write documents ``(doc_key, sentences, clusters)`` as jsonlines with
    inclusive ends (the inverse of :func:`~.read.read_jsonlines` for
    word-level files), atomically and never over one of ``inputs``."""
    with open_output(path, "w", inputs, make_parents=True) as out:
        for doc_key, sentences, clusters in documents:
            entities = [[[start, end - 1] for start, end in entity] for entity in clusters.entities()]
            out.write(json.dumps({"doc_key": doc_key, "sentences": sentences, field: entities}) + "\n")


def write_side(path: Path, documents: Sequence[SideDocument], inputs: Sequence[Path]) -> list[str]:
    """The documents as a jsonlines file (the format's writer)."""
    names = document_names(documents)
    sentences = [split_sentences(d.words, d.sentence_starts) for d in documents]
    write_jsonlines(path, [(name, s, d.clusters) for name, s, d in zip(names, sentences, documents)], inputs=inputs)
    return []
