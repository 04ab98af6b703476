"""Presets: the conventions of another scorer as one object, so that
``--preset NAME`` gives that scorer's numbers. A preset sets concrete
values (its matcher, singletons, counting conventions); no stage below
asks for a preset by name. docs/presets.md describes each."""

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from .counting import Conventions
from .twinning import MATCHERS, Matcher, get_matcher
from .twinning.corefud import CorefUDMatcher

LINEAR = "linear"
"""Zero mentions matched as any mention, by their nodes."""


@dataclass(frozen=True)
class Preset:
    """One scorer's conventions: its ``name``, a ``description`` for the
    help, how it ``build`` s its matcher (from a matching name and a given
    matcher object or ``None``; see :meth:`matcher` and :meth:`adopt`),
    the matching it defaults to and those it allows, whether singletons
    are kept by default, and its counting :class:`~.counting.Conventions`."""

    name: str
    description: str
    build: Callable[..., Matcher]
    match: str = "exact"
    matches: Optional[tuple[str, ...]] = None
    """The matchings the preset allows (``None``: every registered matcher)."""
    singletons: str = "keep"
    conventions: Conventions = field(default_factory=Conventions)
    zero_match: Optional[str] = None
    """How zero mentions are matched (``None``: as any mention)."""
    reads_itself: bool = False
    """Whether the preset reads CoNLL-2012 files and counts as its scorer
    does, outside the contingency table (coval: :mod:`.compat.coval`;
    docs/coval.md §6)."""
    ua_scorer: bool = False
    """Whether Universal Anaphora input is read as the UA scorer reads it
    where its guidelines say more (``_Pseudo``, ``Min=a-b``), and CorefUD
    ``SplitAnte=`` scored as it scores ``ElementOf=`` (docs/ua.md §8)."""

    def matcher(self, match: Optional[str] = None, zero_match: Optional[str] = None, **options: Any) -> Matcher:
        """The matcher for ``match`` (default :attr:`match`) with its
        ``options``; ``zero_match`` where the preset matches zeros apart."""
        match = match or self.match
        if self.matches is not None and match not in self.matches:
            raise ValueError(f"the {self.name} preset matches mentions by {', '.join(self.matches)}, not {match!r}")
        return self.build(match, None, **self._zeros(zero_match), **options)

    def adopt(self, matcher: Optional[Matcher]) -> Matcher:
        """The preset's matcher for a registered matcher object of a kind it
        allows (the spaCy scorers take matchers, not names)."""
        if matcher is None:
            return self.matcher()
        kind = getattr(matcher, "name", None)
        if self.matches is not None and (kind not in self.matches or type(matcher) is not MATCHERS[kind]):
            raise ValueError(f"under preset {self.name!r} the match is a registered {_either(self.matches)} matcher, not {matcher!r}")
        return self.build(kind, matcher, **self._zeros(None))

    def _zeros(self, zero_match: Optional[str]) -> dict[str, str]:
        if self.zero_match is None:
            if zero_match not in (None, LINEAR):
                apart = " or ".join(preset.name for preset in PRESETS.values() if preset.zero_match is not None)
                raise ValueError(f"zero mentions are matched {zero_match!r} only under the {apart} preset")
            return {}
        return {"zero_match": zero_match or self.zero_match}


def _either(names: tuple[str, ...]) -> str:
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


def _reference_matcher(match: str, given: Optional[Matcher], **options: Any) -> Matcher:
    return given if given is not None else get_matcher(match, **options)


def _corefud_matcher(match: str, given: Optional[Matcher], zero_match: str = "dependent", **options: Any) -> Matcher:
    if options:
        raise ValueError(f"the corefud preset matches by exact, head or partial and takes no {sorted(options)}")
    return CorefUDMatcher(match, zero_match)


REFERENCE = Preset("reference", "the CoNLL reference scorer (v8.01 with LEA): exact matching, singletons kept", _reference_matcher)
COREFUD = Preset(
    "corefud",
    "the official CorefUD scorer's numbers, with its conventions (head matching and no singletons by default, "
    "its alignment and BLANC rule)",
    _corefud_matcher,
    match="head",
    matches=("exact", "head", "partial"),
    singletons="remove",
    conventions=Conventions(blanc_either_side=True),
    zero_match="dependent",
)
UA = Preset(
    "ua",
    "the Universal Anaphora scorer's numbers (CODI-CRAC): exact matching, singletons kept, its BLANC rule (docs/ua.md)",
    _reference_matcher,
    matches=("exact",),
    conventions=Conventions(blanc_either_side=True),
    ua_scorer=True,
)
COVAL = Preset(
    "coval",
    "coval's numbers (ns-moosavi/coval): its reading of CoNLL-2012 files, MINA minimum spans (--mina), "
    "--np-only and --remove-nested; no BLANC; CEAFm over mentions (docs/coval.md)",
    _reference_matcher,
    matches=("exact",),
    reads_itself=True,
)
PRESETS: dict[str, Preset] = {preset.name: preset for preset in (REFERENCE, COREFUD, UA, COVAL)}
"""Every preset by name; ``reference`` is what no preset means."""


def get_preset(name: Optional[str]) -> Preset:
    """The preset called ``name`` (``None``: :data:`REFERENCE`)."""
    if name is None:
        return REFERENCE
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; choose from {list(PRESETS)}")
    return PRESETS[name]
