"""The variant matrix (docs/analyses.md §4): one read of the input scored
under the reference setting and under every matching (exact, head,
partial) with singletons kept and removed under the CorefUD scorer's
conventions (``--preset corefud``), the table the CRAC shared tasks
report; each row is what ``score`` gives with that setting alone."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Optional

from ..errors import CorefInputError
from ..model.clusters import Pair
from ..scoring import Settings, score_pairs

VARIANTS: tuple[tuple[Optional[str], str, str], ...] = (
    (None, "exact", "keep"),
    ("corefud", "exact", "keep"),
    ("corefud", "exact", "remove"),
    ("corefud", "head", "keep"),
    ("corefud", "head", "remove"),
    ("corefud", "partial", "keep"),
    ("corefud", "partial", "remove"),
)
"""``(preset, match, singletons)`` of every row, the reference setting
(no preset) first."""


@dataclass(frozen=True)
class Variant:
    """One row: its setting, and its scores (``metrics``) or why it has none
    (``reason``: the input lacks what its matching reads)."""

    preset: Optional[str]
    match: str
    singletons: str
    settings: Optional[Settings] = None
    metrics: Optional[dict[str, dict]] = None
    reason: Optional[str] = None

    @property
    def name(self) -> str:
        """``reference`` or ``corefud``, the matching and the singletons."""
        return f"{self.preset or 'reference'} {self.match} {'singletons kept' if self.singletons == 'keep' else 'singletons removed'}"

    def to_dict(self) -> dict[str, Any]:
        """A row of the JSON ``variants``."""
        out: dict[str, Any] = {
            "preset": self.preset or "reference",
            "match": self.match,
            "singletons": self.singletons,
            "available": self.metrics is not None,
        }
        if self.metrics is not None and self.settings is not None:
            out["settings"] = self.settings.to_dict()
            out["metrics"] = self.metrics
        else:
            out["reason"] = self.reason
        return out


def score_variants(
    pairs: Sequence[Pair], settings: Settings, n_process: int = 1, *, variants: Sequence[tuple[Optional[str], str, str]] = VARIANTS
) -> list[Variant]:
    """Every row of ``variants`` scored on the same ``pairs`` (one read of
    the input), with the metrics, twinless policy and zero handling of
    ``settings``. A row whose matching needs heads the input lacks is not
    available, with the reason."""
    out = []
    for preset, match, singletons in variants:
        chosen = Settings.from_options(
            settings.metrics,
            match,
            settings.twinless,
            singletons=singletons,
            preset=preset,
            zeros=settings.zeros,
            lea_importance=settings.lea_importance,
        )
        try:
            result = score_pairs(pairs, chosen, n_process=n_process, keep_twinned=False)
        except CorefInputError as err:
            out.append(Variant(preset, match, singletons, reason=str(err)))
            continue
        out.append(Variant(preset, match, singletons, chosen, metrics=result.metrics()))
    return out
