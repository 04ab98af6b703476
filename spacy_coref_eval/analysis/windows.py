"""Windows (docs/long-documents.md §3): the key and the response of every
document cut into consecutive windows of ``--window N`` tokens or
``--window-sentences N`` sentences, a mention in the window of its start
(a twinned response mention in its twin's), entities cut at window edges,
every window scored as a document of its own from the run's twinning, as
BookCoref (Martinelli et al. 2025) scores books split into windows; the
report shows the windowed scores beside the whole documents'."""

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import CorefInputError
from ..scoring import CorpusResult
from .registry import Context
from .spread import sentence_index
from .strata import StratumValues, score_strata


def window_values(context: Context) -> StratumValues:
    """The window of every mention of the run's twinning."""
    twinned = context.result.twinned
    if twinned is None:
        raise CorefInputError("windows need the twinned mentions; results merged from saved counts have none")
    size, unit = window_size(context.values)
    if unit == "sentences":
        if context.corpus is None:
            raise CorefInputError("--window-sentences needs the key's sentences")
        position = sentence_index(twinned, context.corpus.tokens())

        def window(clusters: Any, doc: np.ndarray) -> np.ndarray:
            return position[np.minimum(clusters.starts, max(len(position) - 1, 0))] // size if len(position) else doc * 0
    else:

        def window(clusters: Any, doc: np.ndarray) -> np.ndarray:
            return (clusters.starts - twinned.offsets[doc]) // size

    key = window(twinned.key, twinned.key_doc).astype(np.int64)
    response = window(twinned.response, twinned.response_doc).astype(np.int64)
    n = int(max(key.max(initial=0), response.max(initial=0))) + 1
    return StratumValues("window", tuple(str(i + 1) for i in range(n)), key, response)


def window_size(values: Mapping[str, Any]) -> tuple:
    """``(N, unit)`` of ``--window`` or ``--window-sentences``."""
    tokens, sentences = values.get("window"), values.get("window_sentences")
    if tokens is not None and sentences is not None:
        raise ValueError("give --window or --window-sentences, not both")
    size = tokens if tokens is not None else sentences
    if size is None or size < 1:
        raise ValueError(f"a window holds at least one token or sentence, not {size}")
    return int(size), "tokens" if tokens is not None else "sentences"


def check(values: Mapping[str, Any], scoring: Any = None) -> None:
    window_size(values)


def compute(context: Context) -> dict[str, Any]:
    """The windows' counts: the strata of :func:`window_values` scored at once."""
    size, unit = window_size(context.values)
    return {"size": size, "unit": unit, "strata": score_strata(context.result, window_values(context))}


def to_json(value: Mapping[str, Any], per_doc: bool) -> dict[str, Any]:
    """The ``windows`` block: ``size``, ``unit``, ``n_windows`` (holding a
    mention), the windowed ``metrics`` (every window's counts summed, in
    the shape of the top-level ``metrics``) and, with ``per_doc``, every
    document's windows that hold a mention, numbered from 1."""
    strata = value["strata"]
    counts = strata.counts
    occupied = (strata.key_mentions + strata.response_mentions) > 0
    out: dict[str, Any] = {
        "size": value["size"],
        "unit": value["unit"],
        "n_windows": int(occupied.sum()),
        "metrics": CorpusResult(strata.settings, strata.documents, counts.sum(axis=1), []).metrics(),
    }
    if per_doc:
        out["documents"] = {
            name: {
                strata.names[w]: CorpusResult(strata.settings, (name,), counts[d : d + 1, w], []).metrics()
                for w in np.flatnonzero(occupied[d]).tolist()
            }
            for d, name in enumerate(strata.documents)
        }
    return out
