"""A seeded system response for a CorefUD CoNLL-U file, made by editing its
``Entity=`` chunks: some entities merged into others, some one-word mentions
dropped or split off into entities of their own, some multi-word mentions
started one word later or ended one word earlier. ``Bridge=`` and
``SplitAnte=`` are dropped (they would point at entities that changed).
The file stays valid CorefUD, so the official scorer reads it too."""

import random
import re
from collections.abc import Sequence
from typing import Optional

CHUNK = re.compile(r"\(([^()]+)\)|\(([^()]+)|([^()]+)\)")
Row = Optional[tuple[list[str], list[str]]]


def perturb_corefud(text: str, seed: int) -> str:
    rng = random.Random(seed)
    lines = text.split("\n")
    eids = sorted(set(re.findall(r"Entity=[^|\t]*?\((\w+)", text)) | set(re.findall(r"\((\w+)-", text)))
    merge = {eid: rng.choice(eids) for eid in eids if rng.random() < 0.08}
    rows = [_read_row(line, merge, rng) for line in lines]
    _move(rows, rng, opening=True)
    _move(rows, rng, opening=False)
    return "\n".join(line if row is None else _write_row(row) for line, row in zip(lines, rows))


def keep_documents(text: str, names: Sequence[str]) -> str:
    """The file with only the documents (``# newdoc id``) in ``names``."""
    head, *documents = text.split("# newdoc")
    kept = [d for d in documents if d.split("\n", 1)[0].split("=", 1)[-1].strip() in set(names)]
    return head + "".join("# newdoc" + d for d in kept)


def _read_row(line: str, merge: dict, rng: random.Random) -> Row:
    if line.startswith("#") or "\t" not in line:
        return None
    columns = line.split("\t")
    chunks: list[str] = []
    for item in columns[9].split("|"):
        if not item.startswith("Entity="):
            continue
        for match in CHUNK.finditer(item[len("Entity=") :]):
            single, opening, closing = match.groups()
            if single is not None:
                fields = single.split("-")
                if rng.random() < 0.08:
                    continue
                fields[0] = merge.get(fields[0], fields[0]) + ("0000" if rng.random() < 0.1 else "")
                chunks.append("(" + "-".join(fields) + ")")
            elif opening is not None:
                fields = opening.split("-")
                eid = fields[0].split("[")[0]
                fields[0] = merge.get(eid, eid) + fields[0][len(eid) :]
                chunks.append("(" + "-".join(fields))
            else:
                eid = closing.split("[")[0]
                chunks.append(merge.get(eid, eid) + closing[len(eid) :] + ")")
    return columns, chunks


def _is_word(row: Row) -> bool:
    return row is not None and "-" not in row[0][0] and "." not in row[0][0]


def _move(rows: list[Row], rng: random.Random, opening: bool) -> None:
    """Move some openings to the next word, or some closings to the word
    before, of the same sentence, where the file stays unambiguous."""
    words = [i for i, row in enumerate(rows) if _is_word(row)]
    moved = []
    for here, there in zip(words, words[1:]) if opening else zip(words[1:], words):
        if int(rows[max(here, there)][0][0]) == 1:
            continue
        for chunk in list(rows[here][1]):
            if opening != chunk.startswith("(") or chunk.endswith(")") == opening or "[" in chunk:
                continue
            if rng.random() >= 0.12:
                continue
            target = rows[there][1]
            eid = chunk[1:].split("-")[0] if opening else chunk[:-1]
            if opening and any(other == eid + ")" for other in target):
                continue
            if not opening and (target and not target[-1].endswith(")") or any(o.startswith(f"({eid}-") for o in target)):
                continue
            rows[here][1].remove(chunk)
            moved.append((there, chunk))
    for there, chunk in moved:
        rows[there][1].append(chunk)


def _write_row(row: Row) -> str:
    columns, chunks = row
    misc = [m for m in columns[9].split("|") if not m.startswith(("Entity=", "Bridge=", "SplitAnte=")) and m != "_"]
    if chunks:
        misc.insert(0, "Entity=" + "".join(chunks))
    columns[9] = "|".join(misc) if misc else "_"
    return "\t".join(columns)
