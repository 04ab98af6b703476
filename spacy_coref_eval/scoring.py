"""The pipeline of one scoring run, and stage 5: aggregate over documents.

read clusters → :func:`~.twinning.twin` → :func:`~.twinning.apply_policy` →
:func:`~.counting.count` → sum over documents → report. This module wires the
stages together; each lives in its own subpackage.
"""
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple, Union

from .clusters import Clusters, Entities
from .counting import METRICS, Counts, check_metrics, count
from .report.rates import rates
from .twinning import Matcher, apply_policy, get_matcher, twin
from .twinning.policies import POLICIES

SINGLETON_MODES = ("keep", "remove")
ClustersLike = Union[Clusters, Entities]


@dataclass(frozen=True)
class Settings:
    """How to score: which metrics, how mentions are twinned, what happens
    to twinless mentions (SPEC §4) and whether singleton entities count.

    ``matcher`` is a matcher object or the name ``"exact"`` (the default,
    the CoNLL reference's setting).
    """

    metrics: Tuple[str, ...] = METRICS
    matcher: Union[str, Matcher, None] = "exact"
    twinless: str = "conll"
    singletons: str = "keep"

    def __post_init__(self) -> None:
        object.__setattr__(self, "metrics", check_metrics(self.metrics))
        object.__setattr__(self, "matcher", get_matcher(self.matcher))
        if self.twinless not in POLICIES:
            raise ValueError(f"unknown twinless policy {self.twinless!r}; choose from {list(POLICIES)}")
        if self.singletons not in SINGLETON_MODES:
            raise ValueError(f"singletons must be one of {SINGLETON_MODES}, not {self.singletons!r}")

    def to_dict(self) -> Dict[str, Any]:
        """The settings as echoed in JSON output."""
        return {
            "metrics": list(self.metrics),
            **self.matcher.config(),  # type: ignore[union-attr]
            "twinless": self.twinless,
            "singletons": self.singletons,
        }


def as_clusters(value: ClustersLike) -> Clusters:
    """Clusters from a :class:`Clusters` or a list of entities of spans."""
    return value if isinstance(value, Clusters) else Clusters.from_entities(value)


def count_document(key: ClustersLike, response: ClustersLike, settings: Optional[Settings] = None) -> Counts:
    """Additive counts of one document's response against its key."""
    settings = settings or Settings()
    key, response = as_clusters(key), as_clusters(response)
    if settings.singletons == "remove":
        key, response = key.without_singletons(), response.without_singletons()
    twinned = twin(key, response, settings.matcher)  # type: ignore[arg-type]
    recall_pair, precision_pair = apply_policy(settings.twinless, twinned)
    return count(twinned, recall_pair, precision_pair, settings.metrics)


@dataclass
class CorpusResult:
    """Per-document counts of a corpus, their total and what went wrong."""

    settings: Settings
    documents: Dict[str, Counts]
    warnings: List[str] = field(default_factory=list)

    @property
    def total(self) -> Counts:
        return Counts.total(self.documents.values(), self.settings.metrics)

    def metrics(self) -> Dict[str, Dict]:
        """Recall, precision, F1 and counts per metric, micro-averaged."""
        return rates(self.total)

    def to_json(self, per_doc: bool = False) -> Dict[str, Any]:
        """The JSON document of the command line (``--format json``)."""
        out: Dict[str, Any] = {"settings": self.settings.to_dict(), "metrics": self.metrics()}
        if per_doc:
            out["documents"] = {name: {"metrics": rates(c)} for name, c in self.documents.items()}
        out["warnings"] = list(self.warnings)
        return out


def score_documents(
    key: Mapping[str, ClustersLike],
    response: Mapping[str, ClustersLike],
    settings: Optional[Settings] = None,
    warnings: Optional[Iterable[str]] = None,
) -> CorpusResult:
    """Score the response documents against the key documents of the same
    name, in key order. A key document with no response is scored against an
    empty response, a response document not in the key is ignored, and
    repeated mentions are dropped; each of these adds a warning."""
    notes = list(warnings or ())
    pairs = []
    for name, key_value in key.items():
        if name in response:
            pairs.append((name, key_value, response[name]))
        else:
            notes.append(f"document {name!r}: no response document; scored as an empty response")
            pairs.append((name, key_value, Clusters()))
    extra = [name for name in response if name not in key]
    if extra:
        notes.append(
            f"{len(extra)} response document(s) not in the key, ignored: "
            + ", ".join(repr(name) for name in extra)
        )
    return score_pairs(pairs, settings, notes)


def repeated_warnings(name: str, key: Clusters, response: Clusters) -> List[str]:
    """Warnings for repeated mentions dropped when the clusters were read."""
    return [
        f"document {name!r}: {clusters.repeated} repeated mention(s) in the {side} dropped "
        "(first copy kept)"
        for side, clusters in (("key", key), ("response", response))
        if clusters.repeated
    ]


def score_pairs(
    pairs: Iterable[Tuple[str, ClustersLike, ClustersLike]],
    settings: Optional[Settings] = None,
    warnings: Iterable[str] = (),
) -> CorpusResult:
    """Score ``(name, key, response)`` triples already paired by the caller."""
    settings = settings or Settings()
    documents: Dict[str, Counts] = {}
    notes = list(warnings)
    for name, key_value, response_value in pairs:
        key_clusters, response_clusters = as_clusters(key_value), as_clusters(response_value)
        notes.extend(repeated_warnings(name, key_clusters, response_clusters))
        documents[name] = count_document(key_clusters, response_clusters, settings)
    return CorpusResult(settings, documents, notes)
