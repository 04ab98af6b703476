"""Many systems scored on one key, ranked, with paired significance between
neighbours and between every pair (docs/analyses.md §5)."""

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from ..errors import CorefInputError
from ..scoring import CorpusResult
from .statistics import Interval, bootstrap_intervals, compare


@dataclass(frozen=True)
class Ranking:
    """Systems ranked by the F1 of ``metric``: ``order`` lists system
    indices best first (ties keep the order given); ``f1`` holds each
    system's F1 per metric, ``intervals`` its bootstrap interval of the
    ranking metric's F1; ``pairs`` the :func:`~.statistics.compare` of
    every pair ``(i, j)``, ``i < j`` in the order given (``"a"`` is system
    ``i``)."""

    metric: str
    order: list[int]
    f1: list[dict[str, float]]
    intervals: list[Interval]
    pairs: dict[tuple[int, int], dict[str, dict[str, float]]]

    def against_next(self, rank: int) -> dict[str, float]:
        """The ranking metric's comparison of the system at ``rank`` (0:
        the best) with the one below it, oriented so that ``"a"`` is the
        higher ranked."""
        high, low = self.order[rank], self.order[rank + 1]
        entry = self.pairs[min(high, low), max(high, low)][self.metric]
        if high < low:
            return dict(entry)
        swapped = {"a": entry["b"], "b": entry["a"], "difference": -entry["difference"]}
        return {**entry, **swapped}


def rank_systems(
    results: Sequence[CorpusResult],
    labels: Sequence[str],
    metric: str = "conll",
    *,
    n_rounds: int = 10000,
    n_resamples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> Ranking:
    """Rank ``results`` (one per system, labelled ``labels``, scored on the
    same documents with the same settings, as :func:`~.statistics.compare`
    checks) by the F1 of ``metric``, with every pair compared by approximate randomization and paired bootstrap
    (:func:`~.statistics.compare`, the same ``seed`` for every pair) and a
    percentile bootstrap interval per system at ``level``."""
    if len(results) < 2:
        raise CorefInputError("ranking needs at least two systems")
    scores = [result.metrics() for result in results]
    if metric not in scores[0]:
        raise CorefInputError(f"cannot rank by {metric!r}: the run has {', '.join(scores[0])}")
    f1 = [{name: float(entry["f1"]) for name, entry in score.items()} for score in scores]
    order = sorted(range(len(results)), key=lambda index: -f1[index][metric])
    intervals = [bootstrap_intervals(result, level, n_resamples, seed=seed)[metric]["f1"] for result in results]
    pairs = {
        (i, j): compare(results[i], results[j], n_rounds=n_rounds, n_resamples=n_resamples, seed=seed)
        for i, j in combinations(range(len(results)), 2)
    }
    return Ranking(metric, order, f1, intervals, pairs=pairs)
