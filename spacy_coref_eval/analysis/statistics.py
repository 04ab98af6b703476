"""Macro averages, bootstrap confidence intervals and paired significance
tests, all from the per-document counts of a :class:`CorpusResult`.

The resampling statistics are vectorised. Per-document counts are stacked
into an array of shape ``(n_docs, len(BLOCKS), len(FIELDS))``; a
``(rounds, n_docs)`` weight matrix turns it into the counts of every
resampled corpus with one matrix product, and
:func:`~spacy_coref_eval.counting.rates.score_arrays` scores them all at once
with the rules of the corpus score (micro-average, BLANC, CoNLL). Rounds are
processed in chunks of bounded memory; random numbers come from
``numpy.random.default_rng(seed).random``, consumed row by row, so chunking
never changes a result.
"""

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Callable, Optional

import numpy as np

from ..counting import BLOCK_INDEX, METRIC_INFO, Conventions
from ..counting.rates import prf_arrays, score_arrays
from ..errors import CorefInputError, listed, warn
from ..scoring import CorpusResult, order_free_sum

if TYPE_CHECKING:
    from .resolution import ResolutionClassResult

Interval = tuple[float, float]
Key = tuple[str, str]

CHUNK_CELLS = 1 << 20
"""Random draws per chunk of rounds (8 MB of doubles)."""
TIE = 1e-12
"""Randomization statistics within this of the observed one count as
reaching it: the sums of a round carry float noise of ~1e-16, which must
not turn a round that equals the observed split into a smaller one."""
FEW_DOCUMENTS = 10
"""Below this many documents, resampling statistics and macro averages come
with a warning that they are unreliable."""


def macro_average(result: CorpusResult) -> dict[str, dict[str, float]]:
    """Per metric, the mean over documents of per-document recall, precision
    and F1, and ``"n_documents"``, the number of documents averaged.

    A document is left out of a metric's average where the metric is
    undefined on it, i.e. where its key gives the metric nothing to find
    (recall denominator 0), rather than counted as 0 or 1:

    - MUC: the key has no coreference link (every key entity a singleton);
    - B³, CEAFm, CEAFe, LEA and mention identification: the key has no mention;
    - BLANC: the key has neither coreference nor non-coreference links
      (fewer than two mentions); otherwise the document's BLANC follows the
      corpus rule (one link kind alone when the key has no link of the other);
    - CoNLL: the mean of the document's MUC, B³ and CEAFe F1, over the
      documents where MUC is defined (B³ and CEAFe then are too).

    A document where the metric is defined but the response finds nothing
    scores 0. Scores are 0.0 when no document is left (``n_documents`` 0).
    """
    stack = result.stack()
    _warn_if_few(len(stack), "macro averages")
    out: dict[str, dict[str, float]] = {}
    for metric, scores in score_arrays(stack, result.settings.metrics, result.settings.conventions).items():
        defined = defined_where(stack, metric)
        n = int(defined.sum())
        out[metric] = {rate: float(values[defined].mean()) if n else 0.0 for rate, values in scores.items()}
        out[metric]["n_documents"] = n
    return out


def defined_where(stack: np.ndarray, metric: str) -> np.ndarray:
    """Rows of ``stack`` (documents, or strata) whose key gives ``metric``
    something to find (:func:`macro_average` lists the rules)."""
    blocks = METRIC_INFO["muc" if metric == "conll" else metric].count_blocks
    rows = [BLOCK_INDEX[block] for block in blocks]
    return stack[:, rows, 1].sum(axis=1) > 0


def bootstrap_intervals(
    result: CorpusResult, level: float = 0.95, n_resamples: int = 1000, *, seed: int = 0
) -> dict[str, dict[str, Interval]]:
    """Percentile bootstrap intervals (Efron & Tibshirani 1993, ch. 13) of
    the micro-averaged recall, precision and F1 of every metric (CoNLL: F1
    only), keyed as :func:`~spacy_coref_eval.counting.rates.rates`.

    Each of ``n_resamples`` resamples draws as many documents as the corpus
    has, uniformly with replacement (:func:`draw_documents`), sums their
    counts and scores the sum; the interval runs from the
    ``(1 - level) / 2`` to the ``(1 + level) / 2`` quantile of the resampled
    scores (linear interpolation).
    """
    if not 0 < level < 1:
        raise ValueError(f"the confidence level must lie strictly between 0 and 1, not {level}")
    _check_rounds("n_resamples", n_resamples)
    stack = result.stack()
    if len(stack) == 0:
        raise CorefInputError("bootstrap intervals need at least one document; the corpus has none")
    _warn_if_few(len(stack), "bootstrap intervals")
    metrics, conventions = result.settings.metrics, result.settings.conventions
    parts = [_scores(_totals(weights, stack), metrics, conventions) for weights in _bootstrap_weights(len(stack), n_resamples, seed)]
    quantiles = 50 * np.array([1 - level, 1 + level])
    out: dict[str, dict[str, Interval]] = {}
    for metric, rate in parts[0]:
        low, high = np.percentile(np.concatenate([part[metric, rate] for part in parts]), quantiles)
        out.setdefault(metric, {})[rate] = (float(low), float(high))
    return out


def compare(
    result_a: CorpusResult,
    result_b: CorpusResult,
    *,
    n_rounds: int = 10000,
    n_resamples: int = 1000,
    seed: int = 0,
    classes: Optional[tuple["ResolutionClassResult", "ResolutionClassResult"]] = None,
) -> dict[str, dict[str, float]]:
    """Paired comparison of two systems scored on the same documents.

    Per metric (keyed as :func:`~spacy_coref_eval.counting.rates.rates`):
    ``"a"`` and ``"b"``, the micro-averaged F1 of each system (as
    :meth:`CorpusResult.metrics` gives it); ``"difference"`` = b − a
    (positive when system B scores higher); ``"p_value_randomization"`` and
    ``"p_value_bootstrap"``. The same five values for recall and precision
    follow, prefixed ``recall_`` and ``precision_`` (every metric but CoNLL,
    which has F1 only).

    - Approximate randomization (Noreen 1989): each of ``n_rounds`` rounds
      swaps every document's counts between A and B with probability 1/2 and
      takes |b − a| of the micro-averaged scores; p = (number of rounds
      reaching the observed |b − a| (within :data:`TIE`) + 1) /
      (``n_rounds`` + 1). Two-sided.
    - Paired bootstrap (Berg-Kirkpatrick et al. 2012): ``n_resamples``
      resamples of documents, the same for both systems (those of
      :func:`bootstrap_intervals` with this seed); p = the share of
      resamples whose difference b − a does not have the observed sign (is
      0 or of the opposite sign), hence 1 when the observed difference is 0.
      One-sided, in the direction observed (so about half a two-sided p).
      For a bootstrap distribution symmetric about the observed difference
      δ it equals Berg-Kirkpatrick et al.'s share of resamples whose
      difference exceeds 2δ.

    Documents pair by name; both results must hold the same documents and
    have been scored with the same settings, else :class:`CorefInputError`.
    With ``classes`` (each system's resolution classes, documents in the
    order of its result), every class's MUC-RC is tested like a metric, keyed
    ``"rc:PN-e"`` and so on, on the same resampled documents.
    """
    _check_rounds("n_rounds", n_rounds)
    _check_rounds("n_resamples", n_resamples)
    a, b = _paired_counts(result_a, result_b)
    _warn_if_few(len(a), "significance tests")
    score = _scorer(result_a.settings.metrics, result_a.settings.conventions, a.shape[1])
    if classes is not None:
        order = {name: i for i, name in enumerate(result_b.names)}
        a = np.concatenate([a, classes[0].muc_rc], axis=1)
        b = np.concatenate([b, classes[1].muc_rc[[order[name] for name in result_a.names]]], axis=1)
    total_a, total_b = order_free_sum(a), order_free_sum(b)
    observed_a, observed_b = score(total_a), score(total_b)
    observed = _difference(observed_a, observed_b)
    randomization = _randomization_p(a, b, total_a=total_a, total_b=total_b, observed=observed, n_rounds=n_rounds, seed=seed, score=score)
    bootstrap = _bootstrap_p(a, b, observed, n_resamples=n_resamples, seed=seed, score=score)
    out: dict[str, dict[str, float]] = {}
    for key in sorted(observed, key=lambda key: key[1] != "f1"):
        prefix = "" if key[1] == "f1" else f"{key[1]}_"
        out.setdefault(key[0], {}).update(
            {
                f"{prefix}a": float(observed_a[key]),
                f"{prefix}b": float(observed_b[key]),
                f"{prefix}difference": float(observed[key]),
                f"{prefix}p_value_randomization": randomization[key],
                f"{prefix}p_value_bootstrap": bootstrap[key],
            }
        )
    return out


def _randomization_p(
    a: np.ndarray,
    b: np.ndarray,
    *,
    total_a: np.ndarray,
    total_b: np.ndarray,
    observed: dict[Key, np.ndarray],
    n_rounds: int,
    seed: int,
    score: "Scorer",
) -> dict[Key, float]:
    """Approximate randomization p-values (see :func:`compare`): swapping
    the documents of a set S moves Σ_S (b_d − a_d) from B's total to A's."""
    rng = np.random.default_rng(seed)
    differences = b - a
    reached = dict.fromkeys(observed, 0)
    for size in _chunks(n_rounds, len(a)):
        swapped = (rng.random((size, len(a))) < 0.5).astype(np.float64)
        shift = _totals(swapped, differences)
        rounds = _difference(score(total_a + shift), score(total_b - shift))
        for key, values in rounds.items():
            reached[key] += int(np.count_nonzero(np.abs(values) >= np.abs(observed[key]) - TIE))
    return {key: (count + 1) / (n_rounds + 1) for key, count in reached.items()}


def _bootstrap_p(
    a: np.ndarray, b: np.ndarray, observed: dict[Key, np.ndarray], *, n_resamples: int, seed: int, score: "Scorer"
) -> dict[Key, float]:
    """Paired bootstrap p-values (see :func:`compare`)."""
    disagree = dict.fromkeys(observed, 0)
    for weights in _bootstrap_weights(len(a), n_resamples, seed):
        resampled = _difference(score(_totals(weights, a)), score(_totals(weights, b)))
        for key, values in resampled.items():
            disagree[key] += int(np.count_nonzero(values * np.sign(observed[key]) <= 0))
    return {key: count / n_resamples for key, count in disagree.items()}


def draw_documents(rng: "np.random.Generator", n_rounds: int, n_docs: int) -> np.ndarray:
    """``(n_rounds, n_docs)`` document indices drawn uniformly with
    replacement: ⌊n_docs · u⌋ for ``u = rng.random((n_rounds, n_docs))``."""
    drawn = (rng.random((n_rounds, n_docs)) * n_docs).astype(np.int64)
    return np.minimum(drawn, n_docs - 1)


def _bootstrap_weights(n_docs: int, n_resamples: int, seed: int) -> Iterator[np.ndarray]:
    """How often each document is drawn in each resample, chunk by chunk:
    arrays of shape ``(rounds, n_docs)``."""
    rng = np.random.default_rng(seed)
    for size in _chunks(n_resamples, n_docs):
        drawn = draw_documents(rng, size, n_docs) + n_docs * np.arange(size)[:, None]
        counts = np.bincount(drawn.ravel(), minlength=size * n_docs)
        yield counts.reshape(size, n_docs).astype(np.float64)


def _chunks(n_rounds: int, n_docs: int) -> list[int]:
    step = max(1, CHUNK_CELLS // max(n_docs, 1))
    return [min(step, n_rounds - start) for start in range(0, n_rounds, step)]


def _totals(weights: np.ndarray, stack: np.ndarray) -> np.ndarray:
    """Counts of the weighted corpora: ``(rounds, n_docs)`` weights times an
    ``(n_docs, blocks, fields)`` stack in one matrix product."""
    return (weights @ stack.reshape(len(stack), -1)).reshape(len(weights), *stack.shape[1:])


def _scores(totals: np.ndarray, metrics: Sequence[str], conventions: Conventions) -> dict[Key, np.ndarray]:
    """Every (metric, rate) score of count totals."""
    scored = score_arrays(totals, metrics, conventions)
    return {(metric, rate): values for metric, scores in scored.items() for rate, values in scores.items()}


Scorer = Callable[[np.ndarray], dict[Key, np.ndarray]]


def _scorer(metrics: Sequence[str], conventions: Conventions, n_blocks: int) -> Scorer:
    """Every (metric, rate) score of count totals whose first ``n_blocks``
    blocks are a counts array's and whose further blocks, if any, are
    MUC-RC counts of the resolution classes (keyed ``rc:CLASS``)."""
    from .resolution import RESOLUTION_CLASSES

    def score(totals: np.ndarray) -> dict[Key, np.ndarray]:
        out = _scores(totals[..., :n_blocks, :], metrics, conventions)
        for index, name in enumerate(RESOLUTION_CLASSES[: totals.shape[-2] - n_blocks]):
            for rate, values in prf_arrays(totals[..., n_blocks + index, :]).items():
                out[f"rc:{name}", rate] = values
        return out

    return score


def _difference(a: dict[Key, np.ndarray], b: dict[Key, np.ndarray]) -> dict[Key, np.ndarray]:
    return {key: b[key] - a[key] for key in a}


def _paired_counts(result_a: CorpusResult, result_b: CorpusResult) -> tuple[np.ndarray, np.ndarray]:
    """Both stacks of per-document counts, in the order of ``result_a``."""
    if result_a.settings.to_dict() != result_b.settings.to_dict():
        raise CorefInputError(
            f"cannot compare results scored with different settings: {result_a.settings.to_dict()} and {result_b.settings.to_dict()}"
        )
    check_same_documents(result_a.documents, result_b.documents, "cannot compare: the systems were scored on different documents")
    if not result_a.documents:
        raise CorefInputError("cannot compare: no documents")
    return result_a.stack(), result_b.stack(result_a.documents)


def check_same_documents(a: Iterable[str], b: Iterable[str], message: str, *, labels: tuple[str, str] = ("A", "B")) -> None:
    """Raise :class:`CorefInputError` with ``message`` and what differs
    unless the document names ``a`` and ``b`` are the same set."""
    a, b = list(a), list(b)
    set_a, set_b = set(a), set(b)
    only_a = [name for name in a if name not in set_b]
    only_b = [name for name in b if name not in set_a]
    parts = [f"{len(names)} only in {label}: {listed(names, 3)}" for names, label in zip((only_a, only_b), labels) if names]
    if parts:
        raise CorefInputError(f"{message} ({'; '.join(parts)})")


def _check_rounds(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive whole number, not {value!r}")


def _warn_if_few(n_docs: int, what: str) -> None:
    if 0 < n_docs < FEW_DOCUMENTS:
        warn(
            f"{what} over {n_docs} document(s) are unreliable: resampling and averaging need at least {FEW_DOCUMENTS} documents to say much"
        )
