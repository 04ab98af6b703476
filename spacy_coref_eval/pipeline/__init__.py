"""spaCy integration: registered scorers, cluster readers and matchers, and
the ``coref_evaluator`` component, loaded through spaCy's entry points.

Modules that import spaCy when imported: this package and
``formats.docbin.docs`` / ``formats.docbin.examples`` (spaCy ``Doc`` s).
``.spacy`` files are read without spaCy (``formats.docbin``'s record
decoder; a cluster reader of the user's own gets spaCy docs) and written
through spaCy's ``DocBin``.
"""
