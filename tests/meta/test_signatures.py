"""Options are keyword-only (issue #30): no function of the package takes
more than :data:`MAX_POSITIONAL` parameters positionally (``self`` and
``cls`` aside), as spaCy's ``score_spans`` and scikit-learn's metrics keep
the data positional and the options after a ``*``; no call in the package
passes more than :data:`MAX_DATACLASS_POSITIONAL` fields positionally to a
package dataclass. The few signatures that others call positionally are on
:data:`ALLOWED`, each with its reason."""

import ast
from collections.abc import Iterator
from fnmatch import fnmatchcase
from pathlib import Path

import spacy_coref_eval

PACKAGE = Path(spacy_coref_eval.__file__).parent
MAX_POSITIONAL = 3
MAX_DATACLASS_POSITIONAL = 4

ALLOWED: dict[str, str] = {
    # "path relative to the package:qualified name" (fnmatch patterns) -> reason
    "twinning/matchers.py:*.score": "the matcher protocol score(key, response, k, r) that custom matchers implement, "
    "called positionally per mention pair",
    "errors.py:_formatted": "installed as warnings.formatwarning, which the warnings module calls with five positional arguments",
    "report/sections.py:*_text": "table renderers of registered analyses: the documented hook (value, result, per_doc, analyses), "
    "called positionally (docs/analyses.md)",
    "report/long_documents.py:*_text": "table renderers of registered analyses, as report/sections.py",
    "formats/sysout/read.py:system_side": "a format's parse(data, path, options), bound to the system's name with functools.partial",
}


def functions(tree: ast.AST) -> Iterator[tuple[str, ast.FunctionDef]]:
    """Every function and method of ``tree`` with its qualified name
    (``Class.method``, ``outer.inner``)."""

    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, ast.FunctionDef]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield prefix + child.name, child  # type: ignore[misc]
                yield from walk(child, prefix + child.name + ".")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, prefix + child.name + ".")
            else:
                yield from walk(child, prefix)

    yield from walk(tree, "")


def positional(function: ast.FunctionDef) -> list[str]:
    """The parameters of ``function`` that can be passed positionally,
    without ``self`` or ``cls``."""
    names = [arg.arg for arg in function.args.posonlyargs + function.args.args]
    return names[1:] if names[:1] in (["self"], ["cls"]) else names


def too_positional(source: str, where: str) -> list[str]:
    """``where:name(parameters)`` of each function of ``source`` with more
    than :data:`MAX_POSITIONAL` positional parameters."""
    return [
        f"{where}:{name}({', '.join(names)})"
        for name, function in functions(ast.parse(source))
        for names in [positional(function)]
        if len(names) > MAX_POSITIONAL
    ]


def allowed(found: str) -> bool:
    return any(fnmatchcase(found.split("(")[0], pattern) for pattern in ALLOWED)


def package_sources() -> Iterator[tuple[str, str]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path.relative_to(PACKAGE).as_posix(), path.read_text(encoding="utf-8")


def _is_dataclass(node: ast.ClassDef) -> bool:
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if (target.id if isinstance(target, ast.Name) else getattr(target, "attr", None)) == "dataclass":
            return True
    return False


def dataclass_calls(sources: list[tuple[str, str]]) -> list[str]:
    """``where:line Name(n positional)`` of each call in ``sources`` that
    passes more than :data:`MAX_DATACLASS_POSITIONAL` arguments positionally
    to a dataclass of ``sources``. A class name that two modules define is
    resolved in its own module and where it is imported from it by name."""
    trees = {where: ast.parse(source) for where, source in sources}
    defined: dict[str, set[str]] = {}
    dataclasses: dict[str, set[str]] = {}
    for where, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                defined.setdefault(node.name, set()).add(where)
                if _is_dataclass(node):
                    dataclasses.setdefault(node.name, set()).add(where)
    found = []
    for where, tree in trees.items():
        imported = {
            alias.asname or alias.name: (node.module or "").split(".")[-1]
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
            for alias in node.names
        }
        classes = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for inner in ast.walk(node):
                    classes.setdefault(id(inner), node.name)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or len(node.args) <= MAX_DATACLASS_POSITIONAL:
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name == "cls":
                name = classes.get(id(node))
            if name not in dataclasses:
                continue
            if len(defined[name]) > 1:
                modules = {Path(module).stem for module in dataclasses[name]}
                if where not in dataclasses[name] and imported.get(name) not in modules:
                    continue
            found.append(f"{where}:{node.lineno} {name}({len(node.args)} positional)")
    return found


def test_options_after_the_first_parameters_are_keyword_only():
    offenders = [found for where, source in package_sources() for found in too_positional(source, where) if not allowed(found)]
    assert offenders == [], (
        f"more than {MAX_POSITIONAL} positional parameters: put a `*` after the data being read or scored "
        "(or add the function to ALLOWED with the reason others call it positionally)\n" + "\n".join(offenders)
    )


def test_every_allowed_entry_names_a_function_that_still_needs_it():
    needing = [found for where, source in package_sources() for found in too_positional(source, where)]
    stale = [pattern for pattern in ALLOWED if not any(fnmatchcase(found.split("(")[0], pattern) for found in needing)]
    assert stale == [], f"ALLOWED entries that match no function with more than {MAX_POSITIONAL} positional parameters: {stale}"


def test_no_call_passes_more_than_four_dataclass_fields_positionally():
    found = dataclass_calls(list(package_sources()))
    assert found == [], "pass the later fields by keyword:\n" + "\n".join(found)


SYNTHETIC = """
from dataclasses import dataclass


def score(key, response, metric, level, n_resamples=1000):
    return key


def fine(key, response, metric, *, level, n_resamples=1000):
    return key


class Reader:
    def read(self, path, options, limits):
        return path

    @classmethod
    def of(cls, path, options, limits, warnings):
        return cls()


@dataclass
class Row:
    name: str
    start: int
    end: int
    label: str
    colour: int

    @classmethod
    def empty(cls):
        return cls("", 0, 0, "", -1)


ROWS = [Row("a", 0, 1, "e1", 0), Row("b", 1, 2, "e2", colour=1)]
"""


def test_the_checks_catch_synthetic_offenders():
    assert too_positional(SYNTHETIC, "synthetic.py") == [
        "synthetic.py:score(key, response, metric, level, n_resamples)",
        "synthetic.py:Reader.of(path, options, limits, warnings)",
    ]
    assert not allowed("synthetic.py:score(key, response, metric, level, n_resamples)")
    assert allowed("twinning/matchers.py:OverlapMatcher.score(key, response, k, r)")
    assert sorted(dataclass_calls([("synthetic.py", SYNTHETIC)])) == [
        "synthetic.py:32 Row(5 positional)",
        "synthetic.py:35 Row(5 positional)",
    ]
