"""On-disk vector cache: `<cache-dir>/vectors/<backend>-<weights sha256[:16]>/<shard>.npz`.

Each vector is keyed by the first 128 bits of the sha256 of its text, inside a folder keyed by the
model's weights hash, so a changed model never serves stale vectors. New vectors are appended as a
new shard (written to a temp file, then renamed, so a crash never leaves a torn shard); shards are
merged once there are many. The cache folder gets its own `.gitignore` (`*`). Any I/O error just
disables the cache for the run: linting must never fail because the cache cannot be written.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

DEFAULT_CACHE_DIR = ".schemalint_cache"
_MAX_SHARDS = 16


def text_key(text: str) -> str:
    """The first 128 bits of the text's sha256, as hex (numpy's fixed-width bytes would drop trailing NULs)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def ensure_cache_dir(cache_dir: Path) -> None:
    cache_dir.mkdir(parents=True, exist_ok=True)
    ignore = cache_dir / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# created by schemalint: cached embedding vectors, safe to delete\n*\n", encoding="utf-8")


class VectorCache:
    def __init__(self, cache_dir: Path | None, model_key: str) -> None:
        self.cache_dir = cache_dir
        self.folder = None if cache_dir is None else cache_dir / "vectors" / model_key
        self._rows: dict[str, int] | None = None
        self._matrix: np.ndarray | None = None

    def _load(self) -> None:
        import numpy as np

        self._rows = {}
        if self.folder is None or not self.folder.is_dir():
            return
        keys: list[np.ndarray] = []
        blocks: list[np.ndarray] = []
        for shard in sorted(self.folder.glob("*.npz")):
            try:
                with np.load(shard, allow_pickle=False) as data:
                    shard_keys, vectors = data["keys"], data["vectors"]
            except (OSError, ValueError, KeyError, EOFError):
                continue  # a corrupt or foreign file: ignore it, the vectors get recomputed
            if shard_keys.dtype != np.dtype("U32") or vectors.ndim != 2 or len(vectors) != len(shard_keys):
                continue  # another format (an older schemalint): ignore it
            if blocks and vectors.shape[1] != blocks[0].shape[1]:
                continue
            keys.append(shard_keys)
            blocks.append(vectors)
        if not blocks:
            return
        self._matrix = np.concatenate(blocks).astype(np.float32, copy=False)
        for row, key in enumerate(np.concatenate(keys).tolist()):
            self._rows[key] = row

    def lookup(self, keys: list[str]) -> tuple[list[int], np.ndarray | None]:
        """Positions in `keys` that are cached, and their vectors in that order."""
        if self._rows is None:
            self._load()
        assert self._rows is not None
        found = [i for i, key in enumerate(keys) if key in self._rows]
        if not found or self._matrix is None:
            return [], None
        return found, self._matrix[[self._rows[keys[i]] for i in found]]

    def store(self, keys: list[str], vectors: np.ndarray) -> None:
        if self.folder is None or not keys or self.cache_dir is None:
            return
        import numpy as np

        try:
            ensure_cache_dir(self.cache_dir)
            self.folder.mkdir(parents=True, exist_ok=True)
            key_array = np.array(keys, dtype="U32")
            name = hashlib.sha256(key_array.tobytes()).hexdigest()[:20] + ".npz"
            self._write_shard(self.folder / name, key_array, vectors.astype(np.float32))
            shards = sorted(self.folder.glob("*.npz"))
            if len(shards) > _MAX_SHARDS:
                self._compact(shards)
        except OSError:
            return

    def _write_shard(self, path: Path, keys: np.ndarray, vectors: np.ndarray) -> None:
        import numpy as np

        assert self.folder is not None
        handle, temp = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                np.savez(out, keys=keys, vectors=vectors)
            os.replace(temp, path)
        finally:
            if os.path.exists(temp):
                os.unlink(temp)

    def _compact(self, shards: list[Path]) -> None:
        import numpy as np

        self._load()
        assert self._rows is not None
        if self._matrix is None or self.folder is None:
            return
        keys = np.array(list(self._rows), dtype="U32")
        rows = np.array(list(self._rows.values()))
        self._write_shard(self.folder / "merged.tmpnpz", keys, self._matrix[rows])
        for shard in shards:
            shard.unlink(missing_ok=True)
        os.replace(
            self.folder / "merged.tmpnpz", self.folder / (hashlib.sha256(keys.tobytes()).hexdigest()[:20] + ".npz")
        )
