"""coval as coval scores (docs/coval.md): its reading of CoNLL-2012 files
(:mod:`.read`), its mention rewrites (:mod:`.mentions`) and its counts
(:mod:`.score`)."""
