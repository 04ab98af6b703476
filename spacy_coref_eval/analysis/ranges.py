"""Ranges of sizes written as ``--chain-lengths`` writes them (``1,2-5,6+``):
the strata of chain lengths, spreads and antecedent distances."""

import re
from dataclasses import dataclass
from typing import Optional

import numpy as np

_RANGE = re.compile(r"^\s*(\d+)\s*(?:(-)\s*(\d+)|(\+))?\s*$")


@dataclass(frozen=True)
class ChainLengths:
    """Chain-length strata: ranges of entity sizes ``(low, high)``
    (``high`` ``None``: no upper bound) covering 1, 2, 3, ... once each,
    named as written (``1``, ``2-5``, ``6+``)."""

    ranges: tuple[tuple[int, Optional[int]], ...]

    @classmethod
    def parse(cls, spec: str, first: int = 1) -> "ChainLengths":
        """``"1,2-5,6+"``: comma-separated sizes ``N``, ranges ``N-M`` and a
        last open range ``N+``, from ``first`` on, without gaps or overlaps."""
        ranges: list[tuple[int, Optional[int]]] = []
        for part in spec.split(","):
            match = _RANGE.match(part)
            if match is None:
                raise ValueError(f"chain lengths {spec!r}: cannot read {part.strip()!r} (write N, N-M or N+)")
            low = int(match.group(1))
            high = None if match.group(4) else int(match.group(3) or low)
            if high is not None and high < low:
                raise ValueError(f"chain lengths {spec!r}: range {part.strip()!r} runs backwards")
            expected = ranges[-1][1] + 1 if ranges and ranges[-1][1] is not None else first
            if ranges and ranges[-1][1] is None:
                raise ValueError(f"chain lengths {spec!r}: nothing may follow the open range {ranges[-1][0]}+")
            if low != expected:
                raise ValueError(f"chain lengths {spec!r}: the ranges must run on from 1 without gaps ({low} after {expected - 1})")
            ranges.append((low, high))
        if ranges[-1][1] is not None:
            raise ValueError(f"chain lengths {spec!r}: the last range must be open, e.g. {ranges[-1][1] + 1}+")
        return cls(tuple(ranges))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f"{low}+" if high is None else (str(low) if low == high else f"{low}-{high}") for low, high in self.ranges)

    def of(self, sizes: np.ndarray) -> np.ndarray:
        """The stratum of every entity size."""
        lows = np.array([low for low, _ in self.ranges], dtype=np.int64)
        return np.searchsorted(lows, sizes, side="right") - 1
