"""LEA's importance of an entity (Moosavi & Strube 2016, §4), held as a
value: its size (the definition and every implementation), 1 for every
entity, or a weight by entity type from a table (docs/metrics.md, LEA)."""

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Optional, Union

import numpy as np

KINDS: tuple[str, ...] = ("size", "uniform", "entity-type")


@dataclass(frozen=True)
class LeaImportance:
    """How LEA weighs an entity: ``kind`` ``"size"`` (|e|), ``"uniform"``
    (1) or ``"entity-type"`` (``weights[type]``, ``default`` for an
    entity whose type is missing or not in the table). ``weights`` is a
    sorted tuple of ``(type, weight)``, so that equal tables compare and
    pickle equal; build one from a mapping with :meth:`of`."""

    kind: str = "size"
    weights: tuple[tuple[str, float], ...] = ()
    default: float = 1.0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"LEA importance must be one of {', '.join(KINDS)}, not {self.kind!r}")
        if self.kind != "entity-type" and (self.weights or self.default != 1.0):
            raise ValueError(f"LEA weights and a default weight go with importance entity-type, not {self.kind!r}")
        if self.kind == "entity-type" and not self.weights:
            raise ValueError('LEA importance entity-type needs a weight table (type: weight), e.g. {"person": 2.0}')
        weights = tuple(sorted((str(etype), _weight(value, f"the weight of {etype!r}")) for etype, value in self.weights))
        object.__setattr__(self, "weights", weights)
        object.__setattr__(self, "default", _weight(self.default, "the default weight"))

    @classmethod
    def of(
        cls, value: Union[str, "LeaImportance"] = "size", weights: Optional[Mapping[str, Any]] = None, default: Optional[float] = None
    ) -> "LeaImportance":
        """The importance named ``value`` with its weight table (a mapping
        type → weight) and default weight; a :class:`LeaImportance` as is."""
        if isinstance(value, LeaImportance):
            if weights is not None or default is not None:
                raise ValueError("give LEA weights with an importance name, not with a LeaImportance")
            return value
        if not isinstance(value, str):
            raise TypeError(f"LEA importance must be a name or a LeaImportance, not {value!r}")
        if weights is not None and not isinstance(weights, Mapping):
            raise ValueError(f"LEA weights must map entity types to weights, not {weights!r}")
        return cls(value, tuple((weights or {}).items()), 1.0 if default is None else default)

    @property
    def needs_types(self) -> bool:
        """Whether the weights read the entities' types."""
        return self.kind == "entity-type"

    def __call__(self, sizes: np.ndarray, types: Optional[np.ndarray] = None) -> np.ndarray:
        """The weight of every entity, from its size and (``entity-type``) its type."""
        if self.kind == "size":
            return np.asarray(sizes, dtype=np.float64)
        if self.kind == "uniform":
            return np.ones(len(sizes))
        table = dict(self.weights)
        if types is None:
            return np.full(len(sizes), self.default)
        return np.fromiter((table.get(etype, self.default) for etype in types), dtype=np.float64, count=len(types))

    def to_dict(self) -> dict[str, Any]:
        """The settings members that echo it (none for ``size``)."""
        if self.kind == "size":
            return {}
        if self.kind == "uniform":
            return {"lea_importance": "uniform"}
        return {"lea_importance": self.kind, "lea_weights": dict(self.weights), "lea_default_weight": self.default}


def _weight(value: Any, what: str) -> float:
    try:
        weight = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be a number, not {value!r}") from None
    if not math.isfinite(weight) or weight < 0:
        raise ValueError(f"{what} must be a finite number ≥ 0, not {value!r}")
    return weight


SIZE = LeaImportance()
"""LEA as defined (Moosavi & Strube 2016): an entity weighs its size."""
