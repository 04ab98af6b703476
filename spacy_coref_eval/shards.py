"""Save the per-document counts of a run and merge runs.

Counts are additive (SPEC §1), so a corpus can be scored in shards, on one
machine or many, and the shards merged into exactly the score of the whole.
A counts file holds the settings, every document's counts and the warnings,
as JSON (``.json``) or msgpack (any other suffix); both keep every float
exactly, so merged scores equal the scores of the whole to the last bit.
"""
import json
from pathlib import Path
from typing import Any, Dict, Iterable, Union

import srsly

from .counting import Counts
from .errors import CorefInputError
from .scoring import CorpusResult, Settings

FORMAT = "spacy-coref-eval counts"
VERSION = 1

PathLike = Union[str, Path]


def counts_data(result: CorpusResult) -> Dict[str, Any]:
    """The serialisable form of a result's counts."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "settings": result.settings.to_dict(),
        "documents": {name: counts.as_dict() for name, counts in result.documents.items()},
        "warnings": list(result.warnings),
    }


def save_counts(result: CorpusResult, path: PathLike) -> None:
    """Write the per-document counts of ``result`` to ``path``."""
    path = Path(path)
    data = counts_data(result)
    try:
        if path.suffix == ".json":
            path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf8")
        else:
            srsly.write_msgpack(path, data)
    except OSError as err:
        raise CorefInputError(f"{path}: cannot write file: {err.strerror or err}") from None


def load_counts(path: PathLike) -> CorpusResult:
    """Read a counts file written by :func:`save_counts`."""
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
        settings = settings_from_dict(data["settings"])
        documents = {
            str(name): Counts.from_dict(counts, settings.metrics) for name, counts in data["documents"].items()
        }
        warnings = [str(warning) for warning in data.get("warnings", ())]
    except (KeyError, TypeError, AttributeError, ValueError) as err:
        raise CorefInputError(f"{path}: malformed counts file ({type(err).__name__}: {err})") from None
    return CorpusResult(settings, documents, warnings)


def settings_from_dict(config: Dict[str, Any]) -> Settings:
    """Inverse of :meth:`Settings.to_dict`."""
    return Settings(
        metrics=tuple(config["metrics"]),
        matcher=config.get("match", "exact"),
        twinless=config.get("twinless", "conll"),
        singletons=config.get("singletons", "keep"),
        min_overlap=config.get("min_overlap"),
        overlap_measure=config.get("overlap_measure"),
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
    documents: Dict[str, Counts] = {}
    origin: Dict[str, str] = {}
    warnings = []
    for label, result in zip(labels, results):
        if result.settings.to_dict() != first:
            raise CorefInputError(
                f"{label}: scored with settings {result.settings.to_dict()}, "
                f"but {labels[0]} with {first}; only runs with the same settings merge"
            )
        for name, counts in result.documents.items():
            if name in documents:
                raise CorefInputError(f"document {name!r} is in both {origin[name]} and {label}")
            documents[name], origin[name] = counts, label
        warnings.extend(result.warnings)
    return CorpusResult(results[0].settings, documents, warnings)
