"""One document's errors read off the run's own twinning, in the kinds of
:mod:`.error_types` (Kummerfeld & Klein 2013), as the waterfall
(:mod:`.waterfall`) transforms them and the error list (:mod:`.error_list`)
lists them. docs/analyses.md §1 defines every kind and its fix."""

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..model.clusters import Clusters, same_sets
from ..twinning import TwinnedCorpus

NONE = -1


@dataclass(frozen=True)
class DocumentErrors:
    """The key and response of one document and the key twin of every
    response mention (``twins``, -1 for none), as
    :meth:`TwinnedCorpus.document` gives them."""

    key: Clusters
    response: Clusters
    twins: np.ndarray

    @classmethod
    def of(cls, twinned: TwinnedCorpus, index: int) -> "DocumentErrors":
        return cls(*twinned.document(index))

    @cached_property
    def twinned(self) -> np.ndarray:
        """Indices of the response mentions that have a twin."""
        return np.flatnonzero(self.twins >= 0)

    @cached_property
    def key_twin(self) -> np.ndarray:
        """The response twin of every key mention, or -1."""
        out = np.full(len(self.key), NONE, dtype=np.int64)
        out[self.twins[self.twinned]] = self.twinned
        return out

    @cached_property
    def span_errors(self) -> np.ndarray:
        """Twinned response mentions whose tokens differ from their twin's."""
        found = self.twinned
        same = same_sets(self.key, self.response, k=self.twins[found], r=found)
        return found[~same]

    @cached_property
    def cells(self) -> tuple[np.ndarray, np.ndarray]:
        """Key entity and response entity of every twinned response mention."""
        found = self.twinned
        return self.key.entity[self.twins[found]], self.response.entity[found]

    @cached_property
    def found_key_entities(self) -> np.ndarray:
        """Mask over key entities: some mention has a twin."""
        out = np.zeros(self.key.n_entities, dtype=bool)
        out[self.cells[0]] = True
        return out

    @cached_property
    def found_response_entities(self) -> np.ndarray:
        """Mask over response entities: some mention has a twin."""
        out = np.zeros(self.response.n_entities, dtype=bool)
        out[self.cells[1]] = True
        return out

    @cached_property
    def twinless_key(self) -> np.ndarray:
        return np.flatnonzero(self.key_twin < 0)

    @cached_property
    def twinless_response(self) -> np.ndarray:
        return np.flatnonzero(self.twins < 0)

    @property
    def missing_mentions(self) -> np.ndarray:
        """Twinless key mentions of entities the response has found."""
        return self.twinless_key[self.found_key_entities[self.key.entity[self.twinless_key]]]

    @property
    def extra_mentions(self) -> np.ndarray:
        """Twinless response mentions of entities holding a twinned mention."""
        return self.twinless_response[self.found_response_entities[self.response.entity[self.twinless_response]]]

    @property
    def missing_entities(self) -> np.ndarray:
        """Key entities none of whose mentions has a twin."""
        return np.flatnonzero(~self.found_key_entities)

    @property
    def extra_entities(self) -> np.ndarray:
        """Response entities none of whose mentions has a twin."""
        return np.flatnonzero(~self.found_response_entities)

    @cached_property
    def divided_entities(self) -> np.ndarray:
        """Key entities whose twinned mentions lie in two or more response entities."""
        mine, theirs = self.cells
        return _spread(mine, theirs, self.key.n_entities)

    @cached_property
    def conflated_entities(self) -> np.ndarray:
        """Response entities whose twinned mentions lie in two or more key entities."""
        mine, theirs = self.cells
        return _spread(theirs, mine, self.response.n_entities)

    @cached_property
    def main_key_entity(self) -> np.ndarray:
        """For every response entity, the key entity holding most of its
        twinned mentions (ties: the first key entity), or -1."""
        return _main(self.cells[1], self.cells[0], self.response.n_entities)

    @cached_property
    def main_response_entity(self) -> np.ndarray:
        """For every key entity, the response entity holding most of its
        twinned mentions (ties: the first response entity), or -1."""
        return _main(self.cells[0], self.cells[1], self.key.n_entities)

    @cached_property
    def components(self) -> np.ndarray:
        """For every response entity, the smallest response entity it is
        joined with through shared key entities (transitively), by twinned
        mentions; each response entity without twins is its own."""
        parent = list(range(self.response.n_entities))

        def root(e: int) -> int:
            while parent[e] != e:
                parent[e] = parent[parent[e]]
                e = parent[e]
            return e

        first: dict[int, int] = {}
        for g, e in zip(*(side.tolist() for side in self.cells)):
            if g in first:
                a, b = root(first[g]), root(e)
                if a != b:
                    parent[max(a, b)] = min(a, b)
            else:
                first[g] = e
        return np.array([root(e) for e in range(self.response.n_entities)], dtype=np.int64)

    def counts(self) -> dict[str, int]:
        """How many errors of each kind the waterfall fixes (mentions for
        span errors, missing and extra mentions; entities for the others)."""
        return {
            "span_errors": len(self.span_errors),
            "missing_mentions": len(self.missing_mentions),
            "extra_mentions": len(self.extra_mentions),
            "divided_entities": len(self.divided_entities),
            "conflated_entities": len(self.conflated_entities),
            "missing_entities": len(self.missing_entities),
            "extra_entities": len(self.extra_entities),
        }


def _spread(mine: np.ndarray, theirs: np.ndarray, n_entities: int) -> np.ndarray:
    """Entities of one side whose cells reach two or more entities of the other."""
    if not len(mine):
        return np.zeros(0, dtype=np.int64)
    pairs = np.unique(mine * (int(theirs.max()) + 1) + theirs)
    width = int(theirs.max()) + 1
    return np.flatnonzero(np.bincount(pairs // width, minlength=n_entities) > 1)


def _main(mine: np.ndarray, theirs: np.ndarray, n_entities: int) -> np.ndarray:
    """For every entity of one side, the entity of the other side sharing
    most of its cells' mentions, ties to the lowest, or -1."""
    out = np.full(n_entities, NONE, dtype=np.int64)
    if not len(mine):
        return out
    width = int(theirs.max()) + 1
    codes, counts = np.unique(mine * width + theirs, return_counts=True)
    rows, cols = codes // width, codes % width
    order = np.lexsort((cols, -counts, rows))
    first = order[np.r_[True, rows[order][1:] != rows[order][:-1]]]
    out[rows[first]] = cols[first]
    return out


def entity_members(clusters: Clusters) -> list[np.ndarray]:
    """The mention indices of every entity, in mention order."""
    order = np.argsort(clusters.entity, kind="stable")
    bounds = np.searchsorted(clusters.entity[order], np.arange(clusters.n_entities + 1))
    return [order[a:b] for a, b in zip(bounds[:-1], bounds[1:])]
