"""The clusters a UA scoring mode scores (docs/ua.md, Modes): the
referring entities of the IDENTITY (or DISCOURSE_DEIXIS) column, and with
split antecedents kept each plural entity's split-antecedent element
(Paun et al. 2023), plurals with the same element merged."""

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Optional, cast

import numpy as np

from ...errors import CorefInputError
from ..clusters import Clusters
from .layer import GUIDELINES_NON_REFERRING, Layer, Span, Split
from .modes import Modes
from .splitante import SplitClusters, SplitSource, split_layer


@dataclass(frozen=True)
class UAClusters(Clusters):
    """:class:`~spacy_coref_eval.model.clusters.Clusters` of a UA document in
    one mode, and what the UA scorer scores beyond them: every entity's
    spans as it lists them (:attr:`entity_spans`: a span may be in several
    entities, and repeated within one where split antecedents are
    removed), their minimum spans (:attr:`entity_mins`, ``None`` where none
    is given), the split-antecedent element of every plural entity
    (``splits``, by entity index), the layer they come from, the document
    (to rebuild them in other ``modes``), the layer's entities making up
    each entity (``groups``; ``None``: every referring entity alone) and
    how many spans the entities list (``listed``)."""

    splits: dict[int, Split] = field(default_factory=dict)
    layer: Optional[Layer] = None
    modes: Modes = Modes()
    source: object = None
    groups: Optional[tuple[tuple[int, ...], ...]] = None
    listed: int = 0

    @cached_property
    def _listing(self) -> tuple[tuple[tuple[Span, ...], ...], tuple[tuple[Optional[Span], ...], ...]]:
        if self.layer is None:
            return (), ()
        groups = self.groups
        if groups is None:
            groups = tuple((e,) for e, referring in enumerate(self.layer.referring) if referring)
        spans, mins = _listed(self.layer, groups, self.modes.split_antecedents != "remove")
        return tuple(spans), tuple(mins)

    @property
    def entity_spans(self) -> tuple[tuple[Span, ...], ...]:
        return self._listing[0]

    @property
    def entity_mins(self) -> tuple[tuple[Optional[Span], ...], ...]:
        return self._listing[1]

    @property
    def dropped(self) -> bool:
        """Whether the clusters lost spans the UA scorer keeps (a span in
        two entities, or twice in one)."""
        return self.listed != len(self)

    def scored_spans(self, remove_singletons: bool = False) -> list[tuple[Span, ...]]:
        """The spans of every entity scored (a plural's split element
        counting as a member when singletons are removed)."""
        return [spans for e, spans in enumerate(self.entity_spans) if not remove_singletons or len(spans) + (e in self.splits) > 1]

    @property
    def has_min(self) -> bool:
        return any(m is not None for mins in self.entity_mins for m in mins)


def _listed(layer: Layer, groups, keep: bool) -> tuple[list[tuple[Span, ...]], list[tuple[Optional[Span], ...]]]:
    """The spans and minimum spans of every group of entities, in markable
    order; with split antecedents kept a span repeated within a group is
    listed once."""
    markables = layer.entity_markables()
    entity_spans, entity_mins = [], []
    for group in groups:
        spans, mins, present = [], [], set()
        for entity in group:
            for m in markables[entity]:
                if not keep or (m.start, m.end) not in present:
                    present.add((m.start, m.end))
                    spans.append((m.start, m.end))
                    mins.append(m.min_span)
        entity_spans.append(tuple(spans))
        entity_mins.append(tuple(mins))
    return entity_spans, entity_mins


def ua_clusters(document: object, modes: Modes) -> UAClusters:
    """The clusters of a :class:`~.parse.UADocument` scored in ``modes``."""
    return ua_clusters_of([document], modes)[0]


def ua_clusters_of(documents: Sequence[Any], modes: Modes) -> list[UAClusters]:
    """:func:`ua_clusters` of every document; those without split elements
    and without a span given twice among their referring markables are
    built at once (no entity merges and every span is listed once)."""
    modes = modes.effective
    keep = modes.split_antecedents != "remove"
    out: list[Optional[UAClusters]] = [None] * len(documents)
    layers = [_as_read(document.deixis if modes.discourse_deixis else document.identity, modes) for document in documents]
    simple = []
    for d, layer in enumerate(layers):
        splits = layer.splits() if keep else {}
        if splits:
            out[d] = _grouped(documents[d], layer, modes, splits=splits)
        else:
            simple.append(d)
    columns = [_referring_columns(layers[d]) for d in simple]
    sizes = [len(c[0]) for c in columns]
    if simple:
        starts, ends, entity = (np.concatenate([c[i] for c in columns]) for i in range(3))
        built = Clusters.per_document(np.repeat(np.arange(len(simple)), sizes), starts, ends, labels=entity, n_docs=len(simple))
        for d, base, size in zip(simple, built, sizes):
            if base.repeated:
                out[d] = _grouped(documents[d], layers[d], modes, splits={})
            else:
                out[d] = UAClusters(
                    base.starts, base.ends, base.entity, base.n_entities, layer=layers[d], modes=modes, source=documents[d], listed=size
                )
    return cast(list[UAClusters], out)


def _as_read(layer: Layer, modes: Modes) -> Layer:
    """``layer`` with the entities the guidelines call non-referring
    (:data:`~.layer.GUIDELINES_NON_REFERRING`) marked so, unless read as
    the UA scorer reads (``-Pseudo`` only)."""
    if modes.as_scorer or not _guidelines_non_referring(layer.entity_ids):
        return layer
    referring = tuple(r and not eid.endswith(GUIDELINES_NON_REFERRING) for r, eid in zip(layer.referring, layer.entity_ids))
    return replace(layer, referring=referring)


def _guidelines_non_referring(entity_ids: Sequence[str]) -> bool:
    """Whether an entity id ends in :data:`~.layer.GUIDELINES_NON_REFERRING`."""
    return (GUIDELINES_NON_REFERRING + "\n") in "\n".join(entity_ids) + "\n"


def _referring_columns(layer: Layer) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The starts, ends and entities (referring ones renumbered) of the
    referring markables of ``layer``."""
    starts, ends, entity = layer.columns()
    if all(layer.referring):
        return starts, ends, entity
    referring = np.array(layer.referring, dtype=bool)
    kept = referring[entity]
    return starts[kept], ends[kept], (np.cumsum(referring) - 1)[entity[kept]]


def unmerged_clusters(document: Any) -> UAClusters:
    """The clusters of a CoNLL-UA document with every referring entity
    apart and each plural's split element: what CoNLL-U writes (one
    ``SplitAnte=`` set per plural), so that read back it merges and splits
    in every mode as the CoNLL-UA document does."""
    layer = document.identity
    return _grouped(document, layer, Modes(), splits=layer.splits(), merge=False)


def _grouped(document: object, layer: Layer, modes: Modes, *, splits: dict[int, Split], merge: bool = True) -> UAClusters:
    """:func:`ua_clusters` in general: plurals with the same split element
    merged (unless not ``merge``), spans listed as the UA scorer lists
    them."""
    keep = modes.split_antecedents != "remove"
    groups: list[list[int]] = []
    by_split: dict[frozenset, int] = {}
    for entity, referring in enumerate(layer.referring):
        if not referring:
            continue
        split = splits.get(entity)
        same = frozenset(split) if split is not None and merge else None
        if same is not None and same in by_split:
            groups[by_split[same]].append(entity)
            continue
        if same is not None:
            by_split[same] = len(groups)
        groups.append([entity])
    group_splits = {g: splits[group[0]] for g, group in enumerate(groups) if group[0] in splits}
    entity_spans, _ = _listed(layer, groups, keep)
    seen = set()
    unique = []
    for spans in entity_spans:
        # set.add returns None: the idiom keeps each span's first copy
        unique.append([span for span in spans if span not in seen and not seen.add(span)])  # type: ignore[func-returns-value]
    base = Clusters.from_entities(unique)
    return UAClusters(
        base.starts,
        base.ends,
        base.entity,
        base.n_entities,
        splits=group_splits,
        layer=layer,
        modes=modes,
        source=document,
        groups=tuple(map(tuple, groups)),
        listed=sum(map(len, entity_spans)),
    )


def check_min_spans(clusters: UAClusters, where: str, as_scorer: bool = False) -> None:
    """Refuse a minimum span that is not a span inside its markable, and
    read as the UA scorer reads, a range ``Min=a-b``."""
    layer = clusters.layer
    if layer is None:
        return
    for i, m in enumerate(layer.markables):
        if m.min_span is None:
            continue
        if as_scorer and "-" in layer.table.mins.get(i, ""):
            raise CorefInputError(
                f"{where}, line {m.line}: markable {m.markable_id} (entity {layer.entity_ids[m.entity]}): "
                f"Min={layer.table.mins[i]} is a range, which the UA scorer does not read (--preset ua); "
                "the guidelines' ranges are read outside the preset"
            )
        if not (m.start <= m.min_span[0] < m.min_span[1] <= m.end):
            raise CorefInputError(
                f"{where}, line {m.line}: markable {m.markable_id} (entity {layer.entity_ids[m.entity]}): "
                "Min= is not 'a', 'a,b' or 'a-b' with 1-based token positions inside the markable"
            )


def in_modes(clusters: Clusters, modes: Modes) -> Clusters:
    """``clusters`` as scored in ``modes``: those of a UA document rebuilt
    when its modes differ (reading as the UA scorer matters only where an
    entity id ends in ``_Pseudo``), CorefUD ``SplitAnte=`` scored as
    ``ElementOf=`` when read as the UA scorer reads (:func:`.splitante.with_split_antecedents`),
    any others unchanged."""
    if isinstance(clusters, UAClusters) and clusters.source is not None:
        effective = modes.effective
        if replace(clusters.modes, as_scorer=effective.as_scorer) != effective or (
            clusters.modes.as_scorer != effective.as_scorer
            and _guidelines_non_referring(cast(Layer, clusters.layer).entity_ids)  # read from a layer
        ):
            return ua_clusters(clusters.source, modes)
        return clusters
    split_antecedents = getattr(clusters, "split_antecedents", None)
    if split_antecedents and modes.as_scorer and modes.effective.split_antecedents != "remove":
        return split_clusters(cast(SplitClusters, clusters), modes)  # it has split antecedents
    return clusters


def split_clusters(clusters: SplitClusters, modes: Modes) -> Clusters:
    """``clusters`` scored as the UA scorer scores ``ElementOf=``."""
    return ua_clusters(SplitSource(split_layer(clusters)), modes)
