"""Imports run one way, along the data flow (docs/metrics.md; the package
docstring): no module imports a later stage, not even inside a function."""
import ast
import subprocess
import sys
from pathlib import Path
from typing import Iterator, List, Tuple

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "spacy_coref_eval"
CONFORMANCE = Path(__file__).resolve().parent / "data" / "conformance" / "corefud" / "head-match"
STAGES = (
    ("about", "errors"),
    ("arrays", "files"),
    ("model",),
    ("formats",),
    ("assignment",),
    ("twinning",),
    ("counting",),
    ("compat",),
    ("presets",),
    ("scoring",),
    ("analysis", "shards"),
    ("report",),
    ("cli", "pipeline", "__init__", "__main__"),
)
RANK = {name: rank for rank, names in enumerate(STAGES) for name in names}


def stage(module: str) -> str:
    """The stage of a module path relative to the package (``readers.conll`` → ``readers``)."""
    return module.split(".")[0]


def module_name(path: Path) -> str:
    """``readers/conll.py`` → ``readers.conll``, ``readers/__init__.py`` → ``readers.__init__``."""
    return ".".join(path.relative_to(PACKAGE).with_suffix("").parts)


def imports(source: str, module: str) -> Iterator[Tuple[str, int]]:
    """The package modules that the code ``source`` of ``module`` imports
    (relative or absolute, anywhere in the file), with line numbers."""
    package = module.split(".")[:-1]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
                names = [target] if node.module else [f"{target}.{alias.name}".strip(".") for alias in node.names]
            elif node.module and node.module.startswith("spacy_coref_eval"):
                names = [node.module[len("spacy_coref_eval"):].lstrip(".")]
            else:
                continue
            for name in names:
                yield name, node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("spacy_coref_eval."):
                    yield alias.name[len("spacy_coref_eval."):], node.lineno


def modules() -> Iterator[Path]:
    return iter(sorted(PACKAGE.rglob("*.py")))


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
    assert set(imports(code, "readers.corpus")) == {
        ("errors", 1), ("readers.spans", 2), ("counting.rates", 3), ("scoring", 5),
    }


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


@pytest.mark.parametrize("extra, unused", [
    ((), ("spacy", "scipy", "srsly", "thinc", "pydantic", "multiprocessing", "concurrent", "wasabi", "rich")),
    (("--classes",), ("scipy", "pydantic", "numpy.ma", "numpy.random")),
])
def test_score_imports_only_what_it_uses(extra, unused):
    """``score`` of CoNLL files to JSON, the commonest process: no spaCy,
    SciPy (small CEAF blocks are solved in Python), pydantic (typer's
    conversion of values), process pools or table printing; with
    ``--classes`` neither the statistics nor numpy's masked arrays."""
    data = PACKAGE / "data"
    argv = ["score", str(data / "demo.key.conll"), str(data / "demo.response.conll"), "-f", "json", *extra]
    assert loaded_after([argv], f"m in {unused!r}") == ""


def loaded_after(runs: List[List[str]], which: str) -> str:
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


@pytest.mark.parametrize("runs", [
    [["score", str(CONFORMANCE / "TC-HMA.key"), str(CONFORMANCE / f"TC-HMA-{case}.response"), "--preset", "corefud",
      "--match", "head", "--input-format", "conllu", "-f", "json"] for case in range(1, 6)],
    [["score", str(PACKAGE / "data" / "demo.key.conll"), str(PACKAGE / "data" / "demo.response.conll"),
      "--match", "overlap", "-f", "json"]],
], ids=["corefud-head", "overlap"])
def test_small_assignments_import_no_scipy(runs):
    """The CorefUD preset's head matching on the bundled conformance cases
    (its dense assignment, zeros by their dependencies included) and
    overlap matching on the demo files solve their few small assignments
    in Python: SciPy's import would cost more than all of them."""
    assert loaded_after(runs, "m.split('.')[0] == 'scipy'") == ""
