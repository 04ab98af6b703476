"""Whole processes, as a user runs them: start-up of the command line, a
LitBank ``score`` from the shell (CoNLL and .spacy files) against a process that only reads both
files line by line, and what ``--classes`` adds to it. Each time is the best of ``repeat`` runs (at least
seven: a process takes under half a second, and on a shared machine fewer turns often miss a quiet one), the
two sides of a row taking turns."""

import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

Row = tuple[str, str, str, str]
READ_LINES = (
    "import sys\n"
    "for path in sys.argv[1:]:\n"
    "    with open(path, encoding='utf8') as handle:\n"
    "        for line in handle:\n"
    "            line.rsplit(None, 1)\n"
)


def installation() -> str:
    """How the package is installed, for the run's header. An editable
    install (``pip install -e .``) imports its path finder in every Python
    process of the environment, the floors' too: the same milliseconds on
    both sides of each whole-process row, which lowers its ratio. The
    README's figures come from ``pip install .``."""
    if any(name.startswith("__editable__") for name in sys.modules):
        return "editable install (whole-process ratios read low: every process, floors too, imports its finder)"
    return "installed (pip install .)"


def process_times(repeat: int, commands: dict[str, Sequence[str]]) -> dict[str, float]:
    """Fastest wall time of each command over ``repeat`` turns, in seconds,
    after one untimed turn. Byte code is written and read as on an installed
    package (``PYTHONDONTWRITEBYTECODE`` is dropped for these runs)."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    best = {name: float("inf") for name in commands}
    for turn in range(repeat + 1):
        for name, command in commands.items():
            start = time.perf_counter()
            subprocess.run(list(command), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
            if turn:
                best[name] = min(best[name], time.perf_counter() - start)
    return best


def startup(key_path: Path, response_path: Path, repeat: int) -> list[Row]:
    python = sys.executable
    times = process_times(
        max(repeat, 7),
        {
            "numpy": (python, "-c", "import numpy"),
            "help": (python, "-m", "spacy_coref_eval", "--help"),
            "floor": (python, "-c", READ_LINES, str(key_path), str(response_path)),
            "score": (python, "-m", "spacy_coref_eval", "score", str(key_path), str(response_path), "-f", "json"),
            "classes": (python, "-m", "spacy_coref_eval", "score", str(key_path), str(response_path), "-f", "json", "--classes"),
        },
    )
    help_ratio = times["help"] / times["numpy"]
    score_ratio = times["score"] / times["floor"]
    return [
        (
            "Start-up: spacy-coref-eval --help (process)",
            f"{times['help'] * 1000:.0f} ms",
            f"python -c 'import numpy' {times['numpy'] * 1000:.0f} ms",
            f"{help_ratio:.2f}x (target <= 3x)",
        ),
        (
            "LitBank score, whole process (CoNLL)",
            f"{times['score'] * 1000:.0f} ms",
            f"read both files' lines {times['floor'] * 1000:.0f} ms",
            f"{score_ratio:.2f}x (target <= 3x)",
        ),
        (
            "LitBank score --classes, whole process",
            f"{times['classes'] * 1000:.0f} ms",
            f"score {times['score'] * 1000:.0f} ms",
            f"+{100 * (times['classes'] / times['score'] - 1):.0f}% (target <= +50%)",
        ),
    ]


def docbin_startup(conll_paths: Sequence[Path], spacy_paths: Sequence[Path], repeat: int) -> list[Row]:
    """LitBank ``score`` from the shell on the ``.spacy`` files against the
    same corpus as CoNLL files, the two taking turns."""
    python = sys.executable
    times = process_times(
        max(repeat, 7),
        {
            kind: (python, "-m", "spacy_coref_eval", "score", *map(str, paths), "-f", "json")
            for kind, paths in (("conll", conll_paths), ("spacy", spacy_paths))
        },
    )
    return [
        (
            "LitBank score .spacy, whole process",
            f"{times['spacy'] * 1000:.0f} ms",
            f"CoNLL files {times['conll'] * 1000:.0f} ms",
            f"{times['spacy'] / times['conll']:.2f}x (target <= 1.5x)",
        )
    ]
