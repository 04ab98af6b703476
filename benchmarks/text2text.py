"""LLM-track tagged text (the text2text format): read + align + score
against the official pipeline's CPU time (text2text-coref ``clean`` +
``text2conllu`` + the CorefUD scorer on the same 40 GUM documents:
63.4 CPU-s, measured for tests/data/text2text), and alignment of one
book-length document."""

import tempfile
import time
from pathlib import Path
from typing import Callable

import numpy as np

from spacy_coref_eval.counting import DEFAULT_METRICS
from spacy_coref_eval.formats.text2text.align import align_words
from spacy_coref_eval.scoring import Options, evaluate_corpus

Row = tuple[str, str, str, str]
OFFICIAL_CPU_SECONDS = 63.4
"""clean 31.3 + text2conllu 6.1 + corefud-scorer 26.0 CPU-s (user + sys),
each a separate process, on the unchanged text of the 40 GUM documents."""


def cpu_best_of(repeat: int, work: Callable[[], object]) -> float:
    """Least CPU time (user + sys of this process) of ``repeat`` calls after
    one untimed call."""
    work()
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def text2text_rows(repeat: int) -> list[Row]:
    from tests.support.text2text_data import GUM, variant_text

    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for name in ("unchanged", "mix"):
            response = Path(folder) / f"{name}.t2t.txt"
            response.write_text(variant_text(name), encoding="utf-8")
            options = Options.from_names(DEFAULT_METRICS + ("mor",), preset="corefud")
            seconds = cpu_best_of(repeat, lambda: evaluate_corpus(GUM, response, options).metrics())
            rows.append(
                (
                    f"LLM text (text2text): 40 GUM docs, {name}, read + align + score (corefud)",
                    f"{seconds:.2f} s CPU",
                    f"official pipeline {OFFICIAL_CPU_SECONDS} s CPU",
                    f"{OFFICIAL_CPU_SECONDS / seconds:.0f}x faster (target >= 10x)",
                )
            )
    rows.append(book_row())
    return rows


def book_row(n_words: int = 200_000, rate: float = 0.01, seed: int = 0) -> Row:
    """One document of ``n_words`` words drawn from a Zipf-like vocabulary,
    with ``rate`` of its words inserted, deleted and replaced each."""
    rng = np.random.default_rng(seed)
    key = [f"w{k}" for k in np.minimum(rng.zipf(1.3, size=n_words), 50_000).tolist()]
    response = list(key)
    n_edits = int(rate * n_words)
    for at in sorted(rng.choice(n_words, size=3 * n_edits, replace=False).tolist(), reverse=True):
        kind = at % 3
        if kind == 0:
            response.insert(at, "inserted")
        elif kind == 1:
            del response[at]
        else:
            response[at] = "replaced"
    start = time.process_time()
    aligned = align_words(response, key)
    seconds = time.process_time() - start
    return (
        f"LLM text alignment: one {n_words:,}-word document, {rate:.0%} words inserted, deleted, replaced each",
        f"{seconds:.2f} s CPU",
        f"{aligned.inserted + aligned.deleted + aligned.replaced:,} edits found",
        "finishes in seconds",
    )


if __name__ == "__main__":
    for row in text2text_rows(3):
        print(" | ".join(row))
