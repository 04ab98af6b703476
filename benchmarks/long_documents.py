"""The row of issue #33: one 200k-token document (LitBank's 100 documents
concatenated into one, 210,532 tokens, against the perturbed response
concatenated the same way) scored with ``--by spread --links --window
2000`` against plain ``score`` of the same files, whole processes taking
turns (:func:`.startup.process_times`).

    python -m benchmarks.long_documents
"""

import sys
import tempfile
from pathlib import Path

Row = tuple[str, str, str, str]


def concatenate(source: Path, target: Path, name: str = "litbank/all") -> None:
    """Every document of a CoNLL-2012 file as one document ``name``,
    sentences kept, entity ids renumbered apart per source document."""
    out = [f"#begin document ({name}); part 000\n"]
    offset, base, seen = 0, 0, 0
    for line in source.read_text(encoding="utf8").splitlines():
        if line.startswith("#begin"):
            base += seen
            seen = 0
            continue
        if line.startswith("#end"):
            continue
        if not line.strip():
            if out[-1] != "\n":
                out.append("\n")
            continue
        cols = line.split()
        coref = cols[-1]
        if coref != "-":
            parts = []
            for part in coref.split("|"):
                digits = part.strip("()")
                seen = max(seen, int(digits) + 1)
                parts.append(part.replace(digits, str(int(digits) + base)))
            coref = "|".join(parts)
        out.append(f"{name}\t0\t{offset}\t{cols[3]}\t{coref}\n")
        offset += 1
    out.append("\n#end document\n")
    target.write_text("".join(out), encoding="utf8")


def long_document_rows(folder: Path, key_path: Path, response_path: Path, repeat: int) -> list[Row]:
    """``score --by spread --links --window 2000`` against plain ``score``
    on one 200k-token document."""
    from .startup import process_times

    key, response = folder / "long.key.conll", folder / "long.response.conll"
    concatenate(key_path, key)
    concatenate(response_path, response)
    score = (sys.executable, "-m", "spacy_coref_eval", "score", str(key), str(response), "-f", "json")
    times = process_times(max(repeat, 3), {"plain": score, "long": (*score, "--by", "spread", "--links", "--window", "2000")})
    ratio = times["long"] / times["plain"]
    return [
        (
            "one 200k-token document: --by spread --links --window 2000 vs plain score, whole process",
            f"{times['long'] * 1000:.0f} ms",
            f"plain {times['plain'] * 1000:.0f} ms",
            f"{ratio:.2f}x (target < 3x)",
        )
    ]


def main() -> None:
    from wasabi import table

    from .run import litbank_files

    with tempfile.TemporaryDirectory() as folder:
        key_path, response_path, _ = litbank_files(Path(folder))
        rows = long_document_rows(Path(folder), key_path, response_path, 3)
    print(table(rows, header=("case", "time", "reference", "ratio"), divider=True))


if __name__ == "__main__":
    main()
