"""Link difficulty (docs/long-documents.md §5): every coreference link of
the key and of the response (a pair of mentions of one entity, as BLANC
counts them; Recasens & Hovy 2011, Luo et al. 2014) classed *surface*
(both mentions have the same lowercased text, or the same head word form)
or *other*; with a training file also *seen* (the two head forms occur
together in one entity of the training file; Moosavi & Strube 2017) or
*unseen*. Recall per class over the key's links of the class, precision
over the response's, a link found when both its mentions have twins in
one entity of the other side. Counts are sums over groups of mentions
(``n (n - 1) / 2`` per group), never pair by pair.

A mention's head word is the head its input marks, else its last word."""

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Optional

import numpy as np

from ..errors import CorefInputError
from ..formats import ReadOptions, format_of
from ..formats.corpus import read_side
from ..model.clusters import Clusters
from ..twinning import TwinnedCorpus
from .registry import Context
from .statistics import draw_documents

FIELDS = ("recall_num", "recall_den", "precision_num", "precision_den")


def stacked_words(twinned: TwinnedCorpus, names: Sequence[str], words: Mapping[str, Sequence[str]]) -> np.ndarray:
    """The lowercased words of every stacked token ("" where none)."""
    out = np.full(int(twinned.size) + 1, "", dtype=object)
    for d, name in enumerate(names):
        given = [word.lower() for word in words.get(name, ())]
        start = int(twinned.offsets[d])
        out[start : start + len(given)] = given[: max(0, len(out) - start)]
    return out


def mention_forms(clusters: Clusters, words: np.ndarray) -> tuple[list[str], list[str]]:
    """Every mention's text (lowercased words joined by one space) and head form."""
    starts, ends = clusters.starts.tolist(), clusters.ends.tolist()
    texts = [" ".join(words[s:e]) for s, e in zip(starts, ends)]
    if clusters.heads is not None:
        heads = [int(h) if h >= 0 else e - 1 for h, e in zip(clusters.heads.tolist(), ends)]
    else:
        heads = [e - 1 for e in ends]
    return texts, [words[h] if h >= 0 else "" for h in heads]


def _codes(*columns: np.ndarray) -> np.ndarray:
    """One integer per distinct row of ``columns``."""
    if not len(columns[0]):
        return np.zeros(0, dtype=np.int64)
    return np.unique(np.stack(columns, axis=1), axis=0, return_inverse=True)[1].ravel()


def _pairs_by_doc(codes: np.ndarray, doc: np.ndarray, n_docs: int) -> np.ndarray:
    """Per document, the pairs of mentions sharing a code."""
    if not len(codes):
        return np.zeros(n_docs, dtype=np.int64)
    size = np.bincount(codes)
    first = np.full(len(size), -1, dtype=np.int64)
    first[codes[::-1]] = np.arange(len(codes))[::-1]
    pairs = size * (size - 1) // 2
    used = size > 0
    return np.bincount(doc[first[used]], weights=pairs[used], minlength=n_docs).astype(np.int64)


class Side:
    """One side's mentions, coded for counting: ``entity``, ``other`` (the
    other side's entity of the twin, -1 untwinned), ``text`` and ``head``
    codes, ``doc``."""

    def __init__(self, entity: np.ndarray, other: np.ndarray, text: np.ndarray, *, head: np.ndarray, doc: np.ndarray):
        self.entity, self.other, self.text, self.head, self.doc = entity, other, text, head, doc

    def surface(self, n_docs: int, found: bool) -> tuple[np.ndarray, np.ndarray]:
        """Per document, every link and the surface links (of the found
        links only with ``found``)."""
        keep = self.other >= 0 if found else np.ones(len(self.entity), dtype=bool)
        base = [self.entity[keep]] + ([self.other[keep]] if found else [])
        doc = self.doc[keep]
        text, head = self.text[keep], self.head[keep]
        every = _pairs_by_doc(_codes(*base), doc, n_docs)
        surface = (
            _pairs_by_doc(_codes(*base, text), doc, n_docs)
            + _pairs_by_doc(_codes(*base, head), doc, n_docs)
            - _pairs_by_doc(_codes(*base, text, head), doc, n_docs)
        )
        return every, surface

    def seen(self, n_docs: int, found: bool, seen_pairs: np.ndarray, *, vocabulary: int) -> np.ndarray:
        """Per document, the links whose two head forms are ``seen_pairs``
        (codes ``low * vocabulary + high``)."""
        keep = self.other >= 0 if found else np.ones(len(self.entity), dtype=bool)
        group = _codes(self.entity[keep], self.other[keep]) if found else _codes(self.entity[keep])
        head, doc = self.head[keep], self.doc[keep]
        if not len(group):
            return np.zeros(n_docs, dtype=np.int64)
        cells, counts = np.unique(np.stack([group, head], axis=1), axis=0, return_counts=True)
        group_doc = np.zeros(int(group.max()) + 1, dtype=np.int64)
        group_doc[group] = doc
        out = np.zeros(n_docs, dtype=np.int64)
        same = np.isin(cells[:, 1] * vocabulary + cells[:, 1], seen_pairs)
        np.add.at(out, group_doc[cells[same, 0]], counts[same] * (counts[same] - 1) // 2)
        starts = np.flatnonzero(np.diff(cells[:, 0], prepend=-1))
        bounds = np.append(starts, len(cells))
        for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
            if b - a < 2:
                continue
            i, j = np.triu_indices(b - a, k=1)
            forms, sizes = cells[a:b, 1], counts[a:b]
            low, high = np.minimum(forms[i], forms[j]), np.maximum(forms[i], forms[j])
            hit = np.isin(low * vocabulary + high, seen_pairs)
            out[group_doc[cells[a, 0]]] += int((sizes[i][hit] * sizes[j][hit]).sum())
        return out


def link_counts(twinned: TwinnedCorpus, words: np.ndarray, train: Optional[Sequence[Sequence[str]]] = None) -> dict[str, np.ndarray]:
    """Per class, the ``(n_docs, 4)`` counts of :data:`FIELDS`; ``train``
    is the head forms of every entity of a training file."""
    key_texts, key_heads = mention_forms(twinned.key, words)
    response_texts, response_heads = mention_forms(twinned.response, words)
    train = train if train is not None else None
    vocabulary_list = sorted(set(key_heads) | set(response_heads) | {form for entity in (train or ()) for form in entity})
    vocabulary = {form: i for i, form in enumerate(vocabulary_list)}
    texts = {text: i for i, text in enumerate(sorted(set(key_texts) | set(response_texts)))}

    def coded(values: list[str], table: dict[str, int]) -> np.ndarray:
        return np.array([table[v] for v in values], dtype=np.int64)

    key_other = np.full(len(twinned.key), -1, dtype=np.int64)
    found = np.flatnonzero(twinned.twins >= 0)
    key_other[twinned.twins[found]] = twinned.response.entity[found]
    response_other = np.full(len(twinned.response), -1, dtype=np.int64)
    response_other[found] = twinned.key.entity[twinned.twins[found]]
    key = Side(twinned.key.entity, key_other, coded(key_texts, texts), head=coded(key_heads, vocabulary), doc=twinned.key_doc)
    response = Side(
        twinned.response.entity,
        response_other,
        coded(response_texts, texts),
        head=coded(response_heads, vocabulary),
        doc=twinned.response_doc,
    )
    n = twinned.n_docs
    key_all, key_surface = key.surface(n, False)
    key_found, key_found_surface = key.surface(n, True)
    response_all, response_surface = response.surface(n, False)
    response_found, response_found_surface = response.surface(n, True)

    def stack(*columns: np.ndarray) -> np.ndarray:
        return np.stack(columns, axis=1).astype(np.float64)

    out = {
        "surface": stack(key_found_surface, key_surface, response_found_surface, response_surface),
        "other": stack(
            key_found - key_found_surface, key_all - key_surface, response_found - response_found_surface, response_all - response_surface
        ),
    }
    if train is not None:
        seen_pairs = train_pairs(train, vocabulary)
        V = len(vocabulary)
        seen = stack(
            key.seen(n, True, seen_pairs, vocabulary=V),
            key.seen(n, False, seen_pairs, vocabulary=V),
            response.seen(n, True, seen_pairs, vocabulary=V),
            response.seen(n, False, seen_pairs, vocabulary=V),
        )
        out["seen"] = seen
        out["unseen"] = stack(key_found, key_all, response_found, response_all) - seen
    return out


def train_pairs(entities: Sequence[Sequence[str]], vocabulary: Mapping[str, int]) -> np.ndarray:
    """The codes of every pair of head forms that occur together in one
    training entity (a form with itself where it occurs twice), sorted."""
    V = len(vocabulary)
    codes = set()
    for entity in entities:
        forms, counts = np.unique(np.array([vocabulary[f] for f in entity], dtype=np.int64), return_counts=True)
        codes.update((forms[counts > 1] * V + forms[counts > 1]).tolist())
        i, j = np.triu_indices(len(forms), k=1)
        codes.update((forms[i] * V + forms[j]).tolist())
    return np.array(sorted(codes), dtype=np.int64)


def train_entities(path: Any, options: Any = None) -> list[list[str]]:
    """The head forms (lowercased; the last word where no head is marked)
    of every entity of every document of a training file."""
    if Path(path).stat().st_size == 0:
        return []
    side = read_side(path, format_of(path), ReadOptions("key", None, True, False))
    out: list[list[str]] = []
    for document in side.documents:
        clusters, words = document.clusters, [w.lower() for w in document.words or ()]
        if clusters.heads is not None:
            heads = [h if h >= 0 else e - 1 for h, e in zip(clusters.heads.tolist(), clusters.ends.tolist())]
        else:
            heads = [e - 1 for e in clusters.ends.tolist()]
        forms = [words[h] if 0 <= h < len(words) else "" for h in heads]
        entities: dict[int, list[str]] = {}
        for entity, form in zip(clusters.entity.tolist(), forms):
            entities.setdefault(entity, []).append(form)
        out.extend(entities[e] for e in sorted(entities))
    return out


def rates(counts: np.ndarray) -> dict[str, float]:
    """Recall, precision and F1 of summed :data:`FIELDS` counts."""
    recall = counts[0] / counts[1] if counts[1] else 0.0
    precision = counts[2] / counts[3] if counts[3] else 0.0
    f1 = 2 * recall * precision / (recall + precision) if recall + precision else 0.0
    return {"recall": float(recall), "precision": float(precision), "f1": float(f1)}


def intervals(counts: np.ndarray, level: float, n_resamples: int, *, seed: int) -> dict[str, list[float]]:
    """Percentile bootstrap intervals of the rates, documents resampled
    (Efron & Tibshirani 1993), drawn as :mod:`.statistics` draws them."""
    rng = np.random.default_rng(seed)
    n = len(counts)
    drawn = draw_documents(rng, n_resamples, n) if n else np.zeros((n_resamples, 0), dtype=np.int64)
    weights = np.stack([np.bincount(row, minlength=n) for row in drawn]).astype(np.float64) if n else np.zeros((n_resamples, 0))
    totals = weights @ counts
    with np.errstate(invalid="ignore", divide="ignore"):
        recall = np.where(totals[:, 1] > 0, totals[:, 0] / totals[:, 1], 0.0)
        precision = np.where(totals[:, 3] > 0, totals[:, 2] / totals[:, 3], 0.0)
        f1 = np.where(recall + precision > 0, 2 * recall * precision / (recall + precision), 0.0)
    tail = (1 - level) / 2
    return {
        name: [float(np.quantile(values, tail)), float(np.quantile(values, 1 - tail))]
        for name, values in (("recall", recall), ("precision", precision), ("f1", f1))
    }


def compute(context: Context) -> dict[str, Any]:
    """The ``links`` block: per class its counts, rates and, when the run
    asks for intervals, their bootstrap intervals."""
    twinned = context.result.twinned
    if twinned is None:
        raise CorefInputError("link classes need the twinned mentions; results merged from saved counts have none")
    corpus = context.corpus
    try:
        words = corpus.words()
    except (AttributeError, TypeError):
        words = None
    if not words:
        raise CorefInputError("--links needs the key's words (mention texts and head forms)")
    train = context.values.get("train")
    entities = train_entities(train) if train is not None else None
    counts = link_counts(twinned, stacked_words(twinned, context.result.names, words), entities)
    out: dict[str, Any] = {}
    for name, per_doc in counts.items():
        total = per_doc.sum(axis=0)
        entry: dict[str, Any] = {field: float(value) for field, value in zip(FIELDS, total.tolist())}
        entry.update(rates(total))
        if context.level is not None:
            entry["intervals"] = intervals(per_doc, context.level, context.n_resamples, seed=context.seed)
        out[name] = entry
    return out
