"""spaCy integration: registered scorers, cluster readers and matchers, and
the ``coref_evaluator`` component, loaded through spaCy's entry points.

Modules that import spaCy when imported: this package, ``readers.spans``,
``readers.alignment`` and ``readers.docbin``. ``readers.corpus`` and
``cli.convert`` import them only when a ``.spacy`` file is read or written,
so the CoNLL path never loads spaCy.
"""
