"""Links and chains closed transitively into entities (union-find), with
a :class:`Closure` report of what the closure did: chains merged through a
shared mention, relations that closed a cycle, links naming a mention that
does not exist, relations of types that are not coreference. Nothing the
closure does goes unreported."""

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Optional

import numpy as np

COREFERENCE_TYPES = frozenset({"Coref", "Coreference"})
"""The relation types read as coreference where a project names none."""
COUNTS = ("mentions", "entities", "chains", "links", "merged_chains", "cycles", "missing", "unknown_types")


@dataclass
class Closure:
    """What closing one document's (or, summed, a file's) links did:
    ``mentions``, ``entities`` built, ``chains`` and ``links`` read,
    ``merged_chains`` (chains joined to an earlier chain through a shared
    mention), ``cycles`` (links between mentions already in one entity),
    ``missing`` (links or chain members naming no mention, ignored) and
    ``unknown_types`` (relations of types that are not coreference,
    ignored; by type in ``types``)."""

    mentions: int = 0
    entities: int = 0
    chains: int = 0
    links: int = 0
    merged_chains: int = 0
    cycles: int = 0
    missing: int = 0
    unknown_types: int = 0
    types: dict[str, int] = field(default_factory=dict)

    def __add__(self, other: "Closure") -> "Closure":
        types = dict(self.types)
        for name, count in other.types.items():
            types[name] = types.get(name, 0) + count
        counts = {f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self) if f.name != "types"}
        return Closure(**counts, types=types)

    def noteworthy(self) -> bool:
        return bool(self.merged_chains or self.cycles or self.missing or self.unknown_types)

    def to_dict(self) -> dict[str, object]:
        return {"counts": {name: getattr(self, name) for name in COUNTS}, "ignored_types": dict(sorted(self.types.items()))}


def close(
    mentions: Sequence[Hashable],
    *,
    chains: Iterable[Sequence[Hashable]] = (),
    links: Iterable[tuple[str, Hashable, Hashable]] = (),
    types: Optional[Iterable[str]] = COREFERENCE_TYPES,
) -> tuple[np.ndarray, Closure]:
    """Every mention's entity (dense, by first mention) after closing
    ``chains`` (groups of mention ids) and ``links`` (``(type, a, b)``)
    transitively; mentions in neither are singletons.

    Parameters
    ----------
    mentions : the mention ids, in reading order.
    chains : groups of mention ids said to corefer.
    links : typed binary relations between mention ids.
    types : the relation types that are coreference (``None``: every type).
    """
    index = {mention: m for m, mention in enumerate(mentions)}
    parent = list(range(len(mentions)))
    report = Closure(mentions=len(mentions))
    chain_of: dict[int, int] = {}
    for chain in chains:
        report.chains += 1
        members = []
        for mention in chain:
            if mention in index:
                members.append(index[mention])
            else:
                report.missing += 1
        earlier = {_find(parent, chain_of[m]) for m in members if m in chain_of}
        report.merged_chains += len(earlier)
        for m in members:
            chain_of.setdefault(m, m)
        for m in members[1:]:
            _union(parent, members[0], m)
    wanted = None if types is None else frozenset(types)
    for kind, a, b in links:
        if wanted is not None and kind not in wanted:
            report.unknown_types += 1
            report.types[kind] = report.types.get(kind, 0) + 1
            continue
        report.links += 1
        if a not in index or b not in index:
            report.missing += 1
            continue
        if _find(parent, index[a]) == _find(parent, index[b]):
            report.cycles += 1
        _union(parent, index[a], index[b])
    roots = np.array([_find(parent, m) for m in range(len(mentions))], dtype=np.int64)
    _, labels = np.unique(roots, return_inverse=True) if len(roots) else (roots, roots)
    first: dict[int, int] = {}
    dense = np.array([first.setdefault(int(label), len(first)) for label in labels], dtype=np.int64)
    report.entities = len(first)
    return dense, report


def _find(parent: list[int], m: int) -> int:
    while parent[m] != m:
        parent[m] = parent[parent[m]]
        m = parent[m]
    return m


def _union(parent: list[int], a: int, b: int) -> None:
    ra, rb = _find(parent, a), _find(parent, b)
    if ra != rb:
        parent[max(ra, rb)] = min(ra, rb)


def closure_of(documents: Iterable[object]) -> Optional[Closure]:
    """The sum of the documents' closure reports (``None``: none has one)."""
    reports = [report for report in (getattr(d, "closure", None) for d in documents) if report is not None]
    if not reports:
        return None
    total = Closure()
    for report in reports:
        total = total + report
    return total


def closure_report(documents: Iterable[object]) -> Optional[dict[str, object]]:
    """The JSON of the documents' closure: the summed counts and ignored
    types, and under ``documents`` the counts of every document whose
    closure merged chains, met cycles or missing mentions, or ignored
    relations (``None``: no document has a closure)."""
    documents = list(documents)
    total = closure_of(documents)
    if total is None:
        return None
    noteworthy = {
        str(getattr(d, "name", index)): d.closure.to_dict()["counts"]  # type: ignore[attr-defined]
        for index, d in enumerate(documents)
        if getattr(d, "closure", None) is not None and d.closure.noteworthy()  # type: ignore[attr-defined]
    }
    return {**total.to_dict(), "documents": noteworthy}


def closure_warning(path: object, closure: Closure, by_document: Mapping[str, Closure] = {}) -> list[str]:
    """One warning line when the closure did anything beyond joining links
    (merged chains, cycles, missing mentions, relations of other types)."""
    if not closure.noteworthy():
        return []
    parts = [
        f"{count} {what}"
        for count, what in (
            (closure.merged_chains, "chain(s) merged with another through a shared mention"),
            (closure.cycles, "link(s) between mentions already in one entity (cycles)"),
            (closure.missing, "link(s) or chain member(s) naming no mention, ignored"),
            (
                closure.unknown_types,
                "relation(s) of types that are not coreference, ignored ("
                + ", ".join(f"{k} {v}" for k, v in sorted(closure.types.items()))
                + ")",
            ),
        )
        if count
    ]
    return [f"{path}: closing links into entities: " + "; ".join(parts)]
