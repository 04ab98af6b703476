"""Stages 2 and 3: twin response mentions with key mentions, then apply a
twinless policy. The result is a pair of partitions over one mention id space
(:class:`Twinned`), which is all the counting stage needs."""
from .matchers import MATCHERS, ExactMatcher, HeadMatcher, Matcher, OverlapMatcher, PartialMatcher, get_matcher
from .policies import POLICIES, Twinned, apply_policy, twin

__all__ = [
    "MATCHERS",
    "ExactMatcher",
    "HeadMatcher",
    "Matcher",
    "OverlapMatcher",
    "PartialMatcher",
    "get_matcher",
    "POLICIES",
    "Twinned",
    "apply_policy",
    "twin",
]
