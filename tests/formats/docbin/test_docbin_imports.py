"""``.spacy`` input is decoded without importing spaCy (issue #21): spaCy
comes in only when words or token attributes are needed."""

import json
import subprocess
import sys

import pytest
from spacy.vocab import Vocab

from spacy_coref_eval import read_conll
from spacy_coref_eval.formats.docbin.docs import conll_to_docs, write_docbin
from tests.conftest import REPO

DATA = REPO / "spacy_coref_eval" / "data"
HEAVY = ("spacy", "thinc")


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


def imported_by(code: str) -> tuple[str, str]:
    """What ``code`` printed in a fresh process, and which of
    :data:`HEAVY` it had imported by the end."""
    result = run(code + f"\nprint(','.join(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)\n")
    assert result.returncode == 0, result.stderr
    return result.stdout, result.stderr.strip()


def score_code(*argv: object) -> str:
    """Code running ``spacy-coref-eval score ARGV -f json`` in the process."""
    return (
        "import sys\n"
        "from spacy_coref_eval.cli import main\n"
        f"sys.argv = {['spacy-coref-eval', 'score', *map(str, argv), '-f', 'json']!r}\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as stop:\n"
        "    assert not stop.code, stop.code\n"
    )


@pytest.fixture(scope="module")
def docbins(tmp_path_factory):
    folder = tmp_path_factory.mktemp("docbins")
    paths = []
    for side in ("key", "response"):
        path = folder / f"demo.{side}.spacy"
        write_docbin(path, conll_to_docs(read_conll(DATA / f"demo.{side}.conll", with_words=True).values(), Vocab()))
        paths.append(path)
    return paths


def test_the_record_reader_imports_no_spacy():
    code = "import sys\nimport spacy_coref_eval.formats.docbin.records, spacy_coref_eval.formats.docbin.spans"
    assert imported_by(code) == ("", "")


def test_score_of_two_docbins_imports_neither_spacy_nor_thinc(docbins):
    from_docbins, heavy = imported_by(score_code(*docbins))
    assert heavy == ""
    from_conll = run(score_code(DATA / "demo.key.conll", DATA / "demo.response.conll")).stdout
    assert json.loads(from_docbins) == json.loads(from_conll)


def test_words_import_spacy_when_asked_for(docbins):
    code = (
        "import sys\n"
        "from spacy_coref_eval.formats.docbin.records import read_docbin_records\n"
        f"records = read_docbin_records({str(docbins[0])!r})\n"
        "before = 'spacy' in sys.modules\n"
        "words = records[0].words[:3]\n"
        "print(before, 'spacy' in sys.modules, words)\n"
    )
    result = run(code)
    assert result.returncode == 0, result.stderr
    first = next(iter(read_conll(DATA / "demo.key.conll", with_words=True).values()))
    assert result.stdout.strip() == f"False True {first.words[:3]}"
