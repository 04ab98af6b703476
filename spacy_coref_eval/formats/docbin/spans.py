"""Read coreference clusters from a spaCy ``Doc``'s span groups.

A *cluster reader* is a function ``Doc -> list of entities``, an entity being
a list of ``Span``; the two layouts here are registered in ``registry.misc``
(:mod:`~spacy_coref_eval.pipeline.registrations`) and named on the command
line by :func:`parse_reader`. This module does not import spaCy. Readers
are plain picklable objects, so pipelines holding them work with
``nlp.pipe(n_process=...)`` under any start method.
:func:`doc_clusters` turns what a reader returns into :class:`Clusters` on the
doc's own tokens.
"""

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import get_close_matches
from functools import lru_cache
from itertools import chain
from operator import attrgetter
from typing import TYPE_CHECKING, Callable, Optional, Union

import numpy as np

from ...errors import CorefInputError
from ...model.clusters import Clusters
from .names import CLUSTER_PREFIX, HEAD_PREFIX

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span

ClusterReader = Callable[["Doc"], list[list["Span"]]]

_ATTRS = ("id_", "label_", "kb_id_")
_BOUNDS = attrgetter("start", "end")


@dataclass(frozen=True)
class PrefixedSpanGroups:
    """Every span group named ``PREFIX_<integer>`` (ASCII digits) is one
    entity, in the order of the integers: the layout of spaCy's experimental
    coreference component. ``PREFIX_x`` or ``PREFIX_1_heads`` are not
    entities. With ``head_prefix`` (e.g. ``"coref_head_clusters"``, the
    component's head-word clusters), span i of group ``HEAD_PREFIX_<n>``
    gives the head of span i of ``PREFIX_<n>``, for the head and partial
    matchers. Without one, the default layout (``coref_clusters_<n>``)
    takes its heads from ``coref_head_clusters_<n>`` when a doc has such a
    group of the same length for every entity, as ``convert`` and spaCy's
    coreference component write them."""

    prefix: str = CLUSTER_PREFIX
    head_prefix: Optional[str] = None

    def numbered(self, names: Iterable[str]) -> list[tuple[int, str]]:
        """The entity groups among span group ``names``, by their integer."""
        return list(_numbered(self.prefix, tuple(names)))

    def groups(self, doc: "Doc") -> tuple[tuple[int, str], ...]:
        return self.numbered(doc.spans)

    def accepts(self, names: Iterable[str]) -> bool:
        """Whether any of the span group ``names`` is one of this layout's."""
        return bool(self.numbered(names))

    def describe(self) -> str:
        return f"{self.prefix}_<n>"

    def head_groups(self, numbered: Sequence[tuple[int, str]], size: Callable[[str], Optional[int]]) -> Optional[list[str]]:
        """The head group of every entity group ``numbered``, given the
        number of spans of a group (``size``, ``None`` if absent): under the
        ``head_prefix``, checked; by default those of ``coref_head_clusters``
        when they are all there; else ``None``."""
        prefix = self.head_prefix or (HEAD_PREFIX if self.prefix == CLUSTER_PREFIX else None)
        if prefix is None or not numbered:
            return None
        names = [f"{prefix}_{number}" for number, _ in numbered]
        for head, (_, name) in zip(names, numbered):
            if size(head) != size(name):
                if self.head_prefix is None:
                    return None
                found = "missing" if size(head) is None else f"{size(head)} spans for {size(name)} mentions"
                raise CorefInputError(f"span group {head!r} must give one head per mention of {name!r} ({found})")
        return names

    def __call__(self, doc: "Doc") -> list[list["Span"]]:
        return [list(doc.spans[name]) for _, name in self.groups(doc)]

    def heads(self, doc: "Doc") -> Optional[list[list[int]]]:
        """The head token of every mention from its head group
        (:meth:`head_groups`), span i of a head group being the head of span
        i of the entity group with the same integer; else ``None``."""
        numbered = self.groups(doc)
        names = self.head_groups(numbered, lambda name: len(doc.spans[name]) if name in doc.spans else None)
        if names is None:
            return None
        return [[_root(head) for head in doc.spans[name]] for name in names]


def _root(span: "Span") -> int:
    """The head token of ``span``: the token itself for a one-token span
    (spaCy's head groups), else its syntactic ``root``."""
    return span.start if span.end - span.start == 1 else span.root.i


@lru_cache(maxsize=256)
def _numbered(prefix: str, names: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    """:meth:`PrefixedSpanGroups.numbered`, matched as one text (one name a
    line, unless a name holds a line break) and remembered: the docs of a
    corpus repeat the same few sets of group names, and a reader asks for a
    doc's groups once for its mentions and once for their heads."""
    text = "\n".join(names)
    if text.count("\n") == max(len(names) - 1, 0):
        digits = _number_lines(prefix).findall(text)
        return tuple(sorted(zip(map(int, digits), [f"{prefix}_{number}" for number in digits])))
    matches = filter(None, map(_number_pattern(prefix).fullmatch, names))
    return tuple(sorted((int(match.group(1)), match.string) for match in matches))


@lru_cache(maxsize=16)
def _number_pattern(prefix: str) -> "re.Pattern[str]":
    return re.compile(re.escape(prefix) + r"_([0-9]+)")


@lru_cache(maxsize=16)
def _number_lines(prefix: str) -> "re.Pattern[str]":
    return re.compile("^" + re.escape(prefix) + r"_([0-9]+)$", re.MULTILINE)


@dataclass(frozen=True)
class LabeledSpanGroup:
    """One span group ``key``; spans with the same ``attr`` (``id_``,
    ``label_`` or ``kb_id_``) form one entity, entities in order of first
    appearance. A span whose attribute is empty is an entity of its own."""

    key: str
    attr: str = "id_"

    def __post_init__(self) -> None:
        if self.attr not in _ATTRS:
            raise ValueError(f"attr must be one of {_ATTRS}, not {self.attr!r}")

    def accepts(self, names: Iterable[str]) -> bool:
        return self.key in names

    def describe(self) -> str:
        return self.key

    def __call__(self, doc: "Doc") -> list[list["Span"]]:
        if self.key not in doc.spans:
            return []
        entities: dict[object, list[Span]] = {}
        for index, span in enumerate(doc.spans[self.key]):
            value = getattr(span, self.attr) or ("", index)
            entities.setdefault(value, []).append(span)
        return list(entities.values())


def parse_reader(spec: str, head_prefix: Optional[str] = None) -> Union["PrefixedSpanGroups", "LabeledSpanGroup"]:
    """The reader a command-line ``--spans`` value names: ``PREFIX_*``
    (span groups ``PREFIX_<n>``, heads from ``HEAD_PREFIX_<n>`` with
    ``head_prefix``) or ``KEY[:ATTR]`` (one labelled group)."""
    if spec.endswith("_*") and len(spec) > 2:
        return PrefixedSpanGroups(spec[:-2], head_prefix)
    if head_prefix is not None:
        raise ValueError(f"--head-prefix goes with PREFIX_* span groups, not {spec!r}")
    key, _, attr = spec.partition(":")
    if not key or "*" in key:
        raise ValueError(f"cannot read span groups {spec!r}: write PREFIX_* or KEY[:ATTR]")
    return LabeledSpanGroup(key, attr or "id_")


def missing_groups(reader: ClusterReader, groups: Iterable[str]) -> Optional[str]:
    """``"found: …; expected …"`` when none of the span group names
    ``groups`` is one ``reader`` reads, else ``None`` (also for readers
    that cannot say what they read). Numbered groups are named as one
    family (``PREFIX_*``), at most :data:`SHOWN` of them, the closest to
    what was expected first, as a "did you mean"."""
    accepts = getattr(reader, "accepts", None)
    groups = sorted(set(groups))
    if accepts is None or accepts(groups):
        return None
    expected = reader.describe()
    families = _families(groups)
    if not families:
        return f"found: no span groups; expected {expected}"
    closest = get_close_matches(expected.replace("_<n>", "_*"), list(families), n=1, cutoff=0.6)
    shown = [*closest, *(name for name in families if name not in closest)][:SHOWN]
    listed = ", ".join(f"{name} ({families[name]})" if families[name] > 1 else name for name in shown)
    more = f" and {len(families) - len(shown)} more" if len(families) > len(shown) else ""
    hint = f"; did you mean {closest[0]!r}?" if closest else ""
    return f"found: {listed}{more}; expected {expected}{hint}"


SHOWN = 5
"""How many span group names an error lists."""


def _families(groups: Sequence[str]) -> dict[str, int]:
    """Span group names with every ``NAME_<integer>`` counted as one
    ``NAME_*``, in order of first appearance."""
    out: dict[str, int] = {}
    for group in groups:
        match = _NUMBERED.fullmatch(group)
        family = f"{match.group(1)}_*" if match else group
        out[family] = out.get(family, 0) + 1
    return out


_NUMBERED = re.compile(r"(.+)_[0-9]+")


def doc_clusters(doc: "Doc", reader: ClusterReader, heads: Optional[bool] = None) -> Clusters:
    """Clusters of ``doc`` on its own token offsets. Heads come from the
    reader when it gives them (an explicit head span group), else are each
    span's ``root`` when ``heads`` is true, or when it is ``None`` and the
    doc has a dependency parse. What :meth:`Clusters.from_entities` gives
    on the spans' ``(start, end)``, read without a tuple per span
    (:meth:`Clusters.from_sized`)."""
    entities = [entity if isinstance(entity, (list, tuple)) else list(entity) for entity in reader(doc)]
    explicit = reader.heads(doc) if heads is not False and hasattr(reader, "heads") else None
    if heads is None:
        heads = explicit is not None or doc.has_annotation("DEP")
    if explicit is None and heads:
        explicit = [[span.root.i for span in entity] for entity in entities]
    sizes = list(map(len, entities))
    bounds = np.fromiter(chain.from_iterable(map(_BOUNDS, chain.from_iterable(entities))), np.int64, 2 * sum(sizes))
    return Clusters.from_sized(bounds[0::2], bounds[1::2], sizes, heads=explicit)
