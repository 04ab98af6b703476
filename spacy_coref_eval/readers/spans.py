"""Read coreference clusters from a spaCy ``Doc``'s span groups.

A *cluster reader* is a function ``Doc -> list of entities``, an entity being
a list of ``Span``; two layouts are registered in ``registry.misc``. Readers
are plain picklable objects, so pipelines holding them work with
``nlp.pipe(n_process=...)`` under any start method.
:func:`doc_clusters` turns what a reader returns into :class:`Clusters` on the
doc's own tokens.
"""
import re
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np
from spacy.tokens import Doc, Span
from spacy.util import registry

from ..clusters import Clusters
from ..errors import CorefInputError

ClusterReader = Callable[[Doc], List[List[Span]]]

_ATTRS = ("id_", "label_", "kb_id_")


@dataclass(frozen=True)
class PrefixedSpanGroups:
    """Reader of the ``PREFIX_<integer>`` layout (see :func:`prefixed_span_groups`)."""

    prefix: str = "coref_clusters"
    head_prefix: Optional[str] = None

    def groups(self, doc: Doc) -> List[Tuple[int, str]]:
        pattern = re.compile(re.escape(self.prefix) + r"_([0-9]+)")
        numbered = []
        for name in doc.spans:
            match = pattern.fullmatch(name)
            if match:
                numbered.append((int(match.group(1)), name))
        return sorted(numbered)

    def __call__(self, doc: Doc) -> List[List[Span]]:
        return [list(doc.spans[name]) for _, name in self.groups(doc)]

    def heads(self, doc: Doc) -> Optional[List[List[int]]]:
        """The head token of every mention from the span groups
        ``HEAD_PREFIX_<integer>``, span i of a head group being the head of
        span i of the entity group with the same integer; ``None`` without
        a ``head_prefix``."""
        if self.head_prefix is None:
            return None
        out = []
        for number, name in self.groups(doc):
            head_name = f"{self.head_prefix}_{number}"
            spans, heads = doc.spans[name], doc.spans.get(head_name)
            if heads is None or len(heads) != len(spans):
                found = "missing" if heads is None else f"{len(heads)} spans for {len(spans)} mentions"
                raise CorefInputError(f"span group {head_name!r} must give one head per mention of {name!r} ({found})")
            out.append([head.root.i for head in heads])
        return out


@dataclass(frozen=True)
class LabeledSpanGroup:
    """Reader of one labeled span group (see :func:`labeled_span_group`)."""

    key: str
    attr: str = "id_"

    def __post_init__(self) -> None:
        if self.attr not in _ATTRS:
            raise ValueError(f"attr must be one of {_ATTRS}, not {self.attr!r}")

    def __call__(self, doc: Doc) -> List[List[Span]]:
        if self.key not in doc.spans:
            return []
        entities: Dict[object, List[Span]] = {}
        for index, span in enumerate(doc.spans[self.key]):
            value = getattr(span, self.attr) or ("", index)
            entities.setdefault(value, []).append(span)
        return list(entities.values())


@registry.misc("spacy_coref_eval.prefixed_span_groups.v1")
def prefixed_span_groups(prefix: str = "coref_clusters", head_prefix: Optional[str] = None) -> ClusterReader:
    """Every span group named ``PREFIX_<integer>`` (ASCII digits) is one
    entity, in the order of the integers: the layout of spaCy's experimental
    coreference component. ``PREFIX_x`` or ``PREFIX_1_heads`` are not
    entities. With ``head_prefix`` (e.g. ``"coref_head_clusters"``, the
    component's head-word clusters), span i of group ``HEAD_PREFIX_<n>``
    gives the head of span i of ``PREFIX_<n>``, for the head and partial
    matchers."""
    return PrefixedSpanGroups(prefix, head_prefix)


@registry.misc("spacy_coref_eval.labeled_span_group.v1")
def labeled_span_group(key: str, attr: str = "id_") -> ClusterReader:
    """One span group ``key``; spans with the same ``attr`` (``id_``,
    ``label_`` or ``kb_id_``) form one entity, entities in order of first
    appearance. A span whose attribute is empty is an entity of its own."""
    return LabeledSpanGroup(key, attr)


def doc_clusters(doc: Doc, reader: ClusterReader, heads: Optional[bool] = None) -> Clusters:
    """Clusters of ``doc`` on its own token offsets. Heads come from the
    reader when it gives them (an explicit head span group), else are each
    span's ``root`` when ``heads`` is true, or when it is ``None`` and the
    doc has a dependency parse."""
    entities = reader(doc)
    explicit = reader.heads(doc) if heads is not False and hasattr(reader, "heads") else None
    if heads is None:
        heads = explicit is not None or doc.has_annotation("DEP")
    spans = [(span.start, span.end) for entity in entities for span in entity]
    if not spans:
        return Clusters(heads=np.zeros(0, dtype=np.int64) if heads else None)
    labels = np.repeat(np.arange(len(entities), dtype=np.int64), [len(entity) for entity in entities])
    array = np.array(spans, dtype=np.int64)
    head_array = None
    if explicit is not None:
        head_array = np.array([head for entity in explicit for head in entity], dtype=np.int64)
    elif heads:
        head_array = np.array([span.root.i for entity in entities for span in entity], dtype=np.int64)
    return Clusters.from_arrays(array[:, 0], array[:, 1], labels, head_array)
