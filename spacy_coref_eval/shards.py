"""Save the per-document counts of a run and merge runs.

Counts are additive (docs/metrics.md §1), so a corpus can be scored in shards, on one
machine or many, and the shards merged into exactly the score of the whole.
A counts file holds the settings, every document's counts and the warnings,
as JSON (``.json``) or msgpack (any other suffix); both keep every float
exactly, so merged scores equal the scores of the whole to the last bit.
"""
import json
from pathlib import Path
from typing import Any, Dict, Iterable, Sequence

import numpy as np

from .counting import BLOCK_INDEX, BLOCKS, FIELDS, METRIC_INFO, Counts, empty_counts, reported
from .errors import CorefInputError
from .files import PathLike, write_output
from .scoring import CorpusResult, Settings

FORMAT = "spacy-coref-eval counts"
VERSION = 1
SLACK = 1e-9
"""Float noise allowed when checking that a numerator is at most its denominator."""


def counts_data(result: CorpusResult) -> Dict[str, Any]:
    """The serialisable form of a result's counts."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "settings": result.settings.to_dict(),
        "documents": {name: counts.as_dict() for name, counts in result.documents.items()},
        "warnings": list(result.warnings),
    }


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
    if data.get("version") != VERSION:
        raise CorefInputError(f"{path}: counts file version {data.get('version')}, expected {VERSION}")
    try:
        settings = Settings.from_dict(data["settings"])
        names = tuple(str(name) for name in data["documents"])
        counts = [_document_counts(path, name, doc, settings.metrics) for name, doc in data["documents"].items()]
        warnings = data.get("warnings", [])
        if not isinstance(warnings, list) or not all(isinstance(warning, str) for warning in warnings):
            raise CorefInputError(f"{path}: malformed counts file (warnings must be a list of strings)")
    except CorefInputError:
        raise
    except (KeyError, TypeError, AttributeError, ValueError, OverflowError) as err:
        raise CorefInputError(f"{path}: malformed counts file ({type(err).__name__}: {err})") from None
    array = np.stack(counts) if counts else empty_counts(0)
    _check_counts(path, names, array, settings)
    return CorpusResult(settings, names, array, warnings)


def _document_counts(path: Path, name: str, doc: Any, metrics: Sequence[str]) -> np.ndarray:
    """One document's counts, a count that is not a number named."""
    try:
        return Counts.from_dict(doc, metrics).array
    except ValueError as err:
        raise CorefInputError(f"{path}: document {name!r}: {err}") from None


def _check_counts(path: Path, names: Sequence[str], array: np.ndarray, settings: Settings) -> None:
    """Refuse counts no scoring run can give: not finite, negative, a
    numerator above its denominator, a fraction where a metric counts
    (:attr:`~.counting.metrics.Metric.fractional`, and
    :attr:`~.counting.metrics.Metric.partial_credit` where split
    antecedents are scored, :attr:`~.counting.metrics.Metric.weighted`
    under weights by entity type). With zeros
    excluded, an entity left without mentions takes 1 from MUC's
    denominators (docs/corefud.md §10), which may then be negative."""
    whole = np.zeros(array.shape, dtype=bool)
    splits = settings.anaphora.split_antecedents != "remove"
    weighted = settings.lea_importance.needs_types
    for metric in reported(settings.metrics):
        info = METRIC_INFO[metric]
        for block in info.count_blocks:
            fractional = info.fractional + (info.partial_credit if splits else ()) + (info.weighted if weighted else ())
            whole[:, BLOCK_INDEX[block], [i for i, field in enumerate(FIELDS) if field not in fractional]] = True
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
        )
    for mask, what in checks:
        if mask.any():
            doc, row, column = (int(i) for i in np.argwhere(mask)[0])
            raise CorefInputError(
                f"{path}: document {names[doc]!r}: {BLOCKS[row]} {FIELDS[column]} "
                f"({float(array[doc, row, column])!r}) {what}"
            )


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
    origin: Dict[str, str] = {}
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
    )
