"""CoNLL-UA documents as sides: the clusters of the IDENTITY column by
default; :func:`~spacy_coref_eval.formats.ua.view.ua_clusters` builds those
of every UA scoring mode from the layers kept with them."""
import codecs
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional

from ...clusters import Clusters
from ..base import Format, ReadOptions
from ..document import Side, SideDocument
from ..inputs import check_utf8, read_input
from .parse import UADocument, parse_ua
from .vectorised import parse_simple
from .view import Modes, UAClusters, ua_clusters_of


@dataclass
class UASideDocument(SideDocument):
    """A CoNLL-UA document; ``clusters`` are its referring IDENTITY
    entities (:class:`~.view.UAClusters`, which keep the document's layers
    for the other modes)."""

    document: UADocument
    clusters: Clusters

    @property
    def name(self) -> str:
        return self.document.name

    @property
    def words(self) -> List[str]:
        return self.document.words

    @property
    def sentence_starts(self) -> List[int]:
        return self.document.sentence_starts

    @property
    def n_tokens(self) -> int:
        return self.document.n_tokens

    def lost_in(self, target: Format) -> Optional[str]:
        """What only CoNLL-UA holds: split antecedents, non-referring
        entities, minimum spans, bridging, discourse deixis, a span in two
        entities."""
        from . import FORMAT

        if target is FORMAT:
            return None
        identity, deixis = self.document.identity, self.document.deixis
        lost = [
            ("split antecedents (ElementOf)", any(identity.element_of)),
            ("non-referring (-Pseudo) entities", not all(identity.referring)),
            ("minimum spans (Min)", any(m.min_span is not None for m in identity.markables)),
            ("bridging pairs", bool(identity.bridging)),
            ("discourse-deixis markables", bool(deixis.markables)),
            ("a span in two entities", isinstance(self.clusters, UAClusters) and self.clusters.dropped),
        ]
        found = [what for what, present in lost if present]
        return " and ".join(found) if found else None


def read_side(path: Path, options: ReadOptions) -> Side:
    """A CoNLL-UA file as a :class:`Side` (the format's reader)."""
    from . import FORMAT

    data = bytes(read_input(path))
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    check_utf8(data, path)
    read = parse_simple(bytes(data), str(path)) or parse_ua(data.decode("utf8"), str(path))
    clusters = ua_clusters_of(read.documents, Modes())
    documents = [UASideDocument(document, c) for document, c in zip(read.documents, clusters)]
    return Side(path, FORMAT, documents, read.warnings)
