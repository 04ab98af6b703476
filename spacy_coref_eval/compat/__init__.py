"""Scorers reproduced outside the one contingency table, named as such:
coval's own reading, mention rules and counts under ``--preset coval``
(:mod:`.coval`, ``Preset.reads_itself``), and the UA scorer's counting of
split-antecedent documents (:mod:`.ua`). Everything else is counted by
:mod:`spacy_coref_eval.counting`."""
