"""Save the per-document counts of a run and merge runs.

Counts are additive (docs/metrics.md §1), so a corpus can be scored in shards, on one
machine or many, and the shards merged into exactly the score of the whole.
A counts file holds the settings, every document's counts, what each
document allows (``split_antecedents``: whether it has any, the only source
of partial-credit fractions; its mention counts are its ``mentions`` block)
and the warnings, as JSON (``.json``) or msgpack (any other suffix); both
keep every float exactly, and totals are summed in an order-free way, so
merged scores equal the scores of the whole to the last bit. Version 2 added
``split_antecedents``; files of version 1 are still read, with the checks
that need it left out.
"""

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Optional

import numpy as np

from .counting import BLOCK_INDEX, BLOCKS, FIELDS, METRIC_INFO, Counts, empty_counts, reported
from .errors import CorefInputError
from .files import PathLike, write_output
from .scoring import CorpusResult, Settings

FORMAT = "spacy-coref-eval counts"
VERSION = 2
VERSIONS = (1, 2)
SLACK = 1e-9
"""Float noise allowed when checking that a numerator is at most its denominator."""


def counts_data(result: CorpusResult) -> dict[str, Any]:
    """The serialisable form of a result's counts."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "settings": result.settings.to_dict(),
        "documents": {name: counts.as_dict() for name, counts in result.documents.items()},
        "split_antecedents": [name for name, split in zip(result.names, _splits(result).tolist()) if split],
        "warnings": list(result.warnings),
    }


def _splits(result: CorpusResult) -> np.ndarray:
    """Whether each document of ``result`` has split antecedents; where
    not known, whether its counts hold a partial-credit fraction."""
    if result.splits is not None:
        return result.splits
    whole = _whole_counts(result.counts.shape, result.settings, np.zeros(len(result.names), dtype=bool))
    return (whole & (result.counts != np.round(result.counts))).any(axis=(1, 2))


def save_counts(result: CorpusResult, path: PathLike, inputs: Iterable[PathLike] = ()) -> None:
    """Write the per-document counts of ``result`` to ``path`` (never over
    one of ``inputs``)."""
    data = counts_data(result)
    if Path(path).suffix == ".json":
        write_output(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n", inputs)
    else:
        import srsly

        write_output(path, srsly.msgpack_dumps(data), inputs)


def load_counts(path: PathLike) -> CorpusResult:
    """Read a counts file written by :func:`save_counts`; counts that are
    not finite, negative or with a numerator above its denominator are
    refused, naming the document and the field."""
    import srsly

    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf8")) if path.suffix == ".json" else srsly.read_msgpack(path)
    except (OSError, ValueError) as err:
        raise CorefInputError(f"{path}: cannot read counts file: {err}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CorefInputError(f"{path}: not a counts file written by spacy-coref-eval --save-counts")
    if data.get("version") not in VERSIONS:
        raise CorefInputError(f"{path}: counts file version {data.get('version')}, expected one of {', '.join(map(str, VERSIONS))}")
    try:
        settings = Settings.from_dict(data["settings"])
        names = tuple(str(name) for name in data["documents"])
        counts = [_document_counts(path, name, doc, metrics=settings.metrics) for name, doc in data["documents"].items()]
        warnings = data.get("warnings", [])
        if not isinstance(warnings, list) or not all(isinstance(warning, str) for warning in warnings):
            raise CorefInputError(f"{path}: malformed counts file (warnings must be a list of strings)")
        splits = None
        if data["version"] >= 2:
            listed = data["split_antecedents"]
            if not isinstance(listed, list) or not set(map(str, listed)) <= set(names):
                raise CorefInputError(f"{path}: malformed counts file (split_antecedents must list documents of the file)")
            splits = np.array([name in set(map(str, listed)) for name in names], dtype=bool)
    except CorefInputError:
        raise
    except (KeyError, TypeError, AttributeError, ValueError, OverflowError) as err:
        raise CorefInputError(f"{path}: malformed counts file ({type(err).__name__}: {err})") from None
    array = np.stack(counts) if counts else empty_counts(0)
    _check_counts(path, names, array, settings=settings, splits=splits)
    return CorpusResult(settings, names, array, warnings, twinned=None, splits=splits)


def _document_counts(path: Path, name: str, doc: Any, *, metrics: Sequence[str]) -> np.ndarray:
    """One document's counts, a count that is not a number named."""
    try:
        return Counts.from_dict(doc, metrics).array
    except ValueError as err:
        raise CorefInputError(f"{path}: document {name!r}: {err}") from None


def _check_counts(path: Path, names: Sequence[str], array: np.ndarray, *, settings: Settings, splits: Optional[np.ndarray] = None) -> None:
    """Refuse counts no scoring run can give: not finite, negative, a
    numerator above its denominator, a fraction where a metric counts
    (:attr:`~.counting.metrics.Metric.fractional`, and
    :attr:`~.counting.metrics.Metric.partial_credit` in a document with
    split antecedents where they are scored, :attr:`~.counting.metrics.Metric.weighted`
    under weights by entity type), or, in a document without split
    antecedents (``splits``, ``None``: not known), a denominator larger
    than its mentions allow (:func:`_bounds`). With zeros
    excluded, an entity left without mentions takes 1 from MUC's
    denominators (docs/corefud.md §10), which may then be negative."""
    whole = _whole_counts(array.shape, settings, splits)
    signed = np.zeros(array.shape, dtype=bool)
    if settings.zeros == "exclude":
        signed[:, BLOCK_INDEX["muc"], 1::2] = True
    with np.errstate(invalid="ignore"):
        above = np.zeros(array.shape, dtype=bool)
        above[..., 0::2] = (array[..., 0::2] > array[..., 1::2] * (1 + SLACK) + SLACK) & ~signed[..., 1::2]
        checks = (
            (~np.isfinite(array), "is not a finite number"),
            ((array < 0) & ~signed, "is negative"),
            (above, "is larger than its denominator"),
            (whole & (array != np.round(array)), "is not a whole number"),
            (_bounds(array, settings, splits), "is more than the document's mentions allow"),
        )
    for mask, what in checks:
        if mask.any():
            doc, row, column = (int(i) for i in np.argwhere(mask)[0])
            raise CorefInputError(
                f"{path}: document {names[doc]!r}: {BLOCKS[row]} {FIELDS[column]} ({float(array[doc, row, column])!r}) {what}"
            )


def _whole_counts(shape: tuple[int, ...], settings: Settings, splits: Optional[np.ndarray]) -> np.ndarray:
    """Which counts must be whole numbers (:func:`_check_counts`)."""
    whole = np.zeros(shape, dtype=bool)
    scored = settings.anaphora.split_antecedents != "remove"
    allowed = np.ones(shape[0], dtype=bool) if splits is None else splits
    weighted = settings.lea_importance.needs_types
    for metric in reported(settings.metrics):
        info = METRIC_INFO[metric]
        for block in info.count_blocks:
            fractional = info.fractional + (info.weighted if weighted else ())
            whole[:, BLOCK_INDEX[block], [i for i, field in enumerate(FIELDS) if field not in fractional]] = True
            if scored:
                partial = [i for i, field in enumerate(FIELDS) if field in info.partial_credit and field not in fractional]
                for column in partial:
                    whole[allowed, BLOCK_INDEX[block], column] = False
    return whole


BOUNDED = ("muc", "bcub", "ceafm", "ceafe", "lea")
"""Blocks whose denominators count at most the key and response mentions
of a document (entities, mentions, links within entities; LEA's with
importance by size), whatever the settings."""


def _bounds(array: np.ndarray, settings: Settings, splits: Optional[np.ndarray]) -> np.ndarray:
    """Denominators above what a document without split antecedents can
    give where zero mentions are kept (excluded, their entities stay):
    its key and response mentions (its ``mentions`` block's
    denominators, K + R) for :data:`BOUNDED` blocks, (K + R)(K + R - 1) / 2
    links for BLANC's (Recasens & Hovy 2011)."""
    out = np.zeros(array.shape, dtype=bool)
    if splits is None or not len(array) or settings.zeros != "keep":
        return out
    mentions = array[:, BLOCK_INDEX["mentions"], 1] + array[:, BLOCK_INDEX["mentions"], 3]
    links = mentions * (mentions - 1) / 2
    chosen = set(reported(settings.metrics))
    blocks = [(block, mentions) for block in BOUNDED if block in chosen and not (block == "lea" and settings.lea_importance.needs_types)]
    if "blanc" in chosen:
        blocks += [("blanc_coref", links), ("blanc_noncoref", links)]
    for block, most in blocks:
        for column in (1, 3):
            out[:, BLOCK_INDEX[block], column] = ~splits & (array[:, BLOCK_INDEX[block], column] > most * (1 + SLACK) + SLACK)
    return out


def merge_results(results: Iterable[CorpusResult], names: Iterable[str] = ()) -> CorpusResult:
    """One result from shards scored with the same settings; a document may
    appear in only one shard. ``names`` label the shards in errors."""
    results = list(results)
    labels = list(names) or [f"shard {i + 1}" for i in range(len(results))]
    if not results:
        raise CorefInputError("nothing to merge")
    if len(labels) != len(results):
        raise ValueError(f"{len(labels)} names for {len(results)} results")
    first = results[0].settings.to_dict()
    origin: dict[str, str] = {}
    for label, result in zip(labels, results):
        if result.settings.to_dict() != first:
            raise CorefInputError(
                f"{label}: scored with settings {result.settings.to_dict()}, "
                f"but {labels[0]} with {first}; only runs with the same settings merge"
            )
        for name in result.names:
            if name in origin:
                raise CorefInputError(f"document {name!r} is in both {origin[name]} and {label}")
            origin[name] = label
    return CorpusResult(
        results[0].settings,
        tuple(origin),
        np.concatenate([result.counts for result in results]),
        [warning for result in results for warning in result.warnings],
        twinned=None,
        splits=None if any(result.splits is None for result in results) else np.concatenate([result.splits for result in results]),
    )
