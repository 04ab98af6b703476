"""The dependencies declared in setup.cfg are the ones the code imports."""

import ast
import configparser
import re
import sys
from pathlib import Path

from tests.conftest import REPO

LOCAL = {"spacy_coref_eval", "tests", "benchmarks"}
# distribution name -> top-level module, where they differ
MODULE_OF = {"pytest-xdist": "xdist"}


def imported(folder: Path) -> set:
    """Top-level third-party modules imported anywhere under ``folder``,
    inside functions too."""
    names = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names - set(sys.stdlib_module_names) - LOCAL


def declared(option: str, section: str = "options") -> set:
    config = configparser.ConfigParser()
    config.read(REPO / "setup.cfg", encoding="utf-8")
    lines = config[section][option].split("\n")
    names = {re.match(r"[A-Za-z0-9_.-]+", line.strip()).group(0) for line in lines if line.strip()}
    return {MODULE_OF.get(name, name.replace("-", "_")) for name in names}


def optional() -> set:
    """The modules of the extras a user installs for one integration
    (``pandas``, ``huggingface``), which the package imports only where
    they are used."""
    config = configparser.ConfigParser()
    config.read(REPO / "setup.cfg", encoding="utf-8")
    extras = [name for name in config["options.extras_require"] if name not in ("test", "dev", "docs")]
    return set().union(*(declared(name, "options.extras_require") for name in extras))


def test_install_requires_are_the_packages_imports():
    assert declared("install_requires") == imported(REPO / "spacy_coref_eval") - optional()


def test_the_tests_imports_are_declared():
    available = declared("install_requires") | declared("test", "options.extras_require")
    assert imported(REPO / "tests") <= available


def test_the_test_extra_holds_nothing_unused():
    used = imported(REPO / "tests") | {"xdist"}
    assert declared("test", "options.extras_require") <= used
