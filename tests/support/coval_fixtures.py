"""coval's own outputs (tests/data/coval/fixtures.json.gz, see PROVENANCE)
and the package's view of their key and response files."""

import gzip
import json
from functools import lru_cache
from pathlib import Path

from spacy_coref_eval import read_conll
from spacy_coref_eval.formats.conll.read import read_parse

DATA = Path(__file__).parents[1] / "data" / "coval"


@lru_cache(maxsize=1)
def fixtures():
    with gzip.open(DATA / "fixtures.json.gz", "rt", encoding="utf8") as stream:
        return json.load(stream)


def generated():
    return [p for p in fixtures()["pairs"] if not p["id"].startswith("edge:")]


def edge_cases():
    return [p for p in fixtures()["pairs"] if p["id"].startswith("edge:")]


def written(tmp_path, pair):
    """The key and response of ``pair`` as files."""
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(pair["key"], encoding="utf8")
    response.write_text(pair["response"], encoding="utf8")
    return key, response


def read_pair(tmp_path, pair):
    """Key documents, response documents (with words) and the key's parse bits."""
    key, response = written(tmp_path, pair)
    return read_conll(key, with_words=True), read_conll(response, with_words=True), read_parse(key)


def combo(name):
    """The options of a fixture combination name."""
    return {k: v == "1" for k, v in (kv.split("=") for kv in name.split(","))}


def coval_pair(tmp_path, pair):
    """Key and response documents as coval reads them."""
    from spacy_coref_eval.compat.coval.read import read_coval

    key, response = written(tmp_path, pair)
    return read_coval(key), read_coval(response)


def final_entities(keys, responses, options):
    """{document: {side: coval-style entities}} after coval's options."""
    from spacy_coref_eval.compat.coval.score import CovalOptions, coval_sides

    chosen = CovalOptions(options["min_span"], options["NP_only"], options["remove_nested"], options["keep_singletons"])
    return {name: dict(zip(("key", "response"), coval_sides(key, responses[name], chosen))) for name, key in keys.items()}


def as_fixture(entities):
    return [[[m.sentence, m.start, m.end] for m in e] for e in entities]
