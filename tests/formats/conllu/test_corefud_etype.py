"""Entity types (CorefUD ``etype``) kept on entities: read from CoNLL-U,
carried through subsets and stacking, written back by ``convert``."""

import numpy as np
from click.testing import CliRunner

from spacy_coref_eval.cli import app
from spacy_coref_eval.formats.conllu.nodes import node_clusters, node_order
from spacy_coref_eval.formats.conllu.read import parse_conllu, read_conllu
from spacy_coref_eval.model.clusters import Clusters
from tests.conftest import data_path

TEXT = """# newdoc id = d
# global.Entity = eid-etype-head-other
# sent_id = d-1
1	Anna	_	_	_	_	_	_	_	Entity=(e1-person-1)
2	met	_	_	_	_	_	_	_	_
3	the	_	_	_	_	_	_	_	Entity=(e2--2
4	dog	_	_	_	_	_	_	_	Entity=e2)
5	.	_	_	_	_	_	_	_	_

# sent_id = d-2
1	She	_	_	_	_	_	_	_	Entity=(e1-person-1)
2	fed	_	_	_	_	_	_	_	_
3	it	_	_	_	_	_	_	_	Entity=(e2-animal-1)
4	here	_	_	_	_	_	_	_	Entity=(e3-1)

"""


def _clusters(text):
    document = parse_conllu(text, "t.conllu").documents["d"]
    return node_clusters(document, node_order(document))


def test_each_entity_has_the_etype_of_its_first_mention_giving_one():
    clusters = _clusters(TEXT.replace("(e3-1)", "(e3--1)"))
    assert clusters.etypes.tolist() == ["person", "animal", None]


def test_types_follow_subsets_and_stacking():
    clusters = _clusters(TEXT.replace("(e3-1)", "(e3--1)"))
    kept = clusters.subset(clusters.entity != 0)
    assert kept.etypes.tolist() == ["animal", None]
    stacked, _ = Clusters.stack([clusters, Clusters.from_entities([[(0, 1)]])], [0, 20])
    assert stacked.etypes.tolist() == ["person", "animal", None, None]


def test_clusters_without_types_have_none():
    assert Clusters.from_entities([[(0, 1), (2, 3)]]).etypes is None
    assert _clusters(TEXT.replace("-person-", "--").replace("-animal-", "--").replace("(e3-1)", "(e3--1)")).etypes is None


def test_convert_writes_the_types_back(tmp_path):
    """The GUM documents without empty nodes (convert refuses to turn a
    .conllu.gz with empty nodes into a .conllu: they would become words)."""
    import gzip
    import re

    text = gzip.open(data_path("corpora", "gum-corefud.40docs.conllu.gz"), "rt", encoding="utf8").read()
    header = next(line for line in text.splitlines() if line.startswith("# global.Entity"))
    documents = ["# newdoc id" + d for d in text.split("# newdoc id")[1:]]
    kept = [d for d in documents if not re.search(r"^\d+\.\d+\t", d, re.M)]
    assert len(kept) > 30
    source = tmp_path / "gum.conllu.gz"
    body = "".join(kept)
    source.write_bytes(gzip.compress((body if header in body else body.replace("\n", f"\n{header}\n", 1)).encode()))
    target = tmp_path / "gum.conllu"
    result = CliRunner().invoke(app, ["convert", str(source), str(target)])
    assert result.exit_code == 0, result.output
    before = read_conllu(source).documents
    after = read_conllu(target).documents
    assert list(before) == list(after)
    for name in before:
        types_before = node_clusters(before[name], node_order(before[name])).etypes
        types_after = node_clusters(after[name], node_order(after[name])).etypes
        assert types_before.tolist() == types_after.tolist() and any(types_before)
    assert np.any([line.startswith("# global.Entity = eid-etype") for line in target.read_text().splitlines()])
