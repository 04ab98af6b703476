"""Every pair of annotators scored as ``score A B`` scores it, on the
documents both have; linking scored again on the mentions they share; a
system against every annotator; the units of every document."""

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Optional

import numpy as np

from ...errors import CorefInputError
from ...formats.annotation import closure_report
from ...formats.document import Side, document_names
from ...model.clusters import Pair
from ...scoring import CorpusResult, Options, evaluate_corpus, score_pairs
from ..statistics import bootstrap_intervals
from .annotators import Annotation, aliased
from .result import Agreement, Cell, Matrix
from .units import document_units


def agreement(
    annotations: Sequence[Annotation],
    options: Options,
    *,
    level: Optional[float] = 0.95,
    n_resamples: int = 1000,
    seed: int = 0,
    system: Optional[Annotation] = None,
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
    annotations = aliased(annotations)
    names = [a.name for a in annotations]
    n = len(annotations)
    pairwise: dict[str, Matrix] = {}
    intervals: dict[str, list[list[Optional[tuple[float, float]]]]] = {}
    linking: dict[str, Matrix] = {}
    warnings: list[str] = []
    metrics: list[str] = []
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
            bounds = _intervals(run.result, level, n_resamples, seed=seed)
            linked = _linking(run).metrics() if i != j else scores
            for metric in metrics:
                pairwise.setdefault(metric, _empty(n))[i][j] = scores[metric]["f1"]
                intervals.setdefault(metric, _empty(n))[i][j] = bounds.get(metric, {}).get("f1")  # type: ignore[index]
                if metric != "mentions":
                    linking.setdefault(metric, _empty(n))[i][j] = linked[metric]["f1"]
    every = list(dict.fromkeys(name for a in annotations for name in a.names()))
    missing = {a.name: [name for name in every if name not in set(a.names())] for a in annotations}
    units = [document_units(name, annotations, options) for name in every]
    result = Agreement(
        names,
        metrics,
        pairwise,
        intervals,
        linking=linking,
        documents={"names": every, "missing": missing},
        units=[doc for doc in units if doc is not None],
        level=level,
        system=None,
        warnings=list(dict.fromkeys(warnings)),
        settings=options.settings.to_dict(),
    )
    for annotation in annotations:
        closure = closure_report(annotation.key.documents)
        if closure is not None:
            result.closure[annotation.name] = closure
    if system is not None:
        result.system = _system(system, annotations, options, metrics=metrics, level=level, n_resamples=n_resamples, seed=seed)
    return result


def _pair_run(a: Annotation, b: Annotation, options: Options) -> Any:
    """``score A B`` on the documents both have (``None``: none shared)."""
    shared = set(a.names()) & set(b.names())
    if not shared:
        return None
    key = _only(a.key, shared, a.aliases)
    response = _only(b.response, shared, b.aliases)
    return evaluate_corpus(key, response, options)


def _only(side: Side, names: set, aliases: dict[str, str]) -> Side:
    """``side`` with the documents ``names`` (after ``aliases``) only."""
    own = [aliases.get(name, name) for name in document_names(side.documents)]
    kept = [document for document, name in zip(side.documents, own) if name in names]
    return side if len(kept) == len(side.documents) else replace(side, documents=kept)


def _intervals(result: CorpusResult, level: Optional[float], n_resamples: int, *, seed: int) -> dict[str, dict[str, Any]]:
    if level is None or not result.names:
        return {}
    return bootstrap_intervals(result, level, n_resamples, seed=seed)


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
    system: Annotation,
    annotations: Sequence[Annotation],
    options: Options,
    *,
    metrics: Sequence[str],
    level: Optional[float],
    n_resamples: int,
    seed: int,
) -> dict[str, Any]:
    """The system's F1 against every annotator (key), per metric."""
    scores: dict[str, list[Cell]] = {metric: [None] * len(annotations) for metric in metrics}
    bounds: dict[str, list[Any]] = {metric: [None] * len(annotations) for metric in metrics}
    for i, annotation in enumerate(annotations):
        run = _pair_run(annotation, system, options)
        if run is None:
            continue
        got = run.result.metrics()
        found = _intervals(run.result, level, n_resamples, seed=seed)
        for metric in metrics:
            scores[metric][i] = got[metric]["f1"]
            interval = found.get(metric, {}).get("f1")
            bounds[metric][i] = list(interval) if interval is not None else None
    mean = {
        metric: (float(np.mean([v for v in row if v is not None])) if any(v is not None for v in row) else None)
        for metric, row in scores.items()
    }
    return {"name": system.name, "f1": scores, "intervals": bounds, "mean": mean}


def _empty(n: int) -> list[list[Any]]:
    return [[None] * n for _ in range(n)]
