"""Record what Hugging Face's ``coval`` module (huggingface/evaluate,
metrics/coval/coval.py, calling ns-moosavi/coval) returns on seeded random
single documents and on the cases of issue 31, as the fixture
tests/data/hf_coval/outputs.json.gz that tests/integrations/test_huggingface.py compares
the ``coreference`` module with. Neither project's code is copied here:
this script only imports and calls it, from copies outside the repository.

Usage (both checkouts outside the repository; coval's on the path)::

    PYTHONPATH=$PWD:/path/to/coval python scripts/record_hf_coval.py \\
        /path/to/evaluate/metrics/coval/coval.py tests/data/hf_coval/outputs.json.gz \\
        --evaluate-commit SHA --coval-commit SHA
"""

import argparse
import gzip
import importlib.util
import json
import random
from pathlib import Path
from typing import Any

from spacy_coref_eval import Clusters
from spacy_coref_eval.formats.conll.write import format_conll

N_DOCUMENTS = 300
SEED = 31


def random_document(rng: random.Random, name: str) -> tuple[list[list[str]], list[list[str]]]:
    """A key and a response of one document as sentences of CoNLL word
    lines: mentions within one sentence, those of one entity apart."""
    lengths = [rng.randint(3, 12) for _ in range(rng.randint(1, 6))]
    starts = [sum(lengths[:i]) for i in range(len(lengths))]
    n_tokens = sum(lengths)
    key = _entities(rng, lengths, starts, rng.randint(1, 6))
    response = _perturbed(rng, key, lengths, starts)
    words = [f"w{i}" for i in range(n_tokens)]
    return tuple(_sentences(name, words, entities, starts) for entities in (key, response))  # type: ignore[return-value]


def _entities(rng: random.Random, lengths: list[int], starts: list[int], n: int) -> list[list[tuple[int, int]]]:
    entities: list[list[tuple[int, int]]] = []
    used = set()
    for _ in range(n):
        entity: list[tuple[int, int]] = []
        for _ in range(rng.randint(1, 4)):
            span = _span(rng, lengths, starts)
            if span not in used and not any(s < span[1] and span[0] < e for s, e in entity):
                entity.append(span)
                used.add(span)
        if entity:
            entities.append(entity)
    return entities


def _span(rng: random.Random, lengths: list[int], starts: list[int]) -> tuple[int, int]:
    sentence = rng.randrange(len(lengths))
    start = rng.randrange(lengths[sentence])
    end = rng.randint(start + 1, min(lengths[sentence], start + 3))
    return starts[sentence] + start, starts[sentence] + end


def _perturbed(rng: random.Random, key: list[list[tuple[int, int]]], lengths: list[int], starts: list[int]):
    mentions = [(span, e) for e, entity in enumerate(key) for span in entity if rng.random() > 0.2]
    mentions = [(span, e if rng.random() > 0.2 else rng.randrange(len(key) + 2)) for span, e in mentions]
    for _ in range(rng.randint(0, 3)):
        mentions.append((_span(rng, lengths, starts), rng.randrange(len(key) + 2)))
    entities: dict[int, list[tuple[int, int]]] = {}
    seen = set()
    for span, e in mentions:
        entity = entities.setdefault(e, [])
        if span not in seen and not any(s < span[1] and span[0] < end for s, end in entity):
            entity.append(span)
            seen.add(span)
    return [entity for entity in entities.values() if entity]


def _sentences(name: str, words: list[str], entities, starts: list[int]) -> list[list[str]]:
    lines = list(format_conll(name, words, Clusters.from_entities(entities), sentence_starts=starts))[1:-1]
    sentences: list[list[str]] = [[]]
    for line in lines:
        if line:
            sentences[-1].append(" ".join(line.split("\t")))
        elif sentences[-1]:
            sentences.append([])
    return [sentence for sentence in sentences if sentence]


def issue_cases() -> dict[str, dict[str, Any]]:
    """The two-document id collision of issue 31: a response perfect in each
    document, whose entity ids differ from the key's in the second (coval's
    module reads both documents as one, where key entity 0 spans both)."""
    first = ["a 0 0 John - (0)", "a 0 1 saw - -", "a 0 2 himself - (0)"]
    second = ["b 0 0 Mary - (0)", "b 0 1 saw - -", "b 0 2 herself - (0)", "b 0 3 and - -", "b 0 4 Ann - (1)"]
    second_response = ["b 0 0 Mary - (7)", "b 0 1 saw - -", "b 0 2 herself - (7)", "b 0 3 and - -", "b 0 4 Ann - (0)"]
    return {"id-collision": {"references": [first, second], "predictions": [first, second_response]}}


def run(metric: Any, case: dict[str, Any], **options: Any) -> dict[str, Any]:
    try:
        return {"output": metric.compute(predictions=case["predictions"], references=case["references"], **options)}
    except Exception as err:  # noqa: BLE001 - what coval raises is recorded
        return {"error": f"{type(err).__name__}: {err}"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("coval_module", type=Path, help="huggingface/evaluate's metrics/coval/coval.py")
    parser.add_argument("output", type=Path)
    parser.add_argument("--evaluate-commit", required=True)
    parser.add_argument("--coval-commit", required=True)
    args = parser.parse_args()
    spec = importlib.util.spec_from_file_location("hf_coval", args.coval_module)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    coval = module.Coval()
    rng = random.Random(SEED)
    documents = {}
    for number in range(N_DOCUMENTS):
        references, predictions = random_document(rng, f"doc{number}")
        documents[f"random-{number}"] = {"references": references, "predictions": predictions}
    cases = {**documents, **issue_cases()}
    recorded = {name: {**case, "coval": run(coval, case)} for name, case in cases.items()}
    single = documents["random-0"]
    recorded["min_span"] = {**single, "options": {"min_span": True}, "coval": run(coval, single, min_span=True)}
    provenance = {
        "what": "outputs of Hugging Face's coval module (evaluate.load('coval')'s code) on the inputs beside them",
        "evaluate": {
            "repository": "https://github.com/huggingface/evaluate",
            "commit": args.evaluate_commit,
            "file": "metrics/coval/coval.py",
        },
        "coval": {"repository": "https://github.com/ns-moosavi/coval", "commit": args.coval_commit},
        "command": "PYTHONPATH=$PWD:<coval checkout> python scripts/record_hf_coval.py <evaluate checkout>/metrics/coval/coval.py "
        f"tests/data/hf_coval/outputs.json.gz --evaluate-commit {args.evaluate_commit} --coval-commit {args.coval_commit}",
        "seed": SEED,
        "n_random_documents": N_DOCUMENTS,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(args.output, "wb", mtime=0) as out:
        out.write((json.dumps({"provenance": provenance, "cases": recorded}, indent=1) + "\n").encode("utf-8"))


if __name__ == "__main__":
    main()
