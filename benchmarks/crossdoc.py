"""Cross-document scoring at scale (docs/crossdoc.md §4): a synthetic corpus
of documents whose entities are partly shared across documents, scored as
one document (``score --cross-document``) with every default metric and
the links within and across documents; time and peak resident memory of a
fresh process. ``python -m benchmarks.crossdoc [N_MENTIONS N_ENTITIES]``
prints one row; :func:`crossdoc_rows` gives the rows of benchmarks/run.py."""

import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from .perturb import perturb

REPO = Path(__file__).resolve().parent.parent
MENTIONS_PER_DOCUMENT = 100
SHARED = 0.2
"""The share of mentions whose entity is one of the corpus's shared entities
(the others' entities lie within their document)."""


def synthetic_corpus(n_mentions: int, n_entities: int, seed: int = 0):
    """A key and a response of ``n_mentions`` one-token mentions on every
    other token, in documents of :data:`MENTIONS_PER_DOCUMENT` mentions, and
    the topic document (one topic) giving the documents' offsets. Entities:
    a fifth of the mentions in ``n_entities / 10`` entities shared across
    documents, the rest in entities of their own document. The response is
    :func:`~benchmarks.perturb.perturb`'s (mentions dropped, added and
    shifted, entities split and merged), as in the growth rows of
    benchmarks/run.py."""
    from spacy_coref_eval.formats.topic_document import TopicDocument
    from spacy_coref_eval.model.clusters import Clusters

    rng = np.random.default_rng(seed)
    n_docs = max(1, n_mentions // MENTIONS_PER_DOCUMENT)
    doc = np.minimum(np.arange(n_mentions) // MENTIONS_PER_DOCUMENT, n_docs - 1)
    n_shared = max(1, n_entities // 10)
    local_per_doc = max(1, (n_entities - n_shared) // n_docs)
    shared = rng.random(n_mentions) < SHARED
    entity = np.where(
        shared, rng.integers(0, n_shared, n_mentions), n_shared + doc * local_per_doc + rng.integers(0, local_per_doc, n_mentions)
    )
    starts = 2 * np.arange(n_mentions, dtype=np.int64)
    key = Clusters.from_arrays(starts, starts + 1, entity)
    response = perturb(key, 2 * n_mentions, rng, writable=False)
    n_tokens = 2 * n_mentions
    offsets = np.r_[np.arange(n_docs) * 2 * MENTIONS_PER_DOCUMENT, n_tokens].astype(np.int64)
    document = TopicDocument("corpus", key, n_tokens, "synthetic", line=0, parts=tuple(f"doc{i}" for i in range(n_docs)), offsets=offsets)
    return key, response, n_tokens, document


def case(n_mentions: int, n_entities: int) -> tuple[float, float, float, float]:
    """Seconds to score the synthetic corpus (every default metric), seconds
    for the links within and across documents, the CPU seconds of both
    (the machine is shared: wall time waits for other jobs) and the
    process's peak resident memory in MB."""
    from spacy_coref_eval.analysis.crossdoc import cross_document
    from spacy_coref_eval.model.clusters import Pair
    from spacy_coref_eval.scoring import Settings, score_pairs

    key, response, n_tokens, document = synthetic_corpus(n_mentions, n_entities)
    cpu, start = time.process_time(), time.perf_counter()
    result = score_pairs([Pair("corpus", key, response, n_tokens)], Settings())
    result.metrics()
    scored = time.perf_counter()
    cross_document(result, [document]).to_dict()
    done = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return scored - start, done - scored, time.process_time() - cpu, peak


def crossdoc_rows(large: bool = False) -> list[tuple[str, str, str, str]]:
    """One row per size, each case in a fresh process: 4 M mentions in
    300 k entities, and 40 M in 3 M with ``large``."""
    sizes = [(4_000_000, 300_000)] + ([(40_000_000, 3_000_000)] if large else [])
    rows = []
    for n_mentions, n_entities in sizes:
        code = f"from benchmarks.crossdoc import case; print(*case({n_mentions}, {n_entities}))"
        out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
        scoring, links, cpu, peak = map(float, out.stdout.split())
        rows.append(
            (
                f"Cross-document: {n_mentions:,} mentions, {n_entities:,} entities as one document",
                f"{scoring:.1f} s",
                f"links within/across {links:.1f} s; {cpu:.1f} CPU s; peak {peak:,.0f} MB resident",
                f"{(scoring + links) / n_mentions * 1e6:.2f} us/mention",
            )
        )
    return rows


if __name__ == "__main__":
    if len(sys.argv) == 3:
        print(*case(int(sys.argv[1]), int(sys.argv[2])))
    else:
        for row in crossdoc_rows("--large" in sys.argv):
            print(" | ".join(row))
