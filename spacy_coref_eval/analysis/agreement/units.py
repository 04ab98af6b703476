"""Mention units (docs/agreement.md, Units and values): the union of the
annotators' mentions of a document, twinned under the run's matcher, and
every annotator's value of each: the units of its entity holding the unit,
or ``{NOT_MARKED}``."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from ...errors import CorefInputError
from ...formats.document import SideDocument, WordMismatch
from ...model.clusters import Clusters
from ...scoring import Options
from ...twinning import twin_corpus
from .annotators import Annotation

NOT_MARKED = "not marked"
"""The one element of the value of a unit an annotator did not mark."""


@dataclass(frozen=True)
class Unit:
    """One unit of a document: the token sets annotators gave it (twinned
    under the run's matcher), shown by its first ``tokens``, and ``text``."""

    document: str
    index: int
    tokens: tuple[int, ...]
    text: str

    @property
    def ident(self) -> str:
        return f"{self.document}#{self.index}"


@dataclass
class DocumentUnits:
    """A document's units and every present annotator's value of each
    (``values[a][u]``: the idents of the units of ``a``'s entity holding
    unit ``u``, or ``{NOT_MARKED}``)."""

    name: str
    annotators: list[int]
    units: list[Unit]
    values: dict[int, list[frozenset[str]]]
    spans: list[dict[tuple[int, ...], int]]
    words: list[str]
    reference: SideDocument

    def marked(self, a: int, u: int) -> bool:
        return NOT_MARKED not in self.values[a][u]

    def linking_units(self) -> list[int]:
        """The units every present annotator marked."""
        return [u for u in range(len(self.units)) if all(self.marked(a, u) for a in self.annotators)]

    def masi_units(self) -> list[list[frozenset[str]]]:
        return [[self.values[a][u] for a in self.annotators] for u in range(len(self.units))]

    def linking_values(self) -> list[list[frozenset[str]]]:
        """Every linking unit's values restricted to the linking units, so
        that mention detection does not count again in linking."""
        kept = self.linking_units()
        idents = frozenset(self.units[u].ident for u in kept)
        return [[self.values[a][u] & idents for a in self.annotators] for u in kept]


def document_units(name: str, annotations: Sequence[Annotation], options: Options) -> Optional[DocumentUnits]:
    """The units of document ``name`` among the annotators that have it,
    every one placed on the first such annotator's tokens."""
    present = [(a, docs) for a, docs in ((a, _document(annotation, name)) for a, annotation in enumerate(annotations)) if docs is not None]
    reference_index, (reference, _) = present[0]
    clusters: dict[int, Clusters] = {}
    key = reference
    for a, (_, response) in present[1:]:
        try:
            placed = reference.paired_with(response)
        except WordMismatch as err:
            raise CorefInputError(
                f"cannot place {annotations[a].name} on {annotations[reference_index].name}: document {name!r} has {err}"
            ) from None
        key, clusters[a] = placed.key, placed.response
    clusters[reference_index] = key.clusters
    settings = options.settings
    remove = settings.singletons == "remove"
    zeros = settings.zeros == "exclude"
    order = [a for a, _ in present]
    mentions: dict[int, tuple[list[tuple[int, ...]], np.ndarray]] = {}
    parent: dict[tuple[int, tuple[int, ...]], tuple[int, tuple[int, ...]]] = {}
    for x, a in enumerate(order):
        own = twin_corpus([(clusters[a], clusters[a], key.n_tokens)], settings.match, remove, remove_zeros=zeros).document(0)[0]
        sets = own.node_sets()
        mentions[a] = ([tuple(sets.of(m).tolist()) for m in range(len(own))], own.entity)
        for tokens in mentions[a][0]:
            parent[a, tokens] = (a, tokens)
        for b in order[:x]:
            theirs, mine, twins = twin_corpus(
                [(clusters[b], clusters[a], key.n_tokens)], settings.match, remove, remove_zeros=zeros
            ).document(0)
            their_sets, my_sets = theirs.node_sets(), mine.node_sets()
            for m in np.flatnonzero(twins >= 0).tolist():
                first = (b, tuple(their_sets.of(int(twins[m])).tolist()))
                second = (a, tuple(my_sets.of(m).tolist()))
                if first in parent and second in parent:
                    parent[find(parent, second)] = find(parent, first)
    groups: dict[Any, list[tuple[int, tuple[int, ...]]]] = {}
    for node in parent:
        groups.setdefault(find(parent, node), []).append(node)
    members = sorted(
        (sorted(group, key=lambda node: (node[1], node[0])) for group in groups.values()),
        key=lambda group: (group[0][1][0], -group[0][1][-1], group[0][1]),
    )
    words = list(key.words)
    units = [Unit(name, u, group[0][1], _text(words, group[0][1])) for u, group in enumerate(members)]
    spans: list[dict[tuple[int, ...], int]] = []
    unit_of: dict[tuple[int, tuple[int, ...]], int] = {}
    for u, group in enumerate(members):
        counted: dict[tuple[int, ...], int] = {}
        for node in group:
            unit_of[node] = u
            counted[node[1]] = counted.get(node[1], 0) + 1
        spans.append(counted)
    values: dict[int, list[frozenset[str]]] = {}
    for a in order:
        marked, entity = mentions[a]
        by_entity: dict[int, set] = {}
        for m, t in enumerate(marked):
            by_entity.setdefault(int(entity[m]), set()).add(units[unit_of[a, t]].ident)
        value: list[frozenset[str]] = [frozenset([NOT_MARKED])] * len(units)
        for m, t in enumerate(marked):
            u = unit_of[a, t]
            held = value[u] if NOT_MARKED not in value[u] else frozenset()
            value[u] = held | frozenset(by_entity[int(entity[m])])
        values[a] = value
    return DocumentUnits(name, order, units, values, spans=spans, words=words, reference=key)


def _document(annotation: Annotation, name: str) -> Optional[tuple[SideDocument, SideDocument]]:
    names = annotation.names()
    if name not in names:
        return None
    index = names.index(name)
    return annotation.key.documents[index], annotation.response.documents[index]


def find(parent: dict[Any, Any], node: Any) -> Any:
    while parent[node] != node:
        parent[node] = parent[parent[node]]
        node = parent[node]
    return node


def _text(words: Sequence[str], tokens: Sequence[int]) -> str:
    return " ".join(words[t] for t in tokens if 0 <= t < len(words))
