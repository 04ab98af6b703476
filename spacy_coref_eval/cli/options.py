"""Arguments and options shared by the commands: the key and response
files, metrics, mention matching, twinless policy and singletons (turned
into :class:`~spacy_coref_eval.scoring.Settings` by :func:`build_settings`),
the span groups read from ``.spacy`` input (:func:`build_readers`), and the
seed and resamples of the statistics.

A command takes an option by using its object as a parameter default,
e.g. ``match: str = MATCH`` (``METRICS_OPTION`` keeps clear of
:data:`~spacy_coref_eval.counting.METRICS`). Importing this module imports
neither spaCy nor SciPy, so that ``--help`` starts fast.
"""
import functools
import inspect
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Tuple

import typer

from ..counting.metrics import DEFAULT_METRICS, METRICS, check_metrics

if TYPE_CHECKING:
    from ..formats.docbin.spans import ClusterReader
    from ..scoring import Settings

INPUT_FORMS = "CoNLL-2012 file (.conll, .gz), a directory of them, or spaCy DocBin (.spacy)"
KEY_ARGUMENT = typer.Argument(..., help=f"Gold coreference: {INPUT_FORMS}", exists=True)
RESPONSE_ARGUMENT = typer.Argument(
    ..., help="System coreference, the same forms; .spacy documents pair by stored name (else by order)", exists=True,
)
METRICS_OPTION = typer.Option(
    ",".join(DEFAULT_METRICS), "--metrics", "-m", help=f"Comma-separated metrics, from {','.join(METRICS)}"
)
TWINLESS = typer.Option("conll", "--twinless", help="Twinless policy: conll, b3all, b30, sys")
SINGLETONS = typer.Option(
    None, "--singletons", help="keep or remove singleton entities (default: keep; remove with --preset corefud)"
)
MATCH = typer.Option(
    None, "--match",
    help="Mention matching: exact, head, overlap, partial (head and partial need heads; default: exact, head with --preset corefud)",
)
PRESET = typer.Option(
    None, "--preset",
    help="corefud: the official CorefUD scorer's numbers, with its conventions (head matching and no singletons by default, its alignment and BLANC rule)",
)
ZEROS = typer.Option("keep", "--zeros", help="keep or exclude zero mentions (CoNLL-U empty-node heads), after singletons")
ZERO_MATCH = typer.Option(
    None, "--zero-match", help="--preset corefud: match zeros as nodes (linear) or by their dependencies (dependent, the default)"
)
MIN_OVERLAP = typer.Option(None, "--min-overlap", help="--match overlap: least overlap θ in (0, 1] (default 0.5)")
OVERLAP_MEASURE = typer.Option(None, "--overlap-measure", help="--match overlap: dice (default) or jaccard")
MAX_SEED = 2**32 - 1
SEED = typer.Option(0, "--seed", min=0, max=MAX_SEED, help="Random seed of the resampling statistics")
PER_DOC = typer.Option(False, "--per-doc", help="Also report every document")
MACRO = typer.Option(False, "--macro", help="Add macro averages over documents")
FORMAT = typer.Option(None, "--format", "-f", help="table or json (default: json when --output ends in .json, else table)")
MAX_RESAMPLES = 1_000_000
N_RESAMPLES = typer.Option(
    1000, "--n-resamples", min=1, max=MAX_RESAMPLES, help="Bootstrap resamples of the documents"
)
SPANS_HELP = (
    "Span groups holding the clusters in .spacy input: PREFIX_* (one group per entity, the default "
    "coref_clusters_*) or KEY[:ATTR] (one group KEY whose spans with the same ATTR, id_ (default), "
    "label_ or kb_id_, form an entity)"
)
SPANS = typer.Option(None, "--spans", help=SPANS_HELP)
KEY_SPANS = typer.Option(None, "--key-spans", help="Like --spans, for the key side only")
RESPONSE_SPANS = typer.Option(None, "--response-spans", help="Like --spans, for the response side only")
INPUT_FORMAT = typer.Option(
    None, "--input-format",
    help="Format of the input files: conll, conllu, jsonlines or spacy (default: from each file's suffix)",
)
HEAD_PREFIX = typer.Option(
    None, "--head-prefix", help="With PREFIX_* span groups: span i of HEAD_PREFIX_<n> is the head of span i of PREFIX_<n>"
)


def parse_metrics(value: str) -> List[str]:
    """Comma-separated metric names, checked."""
    names = [name.strip() for name in value.split(",") if name.strip()]
    if not names:
        raise typer.BadParameter(f"no metric given; choose from {','.join(METRICS)}")
    try:
        return list(check_metrics(names))
    except ValueError as err:
        raise typer.BadParameter(str(err)) from None


def build_settings(
    metrics: str,
    twinless: str,
    singletons: Optional[str],
    match: Optional[str],
    min_overlap: Optional[float],
    overlap_measure: Optional[str],
    preset: Optional[str] = None,
    zeros: str = "keep",
    zero_match: Optional[str] = None,
) -> "Settings":
    """:class:`Settings` from the values of the shared options; bad values
    raise :class:`ValueError` (or :class:`typer.BadParameter` for metrics)."""
    from ..scoring import Settings

    return Settings.from_options(
        parse_metrics(metrics), match, twinless, singletons, min_overlap=min_overlap, overlap_measure=overlap_measure,
        preset=preset, zeros=zeros, zero_match=zero_match,
    )


def build_readers(
    spans: Optional[str], key_spans: Optional[str], response_spans: Optional[str], head_prefix: Optional[str]
) -> Tuple["ClusterReader", "ClusterReader"]:
    """The key's and the response's cluster readers from ``--spans``,
    ``--key-spans``, ``--response-spans`` and ``--head-prefix``."""
    from ..formats.docbin.spans import parse_reader

    default = spans or "coref_clusters_*"
    return parse_reader(key_spans or default, head_prefix), parse_reader(response_spans or default, head_prefix)


def check_level(value: Optional[float]) -> Optional[float]:
    """A confidence level strictly between 0 and 1 (or no level)."""
    if value is not None and not 0 < value < 1:
        raise typer.BadParameter(f"the confidence level must lie strictly between 0 and 1 (e.g. 0.95), not {value}")
    return value


CI = typer.Option(None, "--ci", callback=check_level, help="Add bootstrap confidence intervals at this level, e.g. 0.95")


@dataclass(frozen=True)
class ScoringOptions:
    """The options every scoring command shares: what to compute
    (``metrics``), how to twin (``match``, ``min_overlap``,
    ``overlap_measure``), twinless policy, singletons, another scorer's
    conventions (``preset``, ``zeros``, ``zero_match``), and the span groups
    read from ``.spacy`` input."""

    metrics: str = METRICS_OPTION
    twinless: str = TWINLESS
    singletons: Optional[str] = SINGLETONS
    match: Optional[str] = MATCH
    min_overlap: Optional[float] = MIN_OVERLAP
    overlap_measure: Optional[str] = OVERLAP_MEASURE
    preset: Optional[str] = PRESET
    zeros: str = ZEROS
    zero_match: Optional[str] = ZERO_MATCH
    spans: Optional[str] = SPANS
    key_spans: Optional[str] = KEY_SPANS
    response_spans: Optional[str] = RESPONSE_SPANS
    head_prefix: Optional[str] = HEAD_PREFIX
    input_format: Optional[str] = INPUT_FORMAT

    def settings(self) -> "Settings":
        return build_settings(
            self.metrics, self.twinless, self.singletons, self.match, self.min_overlap, self.overlap_measure,
            self.preset, self.zeros, self.zero_match,
        )

    def readers(self) -> Tuple["ClusterReader", "ClusterReader"]:
        return build_readers(self.spans, self.key_spans, self.response_spans, self.head_prefix)

    def formats(self) -> Tuple[Optional[str], Optional[str]]:
        """The key's and the response's input format (``None``: from the suffix)."""
        return self.input_format, self.input_format


def with_scoring_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """A command taking ``scoring: ScoringOptions``, offered on the command
    line with every :class:`ScoringOptions` field as an option of its own
    (typer reads the signature made here)."""
    own = [p for p in inspect.signature(command).parameters.values() if p.name != "scoring"]
    shared = [
        inspect.Parameter(field.name, inspect.Parameter.KEYWORD_ONLY, default=field.default, annotation=field.type)
        for field in fields(ScoringOptions)
    ]

    @functools.wraps(command)
    def run(**values: Any) -> Any:
        scoring = ScoringOptions(**{field.name: values.pop(field.name) for field in fields(ScoringOptions)})
        return command(scoring=scoring, **values)

    run.__signature__ = inspect.Signature(own + shared)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in own + shared}
    return run
