"""The UA scorer's counting of documents with split antecedents, minimum
spans or a span in two entities (docs/ua.md): :mod:`.anaphora` chooses
them, :mod:`.split_antecedents` counts them."""
