"""Every format in every command: the format from the suffix or
--input-format, jsonlines scoring exactly like its CoNLL copy, CoNLL-U
read as word spans, and convert round trips that change no score."""

import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from spacy_coref_eval import CorefInputError
from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.score import DATA
from spacy_coref_eval.formats import format_of
from spacy_coref_eval.formats.corpus import read_corpus, read_side
from tests.conftest import data_path

runner = CliRunner()
KEY, RESPONSE = DATA / "demo.key.conll", DATA / "demo.response.conll"
LITBANK = data_path("corpora", "litbank.key.conll.gz")
GUM = data_path("corpora", "gum-corefud.40docs.conllu.gz")


def run(*args):
    return runner.invoke(app, [str(arg) for arg in args])


def scores(key, response, *options):
    result = run("score", key, response, "-f", "json", *options)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)["metrics"]


@pytest.mark.parametrize(
    "name, fmt",
    [
        ("a.conll", "conll"),
        ("a.gold_conll", "conll"),
        ("a.v4_gold_conll.gz", "conll"),
        ("dir", "conll"),
        ("a.conllu", "conllu"),
        ("a.conllu.gz", "conllu"),
        ("a.jsonlines", "jsonlines"),
        ("a.jsonl", "jsonlines"),
        ("a.spacy", "spacy"),
    ],
)
def test_the_format_comes_from_the_suffix(name, fmt):
    assert format_of(Path(name)).name == fmt
    assert format_of(Path(name), "jsonlines").name == "jsonlines"


def test_an_unknown_format_is_refused():
    with pytest.raises(CorefInputError, match="unknown format 'xml'"):
        format_of("a.conll", "xml")


def test_a_file_that_does_not_fit_its_format_names_the_formats(tmp_path):
    conllu = tmp_path / "gum.txt"
    conllu.write_bytes(
        b"# global.Entity = eid-etype-head-other\n# newdoc id = x\n# sent_id = 1\n"
        b"1\tHi\thi\tINTJ\tUH\t_\t0\troot\t_\tEntity=(e1-person-1-)\n\n"
    )
    result = run("score", conllu, conllu)
    assert result.exit_code == 1
    assert "read as CoNLL-2012; for another format use its suffix or --input-format conll|conllu|jsonlines|spacy" in result.stderr
    assert run("score", conllu, conllu, "--input-format", "conllu").exit_code == 0


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("formats")
    out = {}
    for suffix in ("jsonlines", "spacy", "conllu"):
        path = folder / f"litbank.{suffix}"
        assert run("convert", LITBANK, path).exit_code == 0
        out[suffix] = path
    response = folder / "response.conll"
    from benchmarks.perturb import perturb_corpus
    from spacy_coref_eval.formats.conll.read import read_conll
    from spacy_coref_eval.formats.conll.write import write_conll

    documents = read_conll(LITBANK, with_words=True)
    system = perturb_corpus({n: d.clusters for n, d in documents.items()}, {n: d.n_tokens for n, d in documents.items()}, seed=3)
    write_conll(response, [(n, d.words, system[n], d.sentence_starts) for n, d in documents.items()])
    out["response"] = response
    for suffix in ("jsonlines", "spacy", "conllu"):
        path = folder / f"response.{suffix}"
        assert run("convert", response, path).exit_code == 0
        out[f"response.{suffix}"] = path
    return out


@pytest.mark.slow
def test_jsonlines_litbank_scores_exactly_like_its_conll_copy(converted):
    expected = scores(LITBANK, converted["response"])
    assert scores(LITBANK, converted["response.jsonlines"]) == expected
    assert scores(converted["jsonlines"], converted["response.jsonlines"]) == expected
    assert scores(converted["jsonlines"], converted["response"]) == expected


@pytest.mark.slow
def test_conllu_copies_score_exactly_like_the_conll_files(converted):
    expected = scores(LITBANK, converted["response"])
    assert scores(LITBANK, converted["response.conllu"]) == expected
    assert scores(converted["conllu"], converted["response.jsonlines"]) == expected


@pytest.mark.slow
def test_conllu_files_with_other_sentences_are_refused_naming_the_first(converted):
    """convert joins the sentences a mention crosses, so a key and a
    response converted apart can split the same words differently; two
    CoNLL-U files must have the same sentences, as the CorefUD scorer
    requires."""
    result = run("score", converted["conllu"], converted["response.conllu"])
    assert result.exit_code == 1
    assert "document '(105_persuasion_brat); part 000', sentence 29" in result.stderr
    assert "122 word(s), the key's has 87" in result.stderr


@pytest.mark.slow
def test_convert_round_trips_every_format_without_changing_a_score(converted, tmp_path):
    expected = scores(LITBANK, converted["response"])
    for source in ("response.jsonlines", "response.spacy", "response.conllu"):
        for target in ("conll", "jsonlines", "spacy", "conllu"):
            if source.endswith(target):
                continue
            path = tmp_path / f"{source}.{target}"
            assert run("convert", converted[source], path).exit_code == 0
            assert scores(LITBANK, path) == expected, (source, target)


def test_jsonlines_response_pairs_with_conll_names_by_doc_key(tmp_path):
    converted = tmp_path / "demo.jsonlines"
    assert run("convert", RESPONSE, converted).exit_code == 0
    lines = [json.loads(line) for line in converted.read_text().splitlines()]
    assert [line["doc_key"] for line in lines] == ["(demo/alice); part 000", "(demo/storm); part 000"]
    for line in lines:
        line["doc_key"] = line["doc_key"][1:].replace("); part 000", "_0")
        line["predicted_clusters"] = line.pop("clusters")
    response = tmp_path / "model.jsonlines"
    response.write_text("".join(json.dumps(line) + "\n" for line in reversed(lines)))
    assert scores(KEY, response) == scores(KEY, RESPONSE)
    loaded = read_corpus(KEY, response)
    assert [pair.name for pair in loaded.pairs] == ["(demo/alice); part 000", "(demo/storm); part 000"]
    assert loaded.response_names == ["(demo/storm); part 000", "(demo/alice); part 000"]


@pytest.mark.slow
def test_conllu_is_scored_with_heads_under_every_matching(tmp_path):
    assert scores(GUM, GUM)["muc"]["f1"] == 1.0
    spacy_copy = tmp_path / "gum.spacy"
    assert run("convert", GUM, spacy_copy).exit_code == 0
    for match in ("exact", "head", "partial"):
        got = scores(GUM, spacy_copy, "--match", match, "--response-spans", "coref_clusters_*", "--head-prefix", "coref_head_clusters")
        assert got["muc"]["f1"] == 1.0 and got["mentions"]["f1"] == 1.0, match
    removed = scores(GUM, GUM, "--singletons", "remove", "--match", "head")
    assert removed["mentions"]["recall_den"] < scores(GUM, GUM)["mentions"]["recall_den"]


@pytest.mark.slow
def test_the_corefud_preset_reads_the_head_groups_convert_wrote(tmp_path):
    """convert writes coref_head_clusters_N beside coref_clusters_N: head
    matching uses them without --head-prefix, by both DocBin readers."""
    spacy_copy = tmp_path / "gum.spacy"
    assert run("convert", GUM, spacy_copy).exit_code == 0
    expected = scores(GUM, GUM, "--preset", "corefud")
    assert scores(GUM, spacy_copy, "--preset", "corefud") == expected
    assert scores(spacy_copy, GUM, "--preset", "corefud") == expected
    assert scores(spacy_copy, spacy_copy, "--preset", "corefud", "--response-spans", "coref_clusters_*") == expected
    import spacy

    from spacy_coref_eval.formats.docbin.docs import read_docbin
    from spacy_coref_eval.formats.docbin.spans import PrefixedSpanGroups

    doc = read_docbin(spacy_copy, spacy.blank("en").vocab)[0]
    heads = PrefixedSpanGroups().heads(doc)
    assert heads is not None and len(heads) == len(PrefixedSpanGroups()(doc))
    assert PrefixedSpanGroups(prefix="other").heads(doc) is None


def test_conllu_bridging_is_counted_in_one_warning():
    result = run("score", GUM, GUM)
    assert result.stderr.count("Bridge=") == 1
    assert "296 Bridge= and 48 SplitAnte= annotation(s) read past" in result.stderr


@pytest.mark.slow
def test_convert_writes_conllu_that_keeps_heads_and_says_what_it_joined(tmp_path):
    spacy_copy, conllu = tmp_path / "gum.spacy", tmp_path / "gum.conllu"
    assert run("convert", GUM, spacy_copy).exit_code == 0
    result = run("convert", spacy_copy, conllu, "--head-prefix", "coref_head_clusters")
    assert result.exit_code == 0, result.stderr
    for match in ("exact", "head"):
        got = scores(spacy_copy, conllu, "--match", match, "--key-spans", "coref_clusters_*", "--head-prefix", "coref_head_clusters")
        assert got["muc"]["f1"] == 1.0 and got["mentions"]["f1"] == 1.0
    key = tmp_path / "key.conll"
    key.write_text("#begin document d\nd\t0\t0\ta\t(0\n\nd\t0\t1\tb\t0)\nd\t0\t2\tc\t(0)\n\n#end document\n")
    result = run("convert", key, tmp_path / "k.conllu")
    assert result.exit_code == 0
    assert "1 sentence break(s) inside mentions dropped" in result.stderr
    assert scores(key, tmp_path / "k.conllu") == scores(key, key)


def test_convert_to_a_gz_name_writes_gzip_that_scores_like_the_plain_file(tmp_path):
    expected = scores(DATA / "demo.key.conll", DATA / "demo.response.conll")
    for suffix in ("jsonlines", "conllu", "spacy", "conll"):
        source = tmp_path / "r.jsonlines" if suffix == "conll" else DATA / "demo.response.conll"
        plain, zipped = tmp_path / f"r.{suffix}", tmp_path / f"r.{suffix}.gz"
        for target in (plain, zipped, zipped):
            first = zipped.read_bytes() if target.exists() else None
            result = runner.invoke(app, ["convert", str(source), str(target)])
            assert result.exit_code == 0, result.output
        assert zipped.read_bytes() == first
        assert zipped.read_bytes()[:2] == b"\x1f\x8b"
        assert gzip.decompress(zipped.read_bytes()) == plain.read_bytes()
        assert scores(DATA / "demo.key.conll", zipped) == expected, suffix


def test_spacy_input_keeps_its_sentences_through_convert(tmp_path):
    key = DATA / "demo.key.conll"
    docbin, back, jsonlines = tmp_path / "k.spacy", tmp_path / "k.conll", tmp_path / "k.jsonlines"
    for source, target in ((key, docbin), (docbin, back), (docbin, jsonlines)):
        result = runner.invoke(app, ["convert", str(source), str(target)])
        assert result.exit_code == 0, result.output
    original = read_side(key).documents
    assert any(len(document.sentence_starts) > 1 for document in original)
    for converted in (back, jsonlines):
        again = read_side(converted).documents
        assert [list(d.sentence_starts) for d in again] == [list(d.sentence_starts) for d in original]
