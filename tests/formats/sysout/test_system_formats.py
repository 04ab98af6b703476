"""System outputs (fastcoref, maverick, wl-coref): LitBank's gold and a
perturbed response written in each format score exactly like their CoNLL
copies; character offsets are put on the key's words as a naive oracle
puts them; bad input is one clear line."""

import json

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

from spacy_coref_eval import CorefInputError
from spacy_coref_eval.cli import app
from spacy_coref_eval.formats.corpus import read_corpus
from spacy_coref_eval.formats.document import WordsDocument
from spacy_coref_eval.formats.sysout.document import from_text
from spacy_coref_eval.formats.sysout.write import detokenise
from spacy_coref_eval.model.clusters import Clusters
from tests.conftest import data_path
from tests.support.strategies import deterministic

runner = CliRunner()
LITBANK = data_path("corpora", "litbank.key.conll.gz")
SYSTEMS = ("fastcoref", "maverick", "wl-coref")


def run(*args):
    return runner.invoke(app, [str(arg) for arg in args])


def scores(key, response, *options):
    result = run("score", key, response, "-f", "json", *options)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def rewrite(path, target, change):
    """``path``'s lines, each changed by ``change``, written to ``target``."""
    lines = [change(json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines()]
    target.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return target


def spread(line):
    """A fastcoref line with other white space: some spaces doubled or
    made line breaks, a space before some commas."""
    text, parts, at, where = line["text"], [], 0, []
    for index, char in enumerate(text):
        piece = char
        if char == " ":
            piece = "  " if index % 3 == 0 else ("\n" if index % 5 == 0 else " ")
        elif char == "," and index % 2:
            piece = " ,"
        parts.append(piece)
        at += len(piece)
        where.append(at - 1)
    clusters = [[[where[s], where[e - 1] + 1] for s, e in cluster] for cluster in line["clusters"]]
    return {**line, "text": "".join(parts), "clusters": clusters}


def char_inclusive(line):
    """A fastcoref line as maverick writes plain-text input: text and
    character offsets, end inclusive."""
    clusters = [[[s, e - 1] for s, e in cluster] for cluster in line["clusters"]]
    return {"doc_key": line["doc_key"], "text": line["text"], "clusters_char_offsets": clusters}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    from benchmarks.perturb import perturb_corpus
    from spacy_coref_eval.formats.conll.read import read_conll
    from spacy_coref_eval.formats.conll.write import write_conll

    folder = tmp_path_factory.mktemp("systems")
    documents = read_conll(LITBANK, with_words=True)
    system = perturb_corpus({n: d.clusters for n, d in documents.items()}, {n: d.n_tokens for n, d in documents.items()}, seed=3)
    response = folder / "response.conll"
    write_conll(response, [(n, d.words, system[n], d.sentence_starts) for n, d in documents.items()])
    out = {"response": response}
    for source, stem in ((LITBANK, "gold"), (response, "response")):
        for system_name in SYSTEMS:
            path = folder / f"{stem}.{system_name}.jsonl"
            result = run("convert", source, path, "--output-format", system_name)
            assert result.exit_code == 0, result.stderr
            out[f"{stem}.{system_name}"] = path
        out[f"{stem}.spread"] = rewrite(out[f"{stem}.fastcoref"], folder / f"{stem}.spread.jsonl", spread)
        out[f"{stem}.maverick-chars"] = rewrite(out[f"{stem}.fastcoref"], folder / f"{stem}.chars.jsonl", char_inclusive)
    return out


VARIANTS = (*SYSTEMS, "spread", "maverick-chars")


@pytest.mark.parametrize("variant", VARIANTS)
def test_litbank_gold_in_each_format_scores_like_the_conll_key_against_itself(files, variant):
    expected = scores(LITBANK, LITBANK)
    got = scores(LITBANK, files[f"gold.{variant}"])
    assert got["metrics"] == expected["metrics"]
    assert all(entry["f1"] == 1.0 for entry in got["metrics"].values())


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_perturbed_response_in_each_format_scores_like_its_conll_copy(files, variant):
    expected = scores(LITBANK, files["response"])
    assert scores(LITBANK, files[f"response.{variant}"])["metrics"] == expected["metrics"]


def test_system_outputs_are_read_as_keys_too(files):
    """A character output read as the key has the words of its text cut at
    white space and at its mentions' ends (``Hall.`` is one word), so a
    response mention ending inside one is snapped."""
    expected = scores(LITBANK, files["response"])["metrics"]
    assert scores(files["gold.wl-coref"], files["response.maverick"])["metrics"] == expected
    assert scores(files["gold.fastcoref"], files["gold.spread"])["metrics"] == scores(LITBANK, LITBANK)["metrics"]
    coarse = scores(files["gold.fastcoref"], files["response.fastcoref"])
    assert coarse["alignment"]["total"]["snapped"] > 0


def test_the_format_is_detected_from_the_members_and_may_be_named(files):
    corpus = read_corpus(LITBANK, files["response.maverick-chars"])
    assert len(corpus.pairs) == 100
    named = read_corpus(LITBANK, files["response.fastcoref"], formats=(None, "fastcoref"))
    detected = read_corpus(LITBANK, files["response.fastcoref"])
    assert [p.response.starts.tolist() for p in named.pairs] == [p.response.starts.tolist() for p in detected.pairs]


def test_the_typographic_text_is_reported_as_replaced_characters(files):
    data = scores(LITBANK, files["response.fastcoref"])
    assert "alignment" in data
    total = data["alignment"]["total"]
    assert total["unit"] == "characters"
    assert total["replaced"] > 0 and total["snapped"] == total["dropped"] == 0
    assert "alignment" not in scores(LITBANK, files["response.wl-coref"])


def test_detokenise_writes_realistic_text():
    text, starts, ends = detokenise(["He", "said", "``", "Hi", "-LRB-", "there", "-RRB-", "!", "''", "I", "do", "n't", '"', "go", '"', "."])
    assert text == "He said \u201cHi (there)!\u201d I don't \u201cgo\u201d."
    assert text[starts[4] : ends[6]] == "(there)"


# The character -> word mapping against a naive oracle


@st.composite
def placed_texts(draw):
    words = draw(st.lists(st.text("ab.,'", min_size=1, max_size=3), min_size=1, max_size=10))
    separators = draw(st.lists(st.sampled_from(["", " ", "  ", "\n", " \t"]), min_size=len(words) + 1, max_size=len(words) + 1))
    text, owner, first, last = "", [], [], []
    for index, word in enumerate(words):
        text += separators[index]
        owner += [-1] * len(separators[index])
        first.append(len(text))
        text += word
        last.append(len(text) - 1)
        owner += [index] * len(word)
    text += separators[-1]
    owner += [-1] * len(separators[-1])
    n = len(text)
    spans = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(1, n)).filter(lambda s: s[0] < s[1]), max_size=8))
    return words, text, owner, first, last, spans


def naive_placement(owner, first, last, start, end):
    """The words a character span touches, or None; and whether its first
    or last visible character is inside a word."""
    touched = [(c, owner[c]) for c in range(start, end) if owner[c] >= 0]
    if not touched:
        return None, False
    (c0, w0), (c1, w1) = touched[0], touched[-1]
    return (w0, w1 + 1), c0 != first[w0] or c1 != last[w1]


@deterministic(300)
@given(placed_texts())
def test_character_spans_are_placed_as_the_naive_oracle_places_them(case):
    words, text, owner, first, last, spans = case
    key = WordsDocument("d", Clusters(), words)
    array = np.array(spans, dtype=np.int64).reshape(-1, 2)
    response = from_text("d", text, array, labels=np.arange(len(spans), dtype=np.int64))
    paired = response.placed_on(key)
    expected, snapped, dropped = [], 0, 0
    for start, end in spans:
        placed, moved = naive_placement(owner, first, last, start, end)
        if placed is None:
            dropped += 1
            continue
        snapped += moved
        if placed not in expected:
            expected.append(placed)
    got = list(zip(paired.response.starts.tolist(), paired.response.ends.tolist()))
    assert sorted(got) == sorted(expected)
    assert paired.alignment.snapped == snapped
    assert paired.alignment.dropped == dropped


# Bad input


def fastcoref_file(tmp_path, *lines):
    path = tmp_path / "out.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def key_file(tmp_path):
    path = tmp_path / "key.conll"
    path.write_text(
        "#begin document (d); part 000\nd\t0\t0\tThe\t(0\nd\t0\t1\tcat\t0)\nd\t0\t2\tsat\t-\nd\t0\t3\t.\t-\n\n#end document\n",
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize(
    "clusters, message",
    [
        ([[[0, 7], [4, 40]]], "mention [4, 40] in clusters[0] is beyond the document's 12 characters"),
        ([[[-1, 3]]], "mention [-1, 3] in clusters[0] is negative or reversed"),
        ([[[5, 3]]], "mention [5, 3] in clusters[0] is negative or reversed"),
        ([[[0, "3"]]], "mention [0, '3'] in clusters[0] is not [start, end] with integer character offsets"),
        ([[0, 3]], "mention 0 in clusters[0] is not [start, end] with integer character offsets"),
        ([0], "clusters[0] must be a list of [start, end] mentions"),
    ],
)
def test_bad_offsets_are_one_line_naming_the_document(tmp_path, clusters, message):
    response = fastcoref_file(tmp_path, {"doc_key": "(d); part 000", "text": "The cat sat.", "clusters": clusters})
    result = run("score", key_file(tmp_path), response)
    assert result.exit_code == 1
    assert "document '(d); part 000'" in result.stderr and message in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_a_text_that_differs_names_the_files_the_document_and_where(tmp_path):
    response = fastcoref_file(tmp_path, {"doc_key": "(d); part 000", "text": "The dog sat.", "clusters": []})
    result = run("score", key_file(tmp_path), response)
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        f"✘ cannot pair {key_file(tmp_path)} with {response}: document index 0 ('(d); part 000') has a response "
        "text that differs from the key's words beyond white space, quotes and bracket escapes: from response "
        "character 4 'dog sat.' against key word 1 'cat sat .'"
    )


def test_split_into_words_output_and_null_mentions(tmp_path):
    """fastcoref's ``is_split_into_words`` form: ``text`` is the word list
    and offsets are words, end exclusive; a ``null`` mention (on a special
    token) is dropped and counted."""
    response = fastcoref_file(
        tmp_path, {"doc_key": "(d); part 000", "text": ["The", "cat", "sat", "."], "clusters": [[[0, 2], None, [2, 3]]]}
    )
    data = scores(key_file(tmp_path), response)
    assert data["metrics"]["mentions"]["precision_den"] == 2 and data["metrics"]["mentions"]["recall_num"] == 1
    assert data["alignment"]["total"] == {
        "unit": "words",
        "inserted": 0,
        "deleted": 0,
        "replaced": 0,
        "snapped": 0,
        "dropped": 1,
        "unplaced": 0,
        "repaired": 0,
        "paired": {"name": 1, "order": 0},
    }


def test_mentions_inside_words_are_snapped_and_on_white_space_dropped(tmp_path):
    response = fastcoref_file(tmp_path, {"text": "The  cat sat.", "clusters": [[[1, 6], [8, 11]], [[3, 5]]]})
    data = scores(key_file(tmp_path), response)
    document = data["alignment"]["documents"]["(d); part 000"]
    assert (document["snapped"], document["dropped"]) == (2, 1)
    assert data["metrics"]["mentions"]["precision_den"] == 2
    assert any("aligning the response onto the key" in w and "2 mentions snapped" in w for w in data["warnings"])


def test_a_file_that_fits_two_formats_names_them(tmp_path):
    response = fastcoref_file(tmp_path, {"doc_key": "d", "sentences": [["a"]], "text": "a", "clusters": []})
    result = run("score", key_file(tmp_path), response)
    assert result.exit_code == 1
    assert "the members fit several formats (jsonlines, fastcoref)" in result.stderr


def test_unnamed_fastcoref_documents_pair_by_order(tmp_path):
    response = fastcoref_file(tmp_path, {"text": "The cat sat.", "clusters": [[[0, 7], [8, 11]]]})
    corpus = read_corpus(key_file(tmp_path), response)
    assert corpus.warnings == [f"{response}: the documents have no stored names, so they are paired by order"]
    assert corpus.pairs[0].response.entities() == (((0, 2), (2, 3)),)
    two = fastcoref_file(tmp_path, {"text": "a", "clusters": []}, {"text": "b", "clusters": []})
    with pytest.raises(CorefInputError, match="documents without stored names are paired by order"):
        read_corpus(key_file(tmp_path), two)


def test_the_html_report_shows_the_alignment_section_only_when_aligned(tmp_path):
    response = fastcoref_file(tmp_path, {"text": "The  cat sat.", "clusters": [[[1, 6], [8, 11]], [[3, 5]]]})
    page = tmp_path / "report.html"
    result = run("report", key_file(tmp_path), response, "-o", page)
    assert result.exit_code == 0, result.stderr
    html = page.read_text(encoding="utf-8")
    assert '<section id="alignment">' in html
    assert '<td data-alignment="snapped">2</td><td data-alignment="dropped">1</td>' in html
    assert "aligning the response onto the key changed 1 of 1 document(s): 2 mentions snapped, 1 mentions dropped" in html
    plain = tmp_path / "plain.html"
    assert run("report", key_file(tmp_path), key_file(tmp_path), "-o", plain).exit_code == 0
    assert 'id="alignment"' not in plain.read_text(encoding="utf-8")


def naive_replaced(key_words, text):
    """The response characters whose own character differs from the key's
    at the same unit, unit by unit."""

    def sources(string):
        out, index = [], 0
        while index < len(string):
            char = string[index]
            escape = next((e for e in ESCAPES if string.startswith(e, index)), None)
            if escape is not None:
                out.append((index, char))
                index += len(escape)
                continue
            if not char.isspace():
                out += [(index, char)] * (2 if char in DOUBLE else 1)
            index += 1
        return out

    key, response = sources("".join(key_words)), sources(text)
    assert len(key) == len(response)
    return sorted({i for (_, a), (i, b) in zip(key, response) if a != b})


ESCAPES = ("-LRB-", "-RRB-")
DOUBLE = '"“”'


@deterministic(200)
@given(st.lists(st.sampled_from(["a", "b.", "``", "''", '"', "'", "’", "-LRB-", "-RRB-", "(", ")"]), min_size=1, max_size=12), st.data())
def test_replaced_characters_are_those_a_unit_by_unit_comparison_finds(words, data):
    from spacy_coref_eval.formats.alignment import KeyText, fold, replaced_characters

    same = {
        "``": ["“", '"', "``"],
        "''": ["”", '"', "''"],
        '"': ["“", "”", '"'],
        "'": ["’", "'"],
        "’": ["'", "’"],
        "-LRB-": ["(", "-LRB-"],
        "-RRB-": [")", "-RRB-"],
        "(": ["(", "-LRB-"],
        ")": [")", "-RRB-"],
    }
    written = [data.draw(st.sampled_from(same.get(word, [word]))) for word in words]
    text = " ".join(written)
    key = KeyText.of(words)
    assert replaced_characters(key.folded, fold(text)).tolist() == naive_replaced(words, text)


GUM = data_path("corpora", "gum-corefud.40docs.conllu.gz")


def test_wl_coref_head_words_are_one_word_mentions_scored_by_head(tmp_path):
    """``word_clusters`` alone: every mention is its head word, with that
    head; scored as the same one-word mentions built from the key's heads
    (two mentions of one head keep the first, as wl-coref has one mention
    a head)."""
    from spacy_coref_eval.model.clusters import Pair
    from spacy_coref_eval.scoring import Options, score_pairs

    converted = tmp_path / "gum.wl.jsonl"
    assert run("convert", GUM, converted, "--output-format", "wl-coref").exit_code == 0
    both = scores(GUM, converted, "--match", "head")
    assert both["metrics"] == scores(GUM, GUM, "--match", "head")["metrics"]
    heads_only = rewrite(converted, tmp_path / "gum.heads.jsonl", lambda line: {k: v for k, v in line.items() if k != "span_clusters"})
    result = run("score", GUM, heads_only, "--match", "head", "-f", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert any("give head words only ('word_clusters')" in w for w in data["warnings"])
    pairs = []
    for pair in read_corpus(GUM, GUM).pairs:
        key = pair.key
        heads = np.where(key.heads >= 0, key.heads, key.starts)
        pairs.append(Pair(pair.name, key, Clusters.from_arrays(heads, heads + 1, key.entity, heads=heads), pair.n_tokens))
    expected = score_pairs(pairs, Options.from_names(match="head").settings).metrics()
    assert data["metrics"] == json.loads(json.dumps(expected))
    plain = run(
        "score",
        key_file(tmp_path),
        fastcoref_file(tmp_path, {"document_id": "(d); part 000", "cased_words": ["The", "cat", "sat", "."], "word_clusters": [[1]]}),
        "--match",
        "head",
    )
    assert plain.exit_code == 1 and "the 'head' matcher needs mention heads, but the key has none" in plain.stderr


@pytest.mark.parametrize(
    "word_clusters, message",
    [
        ([[1, 2]], "'word_clusters' and 'span_clusters' differ in shape"),
        ([[2]], "head 2 (word_clusters) lies outside its span [0, 2] (span_clusters[0])"),
    ],
)
def test_wl_coref_heads_must_fit_their_spans(tmp_path, word_clusters, message):
    response = fastcoref_file(
        tmp_path,
        {
            "document_id": "(d); part 000",
            "cased_words": ["The", "cat", "sat", "."],
            "span_clusters": [[[0, 2]]],
            "word_clusters": word_clusters,
        },
    )
    result = run("score", key_file(tmp_path), response)
    assert result.exit_code == 1 and message in result.stderr
