"""The row of issue #21 item 5: 10⁵ three-token documents ("He saw him")
against LitBank (300k against 210k tokens), both scored in whole
processes that take turns (:func:`.startup.process_times`). Every
document marks tokens 0 and 2 as one entity (90% of them) and token 1
as another (half of them), drawn by a seeded generator per side."""

import random
import sys
from pathlib import Path

from .startup import process_times

Row = tuple[str, str, str, str]
N_DOCUMENTS = 100_000


def write_small(path: Path, seed: int, n: int = N_DOCUMENTS) -> None:
    """``n`` documents of three tokens as a CoNLL-2012 file."""
    rng = random.Random(seed)
    out = []
    for d in range(n):
        out.append(f"#begin document (doc{d}); part 000\n")
        cols = ["", "", ""]
        if rng.random() < 0.9:
            cols[0] = "(0)"
            cols[2] = "(0)"
        if rng.random() < 0.5:
            cols[1] = "(1)"
        for i, word in enumerate(["He", "saw", "him"]):
            out.append(f"doc{d}\t0\t{i}\t{word}\t{cols[i] or '-'}\n")
        out.append("\n#end document\n")
    path.write_text("".join(out), encoding="utf8")


def small_documents_rows(folder: Path, key_path: Path, response_path: Path, repeat: int) -> list[Row]:
    """10⁵ three-token documents against LitBank, ``score -f json``, whole processes."""
    small_key, small_response = folder / "small.key.conll", folder / "small.response.conll"
    write_small(small_key, 1)
    write_small(small_response, 2)
    score = (sys.executable, "-m", "spacy_coref_eval", "score")
    times = process_times(
        max(repeat, 5),
        {
            "litbank": (*score, str(key_path), str(response_path), "-f", "json"),
            "small": (*score, str(small_key), str(small_response), "-f", "json"),
        },
    )
    ratio = times["small"] / times["litbank"]
    return [
        (
            f"{N_DOCUMENTS:,} three-token documents vs LitBank, whole process",
            f"{times['small'] * 1000:.0f} ms",
            f"LitBank {times['litbank'] * 1000:.0f} ms",
            f"{ratio:.2f}x (target <= 3x)",
        ),
        report_row(small_key, small_response, times["small"]),
    ]


def report_row(key: Path, response: Path, scored: float) -> Row:
    """``report`` (HTML, every analysis) of the small documents in a fresh
    process, its time and peak memory against ``score``'s time (issue 34
    item 11: 366 s and 1.93 GB against 4.8 s before the waterfall kept one
    array a state and twinned documents stopped building corpus-long masks)."""
    import resource
    import subprocess
    import tempfile
    import time

    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "spacy_coref_eval", "report", str(key), str(response), "-o", str(Path(folder) / "report.html")],
            check=True,
            capture_output=True,
        )
        seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return (
        f"report of {N_DOCUMENTS:,} three-token documents, whole process",
        f"{seconds:.1f} s",
        f"peak RSS {peak:,.0f} MB (the largest child so far)",
        f"{seconds / scored:.1f}x score's time",
    )
