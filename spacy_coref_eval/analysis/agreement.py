"""Agreement among annotators of the same documents (docs/agreement.md):
every pair scored as ``score A B`` scores it, mention detection apart from
linking, Krippendorff's alpha with the MASI distance over mention units
(Passonneau 2004), a disagreement list for adjudication, a system against
every annotator, and a majority-link consensus. A document an annotator
lacks is missing data: it is left out of that annotator's pairs and units."""
from dataclasses import dataclass, field, replace
from typing import Any, Dict, FrozenSet, List, Optional, Sequence, Tuple

import numpy as np

from ..clusters import Clusters, Pair
from ..errors import CorefInputError
from ..formats.annotation import closure_of
from ..formats.document import Side, SideDocument, WordMismatch, document_names
from ..scoring import CorpusResult, Options, evaluate_corpus, score_pairs
from ..twinning import twin_corpus
from .krippendorff import alpha

NOT_MARKED = "not marked"
"""The one element of the value of a unit an annotator did not mark."""
Cell = Optional[float]
Matrix = List[List[Cell]]


@dataclass(frozen=True)
class Annotation:
    """One annotator's file read as a key (``key``) and as a response
    (``response``), as ``score`` reads the first and the second input."""

    name: str
    key: Side
    response: Side
    aliases: Dict[str, str] = field(default_factory=dict)
    """Document names as written → the names they go by in the agreement
    (another annotator's, where pairing matches them: ``(NAME); part 000``
    and ``NAME``)."""

    def names(self) -> List[str]:
        return [self.aliases.get(name, name) for name in document_names(self.key.documents)]


@dataclass(frozen=True)
class Unit:
    """One unit of a document: the token sets annotators gave it (twinned
    under the run's matcher), shown by its first ``tokens``, and ``text``."""

    document: str
    index: int
    tokens: Tuple[int, ...]
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
    annotators: List[int]
    units: List[Unit]
    values: Dict[int, List[FrozenSet[str]]]
    spans: List[Dict[Tuple[int, ...], int]]
    words: List[str]
    reference: SideDocument

    def marked(self, a: int, u: int) -> bool:
        return NOT_MARKED not in self.values[a][u]

    def linking_units(self) -> List[int]:
        """The units every present annotator marked."""
        return [u for u in range(len(self.units)) if all(self.marked(a, u) for a in self.annotators)]

    def masi_units(self) -> List[List[FrozenSet[str]]]:
        return [[self.values[a][u] for a in self.annotators] for u in range(len(self.units))]

    def linking_values(self) -> List[List[FrozenSet[str]]]:
        """Every linking unit's values restricted to the linking units, so
        that mention detection does not count again in linking."""
        kept = self.linking_units()
        idents = frozenset(self.units[u].ident for u in kept)
        return [[self.values[a][u] & idents for a in self.annotators] for u in kept]


@dataclass
class Agreement:
    """What :func:`agreement` computes (:meth:`to_dict` is the JSON)."""

    annotators: List[str]
    metrics: List[str]
    pairwise: Dict[str, Matrix]
    intervals: Dict[str, List[List[Optional[Tuple[float, float]]]]]
    linking: Dict[str, Matrix]
    documents: Dict[str, Any]
    units: List[DocumentUnits]
    level: Optional[float] = None
    system: Optional[Dict[str, Any]] = None
    warnings: List[str] = field(default_factory=list)
    settings: Dict[str, Any] = field(default_factory=dict)
    closure: Dict[str, Dict[str, Any]] = field(default_factory=dict)
    """By annotator, what closing its tool's links did (annotation tools' exports)."""

    def mean(self, matrix: Matrix) -> Cell:
        """The mean of the cells off the diagonal that are defined."""
        cells = [v for i, row in enumerate(matrix) for j, v in enumerate(row) if i != j and v is not None]
        return float(np.mean(cells)) if cells else None

    def alpha(self) -> Dict[str, Any]:
        """``masi`` over every unit of the corpus, ``linking`` over the
        units every annotator marked, both per document too."""
        per_document = {
            doc.name: {
                "masi": _alpha(doc.masi_units()), "linking": _alpha(doc.linking_values()),
                "units": len(doc.units), "linking_units": len(doc.linking_units()),
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

    def disagreements(self) -> List[Dict[str, Any]]:
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
                    self.annotators[a]: None if not doc.marked(a, u) else [
                        _describe(by_ident[ident]) for ident in sorted(doc.values[a][u], key=lambda i: by_ident[i].tokens)
                    ]
                    for a in doc.annotators
                }
                out.append({"document": doc.name, "unit": _describe(unit), "tokens": list(unit.tokens), "entities": entities})
        return out

    def views(self, shown: int = 5, max_tokens: int = 400) -> List[Dict[str, Any]]:
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
            colours = {value: c for c, value in enumerate(dict.fromkeys(
                v for v in doc.values[reference] if NOT_MARKED not in v))}
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
            out.append({"document": doc.name, "first": first, "words": doc.words[first:last],
                        "n_tokens": len(doc.words), "disagreements": len(disagreed), "sides": sides})
        return out

    def consensus(self) -> List[Tuple[str, Clusters, List[str], SideDocument]]:
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
                for v in kept[i + 1:]:
                    ident = doc.units[v].ident
                    if sum(ident in doc.values[a][u] for a in doc.annotators) > half:
                        parent[_find(parent, v)] = _find(parent, u)
            groups: Dict[int, List[Tuple[int, int]]] = {}
            for u in kept:
                tokens = max(doc.spans[u], key=lambda span: (doc.spans[u][span], [-t for t in span]))
                groups.setdefault(_find(parent, u), []).append((tokens[0], tokens[-1] + 1))
            clusters = Clusters.from_entities(sorted(sorted(spans) for spans in groups.values()))
            out.append((doc.name, clusters, doc.words, doc.reference))
        return out

    def to_dict(self) -> Dict[str, Any]:
        """The JSON report."""
        out: Dict[str, Any] = {
            "annotators": self.annotators,
            "settings": self.settings,
            "documents": self.documents,
            "pairwise": self.pairwise,
            "mean_pairwise": {metric: self.mean(matrix) for metric, matrix in self.pairwise.items()},
        }
        if self.level is not None:
            out["intervals"] = {"level": self.level, **{m: _lists(cells) for m, cells in self.intervals.items()}}
        out["detection"] = {"f1": self.pairwise.get("mentions"), "mean": self.mean(self.pairwise.get("mentions", []))}
        out["linking"] = {
            "pairwise": self.linking, "mean_pairwise": {metric: self.mean(matrix) for metric, matrix in self.linking.items()},
        }
        out["alpha"] = self.alpha()
        if self.system is not None:
            out["system"] = self.system
        if self.closure:
            out["closure"] = self.closure
        out["disagreements"] = self.disagreements()
        out["warnings"] = self.warnings
        return out


def agreement(
    annotations: Sequence[Annotation], options: Options, *, level: Optional[float] = 0.95, n_resamples: int = 1000,
    seed: int = 0, system: Optional[Annotation] = None,
) -> Agreement:
    """The agreement of ``annotations`` (two or more) scored with ``options``.

    Parameters
    ----------
    annotations : every annotator's file, read.
    options : how pairs are scored (twinning is kept: linking reads it).
    level : the bootstrap interval's level over documents (``None``: none).
    n_resamples : bootstrap resamples.
    seed : the resampling seed.
    system : a system scored against every annotator (the human ceiling).
    """
    if len(annotations) < 2:
        raise CorefInputError("agreement needs two or more annotators' files")
    options = replace(options, twinning=True, stream=False)
    annotations = _aliased(annotations)
    names = [a.name for a in annotations]
    n = len(annotations)
    pairwise: Dict[str, Matrix] = {}
    intervals: Dict[str, List[List[Optional[Tuple[float, float]]]]] = {}
    linking: Dict[str, Matrix] = {}
    warnings: List[str] = []
    metrics: List[str] = []
    for i, a in enumerate(annotations):
        for j, b in enumerate(annotations):
            run = _pair_run(a, b, options)
            if run is None:
                if i < j:
                    warnings.append(f"{a.name} and {b.name} share no document (by name), so their cells are empty")
                continue
            warnings += run.result.warnings
            scores = run.result.metrics()
            metrics = metrics or [m for m in scores if "f1" in scores[m]]
            bounds = _intervals(run.result, level, n_resamples, seed)
            linked = _linking(run).metrics() if i != j else scores
            for metric in metrics:
                pairwise.setdefault(metric, _empty(n))[i][j] = scores[metric]["f1"]
                intervals.setdefault(metric, _empty(n))[i][j] = bounds.get(metric, {}).get("f1")  # type: ignore[index]
                if metric != "mentions":
                    linking.setdefault(metric, _empty(n))[i][j] = linked[metric]["f1"]
    every = list(dict.fromkeys(name for a in annotations for name in a.names()))
    missing = {a.name: [name for name in every if name not in set(a.names())] for a in annotations}
    units = [_document_units(name, annotations, options) for name in every]
    result = Agreement(
        names, metrics, pairwise, intervals, linking, {"names": every, "missing": missing},
        [doc for doc in units if doc is not None], level, None, list(dict.fromkeys(warnings)),
        options.settings.to_dict(),
    )
    for annotation in annotations:
        closure = closure_of(annotation.key.documents)
        if closure is not None:
            result.closure[annotation.name] = closure.to_dict()
    if system is not None:
        result.system = _system(system, annotations, options, metrics, level, n_resamples, seed)
    return result


def _aliased(annotations: Sequence[Annotation]) -> List[Annotation]:
    """Every annotation with its document names matched to those of the
    annotators before it, as pairing matches names
    (:func:`~..formats.corpus.match_names`)."""
    from ..formats.corpus import match_names

    seen: List[str] = []
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


def _pair_run(a: Annotation, b: Annotation, options: Options) -> Any:
    """``score A B`` on the documents both have (``None``: none shared)."""
    shared = set(a.names()) & set(b.names())
    if not shared:
        return None
    key = _only(a.key, shared, a.aliases)
    response = _only(b.response, shared, b.aliases)
    return evaluate_corpus(key, response, options)


def _only(side: Side, names: set, aliases: Dict[str, str]) -> Side:
    """``side`` with the documents ``names`` (after ``aliases``) only."""
    names_of = lambda s: [aliases.get(n, n) for n in document_names(s.documents)]  # noqa: E731
    kept = [d for d, name in zip(side.documents, names_of(side)) if name in names]
    return side if len(kept) == len(side.documents) else replace(side, documents=kept)


def _intervals(result: CorpusResult, level: Optional[float], n_resamples: int, seed: int) -> Dict[str, Dict[str, Any]]:
    if level is None or not result.names:
        return {}
    from .statistics import bootstrap_intervals

    return bootstrap_intervals(result, level, n_resamples, seed)


def _linking(run: Any) -> CorpusResult:
    """The pair scored again on the mentions the two share (twinned)."""
    twinned = run.result.twinned
    pairs = []
    for d, pair in enumerate(run.corpus.pairs):
        key, response, twins = twinned.document(d)
        shared = np.zeros(len(key), dtype=bool)
        shared[twins[twins >= 0]] = True
        pairs.append(Pair(pair.name, key.subset(shared), response.subset(twins >= 0), pair.n_tokens))
    return score_pairs(pairs, run.result.settings, keep_twinned=False)


def _system(
    system: Annotation, annotations: Sequence[Annotation], options: Options, metrics: Sequence[str],
    level: Optional[float], n_resamples: int, seed: int,
) -> Dict[str, Any]:
    """The system's F1 against every annotator (key), per metric."""
    scores: Dict[str, List[Cell]] = {metric: [None] * len(annotations) for metric in metrics}
    bounds: Dict[str, List[Any]] = {metric: [None] * len(annotations) for metric in metrics}
    for i, annotation in enumerate(annotations):
        run = _pair_run(annotation, system, options)
        if run is None:
            continue
        got = run.result.metrics()
        found = _intervals(run.result, level, n_resamples, seed)
        for metric in metrics:
            scores[metric][i] = got[metric]["f1"]
            interval = found.get(metric, {}).get("f1")
            bounds[metric][i] = list(interval) if interval is not None else None
    mean = {metric: (float(np.mean([v for v in row if v is not None])) if any(v is not None for v in row) else None)
            for metric, row in scores.items()}
    return {"name": system.name, "f1": scores, "intervals": bounds, "mean": mean}


def _document_units(name: str, annotations: Sequence[Annotation], options: Options) -> Optional[DocumentUnits]:
    """The units of document ``name`` among the annotators that have it,
    every one placed on the first such annotator's tokens."""
    present = [(a, docs) for a, docs in ((a, _document(annotation, name)) for a, annotation in enumerate(annotations))
               if docs is not None]
    reference_index, (reference, _) = present[0]
    clusters: Dict[int, Clusters] = {}
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
    mentions: Dict[int, Tuple[List[Tuple[int, ...]], np.ndarray]] = {}
    parent: Dict[Tuple[int, Tuple[int, ...]], Tuple[int, Tuple[int, ...]]] = {}
    for x, a in enumerate(order):
        own = twin_corpus([(clusters[a], clusters[a], key.n_tokens)], settings.match, remove, zeros).document(0)[0]
        sets = own.node_sets()
        mentions[a] = ([tuple(sets.of(m).tolist()) for m in range(len(own))], own.entity)
        for tokens in mentions[a][0]:
            parent[a, tokens] = (a, tokens)
        for b in order[:x]:
            theirs, mine, twins = twin_corpus([(clusters[b], clusters[a], key.n_tokens)], settings.match, remove, zeros).document(0)
            their_sets, my_sets = theirs.node_sets(), mine.node_sets()
            for m in np.flatnonzero(twins >= 0).tolist():
                first = (b, tuple(their_sets.of(int(twins[m])).tolist()))
                second = (a, tuple(my_sets.of(m).tolist()))
                if first in parent and second in parent:
                    parent[_find(parent, second)] = _find(parent, first)
    groups: Dict[Any, List[Tuple[int, Tuple[int, ...]]]] = {}
    for node in parent:
        groups.setdefault(_find(parent, node), []).append(node)
    members = sorted((sorted(group, key=lambda node: (node[1], node[0])) for group in groups.values()),
                     key=lambda group: (group[0][1][0], -group[0][1][-1], group[0][1]))
    words = list(key.words)
    units = [Unit(name, u, group[0][1], _text(words, group[0][1])) for u, group in enumerate(members)]
    spans: List[Dict[Tuple[int, ...], int]] = []
    unit_of: Dict[Tuple[int, Tuple[int, ...]], int] = {}
    for u, group in enumerate(members):
        counted: Dict[Tuple[int, ...], int] = {}
        for node in group:
            unit_of[node] = u
            counted[node[1]] = counted.get(node[1], 0) + 1
        spans.append(counted)
    values: Dict[int, List[FrozenSet[str]]] = {}
    for a in order:
        marked, entity = mentions[a]
        by_entity: Dict[int, set] = {}
        for m, t in enumerate(marked):
            by_entity.setdefault(int(entity[m]), set()).add(units[unit_of[a, t]].ident)
        value: List[FrozenSet[str]] = [frozenset([NOT_MARKED])] * len(units)
        for m, t in enumerate(marked):
            u = unit_of[a, t]
            held = value[u] if NOT_MARKED not in value[u] else frozenset()
            value[u] = held | frozenset(by_entity[int(entity[m])])
        values[a] = value
    return DocumentUnits(name, order, units, values, spans, words, key)


def _document(annotation: Annotation, name: str) -> Optional[Tuple[SideDocument, SideDocument]]:
    names = annotation.names()
    if name not in names:
        return None
    index = names.index(name)
    return annotation.key.documents[index], annotation.response.documents[index]


def _find(parent: Dict[Any, Any], node: Any) -> Any:
    while parent[node] != node:
        parent[node] = parent[parent[node]]
        node = parent[node]
    return node


def _text(words: Sequence[str], tokens: Sequence[int]) -> str:
    return " ".join(words[t] for t in tokens if 0 <= t < len(words))


def _describe(unit: Unit) -> str:
    """``'text' [start-end)``: a unit for the disagreement list."""
    return f"{unit.text!r} [{unit.tokens[0]}-{unit.tokens[-1] + 1})"


def _alpha(units: Any) -> Optional[float]:
    value = alpha(list(units))
    return None if np.isnan(value) else value


def _empty(n: int) -> List[List[Any]]:
    return [[None] * n for _ in range(n)]


def _lists(cells: List[List[Optional[Tuple[float, float]]]]) -> List[List[Optional[List[float]]]]:
    return [[list(cell) if cell is not None else None for cell in row] for row in cells]


def read_annotation(path: Any, name: str, options: Options, *, fmt: Optional[str] = None) -> Annotation:
    """An annotator's file read as ``score`` reads a key and a response.

    Parameters
    ----------
    path : the file (or directory).
    name : the annotator's name.
    options : the formats and span readers of the run.
    fmt : this file's format by name (default: the options', else by its name).
    """
    from ..formats import ReadOptions, get_format
    from ..formats.corpus import read_side

    formats = [get_format(given) if given else None for given in ((fmt, fmt) if fmt else options.formats)]
    key = read_side(path, formats[0], ReadOptions("key", options.spans[0], True, False))
    response = read_side(path, formats[1], ReadOptions("response", options.spans[1], True, False))
    return Annotation(name, key, response)


def annotator_names(paths: Sequence[Any], given: Optional[Sequence[str]] = None) -> List[str]:
    """The annotators' names: ``given`` (one per file), else each file's
    name without its suffixes, made unique by its suffixes, the parent folder's
    name or a number.

    Parameters
    ----------
    paths : the annotators' files.
    given : names given on the command line.
    """
    from pathlib import Path

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
