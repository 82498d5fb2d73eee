"""Texts -> vectors through the configured backend and the on-disk cache, with fallback to static."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemalint import progress
from schemalint.similarity.backends import (
    BackendChoice,
    EmbeddingBackend,
    ModelUnavailable,
    StaticBackend,
    choose_backend,
)
from schemalint.similarity.cache import DEFAULT_CACHE_DIR, VectorCache, float32_row, text_key

if TYPE_CHECKING:
    import numpy as np

    from schemalint.similarity.pairs import Vectors

#: more new texts than this report their progress (the command line shows it on a terminal)
PROGRESS_MIN_TEXTS = 300
#: up to this many texts, vectors are rows of Python floats and the pairs are found without numpy: below
#: it, importing numpy costs more than the pure-Python search (pairs.py); `benchmarks/bench_similarity.py
#: --small-sets` measures where the two cross.
SMALL_SET_TEXTS = 256
#: a run with more new texts than this encodes them with numpy, and finds the pairs with numpy too: the
#: pure-Python encoding grows with the texts (the crossover is measured by the same benchmark).
SMALL_ENCODE_TEXTS = 160
_BATCH = 256

#: notices for the user (backend fallbacks), collected for the CLI to print once per run
_notices: list[str] = []


def take_notices() -> list[str]:
    """The backend notices raised since the last call (deduplicated), for the CLI to print on stderr."""
    seen = list(dict.fromkeys(_notices))
    _notices.clear()
    return seen


@dataclass
class Embeddings:
    vectors: Vectors
    backend: str
    notice: str | None
    #: how many texts had to be embedded (not found in the cache)
    computed: int
    #: the cache's name for the model that gave the vectors (`<backend>-<weights sha256[:16]>`)
    model_key: str = ""


#: environment variable that picks the backend when the config leaves `embedding-backend` at its
#: default (`static`, or its deprecated alias `auto`)
BACKEND_ENV = "SCHEMALINT_EMBEDDING_BACKEND"


def settings_backend(settings: Mapping[str, Any]) -> BackendChoice:
    requested = str(settings.get("embedding-backend") or "static")
    if requested in ("static", "auto") and os.environ.get(BACKEND_ENV):
        requested = os.environ[BACKEND_ENV]
    return choose_backend(requested, settings.get("embedding-model") or None)


#: environment variable that moves the cache when the config leaves `cache-dir` at its default
CACHE_DIR_ENV = "SCHEMALINT_CACHE_DIR"


def settings_cache_dir(settings: Mapping[str, Any]) -> Path | None:
    """`cache-dir` from config (default `.schemalint_cache`, or $SCHEMALINT_CACHE_DIR); an empty value or
    false turns the cache off."""
    value = settings.get("cache-dir", DEFAULT_CACHE_DIR)
    if value == DEFAULT_CACHE_DIR and os.environ.get(CACHE_DIR_ENV):
        value = os.environ[CACHE_DIR_ENV]
    if value in (None, "", False):
        return None
    return Path(str(value))


def _model_key(backend: EmbeddingBackend, cache_dir: Path | None) -> str:
    memo_folder = None if cache_dir is None else cache_dir / "digests"
    return f"{backend.name}-{backend.weights_digest(memo_folder)[:16]}"


def _encode(backend: EmbeddingBackend, texts: list[str], small: bool) -> Vectors:
    """Rows of Python floats for a small set, else a float32 matrix (with progress reported to whoever
    shows it, for many texts)."""
    encode = backend.encode_rows if small else backend.encode
    report = progress.report
    if report is None or len(texts) <= PROGRESS_MIN_TEXTS:
        return encode(texts)
    parts = []
    for start in range(0, len(texts), _BATCH):
        parts.append(encode(texts[start : start + _BATCH]))
        report(f"embedding descriptions ({backend.name})", min(start + _BATCH, len(texts)), len(texts))
    if small:
        return [row for part in parts for row in part]
    import numpy as np

    return np.concatenate(parts)


@dataclass
class ResolvedBackend:
    """The backend the settings ask for (resolved without loading a model), where its cache is, and the
    cache's name for its model."""

    choice: BackendChoice
    cache_dir: Path | None
    model_key: str


def resolve_backend(settings: Mapping[str, Any] | None = None) -> ResolvedBackend:
    settings = settings or {}
    choice = settings_backend(settings)
    cache_dir = settings_cache_dir(settings)
    return ResolvedBackend(choice, cache_dir, _model_key(choice.backend, cache_dir))


def note(notice: str | None) -> None:
    """Remember a backend notice for the CLI (`take_notices`)."""
    if notice:
        _notices.append(notice)


def embed_texts(
    texts: list[str],
    settings: Mapping[str, Any] | None = None,
    resolved: ResolvedBackend | None = None,
    rows: bool = False,
) -> Embeddings:
    """Vectors for `texts` (cached ones are read from disk; only new texts load a model): rows of
    Python floats for up to SMALL_SET_TEXTS texts (or any number with `rows`) of which at most
    SMALL_ENCODE_TEXTS are new, else a numpy float32 matrix. `resolved`: `resolve_backend(settings)`,
    when the caller has it already."""
    resolved = resolved or resolve_backend(settings)
    cache_dir = resolved.cache_dir
    backend, notice, model_key = resolved.choice.backend, resolved.choice.notice, resolved.model_key
    keys = [text_key(t) for t in texts]
    while True:
        cache = VectorCache(cache_dir, model_key)
        cached = cache.lookup(keys)
        new_texts = {keys[i]: texts[i] for i in range(len(texts)) if i not in cached}  # one per distinct text
        small = (rows or len(texts) <= SMALL_SET_TEXTS) and len(new_texts) <= SMALL_ENCODE_TEXTS
        try:
            fresh = _encode(backend, list(new_texts.values()), small) if new_texts else None
        except ModelUnavailable as error:
            if isinstance(backend, StaticBackend):
                raise
            notice = f"{error}; using the static backend"
            backend = StaticBackend()
            model_key = _model_key(backend, cache_dir)
            continue
        break
    note(notice)
    if fresh is not None:
        cache.store(list(new_texts), fresh)
    fresh_rows = {key: row for row, key in enumerate(new_texts)}
    if small:
        assert fresh is None or isinstance(fresh, list)
        new_rows = fresh or []
        vectors: Vectors = [
            float32_row(cached[i]) if i in cached else new_rows[fresh_rows[key]] for i, key in enumerate(keys)
        ]
    else:
        assert not isinstance(fresh, list)
        vectors = _matrix(keys, cached, fresh, fresh_rows)
    return Embeddings(vectors, backend.name, notice, len(new_texts), model_key)


def _matrix(
    keys: list[bytes], cached: dict[int, bytes], fresh: np.ndarray | None, fresh_rows: dict[bytes, int]
) -> np.ndarray:
    """The float32 matrix of a big set, from the cached rows and the freshly encoded ones."""
    import numpy as np

    rows = np.frombuffer(b"".join(cached.values()), dtype="<f4").reshape(len(cached), -1) if cached else None
    dims = fresh.shape[1] if fresh is not None else rows.shape[1]  # type: ignore[union-attr]
    vectors = np.zeros((len(keys), dims), dtype=np.float32)
    if rows is not None:
        vectors[list(cached)] = rows
    if fresh is not None:
        missing = [i for i in range(len(keys)) if i not in cached]
        vectors[missing] = fresh[[fresh_rows[keys[i]] for i in missing]]
    return vectors
