"""The alignment report says how every aligned document was paired with
its key document (by name or by order), per document and in total, in the
JSON and the HTML report."""

import json

from click.testing import CliRunner

from spacy_coref_eval.cli import app
from spacy_coref_eval.formats.corpus import read_corpus

runner = CliRunner()
KEY = "#begin document (d{n}); part 000\nd\t0\t0\tThe\t(0\nd\t0\t1\tcat\t0)\nd\t0\t2\tsat\t-\nd\t0\t3\t.\t-\n\n#end document\n"


def files(tmp_path, named):
    key = tmp_path / "key.conll"
    key.write_text("".join(KEY.format(n=n) for n in range(3)), encoding="utf-8")
    response = tmp_path / "response.jsonl"
    lines = [
        {**({"doc_key": f"(d{n}); part 000"} if named else {}), "text": "The cat  sat.", "clusters": [[[0, 7], [9, 12]]]} for n in range(3)
    ]
    response.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return key, response


def test_named_documents_are_reported_paired_by_name_and_unnamed_by_order(tmp_path):
    for named, how in ((True, "name"), (False, "order")):
        key, response = files(tmp_path, named)
        corpus = read_corpus(key, response)
        assert [report.paired for report in corpus.alignment.values()] == [how] * 3
        result = runner.invoke(app, ["score", str(key), str(response), "-f", "json"])
        assert result.exit_code == 0, result.stderr
        alignment = json.loads(result.stdout)["alignment"]
        assert alignment["total"]["paired"] == {"name": 3 * named, "order": 3 * (not named)}
        assert {document["paired"] for document in alignment["documents"].values()} == {how}


def test_pairing_by_order_when_asked_is_reported_so(tmp_path):
    key, response = files(tmp_path, True)
    corpus = read_corpus(key, response, pair_by="order")
    assert [report.paired for report in corpus.alignment.values()] == ["order"] * 3


def test_the_html_section_counts_the_pairing(tmp_path):
    key, response = files(tmp_path, True)
    page = tmp_path / "report.html"
    result = runner.invoke(app, ["report", str(key), str(response), "-o", str(page)])
    assert result.exit_code == 0, result.stderr
    assert "Documents paired with the key&#x27;s: 3 by name." in page.read_text(encoding="utf-8")
