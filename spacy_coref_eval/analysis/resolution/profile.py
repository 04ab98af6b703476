"""The class mix of a corpus and the CPP prediction of its MUC score
(Stoyanov et al. 2009, §4, Table 4; docs/resolution_classes.md §4)."""

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Optional, Union

import numpy as np

from ...counting.rates import ratio
from ...errors import CorefInputError
from .lexicon import ANAPHORIC, CLASS_INDEX, MEMBER_COLUMNS, NONE, RESOLUTION_CLASSES

TABLE4_AVERAGE: dict[str, float] = {
    "PN-e": 0.89,
    "PN-p": 0.74,
    "PN-n": 0.21,
    "CN-e": 0.67,
    "CN-p": 0.39,
    "CN-n": 0.18,
    "1+2Pr": 0.70,
    "G3Pr": 0.80,
    "U3Pr": 0.48,
}
"""MUC-RC F1 per class, the average column of Stoyanov et al. (2009),
Table 4: the default scores of the CPP prediction."""


def cpp_prediction(members: np.ndarray, scores: Optional[Mapping[str, float]] = None) -> float:
    """CPP (Stoyanov et al. 2009, §4): the MUC score predicted for a corpus
    from its class mix, Σ_C share(C) · score(C), where share(C) is the
    members of C over all anaphoric mentions (:data:`MEMBER_COLUMNS`; a
    stack of documents is summed first) and score(C) a MUC-RC F1, by
    default :data:`TABLE4_AVERAGE`. A class with members needs a score."""
    total = _total_members(members)
    scores = TABLE4_AVERAGE if scores is None else scores
    shares = ratio(total[: len(RESOLUTION_CLASSES)], total[-1])
    prediction = 0.0
    for name, share in zip(RESOLUTION_CLASSES, shares.tolist()):
        if total[CLASS_INDEX[name]] > 0:
            if name not in scores:
                raise CorefInputError(f"CPP: no score for resolution class {name!r}, which has members")
            prediction += share * float(scores[name])
    return prediction


def class_profile(members: np.ndarray, scores: Optional[Mapping[str, float]] = None) -> dict[str, Any]:
    """The class mix of a corpus, as Table 4's # and % columns: the count
    and share (over anaphoric mentions) of every class, the mentions in no
    class (``none``: the first mentions of entities and the anaphoric
    mentions no class takes, also given apart), the anaphoric mentions, the
    share of them the classes cover, and the CPP prediction with ``scores``
    (default :data:`TABLE4_AVERAGE`), which counts the covered ones only."""
    total = _total_members(members)
    shares = ratio(total[: len(RESOLUTION_CLASSES)], total[-1]).tolist()
    classified = int(total[: len(RESOLUTION_CLASSES)].sum())
    anaphoric = int(total[-1])
    return {
        "classes": {name: {"count": int(total[i]), "share": shares[i]} for i, name in enumerate(RESOLUTION_CLASSES)},
        NONE: int(total[len(RESOLUTION_CLASSES)]),
        "first_mentions": int(total[len(RESOLUTION_CLASSES)]) - (anaphoric - classified),
        "unclassified": anaphoric - classified,
        ANAPHORIC: anaphoric,
        "coverage": float(ratio(classified, anaphoric)),
        "cpp": cpp_prediction(total, scores),
    }


def _total_members(members: np.ndarray) -> np.ndarray:
    members = np.asarray(members, dtype=np.float64)
    if members.shape[-1:] != (len(MEMBER_COLUMNS),):
        raise CorefInputError(f"class counts must have {len(MEMBER_COLUMNS)} columns ({', '.join(MEMBER_COLUMNS)})")
    return members.reshape(-1, len(MEMBER_COLUMNS)).sum(axis=0)


def read_class_scores(source: Union[str, Path, Mapping[str, Any]]) -> dict[str, float]:
    """Per-class MUC-RC F1 for :func:`cpp_prediction`, from a JSON file (or
    its parsed content) in one of two shapes: ``{"PN-e": 0.9, ...}`` (a
    value may also be ``{"f1": 0.9}``), or a document with a
    ``"resolution_classes"`` block of ``{"PN-e": {"muc_rc": {"f1": 0.9}},
    ...}`` as :meth:`ResolutionClassResult.to_dict` writes it. Other keys
    of that block are skipped; in the plain shape an unknown class name is
    an error. Every score must be a number in [0, 1]."""
    where = "class scores"
    if isinstance(source, Mapping):
        data: Any = source
    else:
        where = str(source)
        try:
            data = json.loads(Path(source).read_text(encoding="utf8"))
        except (OSError, UnicodeDecodeError, ValueError) as err:
            raise CorefInputError(f"{where}: cannot read per-class scores: {err}") from None
    if not isinstance(data, Mapping):
        raise CorefInputError(f"{where}: per-class scores must be a JSON object")
    block = data.get("resolution_classes", data)
    nested = block is not data
    if not isinstance(block, Mapping):
        raise CorefInputError(f"{where}: 'resolution_classes' must be a JSON object")
    out: dict[str, float] = {}
    for name, value in block.items():
        if name not in CLASS_INDEX:
            if nested:
                continue
            raise CorefInputError(f"{where}: {name!r} is not a resolution class ({', '.join(RESOLUTION_CLASSES)})")
        if isinstance(value, Mapping):
            value = value.get("muc_rc", value)
            value = value.get("f1") if isinstance(value, Mapping) else None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise CorefInputError(f"{where}: the score of {name!r} must be an F1 between 0 and 1, not {value!r}")
        out[name] = float(value)
    if not out:
        raise CorefInputError(f"{where}: no per-class scores found")
    return out
