"""How to score, as one value: :class:`Settings`."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Union

from ..counting import DEFAULT_METRICS, Conventions, check_metrics
from ..counting.importance import SIZE, LeaImportance
from ..model.ua.modes import Modes
from ..presets import REFERENCE, Preset, get_preset
from ..twinning import ExactMatcher, Matcher, get_policy

if TYPE_CHECKING:
    from ..compat.coval.score import CovalOptions

SINGLETON_MODES = ("keep", "remove")
ZERO_MODES = ("keep", "exclude")


@dataclass(frozen=True)
class Settings:
    """How to score: which ``metrics``, how mentions are twinned
    (``match``, a matcher object: docs/metrics.md §3), what happens to
    twinless mentions (``twinless``, §4), whether singleton entities count
    (``singletons``: ``"keep"`` or ``"remove"``) and zero mentions
    (``zeros``: ``"keep"``, or ``"exclude"`` after singletons, as the
    CorefUD scorer's option does), and whose conventions turn counts into
    scores (``preset``, a :class:`~.presets.Preset`; its matcher and
    singletons come from :meth:`from_options`), and the Universal Anaphora
    scorer's modes (``anaphora``, docs/ua.md). Build it from names with
    :meth:`from_options` or from the JSON ``settings`` with
    :meth:`from_dict`."""

    metrics: tuple[str, ...] = DEFAULT_METRICS
    match: Matcher = ExactMatcher()
    twinless: str = "conll"
    singletons: str = "keep"
    preset: Preset = REFERENCE
    zeros: str = "keep"
    lea_importance: LeaImportance = SIZE
    anaphora: Modes = Modes()
    coval: Optional["CovalOptions"] = None
    """coval's options under ``--preset coval`` (docs/coval.md), else ``None``."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "metrics", check_metrics(self.metrics))
        if isinstance(self.match, str) or not callable(self.match):
            raise TypeError(
                f"match must be a matcher object, not {self.match!r} (use Settings.from_options(match=...) for a matcher by name)"
            )
        get_policy(self.twinless)
        if self.singletons not in SINGLETON_MODES:
            raise ValueError(f"singletons must be one of {SINGLETON_MODES}, not {self.singletons!r}")
        if not isinstance(self.preset, Preset):
            raise TypeError(f"preset must be a Preset, not {self.preset!r} (use Settings.from_options(preset=...))")
        if self.zeros not in ZERO_MODES:
            raise ValueError(f"zeros must be one of {ZERO_MODES}, not {self.zeros!r}")
        if not isinstance(self.lea_importance, LeaImportance):
            raise TypeError(
                f"lea_importance must be a LeaImportance, not {self.lea_importance!r} "
                "(use Settings.from_options(lea_importance=...) or LeaImportance.of(...) for one by name)"
            )
        if self.coval is not None and not self.preset.reads_itself:
            raise ValueError("coval's options (mina, np_only, remove_nested) go with the coval preset")
        if self.coval is None and self.preset.reads_itself:
            raise ValueError(
                "the coval preset scores CoNLL-2012 files as coval reads them: use evaluate_corpus or the command "
                "line (Settings.from_options(preset='coval') sets its options)"
            )
        if self.coval is not None:
            _check_coval(self)

    @property
    def count_options(self) -> dict[str, Any]:
        """The settings metrics count with (:attr:`~.counting.metrics.Metric.options`)."""
        return {"lea_importance": self.lea_importance}

    @property
    def conventions(self) -> Conventions:
        """The rules that turn counts into scores (the preset's)."""
        return self.preset.conventions

    @classmethod
    def from_options(
        cls,
        metrics: Iterable[str] = DEFAULT_METRICS,
        match: Optional[str] = None,
        twinless: str = "conll",
        *,
        singletons: Optional[str] = None,
        min_overlap: Optional[float] = None,
        overlap_measure: Optional[str] = None,
        preset: Optional[str] = None,
        zeros: str = "keep",
        zero_match: Optional[str] = None,
        lea_importance: Union[str, LeaImportance] = "size",
        lea_weights: Optional[Mapping[str, float]] = None,
        lea_default_weight: Optional[float] = None,
        split_antecedents: str = "keep",
        non_referring: bool = False,
        bridging: bool = False,
        discourse_deixis: bool = False,
        min_spans: bool = False,
        mina: bool = False,
        np_only: bool = False,
        remove_nested: bool = False,
    ) -> "Settings":
        """Settings from names, as the command line and the JSON give them;
        ``min_overlap`` and ``overlap_measure`` are options of
        ``match="overlap"`` (``None``: the matcher's default). ``match``,
        ``singletons`` and ``zero_match`` default to the preset's
        (:mod:`~.presets`; without one, exact matching and singletons kept).
        ``split_antecedents`` to ``min_spans`` are the UA scorer's modes
        (:class:`~.model.ua.modes.Modes`). ``lea_importance`` names LEA's
        importance (``size``, ``uniform``, ``entity-type`` with the
        ``lea_weights`` table and ``lea_default_weight``;
        :class:`~.counting.importance.LeaImportance`).
        ``mina``, ``np_only`` and ``remove_nested`` are coval's options and
        imply ``preset="coval"``, under which the default metrics are those
        coval has (docs/coval.md)."""
        options = {"min_overlap": min_overlap, "overlap_measure": overlap_measure}
        coval = None
        if preset == "coval" or mina or np_only or remove_nested:
            if preset not in (None, "coval"):
                raise ValueError(f"mina, np_only and remove_nested are options of the coval preset, not of {preset!r}")
            from ..compat.coval.score import COVAL_METRICS, CovalOptions

            preset = "coval"
            coval = CovalOptions(mina, np_only, remove_nested, (singletons or "keep") == "keep")
            if tuple(metrics) == DEFAULT_METRICS:
                metrics = [name for name in DEFAULT_METRICS if name in COVAL_METRICS]
        chosen = get_preset(preset)
        matcher = chosen.matcher(match, zero_match, **{name: value for name, value in options.items() if value is not None})
        modes = Modes(split_antecedents, non_referring, bridging, discourse_deixis, min_spans=min_spans, as_scorer=chosen.ua_scorer)
        metrics = tuple(metrics) + tuple(name for name in modes.metrics if name not in metrics)
        importance = LeaImportance.of(lea_importance, lea_weights, lea_default_weight)
        return cls(
            metrics,
            matcher,
            twinless,
            singletons or chosen.singletons,
            preset=chosen,
            zeros=zeros,
            lea_importance=importance,
            anaphora=modes,
            coval=coval,
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Settings":
        """Inverse of :meth:`to_dict`."""
        return cls.from_options(
            data["metrics"],
            data.get("match"),
            data.get("twinless", "conll"),
            singletons=data.get("singletons"),
            min_overlap=data.get("min_overlap"),
            overlap_measure=data.get("overlap_measure"),
            preset=data.get("preset"),
            zeros=data.get("zeros", "keep"),
            zero_match=data.get("zero_match"),
            lea_importance=data.get("lea_importance", "size"),
            lea_weights=data.get("lea_weights"),
            lea_default_weight=data.get("lea_default_weight"),
            **{name: data[name] for name in Modes.__dataclass_fields__ if name in data},
            mina=data.get("mina", False),
            np_only=data.get("np_only", False),
            remove_nested=data.get("remove_nested", False),
        )

    def to_dict(self) -> dict[str, Any]:
        """The settings as echoed in JSON output."""
        return {
            "metrics": list(self.metrics),
            **self.match.config(),
            "twinless": self.twinless,
            "singletons": self.singletons,
            **({"preset": self.preset.name} if self.preset is not REFERENCE else {}),
            **({"zeros": self.zeros} if self.zeros != "keep" else {}),
            **self.lea_importance.to_dict(),
            **self.anaphora.to_dict(),
            **(_coval_settings(self.coval) if self.coval is not None else {}),
        }


def _coval_settings(coval: "CovalOptions") -> dict[str, bool]:
    return {"mina": coval.min_spans, "np_only": coval.np_only, "remove_nested": coval.remove_nested}


def _check_coval(settings: Settings) -> None:
    """What the coval preset cannot do: metrics coval lacks, twinless
    policies, zeros, uniform LEA."""
    from ..compat.coval.score import COVAL_METRICS

    lacking = [name for name in settings.metrics if name not in COVAL_METRICS]
    if lacking:
        raise ValueError(f"coval has no {', '.join(lacking)}; under the coval preset choose from {', '.join(COVAL_METRICS)}")
    if (settings.twinless, settings.zeros, settings.lea_importance) != ("conll", "keep", SIZE):
        raise ValueError("the coval preset scores as coval does: no --twinless, --zeros or --lea-importance")
