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


@pytest.fixture(scope="session")
def _vector_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("schemalint-cache")


@pytest.fixture(autouse=True)
def _static_embeddings_by_default(monkeypatch: pytest.MonkeyPatch, _vector_cache_dir: Path) -> None:
    """SL502 runs on every lint; tests use the fast static backend unless they configure another, and
    keep the vector cache out of the checkout (and out of ../shared)."""
    monkeypatch.setenv("SCHEMALINT_EMBEDDING_BACKEND", "static")
    monkeypatch.setenv("SCHEMALINT_CACHE_DIR", str(_vector_cache_dir))
