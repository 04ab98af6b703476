"""The UA scorer's modes as one value (docs/ua.md, Modes), apart from
the clusters they select (:mod:`.view`), so that settings hold them
without importing the UA reader."""

from dataclasses import dataclass

SPLIT_MODES = ("keep", "remove", "only")


@dataclass(frozen=True)
class Modes:
    """The UA scorer's modes as values: split antecedents ``keep``,
    ``remove`` or ``only`` (scored alone), the non-referring and bridging
    scores, discourse deixis (the DISCOURSE_DEIXIS column instead of
    IDENTITY, split antecedents kept) and minimum spans; ``as_scorer``:
    read as the UA scorer reads where its guidelines say more (set by the
    ``ua`` preset; docs/ua.md §8)."""

    split_antecedents: str = "keep"
    non_referring: bool = False
    bridging: bool = False
    discourse_deixis: bool = False
    min_spans: bool = False
    as_scorer: bool = False

    def __post_init__(self) -> None:
        if self.split_antecedents not in SPLIT_MODES:
            raise ValueError(f"split antecedents: one of {', '.join(SPLIT_MODES)}, not {self.split_antecedents!r}")

    @property
    def effective(self) -> "Modes":
        """The modes as the UA scorer applies them: discourse deixis keeps
        split antecedents and drops the other scores; scoring split
        antecedents alone drops the non-referring and bridging scores."""
        if self.discourse_deixis:
            return Modes("keep", False, False, True, min_spans=self.min_spans, as_scorer=self.as_scorer)
        if self.split_antecedents == "only":
            return Modes("only", False, False, False, min_spans=self.min_spans, as_scorer=self.as_scorer)
        return self

    @property
    def keeps_singletons(self) -> bool:
        """Whether the modes keep singletons whatever is asked (discourse
        deixis, split antecedents alone), as the UA scorer does."""
        return self.discourse_deixis or self.split_antecedents == "only"

    @property
    def metrics(self) -> tuple[str, ...]:
        """The extra scores the modes ask for."""
        effective = self.effective
        return ("non_referring",) * effective.non_referring + ("bridging",) * effective.bridging

    def to_dict(self) -> dict[str, object]:
        """The modes that differ from the defaults (``as_scorer`` goes with
        the preset, echoed as such)."""
        default = Modes()
        return {
            name: getattr(self, name)
            for name in self.__dataclass_fields__
            if name != "as_scorer" and getattr(self, name) != getattr(default, name)
        }
