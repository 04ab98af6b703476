"""The text2text format (CRAC 2025 LLM-track tagged text): the banded word
alignment against clean's full table, the diff against a naive LCS, the
tag repair, MoveHead heads, and the official pipeline's mentions and
numbers on the GUM fixture (tests/data/text2text/PROVENANCE.md)."""

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

from spacy_coref_eval import Settings
from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats.conllu.read import parse_conllu
from spacy_coref_eval.formats.corpus import read_corpus
from spacy_coref_eval.formats.text2text.align import align_words
from spacy_coref_eval.formats.text2text.diff import map_words, matched_pairs
from spacy_coref_eval.formats.text2text.heads import Trees
from spacy_coref_eval.formats.text2text.tags import TagCounts, sentence_mentions
from spacy_coref_eval.scoring import score_pairs
from tests.support.strategies import deterministic
from tests.support.text2text_data import GUM, VARIANTS, expected, gold_lines, headed_key, mention_digest, variant_text

METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mor")


def clean_table(response, key):
    """text2text-coref clean's word alignment, its full O(n·m) table and
    backtrack, written from its description (docs/formats.md)."""
    m, n = len(response), len(key)
    dp = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(m + 1):
        dp[i][0] = i
    for j in range(n + 1):
        dp[0][j] = j
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if response[i - 1].startswith("##"):
                dp[i][j] = dp[i - 1][j]
            elif response[i - 1] == key[j - 1]:
                dp[i][j] = dp[i - 1][j - 1]
            else:
                dp[i][j] = 1 + min(dp[i - 1][j], dp[i][j - 1], dp[i - 1][j - 1])
    source, zeros, counts = [-1] * n, [], [0, 0, 0]
    i, j = m, n
    while i > 0 and j > 0:
        if response[i - 1].startswith("##"):
            zeros.append((i - 1, j))
            i -= 1
        elif response[i - 1] == key[j - 1]:
            source[j - 1] = i - 1
            i, j = i - 1, j - 1
        elif dp[i][j] == dp[i - 1][j - 1] + 1:
            counts[2] += 1
            i, j = i - 1, j - 1
        elif dp[i][j] == dp[i - 1][j] + 1:
            counts[1] += 1
            i -= 1
        else:
            counts[0] += 1
            j -= 1
    counts[0] += j
    leading = i - sum(word.startswith("##") for word in response[:i])
    return source, sorted(zeros, key=lambda z: (z[1], z[0])), counts, leading


@st.composite
def edited(draw, vocabulary=("a", "b", "c", "d"), zeros=("##", "##x")):
    key = draw(st.lists(st.sampled_from(vocabulary), max_size=40))
    response = list(key)
    for _ in range(draw(st.integers(0, 12))):
        at = draw(st.integers(0, len(response)))
        op = draw(st.sampled_from(("insert", "delete", "replace")))
        word = draw(st.sampled_from(vocabulary + zeros))
        if op == "insert":
            response.insert(at, word)
        elif response:
            at = min(at, len(response) - 1)
            if op == "delete":
                del response[at]
            else:
                response[at] = word
    return key, response


@deterministic(max_examples=300)
@given(edited())
def test_the_banded_alignment_is_clean_s_full_table(case):
    key, response = case
    source, zeros, (inserted, deleted, replaced), leading = clean_table(response, key)
    got = align_words(response, key)
    assert got.source.tolist() == source
    assert list(got.zeros) == zeros
    assert (got.inserted, got.deleted - got.leading, got.replaced, got.leading) == (inserted, deleted, replaced, leading)


def test_a_long_document_with_many_edits_is_cut_into_pieces(monkeypatch):
    from spacy_coref_eval.formats.text2text import align

    rng = np.random.default_rng(7)
    key = [f"w{k}" for k in rng.integers(0, 500, size=3000)]
    response = list(key)
    for at in sorted(rng.choice(len(key), size=60, replace=False).tolist(), reverse=True):
        response[at] = "changed"
    whole = align_words(response, key)
    monkeypatch.setattr(align, "MAX_CELLS", 1000)
    pieces = align_words(response, key)
    assert (pieces.inserted, pieces.deleted, pieces.replaced) == (whole.inserted, whole.deleted, whole.replaced) == (0, 0, 60)
    assert np.array_equal(pieces.source, whole.source)


def lcs(a, b):
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            table[i + 1][j + 1] = table[i][j] + 1 if x == y else max(table[i][j + 1], table[i + 1][j])
    return table[-1][-1]


@deterministic(max_examples=300)
@given(edited(zeros=()))
def test_the_diff_is_a_common_subsequence_no_longer_than_an_lcs(case):
    key, response = case
    ids = {w: k for k, w in enumerate(sorted(set(key) | set(response)))}
    i, j = matched_pairs(np.array([ids[w] for w in key], dtype=np.int64), np.array([ids[w] for w in response], dtype=np.int64))
    assert np.all(np.diff(i) > 0) and np.all(np.diff(j) > 0)
    assert all(key[a] == response[b] for a, b in zip(i.tolist(), j.tolist()))
    best = lcs(key, response)
    assert len(i) <= best
    if key == response:
        assert len(i) == best == len(key)
    words = map_words(key, response)
    assert len(key) == len(i) + words.replaced + words.inserted
    assert len(response) == len(i) + words.replaced + words.deleted


@pytest.mark.parametrize(
    "tokens, mentions, counts",
    [
        (["So", "you|[e1]", "go"], [("e1", 1, 1)], (0, 0, 0, 0)),
        (["to|[e4", "the|[e5", "feet|e4],e5]"], [("e4", 0, 2), ("e5", 1, 2)], (0, 0, 0, 0)),
        (["a|[e4", "b", "c|e5]"], [("e5", 2, 2)], (0, 0, 1, 1)),
        (["a|[e12x", "b|e12]"], [("e12", 0, 1)], (0, 0, 0, 0)),
        (["a|[e1]-[e2]", "b|[E1", "c|(e1)", "d|e1", "e|[ent1]"], [("e1", 0, 0)], (4, 0, 0, 0)),
        (["a|[e1|x", "b|e1]"], [("e1", 1, 1)], (0, 2, 1, 0)),
        (["a|[e01", "b|e1]"], [("e1", 1, 1)], (0, 0, 1, 1)),
        (["B|[e5,e5]"], [("e5", 0, 0)], (0, 0, 0, 0)),
        (["x|e1],[e1"], [("e1", 0, 0)], (0, 0, 1, 1)),
        ([None, "b|e3]"], [("e3", 1, 1)], (0, 0, 1, 0)),
    ],
)
def test_tags_are_repaired_as_clean_repairs_them(tokens, mentions, counts):
    found = TagCounts()
    assert sentence_mentions(tokens, found) == mentions
    assert (found.invalid, found.pipes, found.stray, found.unclosed) == counts


TREE = """# global.Entity = eid-etype-head
# newdoc id = d
# sent_id = 1
1	the	the	DET	_	_	2	det	2:det	_
2	dog	dog	NOUN	_	_	5	nsubj	5:nsubj	_
3	of	of	ADP	_	_	4	case	4:case	_
4	mine	mine	PRON	_	_	2	nmod	2:nmod	_
5	barked	bark	VERB	_	_	0	root	0:root	_
6	loudly	loudly	ADV	_	_	5	advmod	5:advmod	_

"""


@pytest.mark.parametrize("first, last, head", [(0, 0, 0), (0, 3, 1), (2, 3, 3), (0, 1, 1), (1, 2, 1), (3, 5, 4), (2, 5, 4)])
def test_heads_follow_the_key_s_tree_as_movehead_chooses_them(first, last, head):
    document = next(iter(parse_conllu(TREE).documents.values()))
    assert Trees(document).head(first, last) == head


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    folder = tmp_path_factory.mktemp("t2t")
    (folder / "gum_headed.conllu").write_text(headed_key(), encoding="utf-8")
    for name in VARIANTS:
        (folder / f"{name}.t2t.txt").write_text(variant_text(name), encoding="utf-8")
    return folder, {"gum": GUM, "gum_headed": folder / "gum_headed.conllu"}


class Corpora(dict):
    """The corpus of each (variant, key), read when first asked for (about
    a CPU-second each), so that the inner loop reads only those its tests use."""

    def __init__(self, folder, paths):
        super().__init__()
        self.folder, self.paths = folder, paths

    def __missing__(self, item):
        name, key = item
        self[item] = read_corpus(self.paths[key], self.folder / f"{name}.t2t.txt")
        return self[item]


@pytest.fixture(scope="module")
def corpora(keys):
    return Corpora(*keys)


EXPECTED = expected()


@pytest.mark.parametrize(
    "name, key",
    [
        # the headed key with the edited variants is slow, as their scores below
        pytest.param(name, key, id=f"{key}-{name}", marks=() if key == "gum" or name in ("unchanged", "insert") else (pytest.mark.slow,))
        for key in ("gum", "gum_headed")
        for name in VARIANTS
    ],
)
def test_the_mentions_are_text2conllu_s(corpora, name, key):
    ours = [mention_digest(pair.response) for pair in corpora[name, key].pairs]
    assert ours == EXPECTED[name]["mentions"][key]


def _score_cases():
    for name in VARIANTS:
        for key, modes in EXPECTED[name]["scores"].items():
            for mode in modes:
                marks = [] if name in ("unchanged", "insert") else [pytest.mark.slow]
                yield pytest.param(name, key, mode, marks=marks, id=f"{name}-{key}-{mode}")


@pytest.mark.parametrize("name, key, mode", list(_score_cases()))
def test_the_scores_equal_the_official_pipeline_s(corpora, name, key, mode):
    match, _, singletons = mode.partition("+")
    options = Settings.from_options(METRICS, match, singletons="keep" if singletons else "remove", preset="corefud")
    got = score_pairs(corpora[name, key].pairs, options).metrics()
    official = EXPECTED[name]["scores"][key][mode]
    for metric in METRICS:
        for rate in ("recall", "precision", "f1"):
            assert math.isclose(got[metric][rate], official[metric][rate], rel_tol=1e-9, abs_tol=1e-12), (metric, rate)


def test_unchanged_text_scores_100_under_head_matching(corpora):
    got = score_pairs(corpora["unchanged", "gum"].pairs, Settings.from_options(METRICS, "head", preset="corefud")).metrics()
    assert got["conll"]["f1"] == 1.0


@pytest.mark.parametrize("name", VARIANTS)
def test_the_report_counts_the_words_clean_counts(corpora, name):
    reports = [corpora[name, "gum"].alignment.get(pair.name) for pair in corpora[name, "gum"].pairs]
    for report, logged in zip(reports, EXPECTED[name]["clean_word_problems"]):
        ours = (0, 0, 0) if report is None else (report.inserted, report.deleted, report.replaced)
        assert ours[0] == logged["insert"] and ours[2] == logged["replace"]
        assert ours[1] >= logged["delete"]


@pytest.mark.parametrize(
    "name, field, injected",
    [("insert", "deleted", "inserted_words"), ("delete", "inserted", "deleted_words"), ("replace", "replaced", "replaced_words")],
)
def test_the_report_counts_the_injected_edits(corpora, name, field, injected):
    reports = corpora[name, "gum"].alignment
    assert sum(getattr(report, field) for report in reports.values()) == EXPECTED[name]["totals"]["injected"][injected]


def test_the_report_counts_the_repaired_tags_and_dropped_mentions(corpora):
    reports = corpora["broken_tags", "gum"].alignment.values()
    totals = EXPECTED["broken_tags"]["totals"]
    assert sum(r.repaired for r in reports) >= totals["clean_invalid_tags"] + totals["clean_mismatched_parentheses"]
    assert sum(r.dropped for r in reports) >= totals["clean_unclosed_left"]
    assert not any(report.changed() for report in corpora["unchanged", "gum"].alignment.values())


def test_a_response_with_fewer_lines_than_key_documents_is_one_line(tmp_path):
    response = tmp_path / "short.t2t.txt"
    response.write_text("".join(line + "\n" for line in gold_lines()[:39]), encoding="utf-8")
    with pytest.raises(CorefInputError, match=r"\(40 documents\).*\(39 documents\).*paired by order") as err:
        read_corpus(GUM, response)
    assert "\n" not in str(err.value)


def test_a_response_with_more_lines_than_key_documents_is_one_line(tmp_path):
    response = tmp_path / "long.t2t"
    response.write_text("".join(line + "\n" for line in gold_lines() + ["one more"]), encoding="utf-8")
    with pytest.raises(CorefInputError, match=r"\(40 documents\).*\(41 documents\)"):
        read_corpus(GUM, response)


def test_a_converted_conll_response_scores_like_its_source(tmp_path):
    from spacy_coref_eval.cli.score import DATA
    from spacy_coref_eval.formats.corpus import read_side
    from spacy_coref_eval.formats.text2text.write import write_side

    source = read_side(DATA / "demo.response.conll")
    converted = tmp_path / "demo.t2t"
    write_side(converted, source.documents, [])
    settings = Settings.from_options(METRICS, "exact")
    ours = score_pairs(read_corpus(DATA / "demo.key.conll", converted).pairs, settings).metrics()
    theirs = score_pairs(read_corpus(DATA / "demo.key.conll", DATA / "demo.response.conll").pairs, settings).metrics()
    assert ours == theirs


def test_an_unparseable_tag_is_one_warning_line(tmp_path):
    lines = gold_lines()
    lines[2] = lines[2].replace("|[e1]", "|[x1]", 1)
    response = tmp_path / "bad.txt"
    response.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    corpus = read_corpus(GUM, response, formats=(None, "text2text"))
    notes = [w for w in corpus.warnings if "cannot be parsed" in w]
    assert len(notes) == 1 and f"{response}:3:" in notes[0] and "'[x1]'" in notes[0]


def test_convert_writes_what_conllu2text_writes(tmp_path):
    from click.testing import CliRunner

    from spacy_coref_eval.cli import app

    out = tmp_path / "gum.txt"
    result = CliRunner().invoke(app, ["convert", str(GUM), str(out), "--output-format", "text2text"])
    assert result.exit_code == 0, result.output
    ours = out.read_text(encoding="utf-8").split("\n")[:-1]
    assert [renamed(line) for line in ours] == [renamed(line) for line in gold_lines()]


def renamed(line):
    """A tagged line with its entities renumbered by their mentions (so
    that two numberings of one partition compare equal) and each word's tags
    sorted again."""
    stacks, mentions = {}, []
    tokens = [token.partition("|") for token in line.split(" ")]
    for position, (_, _, tags) in enumerate(tokens):
        for tag in tags.split(",") if tags else []:
            eid = tag.strip("[]")
            if tag.startswith("["):
                stacks.setdefault(eid, []).append(position)
            if tag.endswith("]"):
                mentions.append((eid, stacks[eid].pop(), position))
    entities = {}
    for eid, first, last in mentions:
        entities.setdefault(eid, []).append((first, last))
    number = {eid: str(k) for k, (_, eid) in enumerate(sorted((sorted(spans), eid) for eid, spans in entities.items()))}
    out = []
    for form, _, tags in tokens:
        new = sorted(tag.replace(tag.strip("[]"), "e" + number[tag.strip("[]")]) for tag in tags.split(",")) if tags else []
        out.append(form + ("|" + ",".join(new) if new else ""))
    return " ".join(out)


TWO_DOCUMENTS = """# global.Entity = eid-etype-head
# newdoc id = a
# sent_id = a1
1	x	x	X	_	_	0	root	0:root	_
2	y	y	X	_	_	1	dep	1:dep	_

# newdoc id = b
# sent_id = b1
1	p	p	X	_	_	0	root	0:root	_
2	q	q	X	_	_	1	dep	1:dep	_
3	r	r	X	_	_	1	dep	1:dep	_

"""


@pytest.mark.parametrize(
    "first, second, entities, header",
    [
        ("x y", "p|[e10],[e9] q r|[e9]", [[(0, 1)], [(0, 1), (2, 3)]], "eid-etype-head"),
        ("x y", "p|[e9],[e10] q r|[e9]", [[(0, 1)], [(0, 1), (2, 3)]], "eid-etype-head"),
        ("x|[e9] y|[e9]", "p|[e10],[e9] q r|[e10]", [[(0, 1)], [(0, 1), (2, 3)]], "eid-etype-head"),
        ("x|[e9] y|[e9]", "p|[e1],[e9] q r|[e1]", [[(0, 1)], [(0, 1), (2, 3)]], "eid-etype-head"),
        ("x y|[e1] y", "p|[e1],[e9] q r|[e1]", [[(0, 1), (2, 3)], [(0, 1)]], "eid-etype-head"),
        ("x|[e9] y|[e9]", "p|[e1],[e9] q r|[e1]", [[(0, 1), (2, 3)], [(0, 1)]], "GRP-etype-head"),
    ],
)
def test_entities_are_in_udapi_s_order_across_the_file(tmp_path, first, second, entities, header):
    """A span in two entities: the scorer counts it in the last of them in
    udapi's order, by first mention in the whole file (an id of an earlier
    line first, unless the key's ids are ``GRP``, per document), then by id
    as a string (``e10`` before ``e9``)."""
    (tmp_path / "key.conllu").write_text(TWO_DOCUMENTS.replace("eid-etype-head", header), encoding="utf-8")
    (tmp_path / "response.t2t").write_text(f"{first}\n{second}\n", encoding="utf-8")
    response = read_corpus(tmp_path / "key.conllu", tmp_path / "response.t2t").pairs[1].response.memberships
    got = {}
    for m in range(len(response)):
        got.setdefault(int(response.entity[m]), []).append((int(response.starts[m]), int(response.ends[m])))
    assert [got[e] for e in sorted(got)] == entities


@pytest.mark.parametrize(
    "header, entities", [("eid-etype-head", [[(0, 1)], [(0, 1), (2, 3)]]), ("GRP-etype-head", [[(0, 1), (2, 3)], [(0, 1)]])]
)
def test_the_conllu_reader_orders_grp_ids_per_document(tmp_path, header, entities):
    """What text2conllu's output is read as: with ``eid`` ids ``e9`` of the
    first document comes first in the second; with ``GRP`` ids udapi
    prefixes each document's ids, so ``e1`` comes first (as a string)."""
    key = TWO_DOCUMENTS.replace("eid-etype-head", header)
    response = key.replace("1\tx\tx\tX\t_\t_\t0\troot\t0:root\t_", "1\tx\tx\tX\t_\t_\t0\troot\t0:root\tEntity=(e9)")
    response = response.replace("1\tp\tp\tX\t_\t_\t0\troot\t0:root\t_", "1\tp\tp\tX\t_\t_\t0\troot\t0:root\tEntity=(e1)(e9)")
    response = response.replace("3\tr\tr\tX\t_\t_\t1\tdep\t1:dep\t_", "3\tr\tr\tX\t_\t_\t1\tdep\t1:dep\tEntity=(e1)")
    (tmp_path / "key.conllu").write_text(key, encoding="utf-8")
    (tmp_path / "response.conllu").write_text(response, encoding="utf-8")
    clusters = read_corpus(tmp_path / "key.conllu", tmp_path / "response.conllu").pairs[1].response.memberships
    got = {}
    for m in range(len(clusters)):
        got.setdefault(int(clusters.entity[m]), []).append((int(clusters.starts[m]), int(clusters.ends[m])))
    assert [got[e] for e in sorted(got)] == entities
