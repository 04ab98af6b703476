"""CorefUD ``SplitAnte=`` in the UA scorer's model (docs/ua.md §3,
docs/corefud.md §2): a CoNLL-U document's clusters and split antecedents
as the :class:`~.layer.Layer` the same document written as CoNLL-UA
would give, each link ``A<P`` an ``ElementOf=P`` on the first markable of
entity ``A``. Scored so under ``--preset ua`` (:func:`~.view.in_modes`)
and written so by ``convert`` to CoNLL-UA."""

from dataclasses import dataclass, fields

import numpy as np

from ...errors import CorefInputError
from ..clusters import Clusters
from .layer import EMPTY, Layer, Markables, build_layer

Link = tuple[str, str, int]
"""A ``SplitAnte=`` link: antecedent entity id, plural entity id, line."""


@dataclass(frozen=True)
class SplitClusters(Clusters):
    """Clusters of a CoNLL-U document with ``SplitAnte=`` links: its
    ``entity_ids`` (entity ``e`` of the clusters is ``entity_ids[e]``), the
    ``split_antecedents`` links and ``where`` the document is (for
    messages). Scored as plain clusters unless read as the UA scorer
    reads."""

    entity_ids: tuple[str, ...] = ()
    split_antecedents: tuple[Link, ...] = ()
    where: str = ""

    @classmethod
    def wrap(cls, clusters: Clusters, entity_ids: tuple[str, ...], links: tuple[Link, ...], *, where: str) -> "SplitClusters":
        values = {f.name: getattr(clusters, f.name) for f in fields(Clusters)}
        return cls(**values, entity_ids=tuple(entity_ids), split_antecedents=tuple(links), where=where)


@dataclass(frozen=True)
class SplitSource:
    """What :func:`~.view.ua_clusters` reads of a document: its layers."""

    identity: Layer
    deixis: Layer = EMPTY


def split_layer(clusters: SplitClusters) -> Layer:
    """The IDENTITY layer of ``clusters`` as CoNLL-UA writes it: markables
    by start (longer first), entity ids as in the CoNLL-U file, markable
    ids ``markable_1, …``, each ``SplitAnte=A<P`` an ``ElementOf=P`` of
    entity ``A``. A mention that is not a range of tokens, or a link to an
    entity the document lacks, is refused naming the file, line and
    entity."""
    if clusters.nodes is not None:
        raise CorefInputError(
            f"{clusters.where}: split antecedents (SplitAnte=) are scored as the UA scorer scores ElementOf=, on "
            "mentions that are ranges of words; this document has discontinuous or zero mentions"
        )
    every = clusters.memberships if clusters.memberships is not None else clusters
    if every.n_entities != len(clusters.entity_ids):
        raise CorefInputError(f"{clusters.where}: an entity lost all its mentions; its SplitAnte= links cannot be scored")
    order = np.lexsort((-every.ends, every.starts))
    starts, ends, labels = every.starts[order], every.ends[order], every.entity[order]
    present, first = np.unique(labels, return_index=True)
    by_first = present[np.argsort(first, kind="stable")]
    rank = np.empty(every.n_entities, dtype=np.int64)
    rank[by_first] = np.arange(len(by_first))
    entity = rank[labels]
    entity_ids = [clusters.entity_ids[e] for e in by_first.tolist()]
    first_markable = {eid: int(i) for eid, i in zip(entity_ids, np.sort(first).tolist())}
    plurals: dict[int, list[str]] = {}
    for ante, plural, line in clusters.split_antecedents:
        for eid in (ante, plural):
            if eid not in first_markable:
                raise CorefInputError(f"{clusters.where}, line {line}: SplitAnte={ante}<{plural}: no entity {eid} in the document")
        names = plurals.setdefault(first_markable[ante], [])
        if plural not in names:
            names.append(plural)
    lines = np.zeros(len(starts), dtype=np.int64)
    for ante, _, line in clusters.split_antecedents:
        lines[first_markable[ante]] = line
    table = Markables(
        starts,
        ends,
        entity,
        entity_ids,
        markable_ids=[f"markable_{i + 1}" for i in range(len(starts))],
        lines=lines,
        mins={},
        element_of={i: ",".join(names) for i, names in plurals.items()},
    )
    return build_layer(table, [], f"{clusters.where} (SplitAnte=)", warnings=[])
