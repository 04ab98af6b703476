"""spaCy integration: registered scorers, cluster readers and matchers, and
the ``coref_evaluator`` component. Everything that imports spaCy at import
time lives here (and in :mod:`..readers.spans` / :mod:`..readers.alignment`);
the modules are loaded through spaCy's entry points, not from this package.
"""
