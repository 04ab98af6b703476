"""The analyses, each declared once in :data:`REGISTRY` (docs/analyses.md,
"Adding an analysis"): its name (the JSON member), its command-line
options as data (the command line turns them into click options), what
it needs of the run, and by dotted path the functions that compute it and
render it as JSON, a table, an HTML section and spaCy score keys.

Paths are ``"module:function"``, the module relative to the package
(``"analysis.builtin:waterfall"``), so that this module imports nothing
(``--help`` stays fast) and the renderers may live in ``report/``, which
ranks after ``analysis/``. A computing function takes a :class:`Context`;
a JSON renderer ``(value, per_doc)``; a per-document JSON renderer
``(value, index, name)``; a table renderer ``(value, result, per_doc,
analyses)`` and returns a list of text blocks; an HTML renderer ``(block,
data)`` (the JSON block with ``per_doc``, the page's ``ReportData``);
spaCy keys ``(block)``. JSON members and HTML sections come in registry
order, table sections by :attr:`Analysis.table_rank`."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Callable, Optional, Union

NEEDS = frozenset({"twinning", "words", "tokens", "corpus", "whole", "response_documents"})
"""What an analysis may need of a run: the ``twinning``, the key's
``words`` or ``tokens``, the paired ``corpus``, every document read at
once (``whole``: no streaming), the ``response_documents`` read again."""


@dataclass(frozen=True)
class Option:
    """One command-line option of an analysis: ``flags`` as click writes
    them (``"--waterfall"``, ``"--waterfall/--no-waterfall"``), the
    parameter ``dest``, its ``kind`` (``flag``, ``text``, ``int``,
    ``float``, ``path``, ``multiple``), ``default``, ``help``, and the
    ``commands`` that offer it."""

    flags: str
    dest: str
    help: str
    kind: str = "flag"
    default: Any = None
    metavar: Optional[str] = None
    show_default: bool = False
    commands: tuple[str, ...] = ("score",)


@dataclass(frozen=True)
class Context:
    """What computing an analysis reads: the run's ``result``, the option
    ``values`` asked with, the paired ``corpus`` (or ``None``), the
    ``response_documents`` read again, the bootstrap settings (``level``,
    ``n_resamples``, ``seed``) and ``n_process``."""

    result: Any
    values: Mapping[str, Any]
    corpus: Any = None
    response_documents: Sequence[Any] = ()
    level: Optional[float] = None
    n_resamples: int = 1000
    seed: int = 0
    n_process: int = 1


Needs = Union[frozenset[str], Callable[[Mapping[str, Any]], frozenset[str]]]


@dataclass(frozen=True)
class Analysis:
    """One analysis: ``name`` (its JSON member and its key in
    :class:`~.summary.Analyses`), its ``options``, the option values that
    ask for it (``asked_by``: one parameter name or several; default its
    name), what it ``needs``
    (:data:`NEEDS`, or a function of the option values), ``check`` of the
    option values before a run, ``compute``, and its renderers (``json``,
    ``document_json``, ``table``, ``html``, ``spacy_keys``) by dotted
    path; ``table_rank`` orders its table among the others (registry
    order by default). ``adjust``, when given, returns the run's result
    changed (a :class:`Context` in, a ``CorpusResult`` out): every output
    then reports the changed result, and the analyses after it read it."""

    name: str
    compute: str
    options: tuple[Option, ...] = ()
    asked_by: Union[None, str, tuple[str, ...]] = None
    needs: Needs = frozenset()
    check: Optional[str] = None
    json: Optional[str] = None
    document_json: Optional[str] = None
    table: Optional[str] = None
    html: Optional[str] = None
    spacy_keys: Optional[str] = None
    table_rank: Optional[float] = None
    adjust: Optional[str] = None

    def asked(self, values: Mapping[str, Any]) -> bool:
        """Whether the option ``values`` ask for it: any of ``asked_by``
        given (not ``None``, ``False`` or empty)."""
        names = self.asked_by if isinstance(self.asked_by, tuple) else (self.asked_by or self.name,)
        return any(_given(values.get(name)) for name in names)

    def needed(self, values: Mapping[str, Any]) -> frozenset[str]:
        """What it needs of the run, asked with ``values``."""
        return self.needs(values) if callable(self.needs) else self.needs


def _given(value: Any) -> bool:
    return value is not None and value is not False and not (isinstance(value, (tuple, list, str)) and not value)


def resolve(path: str) -> Callable[..., Any]:
    """The function at ``"module:function"``: the module relative to the
    package (``analysis.waterfall``), else an absolute module (a plugin's)."""
    module, _, name = path.partition(":")
    try:
        found = import_module(f"spacy_coref_eval.{module}")
    except ModuleNotFoundError as err:
        if err.name is None or not f"spacy_coref_eval.{module}".startswith(err.name):
            raise
        found = import_module(module)
    return getattr(found, name)


def _strata_needs(values: Mapping[str, Any]) -> frozenset[str]:
    by = values.get("by") or ()
    out = {"twinning", "corpus"}
    if "mention-type" in by or "spread-sentences" in by:
        out.add("tokens")
    if any(name == "entity-type" or name.startswith("attr:") for name in by):
        out.add("response_documents")
    return frozenset(out)


TWINNING = frozenset({"twinning"})

REGISTRY: tuple[Analysis, ...] = (
    Analysis(
        "errors",
        "analysis.builtin:errors",
        json="analysis.builtin:errors_json",
        document_json="analysis.builtin:errors_document_json",
        table="report.sections:errors_text",
        html="report.sections:errors_html",
        needs=TWINNING,
        options=(Option("--errors", "errors", "Add counts of error kinds (by document too with --per-doc)"),),
    ),
    Analysis(
        "resolution_classes",
        "analysis.builtin:classes",
        asked_by="classes",
        json="analysis.builtin:to_dict",
        document_json="analysis.builtin:classes_document_json",
        table="report.sections:classes_text",
        html="report.sections:classes_html",
        needs=frozenset({"twinning", "tokens", "corpus"}),
        options=(
            Option(
                "--classes",
                "classes",
                "Add resolution classes (Stoyanov et al. 2009): class mix and MUC-RC per class (by document too with --per-doc)",
            ),
        ),
    ),
    Analysis(
        "waterfall",
        "analysis.builtin:waterfall",
        json="analysis.builtin:to_dict",
        document_json="analysis.builtin:waterfall_document_json",
        table="report.sections:waterfall_text",
        html="report.sections:waterfall_html",
        needs=TWINNING,
        table_rank=2.5,
        options=(
            Option(
                "--waterfall",
                "waterfall",
                "Add the error-impact waterfall: every metric after fixing each kind of error in turn, and each kind "
                "alone (by document too with --per-doc)",
            ),
            Option(
                "--waterfall/--no-waterfall",
                "waterfall",
                "Show the error-impact waterfall: every metric after fixing each kind of error in turn, and alone",
                default=True,
                show_default=True,
                commands=("report",),
            ),
        ),
    ),
    Analysis(
        "errors_list",
        "analysis.builtin:errors_list",
        table="report.sections:errors_list_text",
        needs=frozenset({"twinning", "words", "corpus", "response_documents"}),
        table_rank=10,
        options=(
            Option(
                "--errors-list",
                "errors_list",
                "Add every error of every document: missing, extra and span-error mentions; missing, extra, divided "
                "and conflated entities with their mentions",
            ),
        ),
    ),
    Analysis(
        "strata",
        "analysis.builtin:strata",
        asked_by="by",
        check="analysis.builtin:check_strata",
        table="report.sections:strata_text",
        html="report.sections:strata_html",
        spacy_keys="report.spacy_scores:strata_keys",
        needs=_strata_needs,
        table_rank=3.5,
        options=(
            Option(
                "--by",
                "by",
                "Add every metric by stratum of chain-length, mention-type, entity-type, attr:KEY, spread or spread-sentences (repeatable)",
                kind="multiple",
            ),
            Option(
                "--by",
                "by",
                "Show every metric by stratum of chain-length, mention-type, entity-type, attr:KEY, spread or spread-sentences",
                kind="multiple",
                commands=("report",),
            ),
            Option(
                "--chain-lengths",
                "chain_lengths",
                "--by chain-length: entity sizes of each stratum, N, N-M or N+, from 1 on",
                kind="text",
                default="1,2-5,6+",
                show_default=True,
            ),
            Option(
                "--chain-lengths",
                "chain_lengths",
                "--by chain-length: entity sizes of each stratum",
                kind="text",
                default="1,2-5,6+",
                show_default=True,
                commands=("report",),
            ),
            Option(
                "--spreads",
                "spreads",
                "--by spread / spread-sentences: an entity's first-to-last mention distance (tokens / sentences) of "
                "each stratum, N, N-M or N+, from 0 on (default 0,1-99,100-999,1000-9999,10000+ tokens; "
                "0,1-4,5-19,20-99,100+ sentences)",
                kind="text",
                commands=("score", "report"),
            ),
        ),
    ),
    Analysis(
        "variants",
        "analysis.builtin:variants",
        check="analysis.builtin:check_variants",
        json="analysis.builtin:variants_json",
        table="report.sections:variants_text",
        html="report.sections:variants_html",
        needs=frozenset({"corpus", "whole"}),
        table_rank=4.5,
        options=(
            Option(
                "--variants",
                "variants",
                "Add the variant matrix: exact, head and partial matching with singletons kept and removed under "
                "--preset corefud, and the reference setting, from one read of the input",
            ),
            Option(
                "--variants",
                "variants",
                "Show the variant matrix (reference; exact, head and partial under --preset corefud)",
                commands=("report",),
            ),
        ),
    ),
    Analysis(
        "cross_document",
        "analysis.builtin:cross_document",
        json="analysis.builtin:crossdoc_json",
        table="report.sections:crossdoc_text",
        html="report.sections:crossdoc_html",
        spacy_keys="pipeline.crossdoc:link_keys",
        needs=frozenset({"twinning", "corpus"}),
        table_rank=2,
    ),
    Analysis(
        "antecedent_distance",
        "analysis.antecedents:compute",
        asked_by="antecedents",
        check="analysis.antecedents:check",
        table="report.long_documents:antecedents_text",
        html="report.long_documents:antecedents_html",
        needs=TWINNING,
        options=(
            Option(
                "--antecedents",
                "antecedents",
                "Add link recall by antecedent distance: each key mention and the nearest preceding mention of its "
                "entity, by distance in tokens, and the share the response also links",
                commands=("score", "report"),
            ),
            Option(
                "--distances",
                "distances",
                "--antecedents: token distances of each range, N, N-M or N+, from 0 on",
                kind="text",
                default="0-9,10-49,50-199,200-999,1000+",
                show_default=True,
                commands=("score", "report"),
            ),
        ),
    ),
    Analysis(
        "windows",
        "analysis.windows:compute",
        asked_by=("window", "window_sentences"),
        check="analysis.windows:check",
        json="analysis.windows:to_json",
        table="report.long_documents:windows_text",
        spacy_keys="report.spacy_scores:windows_keys",
        html="report.long_documents:windows_html",
        needs=lambda values: frozenset({"twinning", "corpus"} | ({"tokens"} if values.get("window_sentences") else set())),
        options=(
            Option(
                "--window",
                "window",
                "Add scores of the documents cut into windows of N tokens, each scored as a "
                "document, beside the whole documents' (by window too with --per-doc)",
                kind="int",
                metavar="N",
                commands=("score", "report"),
            ),
            Option(
                "--window-sentences",
                "window_sentences",
                "Like --window, with windows of N sentences",
                kind="int",
                metavar="N",
                commands=("score", "report"),
            ),
        ),
    ),
    Analysis(
        "links",
        "analysis.links:compute",
        table="report.long_documents:links_text",
        spacy_keys="report.spacy_scores:links_keys",
        html="report.long_documents:links_html",
        needs=frozenset({"twinning", "words", "corpus"}),
        options=(
            Option(
                "--links",
                "links",
                "Add recall, precision and F1 of the coreference links (as BLANC counts them) classed surface (same "
                "text or head word) or other, and with --train seen or unseen",
                commands=("score", "report"),
            ),
            Option(
                "--train",
                "train",
                "--links: a training file; a link is seen when its two head words occur together in one of its entities",
                kind="path",
                metavar="FILE",
                commands=("score", "report"),
            ),
        ),
    ),
    Analysis(
        "partial_gold",
        "analysis.partial_gold:compute",
        asked_by=("partial_gold", "key_types"),
        adjust="analysis.partial_gold:adjust",
        table="report.long_documents:partial_gold_text",
        html="report.long_documents:partial_gold_html",
        needs=frozenset({"twinning", "words", "corpus"}),
        table_rank=-1,
        options=(
            Option(
                "--partial-gold",
                "partial_gold",
                "The key annotates only some entities: set aside (count and list, not score as precision errors) "
                "every response entity none of whose mentions twins a key mention",
                commands=("score", "report"),
            ),
            Option(
                "--key-types",
                "key_types",
                "--partial-gold: the entity types the key annotates, TYPE,...; only "
                "response entities of other types are set aside (implies --partial-gold)",
                kind="text",
                metavar="TYPES",
                commands=("score", "report"),
            ),
        ),
    ),
    Analysis(
        "baseline",
        "analysis.baseline:compute",
        table="report.long_documents:baseline_text",
        html="report.long_documents:baseline_html",
        needs=frozenset({"words", "corpus", "whole"}),
        table_rank=-0.5,
        options=(
            Option(
                "--baseline",
                "baseline",
                "Add a string-match baseline beside the system: the key's mentions with the same text (and, where "
                "the key marks heads, the same head word) in one entity, scored with the same settings",
                commands=("score", "report"),
            ),
        ),
    ),
)
"""Every analysis, in the order of the JSON members and HTML sections."""

_BY_NAME: dict[str, Analysis] = {analysis.name: analysis for analysis in REGISTRY}


def register_analysis(analysis: Analysis) -> Analysis:
    """Add ``analysis`` after the built-in ones (its name new)."""
    global REGISTRY
    if analysis.name in _BY_NAME:
        raise ValueError(f"an analysis named {analysis.name!r} is already registered")
    REGISTRY = REGISTRY + (analysis,)
    _BY_NAME[analysis.name] = analysis
    return analysis


def registered_analyses() -> tuple[Analysis, ...]:
    """Every analysis, in registry order."""
    return REGISTRY


def get_analysis(name: str) -> Analysis:
    """The analysis called ``name``."""
    if name not in _BY_NAME:
        raise KeyError(f"unknown analysis {name!r}; choose from {', '.join(_BY_NAME)}")
    return _BY_NAME[name]


def table_order() -> Sequence[Analysis]:
    """The analyses in the order the table shows them."""
    ranked = [(a.table_rank if a.table_rank is not None else float(i), i, a) for i, a in enumerate(REGISTRY)]
    return [analysis for _, _, analysis in sorted(ranked, key=lambda item: item[:2])]


def options_of(command: str) -> tuple[Option, ...]:
    """The options every analysis offers ``command``, in registry order."""
    return tuple(option for analysis in REGISTRY for option in analysis.options if command in option.commands)


def dests() -> frozenset[str]:
    """Every option parameter of an analysis."""
    return frozenset(option.dest for analysis in REGISTRY for option in analysis.options)
