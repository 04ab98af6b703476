"""Agreement of several span-group families on the same spaCy ``Doc``
objects (docs/agreement.md, In spaCy): each family one annotator, read by
a cluster reader, scored as ``agree`` scores files."""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from ..analysis.agreement import Annotation, agreement
from ..counting import DEFAULT_METRICS
from ..formats.docbin.examples import docs_side
from ..formats.docbin.spans import ClusterReader, parse_reader
from ..scoring import Options, Settings

if TYPE_CHECKING:
    from spacy.tokens import Doc


def agreement_of(
    families: Mapping[str, Union[str, ClusterReader]],
    *,
    metrics: Sequence[str] = DEFAULT_METRICS,
    match: Any = None,
    level: Optional[float] = None,
    n_resamples: int = 1000,
    seed: int = 0,
) -> Callable[[Iterable["Doc"]], dict[str, Any]]:
    """A function of ``Doc`` objects giving the agreement report (the JSON
    of ``agree``) of the span-group ``families``, one annotator each.

    Parameters
    ----------
    families : annotator name → its cluster reader, or a ``--spans`` value (``PREFIX_*``, ``KEY[:ATTR]``).
    metrics : the metrics scored.
    match : a matcher object (default: exact matching).
    level : the bootstrap interval's level (``None``: none).
    n_resamples : bootstrap resamples.
    seed : the resampling seed.
    """
    if len(families) < 2:
        raise ValueError("agreement needs two or more span-group families, one per annotator")
    readers = {name: parse_reader(reader) if isinstance(reader, str) else reader for name, reader in families.items()}
    settings = Settings.from_options(list(metrics))
    options = Options(settings if match is None else replace(settings, match=match))

    def agree(docs: Iterable["Doc"]) -> dict[str, Any]:
        docs = list(docs)
        names = [doc.user_data.get("name") or f"example {i}" for i, doc in enumerate(docs)]
        annotations = [
            Annotation(name, docs_side(docs, reader, "key", names=names), docs_side(docs, reader, "response", names=names))
            for name, reader in readers.items()
        ]
        return agreement(annotations, options, level=level, n_resamples=n_resamples, seed=seed).to_dict()

    return agree
