"""The annotators: each one's file read as ``score`` reads a key and a
response, its name, and its documents' names matched to the others'."""

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Optional

from ...errors import CorefInputError
from ...formats import ReadOptions, get_format
from ...formats.corpus import match_names, read_side
from ...formats.document import Side, document_names
from ...scoring import Options


@dataclass(frozen=True)
class Annotation:
    """One annotator's file read as a key (``key``) and as a response
    (``response``), as ``score`` reads the first and the second input."""

    name: str
    key: Side
    response: Side
    aliases: dict[str, str] = field(default_factory=dict)
    """Document names as written → the names they go by in the agreement
    (another annotator's, where pairing matches them: ``(NAME); part 000``
    and ``NAME``)."""

    def names(self) -> list[str]:
        return [self.aliases.get(name, name) for name in document_names(self.key.documents)]


def read_annotation(path: Any, name: str, options: Options, *, fmt: Optional[str] = None) -> Annotation:
    """An annotator's file read as ``score`` reads a key and a response.

    Parameters
    ----------
    path : the file (or directory).
    name : the annotator's name.
    options : the formats and span readers of the run.
    fmt : this file's format by name (default: the options', else by its name).
    """
    formats = [get_format(given) if given else None for given in ((fmt, fmt) if fmt else options.formats)]
    key = read_side(path, formats[0], ReadOptions("key", options.spans[0], True, False))
    response = read_side(path, formats[1], ReadOptions("response", options.spans[1], True, False))
    return Annotation(name, key, response)


def annotator_names(paths: Sequence[Any], given: Optional[Sequence[str]] = None) -> list[str]:
    """The annotators' names: ``given`` (one per file), else each file's
    name without its suffixes, made unique by its suffixes, the parent folder's
    name or a number.

    Parameters
    ----------
    paths : the annotators' files.
    given : names given on the command line.
    """
    if given is not None:
        if len(given) != len(paths) or len(set(given)) != len(given):
            raise CorefInputError(f"--names gives {len(given)} distinct name(s) for {len(paths)} files; give one each")
        return list(given)
    names = [Path(p).name.split(".")[0] or Path(p).name for p in paths]
    if len(set(names)) < len(names):
        names = [Path(p).name for p in paths]
    if len(set(names)) < len(names):
        names = [f"{Path(p).parent.name}/{n}" for p, n in zip(paths, names)]
    if len(set(names)) < len(names):
        names = [f"{n}#{i + 1}" for i, n in enumerate(names)]
    return names


def aliased(annotations: Sequence[Annotation]) -> list[Annotation]:
    """Every annotation with its document names matched to those of the
    annotators before it, as pairing matches names
    (:func:`~spacy_coref_eval.formats.corpus.match_names`)."""
    seen: list[str] = []
    out = []
    for annotation in annotations:
        own = document_names(annotation.key.documents)
        matched = match_names(seen, own) if seen else {}
        aliases = {other: name for name, other in matched.items() if other != name}
        if seen and not matched:
            aliases = {name: other for name, other in match_names(own, seen).items() if other != name}
        annotation = replace(annotation, aliases=aliases)
        seen += [name for name in annotation.names() if name not in seen]
        out.append(annotation)
    return out
