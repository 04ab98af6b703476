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
from typing import TYPE_CHECKING, Any, Callable, Optional

import click

from ..formats import describe_formats
from .sections import section

if TYPE_CHECKING:
    from ..scoring import Options

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]

METRIC_NAMES = "muc,bcub,ceafm,ceafe,blanc,lea"
"""The metrics computed by default (``counting.DEFAULT_METRICS``; a test
checks the two agree, so that ``--help`` need not import numpy)."""
ALL_METRICS = "muc,bcub,ceafm,ceafe,blanc,lea,mor,zero,non_referring,bridging"
TWINLESS = ("conll", "b3all", "b30", "sys")
SINGLETONS = ("keep", "remove")
MATCHES = ("exact", "head", "overlap", "partial")
OVERLAP_MEASURES = ("dice", "jaccard")
PRESETS = ("reference", "corefud", "ua", "coval")
ZEROS = ("keep", "exclude")
ZERO_MATCHES = ("linear", "dependent")
LEA_IMPORTANCES = ("size", "uniform", "entity-type")
RANK_BY = ("conll", "mentions", *ALL_METRICS.split(",")[:8])
"""The closed sets of the scoring options, written out so that ``--help``
and shell completion need not import the scoring machinery; a test checks
each against the registry it names (policies, matchers, presets...)."""
MAX_SEED = 2**32 - 1
MAX_RESAMPLES = 1_000_000
INPUT_HELP = f"Formats (by name, or --input-format NAME; .gz read transparently): {describe_formats()}."


def existing_path(**settings: Any) -> click.Path:
    return click.Path(exists=True, path_type=Path, **settings)


def input_path(**settings: Any) -> click.Path:
    """An input file or folder, or ``-`` for standard input (:mod:`.stdin`)."""
    return existing_path(allow_dash=True, **settings)


def output_path(**settings: Any) -> click.Path:
    """A file to write, or ``-`` for standard output."""
    return click.Path(path_type=Path, allow_dash=True, **settings)


def key_argument(name: str = "key") -> Decorator:
    return click.argument(name, type=input_path())


class MetricList(click.ParamType):
    """Comma-separated metric names, each one of :data:`ALL_METRICS`."""

    name = "metrics"

    def convert(self, value: Any, param: Optional[click.Parameter], ctx: Optional[click.Context]) -> str:
        names = [name.strip() for name in str(value).split(",") if name.strip()]
        unknown = [name for name in names if name not in ALL_METRICS.split(",")]
        if not names or unknown:
            what = f"{', '.join(map(repr, unknown))} is not a metric" if unknown else "no metric given"
            self.fail(f"{what}; choose from {ALL_METRICS} (comma-separated)", param, ctx)
        return ",".join(names)

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list:
        from click.shell_completion import CompletionItem

        done, _, last = incomplete.rpartition(",")
        prefix = f"{done}," if done else ""
        return [CompletionItem(prefix + name) for name in ALL_METRICS.split(",") if name.startswith(last)]


class FormatName(click.ParamType):
    """The name of a registered format (those of plugins too)."""

    name = "format"

    def convert(self, value: Any, param: Optional[click.Parameter], ctx: Optional[click.Context]) -> str:
        from ..errors import CorefInputError
        from ..formats import get_format

        try:
            return get_format(str(value)).name
        except (CorefInputError, KeyError, ValueError):
            self.fail(f"{value!r} is not a format; choose from {', '.join(_format_names())}", param, ctx)

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list:
        from click.shell_completion import CompletionItem

        return [CompletionItem(name) for name in _format_names() if name.startswith(incomplete)]


def _format_names() -> list:
    from ..formats import registered_formats

    return [fmt.name for fmt in registered_formats()]


def check_strata(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """``--by`` values, each a stratum attribute (a usage error otherwise)."""
    if value:
        from ..analysis.attributes import check_attribute

        try:
            for attribute in value:
                check_attribute(attribute)
        except ValueError as err:
            raise click.BadParameter(str(err)) from None
    return value


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


def format_option(choices: tuple[str, ...] = ("table", "json")) -> Decorator:
    """``--format``: one of ``choices``; by default JSON when ``--output``
    ends in ``.json``, else the table."""
    suffixes = ".json, .csv, .tsv, .md or .tex" if len(choices) > 2 else ".json"
    return section(
        "Output",
        click.option(
            "--format",
            "-f",
            "fmt",
            default=None,
            type=click.Choice(choices),
            help=f"Report format (default: the one --output's suffix says, {suffixes}; else table)",
        ),
    )


FORMAT = format_option()
PER_DOC = section("Output", click.option("--per-doc", is_flag=True, help="Also report every document"))
MACRO = section("Analyses", click.option("--macro", is_flag=True, help="Add macro averages over documents"))
SEED = section(
    "Analyses", click.option("--seed", default=0, type=click.IntRange(0, MAX_SEED), help="Random seed of the resampling statistics")
)
N_RESAMPLES = section(
    "Analyses",
    click.option("--n-resamples", default=1000, type=click.IntRange(1, MAX_RESAMPLES), help="Bootstrap resamples of the documents"),
)
CI = section(
    "Analyses",
    click.option(
        "--ci", type=float, default=None, callback=check_level, help="Add bootstrap confidence intervals at this level, e.g. 0.95"
    ),
)
N_PROCESS = section(
    "Other", click.option("--n-process", "-n", default=1, type=click.IntRange(1, 256), help="Score documents in this many processes")
)
SPANS_HELP = (
    "Span groups holding the clusters in .spacy input: PREFIX_* (one group per entity, the default "
    "coref_clusters_*) or KEY[:ATTR] (one group KEY whose spans with the same ATTR, id_ (default), "
    "label_ or kb_id_, form an entity)"
)
SPANS = section("Input", click.option("--spans", default=None, help=SPANS_HELP))
HEAD_PREFIX = section(
    "Input",
    click.option(
        "--head-prefix", default=None, help="With PREFIX_* span groups: span i of HEAD_PREFIX_<n> is the head of span i of PREFIX_<n>"
    ),
)
INPUT_FORMAT = section(
    "Input",
    click.option(
        "--input-format",
        default=None,
        type=FormatName(),
        help="Format of the input files, by name (default: from each file's name, or standard input's content)",
    ),
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
    lea_weights: Optional[dict[str, float]] = None
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

    def formats(self) -> tuple[Optional[str], Optional[str]]:
        """The formats named for the key and the response (``None``: from
        the file's name, or standard input's content)."""
        return self.key_format or self.input_format, self.response_format or self.input_format

    def options(self, **run: Any) -> "Options":
        """The run's :class:`~spacy_coref_eval.scoring.Options`, with
        ``run`` (``words``, ``tokens``, ``n_process``, ``twinning``)."""
        from ..scoring import Options

        names = {field.name: getattr(self, field.name) for field in fields(self)}
        names["metrics"] = parse_metrics(names["metrics"])
        return Options.from_names(**names, **run)


SETTINGS_OPTIONS = (
    "metrics",
    "twinless",
    "singletons",
    "match",
    "min_overlap",
    "overlap_measure",
    "preset",
    "zeros",
    "zero_match",
    "split_antecedents",
    "non_referring",
    "bridging",
    "discourse_deixis",
    "min_spans",
    "lea_importance",
    "lea_weights",
    "lea_default_weight",
    "mina",
    "np_only",
    "remove_nested",
)
"""The fields of :class:`ScoringOptions` that make the run's ``Settings``."""


def read_weights(ctx: click.Context, param: click.Parameter, value: Optional[Path]) -> Optional[dict[str, float]]:
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
        raise click.BadParameter(f'{value}: must hold one JSON object of entity type → weight, e.g. {{"person": 2.0}}')
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
    section(
        "Scoring",
        click.option("--metrics", "-m", default=METRIC_NAMES, type=MetricList(), help=f"Comma-separated metrics, from {ALL_METRICS}"),
        click.option("--twinless", default="conll", type=click.Choice(TWINLESS), help="Twinless policy"),
        click.option(
            "--singletons",
            default=None,
            type=click.Choice(SINGLETONS),
            help="Keep or remove singleton entities (default: the preset's; keep)",
        ),
        click.option(
            "--match",
            default=None,
            type=click.Choice(MATCHES),
            help="Mention matching (head and partial need heads; default: the preset's; exact)",
        ),
        click.option(
            "--min-overlap",
            type=click.FloatRange(0, 1, min_open=True),
            default=None,
            help="--match overlap: least overlap θ in (0, 1] (default: 0.5)",
        ),
        click.option("--overlap-measure", default=None, type=click.Choice(OVERLAP_MEASURES), help="--match overlap (default: dice)"),
        click.option(
            "--preset",
            default=None,
            type=click.Choice(PRESETS),
            help="Another scorer's conventions (default: reference): corefud (the official CorefUD scorer's numbers: "
            "head matching and no singletons by default, its alignment and BLANC rule), ua (the Universal Anaphora "
            "scorer's numbers), coval (coval's numbers on CoNLL-2012 files)",
        ),
        click.option(
            "--mina", is_flag=True, default=False, help="coval's minimum spans (MINA) from the key's parse column; implies --preset coval"
        ),
        click.option("--np-only", is_flag=True, default=False, help="coval's NP_only: drop VP-rooted mentions; implies --preset coval"),
        click.option(
            "--remove-nested",
            is_flag=True,
            default=False,
            help="coval's remove_nested: drop a mention nested in another of its entity; implies --preset coval",
        ),
        click.option(
            "--zeros",
            default="keep",
            type=click.Choice(ZEROS),
            help="Keep or exclude zero mentions (CoNLL-U empty-node heads), after singletons",
        ),
        click.option(
            "--zero-match",
            default=None,
            type=click.Choice(ZERO_MATCHES),
            help="--preset corefud: match zeros as nodes (linear) or by their dependencies (default: dependent)",
        ),
        click.option(
            "--split-antecedents",
            default="keep",
            type=click.Choice(["keep", "remove", "only"]),
            help="CoNLL-UA plurals (ElementOf=): score their split antecedents (keep), drop them, or score them alone",
        ),
        click.option("--non-referring", is_flag=True, help="CoNLL-UA: add the score of non-referring (-Pseudo) markables"),
        click.option("--bridging", is_flag=True, help="CoNLL-UA: add the three bridging scores of the BRIDGING column"),
        click.option(
            "--discourse-deixis",
            is_flag=True,
            help="CoNLL-UA: score the DISCOURSE_DEIXIS column instead of IDENTITY (split antecedents and singletons kept)",
        ),
        click.option(
            "--min-spans", is_flag=True, help="CoNLL-UA: match key markables by their Min= spans in CEAF, non-referring, bridging"
        ),
        click.option(
            "--lea-importance",
            default="size",
            type=click.Choice(LEA_IMPORTANCES),
            help="LEA's importance of an entity: size (its mentions; Moosavi & Strube 2016), uniform (1 each) "
            "or entity-type (a weight per entity type, from --lea-weights)",
        ),
        click.option(
            "--lea-weights",
            type=existing_path(dir_okay=False),
            default=None,
            callback=read_weights,
            help='--lea-importance entity-type: a JSON file of entity type → weight, e.g. {"person": 2, "place": 1}',
        ),
        click.option(
            "--lea-default-weight",
            type=float,
            default=None,
            help="--lea-importance entity-type: the weight of a type the table lacks, or of no type (default: 1)",
        ),
    ),
    SPANS,
    section(
        "Input",
        click.option("--key-spans", default=None, help="Like --spans, for the key side only"),
        click.option("--response-spans", default=None, help="Like --spans, for the response side only"),
    ),
    HEAD_PREFIX,
    INPUT_FORMAT,
    section(
        "Input",
        click.option(
            "--key-format",
            default=None,
            type=FormatName(),
            help="Format of the key, by name (default: --input-format, else from its name or content)",
        ),
        click.option(
            "--response-format",
            default=None,
            type=FormatName(),
            help="Format of the response(s), by name (default: --input-format, else from its name or content)",
        ),
        click.option(
            "--pair-by",
            default=None,
            type=click.Choice(["name", "order"]),
            help="Pair documents by name or by order (default: by name where both sides store names, else by order)",
        ),
    ),
)


def scoring_options(command: Callable[..., Any], without: tuple[str, ...] = ()) -> Callable[..., Any]:
    """A command taking ``scoring: ScoringOptions``, offered on the command
    line with every :class:`ScoringOptions` field as an option of its own
    but those ``without`` names (the command has no use for them: they keep
    their defaults)."""
    names = [field.name for field in fields(ScoringOptions) if field.name not in without]

    @wraps(command)
    def run(**values: Any) -> Any:
        scoring = ScoringOptions(**{name: values.pop(name) for name in names})
        return command(scoring=scoring, **values)

    command_with_options = compose(*_SCORING)(run)
    params = command_with_options.__click_params__  # type: ignore[attr-defined]
    command_with_options.__click_params__ = [param for param in params if param.name not in without]  # type: ignore[attr-defined]
    return command_with_options


def scoring_options_without(*names: str) -> Decorator:
    """:func:`scoring_options` without the options of ``names``."""
    return lambda command: scoring_options(command, without=names)


def _analysis_option(option: Any) -> Decorator:
    """The click option of an analysis option declared as data
    (:class:`~spacy_coref_eval.analysis.registry.Option`)."""
    settings: dict[str, Any] = {"help": option.help}
    if option.show_default:
        settings["show_default"] = True
    if option.metavar:
        settings["metavar"] = option.metavar
    if option.kind == "flag":
        if "/" in option.flags:
            settings["default"] = bool(option.default)
        else:
            settings["is_flag"] = True
    elif option.kind == "multiple":
        settings["multiple"] = True
    else:
        settings["default"] = option.default
        types = {"int": int, "float": float, "path": existing_path(dir_okay=False)}
        if option.kind in types:
            settings["type"] = types[option.kind]
    return click.option(option.flags, option.dest, **settings)


def analysis_options(command_name: str) -> Decorator:
    """The options every registered analysis offers ``command_name``
    (docs/analyses.md), handed to the command as one ``analyses`` mapping
    of parameter name to value."""
    from ..analysis.registry import options_of

    declared = options_of(command_name)
    names = list(dict.fromkeys(option.dest for option in declared))

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(command)
        def run(**values: Any) -> Any:
            return command(analyses={name: values.pop(name) for name in names}, **values)

        return section("Analyses", *(_analysis_option(option) for option in declared))(run)

    return decorate
