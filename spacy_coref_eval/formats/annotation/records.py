"""What the JSON exports share: documents given as a text with mentions
in characters and typed links between mention ids, closed into entities."""

import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Optional, Union

from ...errors import CorefInputError
from ..inputs import check_utf8
from .closure import COREFERENCE_TYPES, close
from .document import AnnotatedDocument

CASELESS_TYPES = frozenset(t.lower() for t in COREFERENCE_TYPES)


def coreference_type(label: Optional[str]) -> str:
    """A relation's type as :func:`~.closure.close` reads it: an unlabelled
    relation, or one labelled ``coref``/``coreference`` in any case, is
    ``Coref``."""
    return "Coref" if not label or label.lower() in CASELESS_TYPES else label


def text_document(
    name: str,
    text: str,
    mentions: Mapping[Any, Sequence[tuple[int, int]]],
    *,
    links: Sequence[tuple[str, Any, Any]],
    source: str,
    chains: Sequence[Sequence[Any]] = (),
) -> AnnotatedDocument:
    """A document of ``text`` whose ``mentions`` (id → character fragments)
    are closed by ``links`` ``(type, id, id)`` and ``chains``; one span
    given under two ids is one mention."""
    for ident, fragments in mentions.items():
        if any(not (0 <= s <= e <= len(text)) for s, e in fragments):
            raise CorefInputError(f"{source}: mention {ident!r} lies outside the text ({len(text)} characters)")
    order = sorted({tuple(sorted(f)) for f in mentions.values()}, key=lambda f: (f[0][0], -f[-1][1], f))
    index = {fragments: m for m, fragments in enumerate(order)}
    of = {ident: index[tuple(sorted(f))] for ident, f in mentions.items()}
    entity, closure = close(
        range(len(order)),
        chains=[[of.get(i, f"missing:{i}") for i in chain] for chain in chains],
        links=[(kind, of.get(a, f"missing:{a}"), of.get(b, f"missing:{b}")) for kind, a, b in links],
    )
    return AnnotatedDocument(name, text, order, labels=entity, closure=closure)


def export_text(data: Union[bytes, bytearray], path: Path) -> str:
    """The text of an export's bytes, ``path`` naming it in messages."""
    check_utf8(data, path)
    return bytes(data).decode("utf8").lstrip("\ufeff")


def json_lines(data: Union[bytes, bytearray], path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Every record of a JSONL file's bytes with its line number."""
    for number, line in enumerate(export_text(data, path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as err:
            raise CorefInputError(f"{path}, line {number}: not JSON ({err})") from None
        if not isinstance(record, dict):
            raise CorefInputError(f"{path}, line {number}: a record is a JSON object")
        yield number, record


def objects(value: Any, where: str, what: str) -> list[dict[str, Any]]:
    """``value`` as a list of JSON objects (none where it is missing or
    empty); else one error naming ``where`` and ``what`` it should be."""
    if value is None or value == []:
        return []
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise CorefInputError(f"{where}: {what} must be a list of JSON objects")
    return value


def offset(value: Any, where: str) -> int:
    """A character offset: a whole number (not a boolean)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise CorefInputError(f"{where}: a character offset must be a whole number, not {value!r}")
    return value


def identifier(value: Any, where: str) -> Any:
    """A mention's or relation end's id: a string or a whole number."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise CorefInputError(f"{where}: an id must be a string or a whole number, not {value!r}")
    return value


def record_name(record: dict[str, Any], members: Sequence[str], fallback: str) -> str:
    """The first of ``members`` the record (or its ``meta``) has, else ``fallback``."""
    for place in (record, record.get("meta") or {}):
        for member in members:
            if isinstance(place, dict) and place.get(member) not in (None, ""):
                return str(place[member])
    return fallback


def check_names(names: Sequence[Optional[str]], path: Path) -> None:
    seen = set()
    for name in names:
        if name in seen:
            raise CorefInputError(f"{path}: two documents are named {name!r}; names pair documents, so they must differ")
        seen.add(name)
