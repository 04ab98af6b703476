"""Imports run one way, along the data flow (docs/metrics.md; the package
docstring): no module imports a later stage, not even inside a function;
no two modules import each other, not even through imports deferred into
functions; the core (what an annotation is, twinning, solving, counting)
imports nothing from ``formats``; no module imports another's private
name; and imports wait inside functions only at the command entry points
and where :data:`DEFERRED` lists them, with the reason."""

import ast
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from tests.conftest import REPO

PACKAGE = REPO / "spacy_coref_eval"
CONFORMANCE = REPO / "tests" / "data" / "conformance" / "corefud" / "head-match"
STAGES = (
    ("about", "errors"),
    ("arrays", "files"),
    ("model",),
    ("assignment",),
    ("twinning",),
    ("counting",),
    ("formats",),
    ("compat",),
    ("presets",),
    ("scoring",),
    ("analysis", "shards"),
    ("report",),
    ("api",),
    ("cli", "pipeline", "__init__", "__main__"),
)
RANK = {name: rank for rank, names in enumerate(STAGES) for name in names}
"""A stage imports only earlier ones. Reading comes first in the data flow,
but ``formats`` ranks after the core: files are read into the model, and
the core never needs to know from which file."""


def stage(module: str) -> str:
    """The stage of a module path relative to the package (``readers.conll`` → ``readers``)."""
    return module.split(".")[0]


def module_name(path: Path) -> str:
    """``readers/conll.py`` → ``readers.conll``, ``readers/__init__.py`` → ``readers.__init__``."""
    return ".".join(path.relative_to(PACKAGE).with_suffix("").parts)


def imports(source: str, module: str, typing: bool = True) -> Iterator[tuple[str, int]]:
    """The package modules that the code ``source`` of ``module`` imports
    (relative or absolute, anywhere in the file), with line numbers; those
    under ``if TYPE_CHECKING:`` only with ``typing``."""
    package = module.split(".")[:-1]
    for node in _import_nodes(ast.parse(source), typing):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
                names = [target] if node.module else [f"{target}.{alias.name}".strip(".") for alias in node.names]
            elif node.module and node.module.startswith("spacy_coref_eval"):
                names = [node.module[len("spacy_coref_eval") :].lstrip(".")]
            else:
                continue
            for name in names:
                yield name, node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("spacy_coref_eval."):
                    yield alias.name[len("spacy_coref_eval.") :], node.lineno


def modules() -> Iterator[Path]:
    return iter(sorted(PACKAGE.rglob("*.py")))


def _import_nodes(tree: ast.AST, typing: bool) -> Iterator[ast.AST]:
    """Every import statement of ``tree``, at any depth; those under
    ``if TYPE_CHECKING:`` (never run) only with ``typing``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif not typing and isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imported_names(source: str, module: str, typing: bool = True) -> Iterator[tuple[str, str, int]]:
    """``(module, name, line)`` for every ``from module import name`` of
    the code ``source`` of ``module`` that names a package module (under
    ``if TYPE_CHECKING:`` only with ``typing``)."""
    package = module.split(".")[:-1]
    for node in _import_nodes(ast.parse(source), typing):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package[: len(package) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
        elif node.module and node.module.startswith("spacy_coref_eval"):
            target = node.module[len("spacy_coref_eval") :].lstrip(".")
        else:
            continue
        for alias in node.names:
            yield target, alias.name, node.lineno


def sources() -> dict[str, str]:
    """The code of every module of the package by :func:`module_name`."""
    return {module_name(path): path.read_text(encoding="utf8") for path in modules()}


def resolve(name: str, known: set[str]) -> str:
    """The module of ``known`` that importing ``name`` runs last: the module
    itself, or the ``__init__`` of a package ('' for the package's own)."""
    if name in known:
        return name
    init = f"{name}.__init__".lstrip(".")
    return init if init in known else ""


def module_graph(code: Mapping[str, str]) -> dict[str, dict[str, int]]:
    """Which modules each module of ``code`` imports, with the line of the
    first such import: at the top or deferred into a function, a name of a
    module imported from it counting as that submodule (a package's own
    modules importing names of its ``__init__`` left out: it runs first),
    ``if TYPE_CHECKING:`` imports left out (they never run)."""
    known = set(code)
    graph: dict[str, dict[str, int]] = {module: {} for module in code}
    for module, source in code.items():
        for target, line in imports(source, module, typing=False):
            node = resolve(target, known)
            if node and node != module:
                graph[module].setdefault(node, line)
        for target, name, line in imported_names(source, module, typing=False):
            node = resolve(f"{target}.{name}".strip("."), known) or resolve(target, known)
            if node and node != module and not (node.endswith("__init__") and module.startswith(node[: -len("__init__")])):
                graph[module].setdefault(node, line)
    return graph


def cycles(graph: Mapping[str, Mapping[str, int]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` of more than one
    module (Tarjan 1972), each sorted, in sorted order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in graph:
                    continue
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def describe(component: list[str], graph: Mapping[str, Mapping[str, int]]) -> list[str]:
    """The imports that close a cycle of ``component``, as ``a:line -> b``."""
    return [f"{a}:{line} -> {b}" for a in component for b, line in sorted(graph[a].items()) if b in component]


CORE = ("model", "assignment", "twinning", "counting")
"""What an annotation is and how it is twinned, solved and counted: no
file format in it."""


def core_imports_of_formats(code: Mapping[str, str]) -> list[str]:
    """Every import of ``formats`` by a module of :data:`CORE`, even under
    ``if TYPE_CHECKING:`` or inside a function."""
    return [
        f"{module}:{line} imports {target}"
        for module, source in sorted(code.items())
        if stage(module) in CORE
        for target, line in imports(source, module)
        if stage(target) == "formats"
    ]


def private_imports(code: Mapping[str, str]) -> list[str]:
    """Every ``from other_module import _name`` (``_name`` not a module)."""
    known = set(code)
    return [
        f"{module}:{line} imports {name} from {target}"
        for module, source in sorted(code.items())
        for target, name, line in imported_names(source, module)
        if name.startswith("_") and not name.startswith("__") and not resolve(f"{target}.{name}", known)
    ]


def test_every_module_has_a_stage():
    unknown = {stage(module_name(path)) for path in modules()} - set(RANK)
    assert not unknown, f"modules outside every stage: {unknown}; add them to STAGES"


@pytest.mark.parametrize("path", list(modules()), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_run_along_the_pipeline(path):
    module = module_name(path)
    own = stage(module)
    against = []
    for target, line in imports(path.read_text(encoding="utf8"), module):
        other = stage(target)
        if not other or other == own:
            continue
        if RANK[other] > RANK[own] or (RANK[other] == RANK[own] and own not in ("__init__", "__main__")):
            against.append(f"line {line}: {own} imports {target}")
    assert not against, against


def test_the_checker_sees_every_kind_of_import():
    code = (
        "from ..errors import CorefInputError\n"
        "from . import spans\n"
        "import spacy_coref_eval.counting.rates\n"
        "def f():\n    from ..scoring import Settings\n"
    )
    assert set(imports(code, "readers.corpus")) == {("errors", 1), ("readers.spans", 2), ("counting.rates", 3), ("scoring", 5)}


def test_no_import_cycles_even_through_deferred_imports():
    graph = module_graph(sources())
    found = [describe(component, graph) for component in cycles(graph)]
    assert not found, "modules that import each other (move the shared piece to the lower one): " + repr(found)


def test_the_core_imports_nothing_from_formats():
    assert core_imports_of_formats(sources()) == []


def test_no_private_name_is_imported_across_modules():
    assert private_imports(sources()) == []


def test_the_checker_finds_a_cycle_through_a_deferred_import():
    code = {
        "formats.document": "def same_words():\n    from .conll.write import conll_column\n",
        "formats.conll.write": "from ..document import SideDocument\n",
        "formats.conll.__init__": "",
        "formats.base": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .document import Side\n",
        "formats.registry": "from . import base\n",
    }
    graph = module_graph(code)
    assert graph["formats.registry"] == {"formats.base": 1}
    assert cycles(graph) == [["formats.conll.write", "formats.document"]]
    assert describe(cycles(graph)[0], graph) == ["formats.conll.write:1 -> formats.document", "formats.document:2 -> formats.conll.write"]
    code["formats.document"] = "import numpy\n"
    assert cycles(module_graph(code)) == []


def test_the_checker_finds_cycles_of_more_than_two_modules():
    graph = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1, "d": 2}, "d": {}, "e": {"d": 1}, "f": {"f": 1}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_the_checker_finds_the_core_importing_formats_and_private_names():
    code = {
        "counting.metrics": "def f():\n    from ..formats.ua.modes import Modes\n",
        "twinning.coval": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..formats import x\n",
        "formats.stream": "from .corpus import _pair, pair_sides\nfrom . import _private_module\n",
        "formats._private_module": "",
        "formats.corpus": "from ..model.clusters import Clusters\n",
    }
    assert core_imports_of_formats(code) == ["counting.metrics:2 imports formats.ua.modes", "twinning.coval:3 imports formats"]
    assert private_imports(code) == ["formats.stream:1 imports _pair from formats.corpus"]


ENTRY_POINTS = ("cli", "__main__")
"""Command entry points: an import there may wait for the command that
needs it (``--help`` loads every command's module)."""

DEFERRED: dict[str, dict[str, tuple[str, ...]]] = {
    "SciPy (some 0.2 s to import) only where a problem is solved with it: small problems are solved in Python "
    "(test_small_assignments_import_no_scipy), and scoring preloads it before forking workers only where a "
    "matcher other than exact matching reaches it": {
        "assignment.blocks": ("scipy.sparse.csr_matrix", "scipy.sparse.csgraph.connected_components"),
        "assignment.lsap": ("scipy.optimize.linear_sum_assignment",),
        "assignment.sparse": (
            "scipy.sparse.csr_matrix",
            "scipy.sparse.csgraph.maximum_bipartite_matching",
            "scipy.optimize.linear_sum_assignment",
            "scipy.sparse.csgraph.min_weight_full_bipartite_matching",
        ),
        "compat.coval.score": ("scipy.optimize.linear_sum_assignment",),
        "scoring.score": ("scipy.optimize", "scipy.sparse.csgraph"),
    },
    "The small-problem path: exact fractions only for gains no small denominator fits": {"assignment.gains": ("fractions.Fraction",)},
    "Process pools only with several processes (test_score_imports_only_what_it_uses)": {
        "formats.stream": ("multiprocessing", "concurrent.futures.ProcessPoolExecutor"),
        "scoring.score": ("multiprocessing", "concurrent.futures.ProcessPoolExecutor"),
    },
    "spaCy and srsly: .spacy files and counts are read without them (issue #21, tests/formats/docbin/test_docbin_imports.py); "
    "they load where Docs, words, token attributes or msgpack are asked for": {
        "formats.docbin.docs": ("srsly",),
        "formats.docbin.examples": ("spacy.attrs.IDX", "spacy.attrs.LENGTH", "spacy.attrs.ORTH", "spacy.attrs.SPACY"),
        "formats.docbin.records": ("spacy.tokens.DocBin", "spacy.vocab.Vocab"),
        "formats.docbin.side": ("spacy.vocab.Vocab", "formats.docbin.docs.words_to_doc", "formats.docbin.docs.write_docbin"),
        "formats.docbin.strings": ("spacy.strings.get_string_id", "spacy.strings.StringStore"),
        "formats.docbin.table": ("srsly", "srsly.msgpack"),
        "formats.sysout.read": ("spacy",),
        "scoring.run": ("formats.docbin.examples.docs_side",),
        "shards": ("srsly",),
    },
    "The analyses' dispatch: an analysis's module, and the statistics, load when it is asked for (the registry "
    "names them by path for the same reason; test_score_imports_only_what_it_uses with --classes)": {
        "analysis.builtin": (
            "analysis.error_types.corpus_error_counts",
            "analysis.error_types.TOTAL",
            "analysis.resolution.score_resolution_classes",
            "analysis.waterfall.waterfall",
            "analysis.error_list.error_list",
            "analysis.attributes.check_attribute",
            "analysis.ranges.ChainLengths",
            "analysis.spread.spreads_of",
            "analysis.attributes.DEFAULT_CHAIN_LENGTHS",
            "analysis.attributes.MENTION_TYPE",
            "analysis.attributes.SPREAD_SENTENCES",
            "analysis.attributes.stratum_values",
            "analysis.strata.score_strata",
            "analysis.statistics.bootstrap_intervals",
            "analysis.variants.score_variants",
            "analysis.crossdoc.cross_document",
            "analysis.crossdoc.topic_documents",
        ),
        "analysis.summary": ("analysis.statistics.bootstrap_intervals", "analysis.statistics.macro_average"),
    },
    "Optional extras, imported where they are used": {"api.scores": ("pandas",)},
    "Plugin formats: the installed packages' metadata is searched only for a name not built in": {
        "formats.registry": ("importlib.metadata.entry_points",)
    },
    "A format's __init__ and formats.base are loaded by the registry, and so by --help, without numpy; the "
    "reader and the opener's formats.inputs load with the first file": {
        "formats.base": ("formats.inputs.read_input",),
        "formats.brat.__init__": ("formats.brat.read.read_brat",),
    },
    "Tables (wasabi) only when a table is printed (test_score_imports_only_what_it_uses)": {
        "report.text": (
            "report.table.documents_table",
            "report.table.intervals_table",
            "report.table.macro_table",
            "report.table.metrics_table",
        )
    },
    "What only some inputs or options need, off the path of a plain CoNLL-2012 score (some 10 ms of imports, "
    "30 modules): UA's split antecedents and modes, the coval preset, annotation tools' closure, topics, text "
    "alignment, resolution classes, CoNLL-U documents": {
        "analysis.attributes": ("formats.conllu.side.ConlluSideDocument",),
        "analysis.statistics": ("analysis.resolution.RESOLUTION_CLASSES",),
        "formats.corpus": (
            "formats.annotation.closure_report",
            "formats.topics.pair_topics",
            "formats.alignment.alignment_warning",
            "formats.alignment.unmapped_warnings",
        ),
        "formats.stream": ("formats.topics.pair_topics",),
        "scoring.run": ("compat.coval.score.CovalOptions", "compat.coval.score.coval_corpus_counts"),
        "scoring.score": (
            "compat.ua.anaphora.has_splits",
            "compat.ua.anaphora.anaphora_counts",
            "compat.ua.anaphora.check_modes",
            "model.ua.view.in_modes",
        ),
        "scoring.settings": ("compat.coval.score.COVAL_METRICS", "compat.coval.score.CovalOptions"),
    },
}
"""The imports that may wait inside a function outside
:data:`ENTRY_POINTS`, by module, each group with its reason; every other
import is at the top of its module (docs/internals.md). Names are
qualified, those of the package relative to it."""


def deferred_imports(source: str, module: str) -> Iterator[tuple[str, int]]:
    """``(name, line)`` for every import inside a function of the code
    ``source`` of ``module``: ``import a.b`` as ``a.b``, ``from a import
    b`` as ``a.b``, names of the package relative to it."""
    package = module.split(".")[:-1]
    stack: list[tuple[ast.AST, bool]] = [(ast.parse(source), False)]
    while stack:
        node, inside = stack.pop()
        if inside and isinstance(node, ast.Import):
            for alias in node.names:
                name = alias.name
                yield name[len("spacy_coref_eval.") :] if name.startswith("spacy_coref_eval.") else name, node.lineno
        elif inside and isinstance(node, ast.ImportFrom):
            if node.level:
                target = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            else:
                target = node.module or ""
                if target == "spacy_coref_eval" or target.startswith("spacy_coref_eval."):
                    target = target[len("spacy_coref_eval") :].lstrip(".")
            for alias in node.names:
                yield f"{target}.{alias.name}".strip("."), node.lineno
        inside = inside or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        stack.extend((child, inside) for child in ast.iter_child_nodes(node))


def unlisted_deferred_imports(code: Mapping[str, str], allowed: Mapping[str, dict[str, tuple[str, ...]]]) -> tuple[list[str], list[str]]:
    """The deferred imports of ``code`` outside :data:`ENTRY_POINTS` that
    ``allowed`` does not list (as ``module:line imports name``), and the
    entries of ``allowed`` that no longer match one (as ``module: name``)."""
    listed = {(module, name) for group in allowed.values() for module, names in group.items() for name in names}
    found: set[tuple[str, str]] = set()
    unlisted = []
    for module, source in sorted(code.items()):
        if stage(module) in ENTRY_POINTS:
            continue
        for name, line in sorted(deferred_imports(source, module), key=lambda item: item[1]):
            found.add((module, name))
            if (module, name) not in listed:
                unlisted.append(f"{module}:{line} imports {name}")
    return unlisted, [f"{module}: {name}" for module, name in sorted(listed - found)]


def test_imports_wait_only_where_listed():
    unlisted, _ = unlisted_deferred_imports(sources(), DEFERRED)
    assert not unlisted, (
        "imports inside functions: move them to the top of the module, or add them to DEFERRED with the reason "
        "start-up needs them there (docs/internals.md): " + repr(unlisted)
    )


def test_every_listed_deferred_import_exists():
    _, stale = unlisted_deferred_imports(sources(), DEFERRED)
    assert not stale, "DEFERRED lists imports no function makes any more; remove them: " + repr(stale)


def test_the_checker_sees_deferred_imports():
    code = {
        "formats.corpus": (
            "import gzip\nfrom .topics import x\n"
            "def f():\n    import srsly.msgpack\n    from .alignment import a, b as c\n"
            "class C:\n    def g(self):\n        from spacy_coref_eval.errors import E\n"
            "        h = lambda: __import__('os')\n"
        ),
        "cli.score": "def main():\n    from ..scoring import evaluate_corpus\n",
    }
    assert sorted(deferred_imports(code["formats.corpus"], "formats.corpus")) == [
        ("errors.E", 8),
        ("formats.alignment.a", 5),
        ("formats.alignment.b", 5),
        ("srsly.msgpack", 4),
    ]
    allowed = {"why": {"formats.corpus": ("srsly.msgpack", "formats.alignment.a", "formats.gone")}}
    assert unlisted_deferred_imports(code, allowed) == (
        ["formats.corpus:5 imports formats.alignment.b", "formats.corpus:8 imports errors.E"],
        ["formats.corpus: formats.gone"],
    )


def test_help_imports_neither_spacy_nor_scipy_nor_pydantic():
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from spacy_coref_eval.cli import app\n"
        "assert CliRunner().invoke(app, ['--help']).exit_code == 0\n"
        "assert CliRunner().invoke(app, ['score', '--help']).exit_code == 0\n"
        "heavy = sorted(m for m in ('spacy', 'scipy', 'srsly', 'thinc', 'pydantic') if m in sys.modules)\n"
        "print(','.join(heavy))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == ""


@pytest.mark.parametrize(
    "extra, unused",
    [
        ((), ("spacy", "scipy", "srsly", "thinc", "pydantic", "multiprocessing", "concurrent", "wasabi", "rich")),
        (("--classes",), ("scipy", "pydantic", "numpy.ma", "numpy.random")),
    ],
)
def test_score_imports_only_what_it_uses(extra, unused):
    """``score`` of CoNLL files to JSON, the commonest process: no spaCy,
    SciPy (small CEAF blocks are solved in Python), pydantic (typer's
    conversion of values), process pools or table printing; with
    ``--classes`` neither the statistics nor numpy's masked arrays."""
    data = PACKAGE / "data"
    argv = ["score", str(data / "demo.key.conll"), str(data / "demo.response.conll"), "-f", "json", *extra]
    assert loaded_after([argv], f"m in {unused!r}") == ""


def loaded_after(runs: list[list[str]], which: str) -> str:
    """The modules, among those for which the expression ``which`` of ``m``
    holds, that one fresh process has loaded after running the command line
    with each argument list of ``runs`` in turn."""
    code = (
        "import sys\n"
        "from spacy_coref_eval.cli import main\n"
        f"for argv in {runs!r}:\n"
        "    sys.argv = ['spacy-coref-eval', *argv]\n"
        "    try:\n"
        "        main()\n"
        "    except SystemExit as stop:\n"
        "        assert not stop.code, stop.code\n"
        f"print(','.join(sorted(m for m in sys.modules if {which})), file=sys.stderr)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stderr.strip()


@pytest.mark.parametrize(
    "runs",
    [
        [
            [
                "score",
                str(CONFORMANCE / "TC-HMA.key"),
                str(CONFORMANCE / f"TC-HMA-{case}.response"),
                "--preset",
                "corefud",
                "--match",
                "head",
                "--input-format",
                "conllu",
                "-f",
                "json",
            ]
            for case in range(1, 6)
        ],
        [
            [
                "score",
                str(PACKAGE / "data" / "demo.key.conll"),
                str(PACKAGE / "data" / "demo.response.conll"),
                "--match",
                "overlap",
                "-f",
                "json",
            ]
        ],
    ],
    ids=["corefud-head", "overlap"],
)
def test_small_assignments_import_no_scipy(runs):
    """The CorefUD preset's head matching on the bundled conformance cases
    (its dense assignment, zeros by their dependencies included) and
    overlap matching on the demo files solve their few small assignments
    in Python: SciPy's import would cost more than all of them."""
    assert loaded_after(runs, "m.split('.')[0] == 'scipy'") == ""
