"""Shared fixtures: where the conformance data and corpora live."""
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("SPACY_COREF_EVAL_SHARED", REPO.parent / "shared"))


def shared_path(*parts: str) -> Path:
    """A file under ../shared; fails (never skips) when it is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.fail(
            f"{path} not found: the conformance data and corpora must be in ../shared "
            "beside the checkout (or set SPACY_COREF_EVAL_SHARED to that folder)"
        )
    return path
