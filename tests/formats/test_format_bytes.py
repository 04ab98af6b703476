"""Readers read bytes handed to them (issue #30): a single-file format is a
``parse`` function on a file's bytes, and opening it (``.gz``, size
limits, line lengths) lives in one place, :mod:`spacy_coref_eval.formats.inputs`
through :class:`~spacy_coref_eval.formats.base.Opened`."""

import ast
import gzip

import pytest

from spacy_coref_eval import CorefInputError
from spacy_coref_eval.formats.base import Opened, ReadOptions
from spacy_coref_eval.formats.corpus import read_side
from spacy_coref_eval.formats.inputs import InputLimits
from spacy_coref_eval.formats.registry import registered_formats
from tests.conftest import REPO

DATA = REPO / "tests" / "data"
SOURCE = DATA / "demo-shards" / "key.part1.conll"
ANNOTATION = DATA / "annotation"
EXPORTS = {
    "prodigy": ANNOTATION / "alice.prodigy.jsonl",
    "doccano": ANNOTATION / "alice.doccano.jsonl",
    "labelstudio": ANNOTATION / "alice.labelstudio.json",
}
PACKAGE = REPO / "spacy_coref_eval"
OPENERS = {
    "formats/inputs.py": "the one opener: open_input, read_input, input_text, input_head, gzip_size",
    "formats/stream.py": "the streamed path: indexes a file and reads byte ranges of it, within the same limits",
}
"""The modules under ``formats/`` that may open a file themselves, and why."""

PARSED = [fmt for fmt in registered_formats(plugins=False) if fmt.parse is not None]


def summary(side):
    """What a reader gave: the format, each document's name, entities and
    length, and the warnings."""
    documents = [(d.name, d.clusters.entities(), d.n_tokens) for d in side.documents]
    return side.format.name, documents, side.warnings


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A file of every format with a ``parse``: the demo key written in
    it, or an annotation tool's export from tests/data."""
    folder = tmp_path_factory.mktemp("bytes")
    source = read_side(SOURCE, options=ReadOptions("key"))
    out = {}
    for fmt in PARSED:
        if fmt.name in EXPORTS:
            out[fmt.name] = EXPORTS[fmt.name]
            continue
        suffix = (fmt.suffixes[0] if fmt.suffixes else ".jsonl").lstrip(".")
        path = folder / f"demo.{fmt.name}.{suffix}"
        assert fmt.write is not None, f"{fmt.name}: no file to read"
        fmt.write(path, source.documents, [SOURCE])
        out[fmt.name] = path
    return out


def test_every_single_file_format_but_conll_reads_through_the_opener():
    assert {fmt.name for fmt in PARSED} >= {
        "conllu",
        "jsonlines",
        "spacy",
        "ua",
        "text2text",
        "indiscrim",
        "fastcoref",
        "maverick",
        "wl-coref",
        "mention-strings",
        "labelstudio",
        "prodigy",
        "doccano",
    }
    for fmt in PARSED:
        # CoNLL-2012 reads a directory too; it opens a file with the same read_input
        assert isinstance(fmt.read, Opened) or fmt.name == "conll", fmt.name


@pytest.mark.parametrize("fmt", PARSED, ids=lambda fmt: fmt.name)
def test_parsing_a_files_bytes_is_reading_the_file(fmt, files):
    path = files[fmt.name]
    options = ReadOptions("key")
    read = fmt.read(path, options)
    assert summary(fmt.parse(path.read_bytes(), path, options)) == summary(read)
    assert read.documents and any(d.clusters.entities() for d in read.documents)


@pytest.mark.parametrize("fmt", PARSED, ids=lambda fmt: fmt.name)
def test_a_gzipped_file_reads_the_same(fmt, files, tmp_path):
    path = files[fmt.name]
    zipped = tmp_path / (path.name + ".gz")
    zipped.write_bytes(gzip.compress(path.read_bytes(), mtime=0))
    options = ReadOptions("key")
    read, unzipped = summary(fmt.read(zipped, options)), summary(fmt.read(path, options))
    assert read[:2] == unzipped[:2]
    assert read[2] == [w.replace(str(path), str(zipped)) for w in unzipped[2]]


@pytest.mark.parametrize("zipped", [False, True], ids=["plain", "gz"])
@pytest.mark.parametrize("fmt", PARSED, ids=lambda fmt: fmt.name)
def test_a_file_over_the_size_limit_is_one_line_naming_it(fmt, files, tmp_path, zipped):
    path = files[fmt.name]
    data = path.read_bytes()
    if zipped:
        path = tmp_path / (path.name + ".gz")
        path.write_bytes(gzip.compress(data, mtime=0))
    limits = InputLimits(max_input_bytes=len(data) - 1)
    with pytest.raises(CorefInputError) as caught:
        fmt.read(path, ReadOptions("key", limits=limits))
    message = str(caught.value)
    assert message.startswith(f"{path}: larger than the maximum input size ({len(data) - 1} bytes")
    assert "\n" not in message


def opened_by(tree):
    """The calls of ``tree`` that open or read a file: ``open(...)``,
    ``X.open(...)`` (``gzip.open``, ``Path.open``), ``X.read_bytes()``,
    ``X.read_text()``."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "open":
            yield node.lineno, "open"
        elif isinstance(func, ast.Attribute) and func.attr in ("open", "read_bytes", "read_text"):
            yield node.lineno, func.attr


def test_no_reader_opens_a_file_but_the_opener():
    found = []
    for path in sorted((PACKAGE / "formats").rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        if name in OPENERS:
            continue
        found += [f"{name}:{line}: {call}" for line, call in opened_by(ast.parse(path.read_text(encoding="utf-8")))]
    assert found == [], "open files through spacy_coref_eval.formats.inputs (or base.Opened)"
    for name in OPENERS:
        assert list(opened_by(ast.parse((PACKAGE / name).read_text(encoding="utf-8")))), f"{name}: allowed for nothing"
