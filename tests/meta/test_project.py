"""The weasel / spaCy project (project.yml) runs offline on the bundled sample."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from weasel.util import load_project_config

from spacy_coref_eval import read_conll, score_documents
from spacy_coref_eval.cli.score import DATA
from spacy_coref_eval.report.json import score_json
from tests.conftest import REPO

pytestmark = pytest.mark.slow

SAMPLE = ("demo.key.conll", "demo.response.conll")
PROJECT_FILES = ("project.yml", "configs/coref_pipeline.cfg", "scripts/replay_coref.py")


def copy_project(target: Path) -> None:
    """project.yml, the files it uses and the bundled sample."""
    for name in PROJECT_FILES:
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / name, target / name)
    data = target / "spacy_coref_eval" / "data"
    data.mkdir(parents=True)
    for name in SAMPLE:
        shutil.copy(DATA / name, data)


def test_workflow_all_writes_the_demo_metrics(tmp_path):
    copy_project(tmp_path)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    run = subprocess.run([sys.executable, "-m", "weasel", "run", "all"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert (tmp_path / "corpus" / "demo.key.spacy").exists()
    metrics = json.loads((tmp_path / "metrics" / "demo.json").read_text())
    key, response = ({name: doc.clusters for name, doc in read_conll(DATA / name).items()} for name in SAMPLE)
    expected = score_json(score_documents(key, response), per_doc=True)
    assert metrics == json.loads(json.dumps(expected))
    assert round(metrics["metrics"]["conll"]["f1"] * 100, 2) == 72.30
    pipeline = json.loads((tmp_path / "metrics" / "demo.pipeline.json").read_text())
    for name in ("muc", "bcub", "ceafe", "lea", "mentions"):
        for short, rate in (("p", "precision"), ("r", "recall"), ("f", "f1")):
            assert pipeline[f"coref_{name}_{short}"] == pytest.approx(metrics["metrics"][name][rate], abs=1e-9)
    assert pipeline["coref_conll_f"] == pytest.approx(metrics["metrics"]["conll"]["f1"], abs=1e-9)


def test_litbank_is_an_optional_asset_outside_the_workflow(tmp_path):
    copy_project(tmp_path)
    project = load_project_config(tmp_path)
    (litbank,) = project["assets"]
    assert litbank["extra"] is True
    assert litbank["git"]["repo"] == "https://github.com/dbamman/litbank"
    commands = {command["name"]: command for command in project["commands"]}
    deps = [dep for name in project["workflows"]["all"] for dep in commands[name]["deps"]]
    assert deps and all(dep.startswith(("spacy_coref_eval/data/", "corpus/", "configs/", "scripts/")) for dep in deps)
    assert all((tmp_path / dep).exists() for dep in deps if not dep.startswith("corpus/"))
