"""The names ``convert`` gives in spaCy docs (span groups, user data key)
and spaCy's attribute ids a DocBin stores, importable without spaCy."""

CLUSTER_PREFIX = "coref_clusters"
HEAD_PREFIX = "coref_head_clusters"
NAME_KEY = "coref_doc_name"

ORTH, POS, TAG, DEP, HEAD, SENT_START, MORPH = 65, 74, 75, 76, 79, 80, 453
"""``spacy.attrs`` ids (an enum fixed since spaCy 3.0, as serialised
pipelines depend on it); tests/formats/docbin/test_docbin_fast.py checks them."""
