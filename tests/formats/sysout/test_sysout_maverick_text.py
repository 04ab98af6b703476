"""maverick's ``evaluate.py`` output of a ``text`` input: ``doc_key``,
``text`` and ``clusters`` of spaCy token offsets, end inclusive (the
tokens of spaCy's English tokenizer, as maverick's ``ontonotes_to_dataframe``
makes them), read with ``--response-format maverick``."""

import json
from bisect import bisect_right

import pytest
import spacy
from click.testing import CliRunner

from spacy_coref_eval import CorefInputError
from spacy_coref_eval.cli import app
from spacy_coref_eval.formats.corpus import read_side
from spacy_coref_eval.formats.registry import get_format
from tests.conftest import data_path

runner = CliRunner()
LITBANK = data_path("corpora", "litbank.key.conll.gz")


def scores(*args):
    result = runner.invoke(app, ["score", *map(str, args), "-f", "json"])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """LitBank's gold as maverick's evaluate.py writes a text input (each
    mention the spaCy tokens it touches), and the same mentions as fastcoref
    character offsets of those tokens."""
    folder = tmp_path_factory.mktemp("maverick_text")
    fastcoref = folder / "gold.fastcoref.jsonl"
    assert runner.invoke(app, ["convert", str(LITBANK), str(fastcoref), "--output-format", "fastcoref"]).exit_code == 0
    nlp = spacy.blank("en")
    evaluate, characters = [], []
    for line in fastcoref.read_text(encoding="utf-8").splitlines():
        line = json.loads(line)
        tokens = nlp.tokenizer(line["text"])
        starts = [token.idx for token in tokens]
        clusters = [[[bisect_right(starts, a) - 1, bisect_right(starts, b - 1) - 1] for a, b in cluster] for cluster in line["clusters"]]
        evaluate.append({"doc_key": line["doc_key"], "text": line["text"], "clusters": clusters})
        characters.append(
            {
                "doc_key": line["doc_key"],
                "text": line["text"],
                "clusters": [[[tokens[s].idx, tokens[e].idx + len(tokens[e].text)] for s, e in cluster] for cluster in clusters],
            }
        )
    paths = {}
    for name, lines in (("evaluate", evaluate), ("characters", characters)):
        paths[name] = folder / f"{name}.jsonl"
        paths[name].write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return paths


def test_litbank_written_by_evaluate_py_scores_like_its_character_offsets(written):
    """The tokens are spaCy's: the file scores exactly like the character
    offsets of those tokens, and just under the key against itself, as a
    few LitBank mentions end inside a spaCy token of the detokenised text."""
    got = scores(LITBANK, written["evaluate"], "--response-format", "maverick")
    assert got["metrics"] == scores(LITBANK, written["characters"])["metrics"]
    assert got["alignment"] == scores(LITBANK, written["characters"])["alignment"]
    assert 0.99 < got["metrics"]["conll"]["f1"] < 1.0


def test_a_hand_made_line_is_read_on_spacy_tokens(tmp_path):
    path = tmp_path / "output.jsonlines"
    path.write_text(
        json.dumps(
            {"doc_key": "d", "text": "Barack Obama is traveling to Rome.  The city is nice.", "clusters": [[[5, 5], [8, 9]], [[0, 1]]]}
        )
        + "\n",
        encoding="utf-8",
    )
    document = read_side(path, get_format("maverick")).documents[0]
    text = document.text
    assert [text[a:b] for a, b in document.spans.tolist()] == ["Rome", "The city", "Barack Obama"]


def test_read_as_fastcoref_an_inclusive_one_token_mention_names_the_maverick_format(tmp_path):
    path = tmp_path / "output.jsonlines"
    path.write_text(json.dumps({"doc_key": "d", "text": "Barack Obama is here.", "clusters": [[[0, 1], [3, 3]]]}) + "\n", encoding="utf-8")
    with pytest.raises(CorefInputError, match="--response-format maverick"):
        read_side(path)


def test_maverick_with_mention_strings_only_reads_them(tmp_path):
    path = tmp_path / "output.jsonlines"
    path.write_text(
        json.dumps({"text": "Anna met Ben. She smiled.", "clusters_char_offsets": None, "clusters_char_text": [["Anna", "She"]]}) + "\n",
        encoding="utf-8",
    )
    document = read_side(path, get_format("maverick")).documents[0]
    assert [document.text[a:b] for a, b in document.spans.tolist()] == ["Anna", "She"]
