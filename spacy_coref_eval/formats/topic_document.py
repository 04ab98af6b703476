"""The documents of one topic stacked into one document (docs/crossdoc.md),
as :mod:`.topics` and :mod:`.conllu_topics` build it."""

from dataclasses import dataclass, field

import numpy as np

from .conll.read import ConllDocument


@dataclass
class TopicDocument(ConllDocument):
    """The documents of one topic as one document: ``parts`` their names,
    ``offsets[i]`` the first token of part ``i`` (``offsets[-1]`` the
    token count)."""

    parts: tuple[str, ...] = ()
    offsets: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))

    def part_of(self, tokens: np.ndarray) -> np.ndarray:
        """The part (document index) each token lies in."""
        return np.searchsorted(self.offsets, tokens, side="right") - 1
