"""Speed of spacy-coref-eval, as ratios against floors measured in the same run.

    python -m benchmarks.run            # CI-sized: LitBank, N = 10^4 and 10^5
    python -m benchmarks.run --large    # adds N = 10^6 and the 2,000 x 2,000 CEAF block

Every time is the best of ``--repeat`` runs after one untimed warm-up run
(start-up is timed in whole processes, in rows of its own). A floor is the least work any
scorer must do on the same input, so a ratio compares like with like on any
machine; the assignment cases compare overlap with exact matching on a pair
built for large ambiguous blocks, and the CEAF chain with fixed targets.
Each growth case and the chain run in a fresh process. LitBank is read from
``../shared`` beside the checkout, or from ``$SPACY_COREF_EVAL_SHARED``.
"""

import argparse
import gzip
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import tracemalloc
import zlib
from pathlib import Path
from typing import Callable

import numpy as np

from spacy_coref_eval import Settings, read_conll
from spacy_coref_eval.counting import DEFAULT_METRICS
from spacy_coref_eval.formats.conll.write import crossing_mentions, write_conll
from spacy_coref_eval.formats.corpus import read_corpus
from spacy_coref_eval.model.clusters import Clusters
from spacy_coref_eval.report.json import score_json
from spacy_coref_eval.scoring import Options, count_document, evaluate_corpus, score_pairs

from .crossdoc import crossdoc_rows
from .long_documents import long_document_rows
from .perturb import Errors, perturb, perturb_corpus, synthetic_key
from .small_documents import small_documents_rows
from .startup import READ_LINES, docbin_startup, installation, process_times, startup
from .streaming import streaming_rows
from .system_outputs import system_outputs
from .text2text import text2text_rows
from .ua import ua_path

REPO = Path(__file__).resolve().parent.parent
LITBANK = REPO / "tests" / "data" / "corpora" / "litbank.key.conll.gz"
GUM = REPO / "tests" / "data" / "corpora" / "gum-corefud.40docs.conllu.gz"
ALL = Settings(metrics=DEFAULT_METRICS)
"""The six metrics of the CoNLL reference scorer (MOR is computed only when asked for)."""
Row = tuple[str, str, str, str]


def best_of(repeat: int, work: Callable[[], object]) -> float:
    """Fastest of ``repeat`` timed calls, in seconds."""
    return best_of_each(repeat, {"work": work})["work"]


def best_of_each(repeat: int, works: dict[str, Callable[[], object]]) -> dict[str, float]:
    """Fastest of ``repeat`` timed calls of each work, in seconds, after
    one untimed call of each (which pays for lazy imports and first-use
    caches, as a floor does not; start-up has rows of its own); the works
    take turns, so that a slow spell of the machine hits all of them."""
    for work in works.values():
        work()
    best = {name: float("inf") for name in works}
    for _ in range(repeat):
        for name, work in works.items():
            start = time.perf_counter()
            work()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def litbank_files(folder: Path) -> tuple[Path, Path, dict]:
    """LitBank decompressed and a perturbed response (dropped, added, shifted,
    split and merged mentions; seed 0), as CoNLL files."""
    key_path, response_path = folder / "litbank.key.conll", folder / "litbank.response.conll"
    with gzip.open(LITBANK, "rt", encoding="utf8") as source:
        key_path.write_text(source.read(), encoding="utf8")
    documents = read_conll(key_path, with_words=True)
    key = {name: doc.clusters for name, doc in documents.items()}
    response = perturb_corpus(key, {name: doc.n_tokens for name, doc in documents.items()}, seed=0)
    write_conll(response_path, [(n, d.words, response[n], d.sentence_starts) for n, d in documents.items()])
    return key_path, response_path, documents


def read_floor(*paths: Path) -> None:
    """Read every line and split off the last column."""
    for path in paths:
        with open(path, encoding="utf8") as handle:
            for line in handle:
                line.rsplit(None, 1)


def conll_path(key_path: Path, response_path: Path, repeat: int) -> list[Row]:
    def run() -> None:
        score_json(evaluate_corpus(key_path, response_path, Options(ALL)).result, per_doc=True)

    times = best_of_each(repeat, {"floor": lambda: read_floor(key_path, response_path), "ours": run})
    floor, ours = times["floor"], times["ours"]
    return [
        (
            "CoNLL path: read both files + all metrics",
            f"{ours * 1000:.1f} ms",
            f"floor {floor * 1000:.1f} ms (read lines, split last column)",
            f"{ours / floor:.2f}x (target <= 2x)",
        )
    ]


def spacy_examples(documents: dict, seed: int = 0):
    """Reference and predicted ``Doc`` pairs with ``coref_clusters_N`` span groups."""
    from spacy.training import Example
    from spacy.vocab import Vocab

    from spacy_coref_eval.formats.docbin.docs import conll_to_doc

    vocab = Vocab()
    key = {name: doc.clusters for name, doc in documents.items()}
    response = perturb_corpus(key, {name: doc.n_tokens for name, doc in documents.items()}, seed=seed)
    examples = []
    for name, document in documents.items():
        reference = conll_to_doc(document, vocab)
        predicted = conll_to_doc(document, vocab)
        for group in list(predicted.spans):
            del predicted.spans[group]
        for number, entity in enumerate(response[name].entities(), 1):
            predicted.spans[f"coref_clusters_{number}"] = [predicted[s:e] for s, e in entity]
        examples.append(Example(predicted, reference))
    return examples


def span_floor(examples) -> None:
    """Collect (start, end) of every span of every matching span group of both docs."""
    import re

    pattern = re.compile(r"coref_clusters_(\d+)")
    for example in examples:
        for doc in (example.reference, example.predicted):
            [[(span.start, span.end) for span in doc.spans[name]] for name in doc.spans if pattern.fullmatch(name)]


def spacy_path(documents: dict, repeat: int) -> list[Row]:
    from spacy_coref_eval.pipeline.scorers import make_coref_scorer

    examples = spacy_examples(documents)
    scorer = make_coref_scorer(reader=None)
    times = best_of_each(repeat, {"floor": lambda: span_floor(examples), "ours": lambda: scorer(examples)})
    floor, ours = times["floor"], times["ours"]
    return [
        (
            "spaCy path: coref_scorer.v1, all metrics",
            f"{ours * 1000:.1f} ms",
            f"floor {floor * 1000:.1f} ms (collect span offsets)",
            f"{ours / floor:.2f}x (target <= 2x)",
        )
    ]


def growth_case(n: int) -> tuple[float, float]:
    """Seconds for all metrics on one synthetic document of ``n`` mentions
    in n/4 entities with realistic errors, and the peak memory the scoring
    allocates (tracemalloc, which sees numpy's buffers), in MB."""
    import scipy.optimize  # noqa: F401  (solver imports are not what grows with N)
    import scipy.sparse.csgraph  # noqa: F401

    key = synthetic_key(n, seed=1)
    response = perturb(key, int(key.ends.max()) + 5, np.random.default_rng(2), writable=False)
    return time_and_peak(lambda: count_document(key, response, ALL))


def time_and_peak(work: Callable[[], object]) -> tuple[float, float]:
    """Seconds of one call of ``work``, and the peak memory a second call
    allocates (tracemalloc, which sees numpy's buffers), in MB."""
    start = time.perf_counter()
    work()
    seconds = time.perf_counter() - start
    tracemalloc.start()
    work()
    peak_mb = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return seconds, peak_mb


def growth(sizes: list[int]) -> list[Row]:
    rows = []
    per_mention = []
    for n in sizes:
        code = f"from benchmarks.run import growth_case; print(*growth_case({n}))"
        out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
        seconds, peak = map(float, out.stdout.split())
        per_mention.append(seconds / n)
        rows.append(
            (
                f"Growth: one document, N = {n:,} mentions",
                f"{seconds:.2f} s",
                f"{seconds / n * 1e6:.2f} us/mention, peak {peak:,.0f} MB allocated",
                "",
            )
        )
    spread = max(per_mention) / min(per_mention)
    rows.append(("Growth: time per mention, largest / smallest", "", "", f"{spread:.2f}x (target <= 2x)"))
    return rows


def dense_block(n_entities: int = 2000) -> list[Row]:
    """Every key entity meets every response entity: one block of
    ``n_entities`` x ``n_entities`` for CEAF (n_entities² mentions)."""
    i, j = np.divmod(np.arange(n_entities * n_entities), n_entities)
    key = Clusters.from_arrays(np.arange(i.size), np.arange(i.size) + 1, i)
    response = Clusters.from_arrays(np.arange(i.size), np.arange(i.size) + 1, (i + j) % n_entities)
    start = time.perf_counter()
    count_document(key, response, Settings(metrics=("ceafm", "ceafe")))
    seconds = time.perf_counter() - start
    return [(f"CEAF worst case: one {n_entities:,} x {n_entities:,} block", f"{seconds:.2f} s", f"{i.size:,} mentions", "finishes")]


def with_last_token_heads(clusters: Clusters) -> Clusters:
    """The clusters with each mention's last token as its head."""
    return Clusters(clusters.starts, clusters.ends, clusters.entity, clusters.n_entities, heads=clusters.ends - 1)


def shifted(documents: dict) -> tuple[dict[str, Clusters], dict[str, Clusters]]:
    """LitBank's key and a response with 30% of boundaries shifted (seed 5),
    each mention's last token its head."""
    key = {name: with_last_token_heads(doc.clusters) for name, doc in documents.items()}
    n_tokens = {name: doc.n_tokens for name, doc in documents.items()}
    errors = Errors(drop=0.05, add=0.05, shift=0.3, split=0.05, merge=0.02)
    response = {n: with_last_token_heads(c) for n, c in perturb_corpus(key, n_tokens, seed=5, errors=errors).items()}
    return key, response


def matchers(documents: dict, folder: Path, key_path: Path, repeat: int) -> list[Row]:
    """Overlap and head matching against exact matching on LitBank with 30%
    of boundaries shifted: scoring alone (about 10 ms, so the best of ten
    times as many runs), and the whole ``score`` (reading both files too)
    for overlap (CoNLL files carry no heads)."""
    key, response = shifted(documents)
    pairs = [(name, key[name], response[name]) for name in key]
    settings = {match: Settings.from_options(DEFAULT_METRICS, match) for match in ("exact", "overlap", "head")}
    times = best_of_each(10 * repeat, {m: (lambda s=s: score_pairs(pairs, s)) for m, s in settings.items()})
    exact = times["exact"]
    rows = []
    for match in ("overlap", "head"):
        seconds = times[match]
        rows.append(
            (
                f"Matcher {match} vs exact, scoring (30% shifted)",
                f"{seconds * 1000:.1f} ms",
                f"exact {exact * 1000:.1f} ms",
                f"{seconds / exact:.2f}x (target <= 1.5x)",
            )
        )
    response_path = folder / "litbank.shifted.conll"
    write_conll(response_path, [(n, d.words, response[n], d.sentence_starts) for n, d in documents.items()])
    whole = best_of_each(
        repeat, {m: (lambda s=settings[m]: score_pairs(read_corpus(key_path, response_path).pairs, s)) for m in ("exact", "overlap")}
    )
    rows.append(
        (
            "Matcher overlap vs exact, whole score",
            f"{whole['overlap'] * 1000:.1f} ms",
            f"exact {whole['exact'] * 1000:.1f} ms",
            f"{whole['overlap'] / whole['exact']:.2f}x (target <= 1.5x)",
        )
    )
    return rows


def ambiguous_side(n_tokens: int, rng: np.random.Generator) -> Clusters:
    """Mentions starting at 90% of the tokens, 4–12 tokens long, in
    entities of about four: spans overlap in long chains, so overlap
    matching meets blocks of hundreds of mentions whose scores tie."""
    starts = np.flatnonzero(rng.random(n_tokens) < 0.9)
    ends = np.minimum(starts + rng.choice([4, 6, 8, 10, 12], size=len(starts)), n_tokens)
    clusters = Clusters.from_arrays(starts, ends, rng.integers(0, max(len(starts) // 4, 1), size=len(starts)))
    return clusters.subset(~crossing_mentions(clusters))


def largest_block(key: Clusters, response: Clusters) -> tuple[int, int]:
    """Key and response mentions of the largest block of overlap matching's
    candidate graph (after exact twins)."""
    from spacy_coref_eval.assignment.blocks import connected_blocks
    from spacy_coref_eval.twinning.matchers import OverlapMatcher
    from spacy_coref_eval.twinning.spans import exact_twins, overlapping_pairs

    twins = exact_twins(key, response)
    free_keys = np.setdiff1d(np.arange(len(key)), twins[twins >= 0])
    free_responses = np.flatnonzero(twins < 0)
    i, j = overlapping_pairs(
        key.starts[free_keys],
        key.ends[free_keys],
        response_starts=response.starts[free_responses],
        response_ends=response.ends[free_responses],
    )
    positive = OverlapMatcher().score(key, response, free_keys[i], free_responses[j]) > 0
    blocks = connected_blocks(i[positive], j[positive], n_rows=len(free_keys), n_cols=len(free_responses))
    biggest = int(np.argmax(blocks.n_rows + blocks.n_cols))
    return int(blocks.n_rows[biggest]), int(blocks.n_cols[biggest])


def ambiguous_blocks(folder: Path, repeat: int, n_tokens: int = 2000) -> list[Row]:
    """Overlap against exact matching, whole ``score`` (reading both files
    too), on a seeded key and response of dense overlapping spans; each
    takes tens of milliseconds, so the best of five times as many runs."""
    rng = np.random.default_rng(11)
    key, response = ambiguous_side(n_tokens, rng), ambiguous_side(n_tokens, rng)
    paths = folder / "ambiguous.key.conll", folder / "ambiguous.response.conll"
    for path, clusters in zip(paths, (key, response)):
        write_conll(path, [("ambiguous", ["w"] * n_tokens, clusters, [0])])
    settings = {match: Settings.from_options(DEFAULT_METRICS, match) for match in ("exact", "overlap")}
    times = best_of_each(5 * repeat, {m: (lambda s=settings[m]: score_pairs(read_corpus(*paths).pairs, s)) for m in ("exact", "overlap")})
    kilobytes = paths[0].stat().st_size / 1024
    rows, cols = largest_block(key, response)
    return [
        (
            f"Matcher overlap vs exact, ambiguous blocks up to {rows} x {cols} ({kilobytes:.0f} KB files)",
            f"{times['overlap'] * 1000:.1f} ms",
            f"exact {times['exact'] * 1000:.1f} ms",
            f"{times['overlap'] / times['exact']:.2f}x (target <= 1.5x)",
        )
    ]


def matching_processes(folder: Path, key_path: Path, documents: dict, repeat: int) -> list[Row]:
    """Whole ``score`` processes, non-exact matching against exact matching
    on the same files: the CorefUD preset's head matching on the 40 GUM
    documents against a perturbed copy (:func:`gum_response`), and overlap
    matching on LitBank with 30% of boundaries shifted (:func:`shifted`).
    Their few small assignments should cost less than importing SciPy's
    solvers; the two sides of a row take turns (:func:`.startup.process_times`)."""
    gum_copy = gum_response(folder)
    shifted_path = folder / "litbank.shifted.conll"
    _, response = shifted(documents)
    write_conll(shifted_path, [(n, d.words, response[n], d.sentence_starts) for n, d in documents.items()])
    score = (sys.executable, "-m", "spacy_coref_eval", "score")
    gum = (*score, str(GUM), str(gum_copy), "--preset", "corefud", "-f", "json", "--match")
    litbank = (*score, str(key_path), str(shifted_path), "-f", "json", "--match")
    times = process_times(
        max(repeat, 7),
        {
            "gum exact": (*gum, "exact"),
            "gum head": (*gum, "head"),
            "litbank exact": (*litbank, "exact"),
            "litbank overlap": (*litbank, "overlap"),
        },
    )
    rows = []
    for label, side, match in (
        ("CorefUD head vs exact (GUM 40 docs, whole process)", "gum", "head"),
        ("overlap vs exact on LitBank, 30% shifted (whole process)", "litbank", "overlap"),
    ):
        ours, exact = times[f"{side} {match}"], times[f"{side} exact"]
        rows.append((label, f"{ours * 1000:.0f} ms", f"exact {exact * 1000:.0f} ms", f"{ours / exact:.2f}x (target <= 1.25x)"))
    return rows


def chain_entities(n_mentions: int, sizes: list[int], offset: int) -> np.ndarray:
    """Entity of each of ``n_mentions`` consecutive mentions: a first
    entity of ``offset`` mentions (if any), then entities of ``sizes``
    mentions in turn."""
    bounds = offset + np.cumsum(np.resize(sizes, n_mentions))
    if offset:
        bounds = np.r_[offset, bounds]
    return np.searchsorted(bounds, np.arange(n_mentions), side="right")


def chain_case(n_mentions: int, varied: bool) -> tuple[float, float, int, int]:
    """Seconds for CEAFm and CEAFe on a chain of ``n_mentions`` one-word
    mentions whose key and response entities interleave, so that they form
    one block, and the peak memory the scoring allocates (tracemalloc), in
    MB, and the numbers of key and response entities: key entities
    {2k, 2k+1} and response entities {2k+1, 2k+2}, or entities of 2 and 3
    mentions in turn (``varied``)."""
    t = np.arange(n_mentions)
    sizes = ([2, 3], [3, 2]) if varied else ([2], [2])
    key = Clusters.from_arrays(t, t + 1, chain_entities(n_mentions, sizes[0], 0))
    response = Clusters.from_arrays(t, t + 1, chain_entities(n_mentions, sizes[1], 1))
    settings = Settings(metrics=("ceafm", "ceafe"))
    seconds, peak_mb = time_and_peak(lambda: count_document(key, response, settings))
    return seconds, peak_mb, key.n_entities, response.n_entities


def ceaf_chain(n_mentions: int = 40_000) -> list[Row]:
    """The chains of :func:`chain_case`, each in a fresh process, against
    fixed targets of 5 s and 1 GB."""
    rows = []
    for varied in (False, True):
        code = f"from benchmarks.run import chain_case; print(*chain_case({n_mentions}, {varied}))"
        out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
        seconds, peak, keys, responses = map(float, out.stdout.split())
        sizes = "2 and 3" if varied else "2"
        rows.append(
            (
                f"CEAF chain of {n_mentions:,} mentions, entities of {sizes}: one {keys:,.0f} x {responses:,.0f} block",
                f"{seconds:.2f} s",
                f"peak {peak:,.0f} MB allocated",
                f"{seconds / 5:.2f}x of 5 s, {peak / 1024:.3f}x of 1 GB (target <= 1x)",
            )
        )
    return rows


def parallel(documents: dict, repeat: int) -> list[Row]:
    """The LitBank pair 40 times over (4,000 documents), overlap matching."""
    key = {f"{copy}/{name}": doc.clusters for copy in range(40) for name, doc in documents.items()}
    n_tokens = {f"{copy}/{name}": doc.n_tokens for copy in range(40) for name, doc in documents.items()}
    response = perturb_corpus(key, n_tokens, seed=7)
    pairs = [(name, key[name], response[name]) for name in key]
    settings = Settings.from_options(DEFAULT_METRICS, "overlap")
    times = best_of_each(repeat, {n: (lambda n=n: score_pairs(pairs, settings, n_process=n, keep_twinned=False)) for n in (1, 2)})
    one, two = times[1], times[2]
    return [
        (
            "--n-process 2 vs 1 (4,000 documents, overlap), in process",
            f"{two * 1000:.0f} ms",
            f"1 process {one * 1000:.0f} ms",
            f"{one / two:.2f}x speed-up",
        )
    ]


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--large", action="store_true", help="add N = 10^6, the 2,000 x 2,000 CEAF block and the 40 M-mention cross-document corpus"
    )
    parser.add_argument("--repeat", type=int, default=5, help="runs per timing (best is kept)")
    args = parser.parse_args()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as folder:
        key_path, response_path, documents = litbank_files(Path(folder))
        rows += conll_path(key_path, response_path, args.repeat)
        rows += spacy_path(documents, args.repeat)
        rows += matchers(documents, Path(folder), key_path, args.repeat)
        rows += ambiguous_blocks(Path(folder), args.repeat)
        rows += parallel(documents, max(1, args.repeat // 2))
        spacy_paths = docbin_files(Path(folder), key_path, response_path)
        rows += docbin_path(spacy_paths, key_path, response_path, args.repeat)
        rows += docbin_msgpack(spacy_paths[0], args.repeat)
        rows += other_formats(Path(folder), key_path, response_path, args.repeat)
        rows += system_outputs(Path(folder), key_path, response_path, args.repeat, ALL)
        rows += startup(key_path, response_path, args.repeat)
        rows += nested_classes(Path(folder), args.repeat)
        rows += docbin_startup((key_path, response_path), spacy_paths, args.repeat)
        rows += matching_processes(Path(folder), key_path, documents, args.repeat)
        rows += coval_preset(Path(folder), max(1, args.repeat // 5))
        rows += ua_path(Path(folder), key_path, response_path, args.repeat)
        rows += streaming_rows(key_path, response_path, Path(folder))
        rows += small_documents_rows(Path(folder), key_path, response_path, args.repeat)
        rows += long_document_rows(Path(folder), key_path, response_path, args.repeat)
    rows += text2text_rows(args.repeat)
    rows += growth([10_000, 100_000, 1_000_000] if args.large else [10_000, 100_000])
    rows += dense_block(2000 if args.large else 500)
    rows += ceaf_chain()
    rows += crossdoc_rows(args.large)
    from wasabi import table

    print(f"machine: {machine()}")
    print(f"package: {installation()}")
    header = ("case", "time", "reference", "ratio")
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    print(table(rows, header=header, divider=True, widths=widths))


def coval_preset(folder: Path, repeat: int) -> list[Row]:
    """``--preset coval`` with MINA, NP_only and remove_nested on a
    LitBank-sized parsed pair (tests/data/coval/gen_parsed.py, seed 424242,
    100 documents of 160 sentences), against exact scoring of the same
    files; coval itself took 86.6 s on it with min_span (docs/coval.md)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_parsed", REPO / "tests" / "data" / "coval" / "gen_parsed.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    pair = module.make_pair(424242, n_docs=100, n_sents=160)
    key, response = folder / "parsed.key.conll", folder / "parsed.response.conll"
    key.write_text(pair["key"], encoding="utf8")
    response.write_text(pair["response"], encoding="utf8")
    times = best_of_each(
        repeat,
        {
            "coval": lambda: evaluate_corpus(key, response, mina=True, np_only=True, remove_nested=True),
            "exact": lambda: evaluate_corpus(key, response),
        },
    )
    tokens = pair["stats"]["tokens"]
    return [
        (
            f"--preset coval --mina --np-only --remove-nested, parsed pair of {tokens:,} tokens",
            f"{times['coval']:.1f} s",
            f"exact {times['exact']:.2f} s (coval: 86.6 s)",
            f"{times['coval'] / times['exact']:.0f}x exact",
        )
    ]


def docbin_files(folder: Path, key_path: Path, response_path: Path) -> tuple[Path, Path]:
    """LitBank key and perturbed response converted to ``.spacy`` files."""
    from spacy.vocab import Vocab

    from spacy_coref_eval.formats.docbin.docs import conll_to_doc, write_docbin

    vocab = Vocab()
    spacy_paths = []
    for path in (key_path, response_path):
        spacy_path = folder / (path.stem + ".spacy")
        write_docbin(spacy_path, (conll_to_doc(doc, vocab) for doc in read_conll(path, with_words=True).values()))
        spacy_paths.append(spacy_path)
    return spacy_paths[0], spacy_paths[1]


def docbin_path(spacy_paths: tuple[Path, Path], key_path: Path, response_path: Path, repeat: int) -> list[Row]:
    """LitBank key and perturbed response as ``.spacy`` files read, paired
    (by stored name) and scored as ``score`` does, against the same pair as
    CoNLL files."""

    def from_docbins() -> None:
        score_json(evaluate_corpus(*spacy_paths, Options(ALL)).result, per_doc=True)

    def from_conll() -> None:
        score_json(evaluate_corpus(key_path, response_path, Options(ALL)).result, per_doc=True)

    times = best_of_each(repeat, {"conll": from_conll, "docbin": from_docbins})
    conll, docbin = times["conll"], times["docbin"]
    return [
        (
            ".spacy path vs CoNLL path: read both files + all metrics",
            f"{docbin * 1000:.1f} ms",
            f"CoNLL files {conll * 1000:.1f} ms",
            f"{docbin / conll:.2f}x (target <= 3x)",
        )
    ]


def docbin_msgpack(spacy_path: Path, repeat: int, n_docs: int = 10) -> list[Row]:
    """The msgpack parts of the first ``n_docs`` docs of a ``.spacy`` file
    (user data, span group map, every span group) decoded as the reader
    does, srsly's decoders chained once, against ``srsly.msgpack_loads``,
    which looks them up on every call."""
    import srsly

    from spacy_coref_eval.formats.docbin.table import MsgpackDecoder

    msg = srsly.msgpack_loads(zlib.decompress(spacy_path.read_bytes()))
    docs = [(msg["user_data"][i], msg["span_groups"][i]) for i in range(n_docs)]
    groups = [value for _, span_groups in docs for value in srsly.msgpack_loads(span_groups)]

    def chained() -> None:
        unpack = MsgpackDecoder()
        for user_data, span_groups in docs:
            unpack(user_data, use_list=False)
            unpack(span_groups)
        for value in groups:
            unpack.plain(value)

    def loads() -> None:
        for user_data, span_groups in docs:
            srsly.msgpack_loads(user_data, use_list=False)
            srsly.msgpack_loads(span_groups)
        for value in groups:
            srsly.msgpack_loads(value)

    times = best_of_each(repeat, {"chained": chained, "loads": loads})
    return [
        (
            f".spacy msgpack: {2 * n_docs + len(groups)} parts of {n_docs} docs, decoders chained once",
            f"{times['chained'] * 1000:.1f} ms",
            f"srsly.msgpack_loads {times['loads'] * 1000:.1f} ms",
            f"{times['loads'] / times['chained']:.0f}x faster",
        )
    ]


def gum_response(folder: Path) -> Path:
    """A perturbed response to the 40 GUM documents, its ``Entity=``
    annotations edited with seed 0 (:mod:`.perturb_corefud`: sentences,
    words and empty nodes stay GUM's)."""
    from .perturb_corefud import perturb_corefud

    path = folder / "gum.response.conllu"
    path.write_text(perturb_corefud(gzip.open(GUM, "rt", encoding="utf-8").read(), seed=0), encoding="utf-8")
    return path


def other_formats(folder: Path, key_path: Path, response_path: Path, repeat: int) -> list[Row]:
    """CorefUD CoNLL-U (the 40 GUM documents against a perturbed copy)
    against reading the lines of both files, and jsonlines (LitBank key and
    perturbed response) against ``json.loads`` of every line of both
    files."""
    from spacy_coref_eval.formats.jsonlines.write import split_sentences, write_jsonlines

    gum_copy = gum_response(folder)
    jsonlines = []
    for path in (key_path, response_path):
        documents = read_conll(path, with_words=True)
        target = folder / (path.stem + ".jsonlines")
        sentences = {name: split_sentences(doc.words, doc.sentence_starts) for name, doc in documents.items()}
        write_jsonlines(target, [(name, sentences[name], doc.clusters) for name, doc in documents.items()])
        jsonlines.append(target)

    def gum_lines() -> None:
        for opened in (gzip.open(GUM, "rt", encoding="utf8"), open(gum_copy, encoding="utf8")):
            with opened as handle:
                for line in handle:
                    line.split("\t")

    def gum_score() -> None:
        score_json(evaluate_corpus(GUM, gum_copy, Options(ALL)).result, per_doc=True)

    def json_floor() -> None:
        for path in jsonlines:
            with open(path, encoding="utf8") as handle:
                for line in handle:
                    json.loads(line)

    def json_score() -> None:
        score_json(evaluate_corpus(*jsonlines, Options(ALL)).result, per_doc=True)

    from spacy_coref_eval.formats.conllu.read import read_conllu

    gum_key = folder / "gum.key.conllu"
    gum_key.write_bytes(gzip.decompress(GUM.read_bytes()))
    times = best_of_each(
        repeat,
        {
            "lines": gum_lines,
            "gum": gum_score,
            "json": json_floor,
            "jsonlines": json_score,
            "read floor": lambda: read_floor(gum_key),
            "reader": lambda: read_conllu(gum_key),
        },
    )
    processes = process_times(
        max(repeat, 7),
        {
            "floor": (sys.executable, "-c", READ_LINES, str(gum_key), str(gum_copy)),
            "score": (sys.executable, "-m", "spacy_coref_eval", "score", str(gum_key), str(gum_copy), "-f", "json"),
        },
    )
    return [
        (
            "CoNLL-U path: GUM 40 docs vs perturbed copy, read both + all metrics",
            f"{times['gum'] * 1000:.1f} ms",
            f"read both files' lines {times['lines'] * 1000:.1f} ms",
            f"{times['gum'] / times['lines']:.2f}x (target <= 3x)",
        ),
        (
            "CoNLL-U reader: GUM 40 docs, read_conllu in process",
            f"{times['reader'] * 1000:.1f} ms",
            f"floor {times['read floor'] * 1000:.1f} ms (read lines, split last column)",
            f"{times['reader'] / times['read floor']:.2f}x (target <= 2x)",
        ),
        (
            "GUM score, whole process (CoNLL-U)",
            f"{processes['score'] * 1000:.0f} ms",
            f"read both files' lines {processes['floor'] * 1000:.0f} ms",
            f"{processes['score'] / processes['floor']:.2f}x (target <= 4x)",
        ),
        (
            "jsonlines path: LitBank, read both + all metrics",
            f"{times['jsonlines'] * 1000:.1f} ms",
            f"json.loads every line {times['json'] * 1000:.1f} ms",
            f"{times['jsonlines'] / times['json']:.2f}x (target <= 4x: json.loads per line, issue #30)",
        ),
    ]


def nested_classes(folder: Path, repeat: int, n_tokens: int = 10_000) -> list[Row]:
    """``score --classes`` of one CoNLL document of ``n_tokens`` tokens and
    ``n_tokens / 2`` mentions nested one inside the next ((i, n - i), two
    entities taking turns), against itself, as ``score`` without classes."""
    from spacy_coref_eval.analysis.resolution import score_resolution_classes

    depth = n_tokens // 2
    words = ["the", "Kate", "house", "of", "he", ",", "London", "old"]
    nested = Clusters.from_arrays(np.arange(depth), n_tokens - np.arange(depth), np.arange(depth) % 2)
    path = folder / "nested.conll"
    text = [words[t % len(words)] for t in range(n_tokens)]
    write_conll(path, [("nested", text, nested, list(range(0, n_tokens, 25)))])

    def plain() -> None:
        corpus = read_corpus(path, path)
        score_json(score_pairs(corpus.pairs, ALL, corpus.warnings), per_doc=True)

    def with_classes() -> None:
        corpus = read_corpus(path, path, tokens=True)
        result = score_pairs(corpus.pairs, ALL, corpus.warnings)
        score_json(result, per_doc=True)
        score_resolution_classes(result, corpus.tokens()).to_dict()

    times = best_of_each(repeat, {"plain": plain, "classes": with_classes})
    _, peak = time_and_peak(with_classes)
    kilobytes = path.stat().st_size / 1024
    return [
        (
            f"Resolution classes: {n_tokens:,} tokens, {depth:,} nested mentions ({kilobytes:.0f} KB), score --classes",
            f"{times['classes'] * 1000:.1f} ms",
            f"score without classes {times['plain'] * 1000:.1f} ms; peak {peak:,.0f} MB allocated",
            f"{times['classes'] / times['plain']:.2f}x (target <= 3x)",
        )
    ]


if __name__ == "__main__":
    main()
