"""Read and write indiscrim rows (see the package docstring)."""

import json
from collections.abc import Mapping, Sequence
from itertools import accumulate
from pathlib import Path
from typing import Any, Union

from ...errors import CorefInputError
from ...files import open_output
from ...model.clusters import Clusters
from ..base import ReadOptions
from ..document import Side, SideDocument, WordsDocument, document_names
from ..jsonlines.read import decode_text
from . import FORMAT


def row_document(row: Mapping[str, Any], where: str) -> WordsDocument:
    """One row (a dict as the Hub's datasets give it) as a document: its
    ``id``, words (every sentence's token texts, in order) and clusters on
    them (end exclusive); ``where`` names it in errors (``file:line``)."""
    if not isinstance(row, Mapping) or "coref_chains" not in row or "sentences" not in row:
        raise CorefInputError(f"{where}: an indiscrim row is an object with 'sentences' and 'coref_chains'")
    name = row.get("id")
    name = f"{where}" if name is None else str(name)
    sentences = row["sentences"]
    if not isinstance(sentences, list):
        raise CorefInputError(f"{where}: document {name!r}: 'sentences' must be a list")
    try:
        words = [[str(token["text"]) for token in sentence["tokens"]] for sentence in sentences]
    except (TypeError, KeyError):
        raise CorefInputError(f"{where}: document {name!r}: every sentence needs 'tokens', each a token with its 'text'") from None
    starts = [0, *accumulate(len(sentence) for sentence in words)]
    entities = []
    chains = row["coref_chains"] or []
    if not isinstance(chains, list):
        raise CorefInputError(f"{where}: document {name!r}: 'coref_chains' is a list of chains, not {chains!r}")
    for number, chain in enumerate(chains):
        entity = []
        for mention in chain if isinstance(chain, list) else [chain]:
            entity.append(_span(mention, words, starts, where=f"{where}: document {name!r}, chain {number}"))
        entities.append(entity)
    sentence_starts = starts[:-1] if words else [0]
    return WordsDocument(name, Clusters.from_entities(entities), [w for s in words for w in s], sentence_starts)


def _span(mention: Any, words: Sequence[Sequence[str]], starts: Sequence[int], *, where: str) -> tuple:
    """``[sentence, start, end]`` (end inclusive) as a document span (end exclusive)."""
    if not (isinstance(mention, list) and len(mention) == 3 and all(type(v) is int for v in mention)):
        raise CorefInputError(f"{where}: a mention is [sentence, start, end] (three integers), not {mention!r}")
    sentence, start, end = mention
    if not 0 <= sentence < len(words):
        raise CorefInputError(f"{where}: mention {mention}: no sentence {sentence} (the document has {len(words)})")
    if not 0 <= start <= end < len(words[sentence]):
        raise CorefInputError(
            f"{where}: mention {mention}: tokens {start}..{end} (inclusive) do not lie in sentence {sentence} "
            f"of {len(words[sentence])} tokens"
        )
    return starts[sentence] + start, starts[sentence] + end + 1


def parse_side(data: Union[bytes, bytearray], path: Path, options: ReadOptions) -> Side:
    """An indiscrim file's bytes (one row a line) as a :class:`Side` (the
    format's reader)."""
    documents: list[SideDocument] = []
    for number, line in enumerate(decode_text(data, path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as err:
            raise CorefInputError(f"{path}:{number}: not JSON ({err})") from None
        documents.append(row_document(row, f"{path}:{number}"))
    return Side(path, FORMAT, documents)


def write_side(path: Path, documents: Sequence[SideDocument], inputs: Sequence[Path]) -> list[str]:
    """The documents as indiscrim rows; a mention across sentences is refused."""
    with open_output(path, "w", inputs, make_parents=True) as out:
        for name, document in zip(document_names(documents), documents):
            out.write(json.dumps(document_row(name, document), ensure_ascii=False) + "\n")
    return []


def document_row(name: str, document: SideDocument) -> dict:
    words = list(document.words)
    starts = sorted({int(s) for s in document.sentence_starts if 0 < int(s) < len(words)} | {0})
    bounds = list(zip(starts, starts[1:] + [len(words)]))
    sentences = [
        {"id": i, "speaker": None, "text": " ".join(words[a:b]), "tokens": [{"id": j, "text": w} for j, w in enumerate(words[a:b])]}
        for i, (a, b) in enumerate(bounds)
    ]
    chains = []
    for entity in document.clusters.entities():
        chain = []
        for start, end in entity:
            sentence = next(i for i, (a, b) in enumerate(bounds) if a <= start < b)
            a, b = bounds[sentence]
            if end > b:
                raise CorefInputError(
                    f"document {name!r}: mention ({start}, {end}) crosses a sentence boundary; indiscrim rows cannot hold it"
                )
            chain.append([sentence, start - a, end - 1 - a])
        chains.append(chain)
    return {"id": name, "text": " ".join(words), "sentences": sentences, "coref_chains": chains}
