"""What :func:`~.compute.agreement` finds (:class:`Agreement`): the pairwise
matrices, and read off the units, alpha, the disagreements, the documents
to show side by side and the consensus."""

from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

from ...formats.document import SideDocument
from ...model.clusters import Clusters
from ..krippendorff import alpha
from .units import NOT_MARKED, DocumentUnits, Unit, find

Cell = Optional[float]
Matrix = list[list[Cell]]


@dataclass
class Agreement:
    """What :func:`agreement` computes (:meth:`to_dict` is the JSON)."""

    annotators: list[str]
    metrics: list[str]
    pairwise: dict[str, Matrix]
    intervals: dict[str, list[list[Optional[tuple[float, float]]]]]
    linking: dict[str, Matrix]
    documents: dict[str, Any]
    units: list[DocumentUnits]
    level: Optional[float] = None
    system: Optional[dict[str, Any]] = None
    warnings: list[str] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    closure: dict[str, dict[str, Any]] = field(default_factory=dict)
    """By annotator, what closing its tool's links did (annotation tools' exports)."""

    def mean(self, matrix: Matrix) -> Cell:
        """The mean of the cells off the diagonal that are defined."""
        cells = [v for i, row in enumerate(matrix) for j, v in enumerate(row) if i != j and v is not None]
        return float(np.mean(cells)) if cells else None

    def alpha(self) -> dict[str, Any]:
        """``masi`` over every unit of the corpus, ``linking`` over the
        units every annotator marked, both per document too."""
        per_document = {
            doc.name: {
                "masi": _alpha(doc.masi_units()),
                "linking": _alpha(doc.linking_values()),
                "units": len(doc.units),
                "linking_units": len(doc.linking_units()),
                "annotators": [self.annotators[a] for a in doc.annotators],
            }
            for doc in self.units
        }
        return {
            "masi": _alpha(u for doc in self.units for u in doc.masi_units()),
            "linking": _alpha(u for doc in self.units for u in doc.linking_values()),
            "units": sum(len(doc.units) for doc in self.units),
            "linking_units": sum(len(doc.linking_units()) for doc in self.units),
            "documents": per_document,
        }

    def disagreements(self) -> list[dict[str, Any]]:
        """Every unit whose annotators gave different values: per present
        annotator, the units of the entity it put the unit in (their
        texts), ``None`` where it did not mark the unit."""
        out = []
        for doc in self.units:
            for u, unit in enumerate(doc.units):
                values = {doc.values[a][u] for a in doc.annotators}
                if len(values) < 2:
                    continue
                by_ident = {other.ident: other for other in doc.units}
                entities = {
                    self.annotators[a]: None
                    if not doc.marked(a, u)
                    else [_describe(by_ident[ident]) for ident in sorted(doc.values[a][u], key=lambda i: by_ident[i].tokens)]
                    for a in doc.annotators
                }
                out.append({"document": doc.name, "unit": _describe(unit), "tokens": list(unit.tokens), "entities": entities})
        return out

    def views(self, shown: int = 5, max_tokens: int = 400) -> list[dict[str, Any]]:
        """The ``shown`` documents with the most disagreeing units, each
        annotator's mentions on one window of at most ``max_tokens`` words
        (from a little before the first disagreement): per annotator its
        mentions ``(start, end, entity label, colour, disagreed)``, an
        entity coloured as the first annotator's entity sharing most of its
        units."""
        ranked = []
        for doc in self.units:
            disagreed = [u for u in range(len(doc.units)) if len({doc.values[a][u] for a in doc.annotators}) > 1]
            if disagreed:
                ranked.append((-len(disagreed), doc.name, doc, disagreed))
        out = []
        for _, _, doc, disagreed in sorted(ranked, key=lambda item: item[:2])[:shown]:
            first = max(0, min(doc.units[u].tokens[0] for u in disagreed) - 20) if len(doc.words) > max_tokens else 0
            last = min(len(doc.words), first + max_tokens)
            reference = doc.annotators[0]
            colours = {value: c for c, value in enumerate(dict.fromkeys(v for v in doc.values[reference] if NOT_MARKED not in v))}
            sides = {}
            for a in doc.annotators:
                mentions = []
                for u, unit in enumerate(doc.units):
                    value = doc.values[a][u]
                    if NOT_MARKED in value or unit.tokens[0] < first or unit.tokens[-1] >= last:
                        continue
                    nearest = max(colours, key=lambda ref: (len(ref & value), -colours[ref]), default=None)
                    colour = colours[nearest] if nearest is not None and nearest & value else -1
                    label = min(doc.units[int(i.rsplit("#", 1)[1])].tokens for i in value)
                    mentions.append((unit.tokens[0], unit.tokens[-1] + 1, f"{label[0]}", colour, u in disagreed))
                sides[self.annotators[a]] = mentions
            out.append(
                {
                    "document": doc.name,
                    "first": first,
                    "words": doc.words[first:last],
                    "n_tokens": len(doc.words),
                    "disagreements": len(disagreed),
                    "sides": sides,
                }
            )
        return out

    def consensus(self) -> list[tuple[str, Clusters, list[str], SideDocument]]:
        """Every document's majority-link consensus: the units more than
        half its annotators marked, linked where more than half put them in
        one entity, each written with the span most of them gave (its
        hull); with the reference annotator's words."""
        out = []
        for doc in self.units:
            half = len(doc.annotators) / 2
            kept = [u for u in range(len(doc.units)) if sum(doc.marked(a, u) for a in doc.annotators) > half]
            parent = {u: u for u in kept}
            for i, u in enumerate(kept):
                for v in kept[i + 1 :]:
                    ident = doc.units[v].ident
                    if sum(ident in doc.values[a][u] for a in doc.annotators) > half:
                        parent[find(parent, v)] = find(parent, u)
            groups: dict[int, list[tuple[int, int]]] = {}
            for u in kept:
                tokens = max(doc.spans[u], key=lambda span: (doc.spans[u][span], [-t for t in span]))
                groups.setdefault(find(parent, u), []).append((tokens[0], tokens[-1] + 1))
            clusters = Clusters.from_entities(sorted(sorted(spans) for spans in groups.values()))
            out.append((doc.name, clusters, doc.words, doc.reference))
        return out

    def to_dict(self) -> dict[str, Any]:
        """The JSON report."""
        out: dict[str, Any] = {
            "annotators": self.annotators,
            "settings": self.settings,
            "documents": self.documents,
            "pairwise": self.pairwise,
            "mean_pairwise": {metric: self.mean(matrix) for metric, matrix in self.pairwise.items()},
        }
        if self.level is not None:
            out["intervals"] = {"level": self.level, **{m: _lists(cells) for m, cells in self.intervals.items()}}
        out["detection"] = {"f1": self.pairwise.get("mentions"), "mean": self.mean(self.pairwise.get("mentions", []))}
        out["linking"] = {"pairwise": self.linking, "mean_pairwise": {metric: self.mean(matrix) for metric, matrix in self.linking.items()}}
        out["alpha"] = self.alpha()
        if self.system is not None:
            out["system"] = self.system
        if self.closure:
            out["closure"] = self.closure
        out["disagreements"] = self.disagreements()
        out["warnings"] = self.warnings
        return out


def _describe(unit: Unit) -> str:
    """``'text' [start-end)``: a unit for the disagreement list."""
    return f"{unit.text!r} [{unit.tokens[0]}-{unit.tokens[-1] + 1})"


def _alpha(units: Any) -> Optional[float]:
    value = alpha(list(units))
    return None if np.isnan(value) else value


def _lists(cells: list[list[Optional[tuple[float, float]]]]) -> list[list[Optional[list[float]]]]:
    return [[list(cell) if cell is not None else None for cell in row] for row in cells]
