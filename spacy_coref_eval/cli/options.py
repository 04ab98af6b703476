"""Arguments and options shared by the commands: the key and response
files, what and how to score (:func:`scoring_options`, turned into the
:class:`~spacy_coref_eval.scoring.Options` of a run), output, statistics.
The help texts of formats come from the format registry. Importing this
module imports neither numpy, spaCy nor SciPy, so that ``--help`` starts
fast."""
import json
from dataclasses import dataclass, fields
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional

import click

from ..formats import describe_formats

if TYPE_CHECKING:
    from ..scoring import Options

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]

METRIC_NAMES = "muc,bcub,ceafm,ceafe,blanc,lea"
"""The metrics computed by default (``counting.DEFAULT_METRICS``; a test
checks the two agree, so that ``--help`` need not import numpy)."""
ALL_METRICS = "muc,bcub,ceafm,ceafe,blanc,lea,mor"
MAX_SEED = 2**32 - 1
MAX_RESAMPLES = 1_000_000
INPUT_HELP = f"Formats (by name, or --input-format NAME; .gz read transparently): {describe_formats()}."


def existing_path(**settings: Any) -> click.Path:
    return click.Path(exists=True, path_type=Path, **settings)


def key_argument(name: str = "key") -> Decorator:
    return click.argument(name, type=existing_path())


def check_level(ctx: click.Context, param: click.Parameter, value: Optional[float]) -> Optional[float]:
    """A confidence level strictly between 0 and 1 (or no level)."""
    if value is not None and not 0 < value < 1:
        raise click.BadParameter(f"the confidence level must lie strictly between 0 and 1 (e.g. 0.95), not {value}")
    return value


def compose(*decorators: Decorator) -> Decorator:
    """Decorators applied as if written one above the other, first on top."""
    def apply(command: Callable[..., Any]) -> Callable[..., Any]:
        for decorator in reversed(decorators):
            command = decorator(command)
        return command
    return apply


FORMAT = click.option(
    "--format", "-f", "fmt", default=None, help="table or json (default: json when --output ends in .json, else table)"
)
PER_DOC = click.option("--per-doc", is_flag=True, help="Also report every document")
MACRO = click.option("--macro", is_flag=True, help="Add macro averages over documents")
SEED = click.option("--seed", default=0, type=click.IntRange(0, MAX_SEED), help="Random seed of the resampling statistics")
N_RESAMPLES = click.option(
    "--n-resamples", default=1000, type=click.IntRange(1, MAX_RESAMPLES), help="Bootstrap resamples of the documents"
)
CI = click.option(
    "--ci", type=float, default=None, callback=check_level, help="Add bootstrap confidence intervals at this level, e.g. 0.95"
)
N_PROCESS = click.option("--n-process", "-n", default=1, type=click.IntRange(1, 256), help="Score documents in this many processes")
SPANS_HELP = (
    "Span groups holding the clusters in .spacy input: PREFIX_* (one group per entity, the default "
    "coref_clusters_*) or KEY[:ATTR] (one group KEY whose spans with the same ATTR, id_ (default), "
    "label_ or kb_id_, form an entity)"
)
SPANS = click.option("--spans", default=None, help=SPANS_HELP)
HEAD_PREFIX = click.option(
    "--head-prefix", default=None,
    help="With PREFIX_* span groups: span i of HEAD_PREFIX_<n> is the head of span i of PREFIX_<n>",
)
INPUT_FORMAT = click.option(
    "--input-format", default=None, help="Format of the input files, by name (default: from each file's name)"
)


@dataclass(frozen=True)
class ScoringOptions:
    """The options every scoring command shares: what to compute, how to
    twin, twinless policy, singletons, a preset's conventions, zeros, and
    how to read the inputs (formats, span groups of ``.spacy`` input)."""

    metrics: str = METRIC_NAMES
    twinless: str = "conll"
    singletons: Optional[str] = None
    match: Optional[str] = None
    min_overlap: Optional[float] = None
    overlap_measure: Optional[str] = None
    preset: Optional[str] = None
    zeros: str = "keep"
    zero_match: Optional[str] = None
    split_antecedents: str = "keep"
    non_referring: bool = False
    bridging: bool = False
    discourse_deixis: bool = False
    min_spans: bool = False
    lea_importance: str = "size"
    lea_weights: Optional[Dict[str, float]] = None
    lea_default_weight: Optional[float] = None
    mina: bool = False
    np_only: bool = False
    remove_nested: bool = False
    spans: Optional[str] = None
    key_spans: Optional[str] = None
    response_spans: Optional[str] = None
    head_prefix: Optional[str] = None
    input_format: Optional[str] = None
    key_format: Optional[str] = None
    response_format: Optional[str] = None
    pair_by: Optional[str] = None

    def options(self, **run: Any) -> "Options":
        """The run's :class:`~spacy_coref_eval.scoring.Options`, with
        ``run`` (``words``, ``tokens``, ``n_process``, ``twinning``)."""
        from ..scoring import Options

        names = {field.name: getattr(self, field.name) for field in fields(self)}
        names["metrics"] = parse_metrics(names["metrics"])
        return Options.from_names(**names, **run)


SETTINGS_OPTIONS = (
    "metrics", "twinless", "singletons", "match", "min_overlap", "overlap_measure", "preset", "zeros", "zero_match",
    "split_antecedents", "non_referring", "bridging", "discourse_deixis", "min_spans",
    "lea_importance", "lea_weights", "lea_default_weight",
    "mina", "np_only", "remove_nested",
)
"""The fields of :class:`ScoringOptions` that make the run's ``Settings``."""


def read_weights(ctx: click.Context, param: click.Parameter, value: Optional[Path]) -> Optional[Dict[str, float]]:
    """A JSON object of entity type → weight, read from the file ``value``."""
    if value is None:
        return None
    try:
        table = json.loads(value.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise click.BadParameter(f"{value}: not a readable JSON file ({err})") from None
    if not isinstance(table, dict) or not all(
        isinstance(weight, (int, float)) and not isinstance(weight, bool) for weight in table.values()
    ):
        raise click.BadParameter(f"{value}: must hold one JSON object of entity type → weight, e.g. {{\"person\": 2.0}}")
    return table


def parse_metrics(value: str) -> list:
    """Comma-separated metric names, checked."""
    from ..counting.metrics import METRICS, check_metrics

    names = [name.strip() for name in value.split(",") if name.strip()]
    if not names:
        raise click.BadParameter(f"no metric given; choose from {','.join(METRICS)}")
    try:
        return list(check_metrics(names))
    except ValueError as err:
        raise click.BadParameter(str(err)) from None


_SCORING = (
    click.option("--metrics", "-m", default=METRIC_NAMES, help=f"Comma-separated metrics, from {ALL_METRICS}"),
    click.option("--twinless", default="conll", help="Twinless policy: conll, b3all, b30, sys"),
    click.option("--singletons", default=None, help="keep or remove singleton entities (default: the preset's; keep)"),
    click.option(
        "--match", default=None,
        help="Mention matching: exact, head, overlap, partial (head and partial need heads; default: the preset's; exact)",
    ),
    click.option("--min-overlap", type=float, default=None, help="--match overlap: least overlap θ in (0, 1] (default 0.5)"),
    click.option("--overlap-measure", default=None, help="--match overlap: dice (default) or jaccard"),
    click.option(
        "--preset", default=None,
        help="Another scorer's conventions: corefud (the official CorefUD scorer's numbers: head matching and no "
        "singletons by default, its alignment and BLANC rule), ua (the Universal Anaphora scorer's numbers), "
        "coval (coval's numbers on CoNLL-2012 files)",
    ),
    click.option(
        "--mina", is_flag=True, default=False,
        help="coval's minimum spans (MINA) from the key's parse column; implies --preset coval",
    ),
    click.option("--np-only", is_flag=True, default=False, help="coval's NP_only: drop VP-rooted mentions; implies --preset coval"),
    click.option(
        "--remove-nested", is_flag=True, default=False,
        help="coval's remove_nested: drop a mention nested in another of its entity; implies --preset coval",
    ),
    click.option("--zeros", default="keep", help="keep or exclude zero mentions (CoNLL-U empty-node heads), after singletons"),
    click.option(
        "--zero-match", default=None,
        help="--preset corefud: match zeros as nodes (linear) or by their dependencies (dependent, the default)",
    ),
    click.option(
        "--split-antecedents", default="keep", type=click.Choice(["keep", "remove", "only"]),
        help="CoNLL-UA plurals (ElementOf=): score their split antecedents (keep), drop them, or score them alone",
    ),
    click.option("--non-referring", is_flag=True, help="CoNLL-UA: add the score of non-referring (-Pseudo) markables"),
    click.option("--bridging", is_flag=True, help="CoNLL-UA: add the three bridging scores of the BRIDGING column"),
    click.option(
        "--discourse-deixis", is_flag=True,
        help="CoNLL-UA: score the DISCOURSE_DEIXIS column instead of IDENTITY (split antecedents and singletons kept)",
    ),
    click.option("--min-spans", is_flag=True, help="CoNLL-UA: match key markables by their Min= spans in CEAF, non-referring, bridging"),
    click.option(
        "--lea-importance", default="size",
        help="LEA's importance of an entity: size (its mentions; Moosavi & Strube 2016), uniform (1 each) "
        "or entity-type (a weight per entity type, from --lea-weights)",
    ),
    click.option(
        "--lea-weights", type=existing_path(dir_okay=False), default=None, callback=read_weights,
        help="--lea-importance entity-type: a JSON file of entity type → weight, e.g. {\"person\": 2, \"place\": 1}",
    ),
    click.option(
        "--lea-default-weight", type=float, default=None,
        help="--lea-importance entity-type: the weight of a type the table lacks, or of no type (default 1)",
    ),
    SPANS,
    click.option("--key-spans", default=None, help="Like --spans, for the key side only"),
    click.option("--response-spans", default=None, help="Like --spans, for the response side only"),
    HEAD_PREFIX,
    INPUT_FORMAT,
    click.option("--key-format", default=None, help="Format of the key, by name (default: --input-format, else from its name)"),
    click.option(
        "--response-format", default=None, help="Format of the response(s), by name (default: --input-format, else from its name)"
    ),
    click.option(
        "--pair-by", default=None, type=click.Choice(["name", "order"]),
        help="Pair documents by name or by order (default: by name where both sides store names, else by order)",
    ),
)


def scoring_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """A command taking ``scoring: ScoringOptions``, offered on the command
    line with every :class:`ScoringOptions` field as an option of its own."""
    names = [field.name for field in fields(ScoringOptions)]

    @wraps(command)
    def run(**values: Any) -> Any:
        scoring = ScoringOptions(**{name: values.pop(name) for name in names})
        return command(scoring=scoring, **values)

    return compose(*_SCORING)(run)
