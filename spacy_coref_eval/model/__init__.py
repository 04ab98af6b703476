"""What an annotation is, whatever file it came from: :class:`~.clusters.Clusters`
and :class:`~.clusters.Pair`, the :class:`~.tokens.Tokens` of a document,
the parse tree of a mention (:mod:`.parse_tree`), and the UA model
(:mod:`.ua`): markable layers, scoring modes, split antecedents."""
