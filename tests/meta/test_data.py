"""tests/data: complete, documented, and equal to where it was copied from."""

import hashlib
import json
import re

import pytest

from tests.conftest import DATA, REPO, SHARED

COPIES = ("conformance", "corpora")
EXCERPTS = ("litbank-coref",)
"""Unchanged files of a public repository at one commit, each listed with
its git blob hash in the folder's README."""
NOT_DATA = {"README.md", ".gitattributes", "GUM.md"}


def data_files():
    return sorted(
        path.relative_to(DATA).as_posix()
        for path in DATA.rglob("*")
        if path.is_file() and path.name not in NOT_DATA and "__pycache__" not in path.parts
    )


def test_every_case_of_expected_json_has_its_files():
    cases = json.loads((DATA / "conformance" / "expected.json").read_text())["cases"]
    needed = {case[side] for case in cases.values() for side in ("key", "response")}
    assert len(cases) == 43
    assert [name for name in sorted(needed) if not (DATA / "conformance" / name).is_file()] == []


def test_every_data_folder_is_described_in_the_readme():
    readme = (DATA / "README.md").read_text(encoding="utf8")
    described = set(re.findall(r"^\| `([^`]+)`", readme, flags=re.MULTILINE))
    undescribed = [
        name for name in data_files() if not any(name == entry or name.startswith(entry.rstrip("/") + "/") for entry in described)
    ]
    assert undescribed == []


def test_every_file_is_a_copy_or_a_demo_shard():
    made_here = ("demo-shards", "corefud-rerun", "text2text", "ua", "coval", "hf_coval", "indiscrim", "annotation")
    assert [name for name in data_files() if name.split("/")[0] not in COPIES + EXCERPTS + made_here] == []


def git_blob(path):
    """The hash git gives the file's content (``git hash-object``)."""
    data = path.read_bytes()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@pytest.mark.parametrize("folder", EXCERPTS)
def test_excerpts_are_the_files_their_readme_lists(folder):
    readme = (DATA / folder / "README.md").read_text(encoding="utf8")
    listed = dict(re.findall(r"^\| `([^`]+)` \| [0-9]+ \| `([0-9a-f]{40})` \|$", readme, flags=re.MULTILINE))
    files = [name.split("/", 1)[1] for name in data_files() if name.split("/")[0] == folder]
    assert files and {name: git_blob(DATA / folder / name) for name in files} == listed


@pytest.mark.parametrize("side, short", [("key", "key"), ("response", "sys")])
def test_demo_shards_are_the_demo_split_by_document(side, short):
    parts = [(DATA / "demo-shards" / f"{short}.part{i}.conll").read_bytes() for i in (1, 2)]
    assert all(part.startswith(b"#begin document") for part in parts)
    assert all(part.count(b"#begin document") == 1 for part in parts)
    assert b"".join(parts) == (REPO / "spacy_coref_eval" / "data" / f"demo.{side}.conll").read_bytes()


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"no shared data folder at {SHARED} (optional)")
def test_copies_equal_the_shared_data():
    copies = [name for name in data_files() if name.split("/")[0] in COPIES]
    assert copies
    missing = [name for name in copies if not (SHARED / name).is_file()]
    differ = [name for name in copies if name not in missing and (DATA / name).read_bytes() != (SHARED / name).read_bytes()]
    assert (missing, differ) == ([], [])
