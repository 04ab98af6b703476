"""The text2text-coref fixture of tests/data/text2text, packed small: the
variants as word edits of the official ``conllu2text -s`` text, the headed
GUM key as the head of every ``Entity=`` opening of the shared GUM file,
and the official pipeline's numbers (see tests/data/text2text/PROVENANCE.md).

Pack (once, from the research fixture): ``python -m tests.support.text2text_data
/path/to/sysout``; the tests unpack with :func:`variant_text` and
:func:`headed_key`."""

import difflib
import gzip
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).parents[1] / "data" / "text2text"
GUM = Path(__file__).parents[1] / "data" / "corpora" / "gum-corefud.40docs.conllu.gz"
VARIANTS = ("unchanged", "insert", "delete", "replace", "broken_tags", "mix", "perturbed", "perturbed_edits")
_ENTITY = re.compile(r"Entity=([^|\t\n]*)")
_OPENING = re.compile(r"\(([^()]+)")


def gold_lines() -> list[str]:
    return gzip.open(HERE / "gold.t2t.txt.gz", "rt", encoding="utf-8").read().split("\n")[:-1]


def variant_text(name: str) -> str:
    """The response text of variant ``name``: the gold text with its edits."""
    lines = gold_lines()
    edits = json.loads(gzip.open(HERE / "variants.json.gz", "rt", encoding="utf-8").read())[name]
    out = []
    for line, changes in zip(lines, edits):
        tokens = line.split(" ")
        for start, end, new in reversed(changes):
            tokens[start:end] = new
        out.append(" ".join(tokens))
    return "".join(line + "\n" for line in out)


def headed_key() -> str:
    """The GUM key with MoveHead heads written as a ``head`` field (and the
    openings and lines udapi rewrote otherwise, e.g. an entity's etype or
    where it puts ``SplitAnte``, as written)."""
    packed = json.loads(gzip.open(HERE / "headed.json.gz", "rt", encoding="utf-8").read())
    heads = iter(packed["heads"])
    text = gzip.open(GUM, "rt", encoding="utf-8").read()
    text = text.replace(packed["header"][0], packed["header"][1])

    def opening(match: "re.Match") -> str:
        head, fields = next(heads), match.group(1).split("-")
        return "(" + (head if isinstance(head, str) else "-".join(fields[:2] + [str(head)] + fields[2:]))

    def value(match: "re.Match") -> str:
        return "Entity=" + _OPENING.sub(opening, match.group(1))

    lines = _ENTITY.sub(value, text).split("\n")
    for index, line in packed["lines"].items():
        lines[int(index)] = line
    return "\n".join(lines)


def expected() -> dict:
    return json.loads((HERE / "expected.json").read_text())


def pack(research: Path) -> None:
    gold = (research / "fixtures" / "gold.txt").read_text(encoding="utf-8")
    with gzip.GzipFile(HERE / "gold.t2t.txt.gz", "wb", mtime=0) as out:
        out.write(gold.encode("utf-8"))
    lines = gold.split("\n")[:-1]
    edits = {}
    for name in VARIANTS:
        text = (research / "fixtures" / "variants" / f"{name}.txt").read_text(encoding="utf-8").split("\n")[:-1]
        assert len(text) == len(lines)
        edits[name] = []
        for a, b in zip(lines, text):
            ta, tb = a.split(" "), b.split(" ")
            codes = difflib.SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes()
            edits[name].append([[i1, i2, tb[j1:j2]] for tag, i1, i2, j1, j2 in codes if tag != "equal"])
    _write_json(HERE / "variants.json.gz", edits)
    plain = gzip.open(GUM, "rt", encoding="utf-8").read().split("\n")
    headed = gzip.open(research / "fixtures" / "gum_headed.conllu.gz", "rt", encoding="utf-8").read().split("\n")
    heads, header = [], None
    for a, b in zip(plain, headed):
        if a.startswith("# global.Entity") and a != b:
            header = [a, b]
        ma, mb = _ENTITY.search(a), _ENTITY.search(b)
        if ma and mb:
            for fa, fb in zip(_OPENING.findall(ma.group(1)), _OPENING.findall(mb.group(1))):
                fields = fb.split("-")
                heads.append(int(fields[2]) if fields[:2] + fields[3:] == fa.split("-") else fb)
    _write_json(HERE / "headed.json.gz", {"header": header, "heads": heads, "lines": {}})
    rebuilt = headed_key().split("\n")
    lines = {str(i): b for i, (a, b) in enumerate(zip(rebuilt, headed)) if a != b}
    _write_json(HERE / "headed.json.gz", {"header": header, "heads": heads, "lines": lines})
    fixture = json.loads((research / "text2text_fixtures.json").read_text())
    keep = {"about": {k: fixture["about"][k] for k in ("repositories", "commands", "scorer_defaults", "udapi", "python")}}
    for name in VARIANTS:
        variant = fixture["variants"][name]
        keep[name] = {
            "totals": variant["totals"],
            "clean_word_problems": [doc["clean_log"]["word_problems"] for doc in variant["per_doc"]],
            "injected": [
                {k: doc["injected"][k] for k in ("inserted_words", "deleted_words", "replaced_words")} for doc in variant["per_doc"]
            ],
            "scores": {
                key: {
                    mode: {
                        metric: {r: values[r] for r in ("recall", "precision", "f1")}
                        for metric, values in metrics.items()
                        if isinstance(values, dict) and "f1" in values
                    }
                    for mode, metrics in scores["modes"].items()
                    if "(cli)" not in mode
                }
                for key, scores in variant["scores"].items()
            },
        }
        keep[name]["mentions"] = {
            key: official_mentions(research / "fixtures" / "variants" / f"{name}.{key}.conllu.gz", key) for key in ("gum", "gum_headed")
        }
    (HERE / "expected.json").write_text(json.dumps(keep, indent=1, sort_keys=True) + "\n")
    assert headed_key() == "\n".join(headed)
    for name in VARIANTS:
        assert variant_text(name) == (research / "fixtures" / "variants" / f"{name}.txt").read_text(encoding="utf-8")


def official_mentions(path: Path, key: str) -> list[str]:
    """Per document, :func:`mention_digest` of text2text-coref's CoNLL-U
    output read against the key."""
    from spacy_coref_eval.formats.corpus import read_corpus

    research_key = GUM if key == "gum" else path.parent.parent / "gum_headed.conllu.gz"
    return [mention_digest(pair.response) for pair in read_corpus(research_key, path).pairs]


def mention_digest(clusters) -> str:
    """A digest of a response's entities: each a sorted list of its
    mentions' token sets and heads."""
    import hashlib

    entities: dict[int, list] = {}
    for m in range(len(clusters)):
        nodes = clusters.nodes.of(m).tolist() if clusters.nodes is not None else list(range(int(clusters.starts[m]), int(clusters.ends[m])))
        entities.setdefault(int(clusters.entity[m]), []).append((nodes, int(clusters.heads[m])))
    canonical = sorted(sorted(mentions) for mentions in entities.values())
    return hashlib.sha256(json.dumps(canonical).encode()).hexdigest()[:16]


def _write_json(path: Path, value) -> None:
    with gzip.GzipFile(path, "wb", mtime=0) as out:
        out.write(json.dumps(value, separators=(",", ":")).encode("utf-8"))


if __name__ == "__main__":
    pack(Path(sys.argv[1]))
