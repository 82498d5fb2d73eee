from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus"

#: set SCHEMALINT_UPDATE_SNAPSHOTS=1 to rewrite expected outputs instead of comparing
UPDATE_SNAPSHOTS = os.environ.get("SCHEMALINT_UPDATE_SNAPSHOTS") == "1"


@pytest.fixture
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not present on this machine")
    return CORPUS


@pytest.fixture(autouse=True)
def _static_embeddings_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """SL502 runs on every lint; tests use the fast static backend unless they configure another."""
    monkeypatch.setenv("SCHEMALINT_EMBEDDING_BACKEND", "static")
