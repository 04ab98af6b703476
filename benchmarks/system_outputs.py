"""Speed of reading system outputs (docs/formats.md §9): LitBank's
perturbed response written as fastcoref (character offsets on detokenised
text, put on the key's words through the text), maverick (token offsets,
and character offsets with inclusive ends on the same text) and mention
strings (placed in the text) against the same response as jsonlines, each
scored against the key as jsonlines."""

import json
from pathlib import Path

from spacy_coref_eval import read_conll
from spacy_coref_eval.formats.document import WordsDocument
from spacy_coref_eval.formats.jsonlines.write import split_sentences, write_jsonlines
from spacy_coref_eval.formats.sysout.write import write_fastcoref, write_maverick, write_strings
from spacy_coref_eval.report.json import score_json
from spacy_coref_eval.scoring import Options, evaluate_corpus

Row = tuple[str, str, str, str]


def system_outputs(folder: Path, key_path: Path, response_path: Path, repeat: int, settings) -> list[Row]:
    """Rows: fastcoref and maverick responses against the jsonlines path."""
    from .run import best_of_each

    paths = {}
    for role, path in (("key", key_path), ("response", response_path)):
        documents = read_conll(path, with_words=True)
        target = folder / f"system.{role}.jsonlines"
        write_jsonlines(target, [(name, split_sentences(d.words, d.sentence_starts), d.clusters) for name, d in documents.items()])
        paths[role] = target
        if role == "response":
            words = [WordsDocument(name, d.clusters, list(d.words), d.sentence_starts) for name, d in documents.items()]
            paths["fastcoref"], paths["maverick"] = folder / "system.fastcoref.jsonl", folder / "system.maverick.jsonl"
            paths["mention strings"] = folder / "system.strings.jsonl"
            write_fastcoref(paths["fastcoref"], words, [])
            write_maverick(paths["maverick"], words, [])
            write_strings(paths["mention strings"], words, [])
            paths["maverick characters"] = maverick_characters(paths["fastcoref"], folder / "system.maverick-chars.jsonl")

    def scored(response: Path, fmt=None):
        options = Options(settings, formats=(None, fmt))
        return lambda: score_json(evaluate_corpus(paths["key"], response, options).result, per_doc=True)

    names = ("response", "fastcoref", "maverick", "maverick characters", "mention strings")
    formats = {"maverick characters": "maverick"}
    times = best_of_each(repeat, {name: scored(paths[name], formats.get(name)) for name in names})
    base = times["response"]
    return [
        (
            f"{name} response: LitBank, read both + all metrics",
            f"{times[name] * 1000:.1f} ms",
            f"jsonlines path {base * 1000:.1f} ms",
            f"{times[name] / base:.2f}x" + (" (target <= 2x)" if name != "mention strings" else " (strings placed)"),
        )
        for name in names[1:]
    ]


def maverick_characters(fastcoref: Path, target: Path) -> Path:
    """The fastcoref file as maverick writes character offsets on text:
    ``clusters_char_offsets`` with inclusive ends."""
    with open(fastcoref, encoding="utf8") as lines, open(target, "w", encoding="utf8") as out:
        for line in lines:
            obj = json.loads(line)
            spans = [[[start, end - 1] for start, end in cluster] for cluster in obj["clusters"]]
            out.write(json.dumps({"doc_key": obj["doc_key"], "text": obj["text"], "clusters_char_offsets": spans}) + "\n")
    return target
