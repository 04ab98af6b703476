"""Streaming CoNLL-U (docs/streaming.md §3): each batch read with the eids
of the documents before it gives every document as the whole file gives
it, so that runs streamed at any budget give the whole-file bytes, on GUM
(``GRP`` and ``eid`` headers, default and ``corefud`` presets), on the
random CorefUD fixtures (eids reused across documents) and on random
files read document by document."""

import gzip
import json
import random

import numpy as np
import pytest
from hypothesis import given, strategies as st

from spacy_coref_eval.errors import CorefInputError
from spacy_coref_eval.formats import stream
from spacy_coref_eval.formats.conllu import side as conllu_side
from spacy_coref_eval.formats.conllu.read import read_conllu
from spacy_coref_eval.formats.registry import format_of
from tests.conftest import data_path
from tests.formats.test_stream import assert_same, outcome, scored
from tests.support.conllu_generator import mention_chunks
from tests.support.strategies import deterministic, limits_env, patched

pytestmark = pytest.mark.usefixtures("stream_files_of_any_size")

GUM = data_path("corpora", "gum-corefud.40docs.conllu.gz")
FIXTURES = json.loads(gzip.decompress(data_path("corefud-rerun", "random_fixtures.json.gz").read_bytes()))["cases"]


@pytest.fixture(scope="module")
def gum_pairs(tmp_path_factory):
    """GUM and its perturbed response, as released (``GRP`` ids: each
    document's entity order is its own) and with ``eid`` ids (the order
    depends on the documents before)."""
    from benchmarks.run import gum_response

    folder = tmp_path_factory.mktemp("gum")
    response = gum_response(folder)
    pairs = {"GRP": (GUM, response)}
    texts = gzip.open(GUM, "rt", encoding="utf8").read(), response.read_text(encoding="utf8")
    pairs["eid"] = tuple(folder / f"{role}.eid.conllu" for role in ("key", "response"))
    for path, text in zip(pairs["eid"], texts):
        path.write_text(text.replace("# global.Entity = GRP-", "# global.Entity = eid-"), encoding="utf8")
    return pairs


READ_BATCH = conllu_side.read_batch


def without_seen(data, path, seen):
    """:func:`~.conllu.side.read_batch` forgetting the documents before."""
    return READ_BATCH(data, path, None if seen is None else {})


@pytest.mark.parametrize(
    "ids, preset",
    [
        # about 2 CPU-s each: one (the order of eids depends on the documents
        # before, the corefud preset keeps copies by that order) in the inner loop
        pytest.param(ids, preset, id=f"{preset}-{ids}", marks=() if (ids, preset) == ("eid", "corefud") else (pytest.mark.slow,))
        for ids in ("GRP", "eid")
        for preset in (None, "corefud")
    ],
)
def test_gum_streamed_gives_the_whole_file_bytes(gum_pairs, ids, preset):
    for budget, n_process in ((1, 1), (150_000, 1), (150_000, 2), (16 << 20, 1)):
        assert assert_same(*gum_pairs[ids], budget, n_process=n_process, preset=preset)


def test_without_the_documents_before_eid_files_score_otherwise(gum_pairs):
    """The check above has teeth: a batch read alone orders reused eids
    otherwise, and the corefud preset then keeps other copies of repeated
    node sets."""
    whole = scored(*gum_pairs["eid"], False, preset="corefud")
    with limits_env(batch_bytes=1), patched(conllu_side, "read_batch", without_seen):
        alone = scored(*gum_pairs["eid"], True, preset="corefud")
    assert alone[2] and alone[0] != whole[0]


def test_gum_warning_is_added_up_from_the_batches(gum_pairs):
    warning = scored(*gum_pairs["GRP"], False)[1]
    assert any("Bridge=" in note for note in warning)
    with limits_env(batch_bytes=1):
        assert scored(*gum_pairs["GRP"], True)[1] == warning


def test_eid_files_read_out_of_file_order_are_read_whole(gum_pairs, tmp_path):
    key, response = gum_pairs["eid"]
    text = response.read_text(encoding="utf8")
    documents = text.split("# newdoc id")
    shuffled = tmp_path / "shuffled.conllu"
    shuffled.write_text("# newdoc id".join([documents[0], *documents[1:][::-1]]), encoding="utf8")
    assert not assert_same(key, shuffled, 1)
    grp_key, grp_response = gum_pairs["GRP"]
    shuffled.write_text(shuffled.read_text(encoding="utf8").replace("Entity = eid-", "Entity = GRP-"), encoding="utf8")
    assert assert_same(grp_key, shuffled, 1)


ORDERED = ("case020", "case022", "case027", "case047", "case113", "case119")
"""The fixtures whose documents, each read alone, score otherwise."""
CASES = [
    pytest.param(case, id=case["id"], marks=() if i % 4 == 0 or case["id"] in ORDERED else (pytest.mark.slow,))
    for i, case in enumerate(FIXTURES)
]


def write_case(case, folder):
    key, response = folder / "key.conllu", folder / "response.conllu"
    key.write_text(case["key"], encoding="utf8")
    response.write_text(case["response"], encoding="utf8")
    return key, response


@pytest.mark.parametrize("case", CASES)
def test_random_corefud_fixtures_streamed_give_the_whole_file_bytes(case, tmp_path):
    paths = write_case(case, tmp_path)
    for preset in (None, "corefud"):
        for budget in (1, 1500):
            assert assert_same(*paths, budget, preset=preset)


@pytest.mark.parametrize("case", [case for case in FIXTURES if case["id"] in ORDERED], ids=lambda case: case["id"])
def test_these_fixtures_need_the_documents_before(case, tmp_path):
    paths = write_case(case, tmp_path)
    differ = []
    for preset in (None, "corefud"):
        whole = scored(*paths, False, preset=preset)
        with limits_env(batch_bytes=1), patched(conllu_side, "read_batch", without_seen):
            differ.append(scored(*paths, True, preset=preset)[:2] != whole[:2])
    assert any(differ)


FIELDS = "eid-etype-head-other".split("-")


@st.composite
def conllu_documents(draw, header: str):
    """A CoNLL-U file of one to five documents whose eids (seven) recur
    across documents; the ``# global.Entity`` line in the first document
    only, or in every one."""
    every = draw(st.booleans())
    lines = []
    for d in range(draw(st.integers(1, 5))):
        lines.append(f"# newdoc id = d{d}")
        if every or not d:
            lines.append(f"# global.Entity = {header}")
        for s in range(draw(st.integers(1, 3))):
            lines.append(f"# sent_id = d{d}s{s}")
            n_words = draw(st.integers(1, 6))
            chunks = draw(mention_chunks(header.split("-"), n_words, False))
            for w, chunk in enumerate(chunks, 1):
                misc = f"Entity={chunk}" if chunk else "_"
                lines.append("\t".join([str(w), "w", "_", "X", "_", "_", "0", "_", "_", misc]))
            lines.append("")
    return "\n".join(lines) + "\n"


@given(conllu_documents("eid-etype-head-other"), st.randoms(use_true_random=False))
@deterministic(150, shrink=False)
def test_batches_read_with_the_eids_before_give_every_document_as_the_whole_file(tmp_path_factory, text, rng):
    """Random consecutive batches of a random file, each read with the
    eids of the batches before: every document field by field as in the
    whole file (entity order and mention entities included)."""
    path = tmp_path_factory.mktemp("docs") / "f.conllu"
    path.write_text(text, encoding="utf8")
    try:
        whole = list(read_conllu(path).documents.values())
    except CorefInputError as err:
        whole = err
    index = stream.index_file(path, format_of(path), path.parent)
    assert index.seen == {}
    n = len(index.entries)
    cuts = sorted(rng.sample(range(1, n), rng.randint(0, n - 1))) if n > 1 else []
    read = []
    for start, stop in zip([0, *cuts], [*cuts, n]):
        try:
            side, _ = conllu_side.read_batch(index.read(list(range(start, stop))), path, index.seen)
        except CorefInputError:
            assert isinstance(whole, CorefInputError)
            return
        read += [document.document for document in side.documents]
    assert not isinstance(whole, CorefInputError)
    assert len(read) == len(whole)
    for a, b in zip(read, whole):
        assert a.entities == b.entities and np.array_equal(a.mention_entity, b.mention_entity), a.name
        for column in ("mention_start", "mention_end", "mention_words", "mention_empty"):
            x, y = getattr(a, column), getattr(b, column)
            assert np.array_equal(x, y) if isinstance(y, np.ndarray) else x == y, column


def test_a_grp_file_reads_each_document_alone(tmp_path):
    rng = random.Random(0)
    index = stream.index_file(GUM, format_of(GUM), tmp_path)
    assert index.seen is None
    whole = list(read_conllu(GUM).documents.values())
    for i in rng.sample(range(len(index.entries)), 5):
        side, _ = conllu_side.read_batch(index.read([i]), GUM, None)
        assert side.documents[0].document.entities == whole[i].entities
    with pytest.raises(ValueError, match="GRP"):
        conllu_side.read_batch(index.read([3]), GUM, {})


@pytest.mark.parametrize("ids", ["GRP", "eid"])
def test_score_command_prints_the_same_bytes_streamed(gum_pairs, ids):
    from click.testing import CliRunner

    from spacy_coref_eval.cli import app

    outputs = []
    for budget, n_process in ((0, 1), (1 << 18, 1), (1 << 18, 2)):
        argv = ["score", *map(str, gum_pairs[ids]), "--per-doc", "--preset", "corefud", "--n-process", str(n_process)]
        with limits_env(batch_bytes=budget):
            result = CliRunner().invoke(app, argv)
        assert result.exit_code == 0, result.output
        outputs.append(result.output)
    assert outputs[0] == outputs[1] == outputs[2]


def test_bad_input_in_a_later_batch_gives_the_whole_file_error(gum_pairs, tmp_path):
    key, response = gum_pairs["eid"]
    text = response.read_text(encoding="utf8")
    last = text.rindex("# newdoc id")
    bad = tmp_path / "bad.conllu"
    bad.write_text(text[:last] + text[last:].replace("\n1\t", "\n7\t", 1), encoding="utf8")
    whole = outcome(key, bad, False)
    assert whole[1] is None and "ID 7 where word 1 is due" in whole[0]
    with limits_env(batch_bytes=1 << 18):
        assert outcome(key, bad, True) == whole
