"""Stages 2 and 3: twin response mentions with key mentions
(:mod:`.matchers`, giving a :class:`TwinnedCorpus`), then rewrite the pair
for the twinless policy (:mod:`.policies`). The partitions that come out
(:class:`Twinned`) are all the counting stage needs."""

from .matchers import MATCHERS, ExactMatcher, HeadMatcher, Matcher, OverlapMatcher, PartialMatcher, get_matcher
from .policies import POLICIES, apply_policy, get_policy
from .twinned import Twinned, TwinnedCorpus, twin_batches, twin_corpus

__all__ = [
    "MATCHERS",
    "ExactMatcher",
    "HeadMatcher",
    "Matcher",
    "OverlapMatcher",
    "PartialMatcher",
    "get_matcher",
    "POLICIES",
    "apply_policy",
    "get_policy",
    "Twinned",
    "TwinnedCorpus",
    "twin_batches",
    "twin_corpus",
]
