"""The Universal Anaphora model (docs/ua.md): the markable layers of a
document (:mod:`.layer`), the scorer's modes (:mod:`.modes`), CorefUD
split antecedents as UA layers (:mod:`.splitante`) and the clusters a
mode scores (:mod:`.view`)."""
