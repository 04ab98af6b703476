"""The worked examples in the docstrings of the counting stage and of the
one-call API run as doctests (as scikit-learn's metrics do), so that a
reader's example is checked like any test."""

import doctest
import importlib
import pkgutil

import pytest

import spacy_coref_eval.api
import spacy_coref_eval.counting
from spacy_coref_eval.counting import metrics

MODULES = [
    importlib.import_module(f"spacy_coref_eval.counting.{info.name}") for info in pkgutil.iter_modules(spacy_coref_eval.counting.__path__)
]
EXAMPLES = [
    test
    for module in [spacy_coref_eval.counting, *MODULES, spacy_coref_eval.api]
    for test in doctest.DocTestFinder().find(module)
    if test.examples
]


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda test: test.name)
def test_docstring_examples(example):
    report = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    failed, attempted = runner.run(example, out=report.append)
    assert attempted and not failed, "".join(report)


@pytest.mark.parametrize("function", ["muc", "bcub", "lea", "blanc", "ceaf", "mention_counts", "mor"])
def test_every_metric_function_has_a_worked_example(function):
    assert ">>>" in getattr(metrics, function).__doc__
