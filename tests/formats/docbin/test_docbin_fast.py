"""The DocBin record reader against spaCy's own reading (``DocBin.get_docs``
then :func:`doc_clusters`): LitBank, generated docs, older layouts, and
damaged files, which must end in a one-line :class:`CorefInputError`."""

import re
import struct
import zlib
from dataclasses import dataclass
from itertools import islice
from typing import Callable, Optional

import numpy as np
import pytest
import spacy.attrs
import srsly
from click.testing import CliRunner
from hypothesis import given, strategies as st
from spacy.attrs import HEAD, ORTH
from spacy.tokens import Doc, DocBin, Span
from spacy.vocab import Vocab

from spacy_coref_eval import CorefInputError
from spacy_coref_eval.cli import app
from spacy_coref_eval.formats.docbin import names
from spacy_coref_eval.formats.docbin.docs import NAME_KEY, conll_to_doc, write_docbin
from spacy_coref_eval.formats.docbin.records import check_docbin, decode_docbin_records, read_docbin_records
from spacy_coref_eval.formats.docbin.roots import span_roots
from spacy_coref_eval.formats.docbin.spans import doc_clusters
from spacy_coref_eval.model.clusters import Clusters
from spacy_coref_eval.pipeline.registrations import labeled_span_group, prefixed_span_groups
from tests.support.litbank import litbank
from tests.support.strategies import deterministic

HEAD_PREFIX = "coref_head_clusters"
READERS = [
    prefixed_span_groups(),
    prefixed_span_groups(head_prefix=HEAD_PREFIX),
    prefixed_span_groups("sc"),
    labeled_span_group("mentions", "id_"),
    labeled_span_group("mentions", "label_"),
    labeled_span_group("mentions", "kb_id_"),
    labeled_span_group("absent"),
]
SPAN = ">QQQllll"


def spacy_docs(data: bytes) -> list[Doc]:
    return list(DocBin(store_user_data=True).from_bytes(data).get_docs(Vocab()))


def outcome(work: Callable[[], object]) -> tuple[str, object]:
    try:
        return "ok", work()
    except CorefInputError as err:
        return "CorefInputError", str(err)
    except (IndexError, KeyError, ValueError, RuntimeError) as err:
        return type(err).__name__, str(err)


def assert_same_clusters(fast: Clusters, slow: Clusters) -> None:
    for attr in ("starts", "ends", "entity"):
        assert getattr(fast, attr).tolist() == getattr(slow, attr).tolist(), attr
    assert (fast.n_entities, fast.repeated) == (slow.n_entities, slow.repeated)
    assert (fast.heads is None) == (slow.heads is None)
    if slow.heads is not None:
        assert fast.heads.tolist() == slow.heads.tolist()


def assert_same_docs(data: bytes, reader, heads: Optional[bool], token_attrs: bool = False, docs: Optional[list[Doc]] = None) -> None:
    """The records of ``data`` match spaCy's ``docs`` (read from ``data``
    when not given); where spaCy fails on a doc, the record reader fails
    with a CorefInputError."""
    docs = spacy_docs(data) if docs is None else docs
    slow = [outcome(lambda doc=doc: doc_clusters(doc, reader, heads)) for doc in docs]
    failures = [index for index, (kind, _) in enumerate(slow) if kind != "ok"]
    if failures:
        with pytest.raises(CorefInputError, match=rf"^mem\.spacy: document index {failures[0]}: "):
            decode_docbin_records(data, "mem.spacy", reader, heads=heads, token_attrs=token_attrs)
        return
    records = decode_docbin_records(data, "mem.spacy", reader, heads=heads, token_attrs=token_attrs)
    assert len(records) == len(docs)
    for index, (record, doc, (_, clusters)) in enumerate(zip(records, docs, slow)):
        name = doc.user_data.get(NAME_KEY)
        assert record.index == index
        assert record.name == (name if isinstance(name, str) else None)
        assert record.words == [token.text for token in doc]
        assert record.spaces.tolist() == [bool(token.whitespace_) for token in doc]
        assert record.text == doc.text
        assert len(record) == len(doc)
        sentenced = len(doc) and doc.has_annotation("SENT_START")
        assert record.sentence_starts == ([sentence.start for sentence in doc.sents] if sentenced else [0])
        starts, ends = record.token_offsets()
        assert starts.tolist() == [token.idx for token in doc]
        assert ends.tolist() == [token.idx + len(token) for token in doc]
        assert record.span_groups == tuple(doc.spans)
        assert_same_clusters(record.clusters, clusters)
        if token_attrs:
            assert record.pos == [token.pos_ for token in doc]
            assert record.tags == [token.tag_ for token in doc]
            assert record.morphs == [str(token.morph) for token in doc]
        else:
            assert record.pos is record.tags is record.morphs is None


# LitBank -------------------------------------------------------------------

N_LITBANK = 12


@pytest.fixture(scope="module")
def litbank_files(tmp_path_factory):
    """The first LitBank documents and a perturbed system response, as
    ``.spacy`` files made by ``conll_to_doc``."""
    corpus = litbank()
    documents = list(islice(corpus.documents.values(), N_LITBANK))
    vocab = Vocab()
    folder = tmp_path_factory.mktemp("litbank")
    key_docs, response_docs = [], []
    for document in documents:
        key_docs.append(conll_to_doc(document, vocab))
        response = conll_to_doc(document, vocab)
        for group in list(response.spans):
            del response.spans[group]
        for number, entity in enumerate(corpus.system[document.name].entities(), 1):
            response.spans[f"coref_clusters_{number}"] = [response[s:e] for s, e in entity]
        response_docs.append(response)
    write_docbin(folder / "key.spacy", key_docs)
    write_docbin(folder / "response.spacy", response_docs)
    return documents, folder / "key.spacy", folder / "response.spacy"


@pytest.mark.parametrize("side", ["key", "response"])
def test_litbank_records_match_spacy_docs(litbank_files, side):
    documents, key_path, response_path = litbank_files
    path = key_path if side == "key" else response_path
    data = path.read_bytes()
    for heads in (None, True):
        assert_same_docs(data, prefixed_span_groups(), heads)
    records = read_docbin_records(path)
    assert [record.name for record in records] == [document.name for document in documents]
    assert [record.words for record in records] == [document.words for document in documents]
    if side == "key":
        for record, document in zip(records, documents):
            assert_same_clusters(record.clusters, document.clusters)


def test_litbank_key_and_response_have_the_same_text(litbank_files):
    _, key_path, response_path = litbank_files
    for key, response in zip(read_docbin_records(key_path), read_docbin_records(response_path)):
        assert key.same_text(response)
        assert key.text == response.text


# Generated docs --------------------------------------------------------------

WORDS = ["a", "Anna", "ça", "日本語", "🙂", "NOUN", "nsubj", "ROOT", "mark", " ", "\n", ".", "x" * 9]
STRINGS = ["", "", "PER", "é", "e1", "e2", "日本"]
DEPS = ["nsubj", "dep", "ROOT", "punct", "ñ"]
POS = ["NOUN", "VERB", "X", "PUNCT"]
TAGS = ["NN", "VB", "Ñ"]
MORPHS = ["Number=Sing", "Case=Nom|Number=Plur", "Foo=Bar"]
GROUP_NAMES = ["mentions", "sc", "sc_1", "coref_clusters_x", "ñame"]


@dataclass
class DocSpec:
    words: list[str]
    spaces: Optional[list[bool]]
    parse: str
    sent_starts: Optional[list[Optional[bool]]]
    heads: list[int]
    deps: list[str]
    pos: Optional[list[str]]
    tags: Optional[list[str]]
    morphs: Optional[list[str]]
    groups: list[tuple[str, list[tuple[int, int, str, str, str]]]]
    user_data: str
    name: object


@st.composite
def doc_specs(draw):
    n = draw(st.integers(0, 10))
    words = draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n))
    spaces = draw(st.one_of(st.none(), st.lists(st.booleans(), min_size=n, max_size=n)))
    parse = draw(st.sampled_from(["none", "full", "heads only"])) if n else "none"
    sent_starts = None
    if parse == "none":
        sent_starts = draw(st.one_of(st.none(), st.lists(st.sampled_from([True, False, None]), min_size=n, max_size=n)))
    order = draw(st.permutations(range(n)))
    picks = draw(st.lists(st.integers(0, 99), min_size=n, max_size=n))
    heads = list(range(n))
    for k, token in enumerate(order):
        if k and picks[k] % 4:
            heads[token] = order[picks[k] % k]
    deps = [DEPS[pick % len(DEPS)] for pick in picks]

    def optional(values):
        return draw(st.one_of(st.none(), st.lists(st.sampled_from(values), min_size=n, max_size=n)))

    pos, tags, morphs = optional(POS), optional(TAGS), optional(MORPHS)
    span = st.tuples(
        st.integers(0, max(n - 1, 0)), st.integers(1, 4), st.sampled_from(STRINGS), st.sampled_from(STRINGS), st.sampled_from(STRINGS)
    ).map(lambda t: (t[0], min(t[0] + t[1], n), t[2], t[3], t[4]))
    spans = st.lists(span, max_size=5) if n else st.just([])
    numbers = draw(st.lists(st.sampled_from(["0", "1", "2", "01", "10"]), unique=True, max_size=4))
    groups = [(f"coref_clusters_{number}", draw(spans)) for number in numbers]
    head_mode = draw(st.sampled_from(["matching", "matching", "random", "none"]))
    for number, (_, group) in zip(numbers, list(groups)):
        if head_mode == "matching" or (head_mode == "random" and draw(st.booleans())):
            size = len(group) if head_mode == "matching" else draw(st.integers(0, 3))
            groups.append((f"{HEAD_PREFIX}_{int(number)}", draw(st.lists(span, min_size=size, max_size=size))))
    for name in draw(st.lists(st.sampled_from(GROUP_NAMES), unique=True, max_size=3)):
        groups.append((name, draw(spans)))
    groups = draw(st.permutations(groups))
    user_data = draw(st.sampled_from(["none", "name", "name and more"]))
    name = draw(st.sampled_from(["doc (part 1)", "ñame", "", 7]))
    return DocSpec(words, spaces, parse, sent_starts, heads, deps, pos, tags, morphs, list(groups), user_data, name)


def make_doc(vocab: Vocab, spec: DocSpec) -> Doc:
    parse = {"heads": spec.heads, "deps": spec.deps} if spec.parse == "full" else {}
    doc = Doc(
        vocab, words=spec.words, spaces=spec.spaces, pos=spec.pos, tags=spec.tags, morphs=spec.morphs, sent_starts=spec.sent_starts, **parse
    )
    if spec.parse == "heads only":
        relative = np.array([head - i for i, head in enumerate(spec.heads)], dtype=np.int64)
        doc.from_array(["HEAD"], relative.astype(np.uint64).reshape(-1, 1))
    for name, spans in spec.groups:
        doc.spans[name] = [Span(doc, s, e, label=label, kb_id=kb, span_id=sid) for s, e, label, kb, sid in spans]
    if spec.user_data != "none":
        doc.user_data[NAME_KEY] = spec.name
    if spec.user_data == "name and more":
        doc.user_data[("._.", "extra", None, None)] = [1, 2]
        doc.user_data["array"] = np.arange(3)
    return doc


def docbin_bytes(specs: list[DocSpec], store_user_data: bool) -> bytes:
    vocab = Vocab()
    return DocBin(store_user_data=store_user_data, docs=[make_doc(vocab, spec) for spec in specs]).to_bytes()


def to_list_layout(data: bytes) -> bytes:
    """The span groups of every doc as spaCy < 3.4 wrote them: a list of
    group bytes, each keyed by its name."""
    msg = srsly.msgpack_loads(zlib.decompress(data))
    for index, groups in enumerate(msg["span_groups"]):
        decoded = srsly.msgpack_loads(groups)
        if isinstance(decoded, dict):
            msg["span_groups"][index] = srsly.msgpack_dumps(list(decoded))
    return zlib.compress(srsly.msgpack_dumps(msg))


@deterministic(80)
@given(specs=st.lists(doc_specs(), min_size=1, max_size=3), store=st.booleans(), legacy=st.booleans())
def test_generated_docbins_read_as_spacy_reads_them(specs, store, legacy):
    data = docbin_bytes(specs, store)
    if legacy:
        data = to_list_layout(data)
    docs = spacy_docs(data)
    for reader in READERS:
        for heads in (None, True, False):
            assert_same_docs(data, reader, heads, token_attrs=heads is None, docs=docs)


@deterministic(20)
@given(specs=st.lists(doc_specs(), min_size=1, max_size=2))
def test_other_readers_get_spacy_docs(specs):
    def first_tokens(doc: Doc):
        return [[doc[i : i + 1]] for i in range(0, len(doc), 3)]

    assert_same_docs(docbin_bytes(specs, True), first_tokens, None)


def test_group_keys_follow_spacy_order_when_groups_are_equal():
    doc = Doc(Vocab(), words=["a", "b", "c"])
    doc.spans["coref_clusters_2"] = [doc[0:1]]
    doc.spans["mentions"] = [doc[1:2]]
    doc.spans["coref_clusters_1"] = doc.spans["coref_clusters_2"]
    data = DocBin(docs=[doc]).to_bytes()
    [record] = decode_docbin_records(data, "mem.spacy")
    expected = ("coref_clusters_2", "coref_clusters_1", "mentions")
    assert record.span_groups == tuple(spacy_docs(data)[0].spans) == expected
    assert record.clusters.entities() == (((0, 1),),)
    assert record.clusters.repeated == 1


def test_span_ids_missing_from_the_string_table_group_by_hash():
    """spaCy 3.5.0-3.5.1 wrote span ids without their strings."""
    doc = Doc(Vocab(), words=["a", "b", "c", "d"])
    doc.spans["mentions"] = [
        Span(doc, 0, 1, span_id="id-A"),
        Span(doc, 1, 2, span_id="id-B"),
        Span(doc, 2, 3, span_id="id-A"),
        Span(doc, 3, 4),
    ]
    data = DocBin(docs=[doc]).to_bytes()
    expected = doc_clusters(spacy_docs(data)[0], labeled_span_group("mentions"))
    msg = srsly.msgpack_loads(zlib.decompress(data))
    msg["strings"] = [s for s in msg["strings"] if not s.startswith("id-")]
    stripped = zlib.compress(srsly.msgpack_dumps(msg))
    [record] = decode_docbin_records(stripped, "mem.spacy", labeled_span_group("mentions"))
    assert_same_clusters(record.clusters, expected)
    assert record.clusters.entities() == (((0, 1), (2, 3)), ((1, 2),), ((3, 4),))


def test_old_files_without_flags_user_data_or_span_groups():
    doc = Doc(Vocab(), words=["a", "b"], spaces=[False, False])
    doc.spans["coref_clusters_1"] = [doc[0:1]]
    msg = srsly.msgpack_loads(zlib.decompress(DocBin(docs=[doc, doc]).to_bytes()))
    msg["span_groups"][1] = b""
    data = zlib.compress(srsly.msgpack_dumps(msg))
    records = decode_docbin_records(data, "mem.spacy")
    assert [r.span_groups for r in records] == [("coref_clusters_1",), ()]
    for key in ("flags", "span_groups"):
        del msg[key]
    [first, _] = decode_docbin_records(zlib.compress(srsly.msgpack_dumps(msg)), "mem.spacy")
    assert (first.name, first.text, first.span_groups, len(first.clusters)) == (None, "ab", (), 0)


def test_span_roots_follow_span_root_rules():
    def roots(absolute_heads, spans):
        relative = np.array(absolute_heads, dtype=np.int64) - np.arange(len(absolute_heads))
        starts, ends = (np.array(side, dtype=np.int64) for side in zip(*spans))
        return span_roots(relative, starts, ends).tolist()

    chain = [1, 2, 3, 3]
    assert roots(chain, [(0, 2), (0, 4), (1, 2), (2, 2), (0, 1)]) == [1, 3, 1, 2, 0]
    assert roots([2, 2, 2], [(0, 2)]) == [0]
    assert roots([3, 2, 3, 3], [(0, 2), (1, 3)]) == [0, 2]
    assert roots([2, 3, 3, 3], [(0, 2)]) == [1]


# Damaged files --------------------------------------------------------------


def base_bytes() -> bytes:
    vocab = Vocab()
    docs = []
    for number in range(2):
        doc = Doc(
            vocab,
            words=["The", "cat", "sat", "on", "the", "mat", "."],
            heads=[1, 2, 2, 2, 5, 3, 2],
            deps=["det", "nsubj", "ROOT", "prep", "det", "pobj", "punct"],
        )
        doc.spans["coref_clusters_1"] = [doc[0:2], doc[4:6]]
        doc.user_data[NAME_KEY] = f"doc {number}"
        docs.append(doc)
    return DocBin(store_user_data=True, docs=docs).to_bytes()


def edited(change: Callable[[dict], None]) -> bytes:
    msg = srsly.msgpack_loads(zlib.decompress(base_bytes()))
    change(msg)
    return zlib.compress(srsly.msgpack_dumps(msg))


def lengths(*values: int) -> bytes:
    return np.array(values, dtype="int32").tobytes()


def set_span(start: int, end: int, doc: int = 1) -> Callable[[dict], None]:
    def change(msg):
        groups = srsly.msgpack_loads(msg["span_groups"][doc])
        [(value, keys)] = groups.items()
        group = srsly.msgpack_loads(value)
        group["spans"][1] = struct.pack(SPAN, 0, 0, 0, start, end, 0, 0)
        msg["span_groups"][doc] = srsly.msgpack_dumps({srsly.msgpack_dumps(group): keys})

    return change


def set_tokens(column: int, token: int, value: int) -> Callable[[dict], None]:
    def change(msg):
        tokens = np.frombuffer(msg["tokens"], dtype="uint64").reshape(-1, len(msg["attrs"])).copy()
        tokens[token, msg["attrs"].index(column)] = value
        msg["tokens"] = tokens.tobytes()

    return change


def drop_string(text: str) -> Callable[[dict], None]:
    def change(msg):
        msg["strings"].remove(text)

    return change


def set_field(key: str, value, doc: Optional[int] = None) -> Callable[[dict], None]:
    def change(msg):
        if doc is None:
            msg[key] = value
        else:
            msg[key][doc] = value

    return change


def cut_span_record(msg):
    groups = srsly.msgpack_loads(msg["span_groups"][1])
    [(value, keys)] = groups.items()
    group = srsly.msgpack_loads(value)
    group["spans"][0] = group["spans"][0][:-1]
    msg["span_groups"][1] = srsly.msgpack_dumps({srsly.msgpack_dumps(group): keys})


def key_not_a_string(msg):
    groups = srsly.msgpack_loads(msg["span_groups"][1])
    [(value, _)] = groups.items()
    msg["span_groups"][1] = srsly.msgpack_dumps({value: [7]})


def head_cycle(msg):
    """Doc 1's root (token 2) and token 3 become each other's heads: the
    mention 'The cat' (0-2) needs token 1 -> 2 -> 3 -> 2 ..."""
    set_tokens(HEAD, 9, np.uint64(1))(msg)
    set_tokens(HEAD, 10, np.uint64(2**64 - 1))(msg)


DAMAGED = {
    "span past the end": (set_span(0, 1000), 1, r"span \(0, 1000\) is outside the document \(7 tokens\)"),
    "reversed span": (set_span(5, 2), 1, r"span \(5, 2\) is reversed"),
    "negative start": (set_span(-1, 2), 1, r"span \(-1, 2\) is outside"),
    "empty mention": (set_span(3, 3), 1, r"mention \(3, 3\) is empty"),
    "word missing from the string table": (drop_string("mat"), 0, r"token 5: text hash \d+ is missing"),
    "empty word": (set_tokens(ORTH, 8, 0), 1, r"token 1: has no text"),
    "head outside the document": (set_tokens(HEAD, 7, 20), 1, r"token 0: dependency head 20 is outside"),
    "head cycle": (head_cycle, 1, r"form a cycle"),
    "user data not msgpack": (set_field("user_data", srsly.msgpack_dumps({}) + b"\x01", 1), 1, r"damaged user data"),
    "user data not a map": (set_field("user_data", srsly.msgpack_dumps([1, 2]), 1), 1, r"not a map"),
    "span record cut short": (cut_span_record, 1, r"40-byte records"),
    "span groups not msgpack": (set_field("span_groups", b"\xc1", 1), 1, r"damaged span groups"),
    "flags not a map": (set_field("flags", 3, 1), 1, r"'flags' entry is a int"),
    "span group key not a string": (key_not_a_string, 1, r"a key is not a string"),
}
FILE_LEVEL = {
    "lengths do not add up": (set_field("lengths", lengths(7, 8)), r"sum of the document lengths"),
    "negative length": (set_field("lengths", lengths(-7, 21)), r"negative length"),
    "spaces for other tokens": (set_field("spaces", b"\x01" * 13), r"13 spaces for 14 tokens"),
    "span groups for fewer docs": (set_field("span_groups", [b""]), r"one entry per document \(2\), found 1"),
    "string table not strings": (set_field("strings", [1, 2]), r"string table is not a list of strings"),
    "attrs without ORTH": (set_field("attrs", [HEAD]), r"lacks ORTH"),
    "tokens missing": (set_field("tokens", None), r"'tokens' is missing"),
}


@pytest.mark.parametrize("case", sorted(DAMAGED))
def test_damaged_document_names_file_and_index(tmp_path, case):
    change, index, detail = DAMAGED[case]
    path = tmp_path / "damaged.spacy"
    path.write_bytes(edited(change))
    with pytest.raises(CorefInputError) as caught:
        for record in read_docbin_records(path):
            record.words
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: document index {index}: ")
    assert caught.match(detail)


def test_text_hashes_are_looked_up_only_for_the_words(tmp_path):
    """Scoring needs no string: a text hash missing from the string table
    is an error once the words of its doc are read, not before."""
    path = tmp_path / "damaged.spacy"
    path.write_bytes(edited(drop_string("mat")))
    records = read_docbin_records(path)
    assert [record.clusters.entities() for record in records] == [(((0, 2), (4, 6)),)] * 2
    assert records[0].same_tokens(records[1])
    with pytest.raises(CorefInputError, match=rf"^{re.escape(str(path))}: document index 1: token 5: text hash"):
        records[1].words


@pytest.mark.parametrize("case", sorted(FILE_LEVEL))
def test_damaged_file_names_file(tmp_path, case):
    change, detail = FILE_LEVEL[case]
    path = tmp_path / "damaged.spacy"
    path.write_bytes(edited(change))
    with pytest.raises(CorefInputError) as caught:
        read_docbin_records(path)
    assert str(caught.value).startswith(f"{path}: damaged DocBin: ")
    assert "\n" not in str(caught.value)
    assert caught.match(detail)


@pytest.mark.parametrize(
    "data, detail",
    [
        (b"not zlib", "not zlib-compressed"),
        (zlib.compress(b"\xc1"), "damaged msgpack"),
        (zlib.compress(srsly.msgpack_dumps([1])), "no field table"),
    ],
)
def test_not_a_docbin(tmp_path, data, detail):
    path = tmp_path / "other.spacy"
    path.write_bytes(data)
    expected = rf"^{re.escape(str(path))}: not a spaCy DocBin \(\.spacy\) file \({detail}"
    with pytest.raises(CorefInputError, match=expected):
        read_docbin_records(path)


def test_missing_file(tmp_path):
    with pytest.raises(CorefInputError, match="cannot read file"):
        read_docbin_records(tmp_path / "absent.spacy")


def test_damaged_files_fail_the_same_with_other_readers(tmp_path):
    path = tmp_path / "damaged.spacy"
    path.write_bytes(edited(set_span(0, 1000)))
    with pytest.raises(CorefInputError, match=r"document index 1: span group 'coref_clusters_1'"):
        read_docbin_records(path, lambda doc: [list(doc.spans["coref_clusters_1"])])


def test_head_cycle_only_matters_where_a_span_needs_it():
    data = edited(head_cycle)
    records = decode_docbin_records(data, "mem.spacy", heads=False)
    assert records[1].clusters.heads is None
    with pytest.raises(CorefInputError, match="document index 1"):
        decode_docbin_records(data, "mem.spacy")


def test_undamaged_base_reads_with_heads():
    records = decode_docbin_records(base_bytes(), "mem.spacy")
    assert [r.name for r in records] == ["doc 0", "doc 1"]
    assert records[0].clusters.heads.tolist() == [1, 5]
    assert_same_docs(base_bytes(), prefixed_span_groups(), None)


def test_attribute_ids_are_spacys():
    for name in ("ORTH", "POS", "TAG", "DEP", "HEAD", "SENT_START", "MORPH"):
        assert getattr(names, name) == getattr(spacy.attrs, name), name


WHOLE_FILE_CASES = {**{case: (change, detail) for case, (change, _, detail) in DAMAGED.items()}, **FILE_LEVEL}


@pytest.mark.parametrize("case", sorted(WHOLE_FILE_CASES))
def test_check_before_spacy_reads_a_damaged_file(tmp_path, case):
    """What ``evaluate`` should call before spaCy's ``Corpus`` reads the
    file: one line naming the file (and the doc), for damage that spaCy
    meets loading the doc or building its spans."""
    change, detail = WHOLE_FILE_CASES[case]
    path = tmp_path / "damaged.spacy"
    path.write_bytes(edited(change))
    if case == "head cycle":
        assert check_docbin(path, prefixed_span_groups()) == 2
        return
    with pytest.raises(CorefInputError) as caught:
        check_docbin(path, prefixed_span_groups() if case == "empty mention" else None)
    assert str(caught.value).startswith(f"{path}: ")
    assert "\n" not in str(caught.value)
    assert caught.match(detail)


def test_check_passes_an_undamaged_file(tmp_path):
    path = tmp_path / "base.spacy"
    path.write_bytes(base_bytes())
    assert check_docbin(path) == check_docbin(path, prefixed_span_groups()) == 2


@pytest.mark.parametrize("case", sorted(WHOLE_FILE_CASES))
def test_export_of_a_damaged_file_is_one_line(tmp_path, case):
    change, detail = WHOLE_FILE_CASES[case]
    path, out = tmp_path / "damaged.spacy", tmp_path / "out.conll"
    path.write_bytes(edited(change))
    result = CliRunner().invoke(app, ["export", str(path), str(out)])
    assert result.exit_code == 1, result.output
    assert result.output.count("\n") == 1
    assert result.output.startswith(f"✘ {path}: ")
    assert re.search(detail, result.output)
    assert not out.exists()
