"""CoNLL-UA documents as sides: the clusters of the IDENTITY column by
default; :func:`~spacy_coref_eval.model.ua.view.ua_clusters` builds those
of every UA scoring mode from the layers kept with them."""

import codecs
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Union

import numpy as np

from ...model.clusters import Clusters
from ...model.ua.modes import Modes
from ...model.ua.view import ua_clusters_of, unmerged_clusters
from ..base import Format, ReadOptions
from ..document import Side, SideDocument
from ..inputs import check_utf8
from . import FORMAT
from .parse import UADocument, parse_ua
from .vectorised import parse_simple


@dataclass
class UASideDocument(SideDocument):
    """A CoNLL-UA document; ``clusters`` are its referring IDENTITY
    entities (:class:`~...model.ua.view.UAClusters`, which keep the document's layers
    for the other modes)."""

    document: UADocument
    clusters: Clusters

    @property
    def name(self) -> str:
        return self.document.name

    @property
    def words(self) -> list[str]:
        return self.document.words

    @property
    def sentence_starts(self) -> list[int]:
        return self.document.sentence_starts

    @property
    def n_tokens(self) -> int:
        return self.document.n_tokens

    def mention_ids(self) -> Optional[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Every IDENTITY markable's span and its ``EntityID`` as written."""
        table = self.document.identity.table
        ids = np.array(self.document.identity.entity_ids or [""], dtype=str)
        return table.starts, table.ends, ids[table.entity] if len(table.starts) else np.zeros(0, dtype=str)

    def clusters_with_elements(self) -> Clusters:
        """The clusters as CoNLL-U writes them, with ``SplitAnte=``
        (:func:`~...model.ua.view.unmerged_clusters`)."""
        return unmerged_clusters(self.document)

    def lost_in(self, target: Format) -> Optional[str]:
        """What only CoNLL-UA holds: split antecedents (which CoNLL-U
        holds as ``SplitAnte=``), non-referring entities, minimum spans,
        bridging, discourse deixis, a span in two entities."""
        if target is FORMAT:
            return None
        identity, deixis = self.document.identity, self.document.deixis
        lost = [
            ("split antecedents (ElementOf)", any(identity.element_of) and target.name != "conllu"),
            ("non-referring (-Pseudo) entities", not all(identity.referring)),
            ("minimum spans (Min)", any(m.min_span is not None for m in identity.markables)),
            ("bridging pairs", bool(identity.bridging)),
            ("discourse-deixis markables", bool(deixis.markables)),
            ("a span given twice", _repeats_a_span(identity)),
        ]
        found = [what for what, present in lost if present]
        return " and ".join(found) if found else None


def _repeats_a_span(layer) -> bool:
    """Whether two markables of ``layer`` have one span (in two entities,
    or twice in one: both count in some UA modes)."""
    starts, ends, _ = layer.columns()
    return len(starts) > 0 and len(np.unique(starts * (int(ends.max()) + 1) + ends)) != len(starts)


def parse_side(data: Union[bytes, bytearray], path: Path, options: ReadOptions) -> Side:
    """The bytes of a CoNLL-UA file as a :class:`Side`, ``path`` naming it
    (the format's reader)."""
    data = bytes(data)
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    read = parse_simple(data, str(path))
    if read is None:
        check_utf8(data, path)
        read = parse_ua(data.decode("utf8"), str(path))
    clusters = ua_clusters_of(read.documents, Modes())
    documents = [UASideDocument(document, c) for document, c in zip(read.documents, clusters)]
    return Side(path, FORMAT, documents, read.warnings)
