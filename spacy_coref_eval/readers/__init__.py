"""Stage 1: read coreference clusters from CoNLL-2012 files and spaCy docs."""
