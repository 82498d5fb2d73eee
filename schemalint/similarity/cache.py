"""On-disk vector cache: `<cache-dir>/vectors/<backend>-<weights sha256[:16]>/<shard>.vec`.

Each vector is keyed by the first 128 bits of the sha256 of its text, inside a folder keyed by the
model's weights hash, so a changed model never serves stale vectors. A shard is a small binary file
that needs no numpy to read (a tool set of a few tools must not pay numpy's import):

    header   b"SLVC", format version, dims, count, CRC-32 of the rest   (4 bytes, then four little-endian uint32)
    keys     count x 16 bytes                      (the texts' sha256, first 16 bytes)
    vectors  count x dims little-endian float32

New vectors are appended as a new shard (written to a temp file, then renamed, so a crash never
leaves a torn shard); shards are merged once there are more than _MAX_SHARDS. The cache folder gets
its own `.gitignore` (`*`). A shard is read whole and used only when its CRC-32 matches: a file that
is not an intact shard of this version (a flipped byte, truncated, foreign, older versions) is
ignored, so its texts are embedded again, never silently dropped. Only regular files are read, opened
without blocking (a FIFO named like a shard must not hang a run), and any I/O error just disables
the cache for the run: linting must never fail because of the cache.
"""

from __future__ import annotations

import os
import stat
import struct
import sys
import zlib
from array import array
from collections.abc import Collection
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from schemalint.similarity.pairs import Vectors

try:  # the interpreter's own sha256: importing hashlib loads OpenSSL first, a cost every run would pay
    from _sha256 import sha256  # Python < 3.12
except ImportError:
    try:
        from _sha2 import sha256  # Python >= 3.12
    except ImportError:  # an interpreter built without its own hashes
        from hashlib import sha256

DEFAULT_CACHE_DIR = ".schemalint_cache"
SHARD_SUFFIX = ".vec"
_MAX_SHARDS = 16
_HEADER = struct.Struct("<4sIIII")
_MAGIC = b"SLVC"
#: the format's version; it also changes when the vectors a model gives change (2: the static
#: backend's rows normalised in float64; 3: the CRC-32), so no run mixes cached vectors of two encoders
_VERSION = 3
KEY_BYTES = 16
_FLOAT_BYTES = 4


def text_key(text: str) -> bytes:
    """The first 128 bits of the text's sha256."""
    return sha256(text.encode("utf-8")).digest()[:KEY_BYTES]


def read_regular_file(path: Path) -> bytes | None:
    """The bytes of `path` when it is a regular file, else None (also on any I/O error). The file is
    opened without blocking and checked before it is read: opening a FIFO for reading waits for a
    writer, and a device or folder named like a cache file is not one."""
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            return None
        with os.fdopen(handle, "rb", closefd=False) as stream:
            return stream.read()
    except OSError:
        return None
    finally:
        os.close(handle)


def ensure_cache_dir(cache_dir: Path) -> None:
    cache_dir.mkdir(parents=True, exist_ok=True)
    ignore = cache_dir / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# created by schemalint: cached embedding vectors, safe to delete\n*\n", encoding="utf-8")


def from_little_endian(typecode: str, data: bytes) -> array[Any]:
    """An array of `typecode` items from their little-endian bytes (the cache's byte order on any machine)."""
    values = array(typecode, data)
    if sys.byteorder == "big":
        values.byteswap()
    return values


def to_little_endian(values: array[Any]) -> bytes:
    """The items of `values` as little-endian bytes."""
    if sys.byteorder == "big":
        values = array(values.typecode, values)
        values.byteswap()
    return values.tobytes()


def float32_row(raw: bytes) -> list[float]:
    """One cached vector (little-endian float32 bytes) as Python floats."""
    return from_little_endian("f", raw).tolist()


def float32_bytes(vectors: Vectors) -> bytes:
    """Rows of either form as little-endian float32 bytes, one row after the other."""
    if isinstance(vectors, list):
        return to_little_endian(array("f", chain.from_iterable(vectors)))
    import numpy as np

    return np.ascontiguousarray(vectors, dtype="<f4").tobytes()


def replace_file(path: Path, *chunks: bytes) -> None:
    """Write `path` as a temp file in its folder, then rename it: a crash never leaves a torn file."""
    import tempfile

    handle, temp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            for chunk in chunks:
                out.write(chunk)
        os.replace(temp, path)
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


class VectorCache:
    def __init__(self, cache_dir: Path | None, model_key: str) -> None:
        self.cache_dir = cache_dir
        self.folder = None if cache_dir is None else cache_dir / "vectors" / model_key

    def _shards(self) -> list[Path]:
        if self.folder is None:
            return []
        try:  # os.scandir: Path.glob compiles a regular expression, a measurable share of a warm 10-tool run
            with os.scandir(self.folder) as entries:
                return sorted(Path(entry.path) for entry in entries if entry.name.endswith(SHARD_SUFFIX))
        except OSError:
            return []

    def lookup(self, keys: list[bytes]) -> dict[int, bytes]:
        """The cached vectors among `keys`, by position in `keys`, each as its raw float32 bytes."""
        positions: dict[bytes, list[int]] = {}
        for position, key in enumerate(keys):
            positions.setdefault(key, []).append(position)
        found: dict[int, bytes] = {}
        dims: int | None = None
        for shard in self._shards():
            if not positions:
                break
            read = _read_shard(shard, positions, dims)
            if read is None:
                continue
            dims, rows = read
            for key, raw in rows.items():
                for position in positions.pop(key):
                    found[position] = raw
        return found

    def store(self, keys: list[bytes], vectors: Vectors) -> None:
        """Append a shard of `keys` (distinct) and their vectors; merge the shards when there are many."""
        if self.folder is None or not keys or self.cache_dir is None:
            return
        data = float32_bytes(vectors)
        try:
            ensure_cache_dir(self.cache_dir)
            self.folder.mkdir(parents=True, exist_ok=True)
            self._write_shard(keys, data)
            shards = self._shards()
            if len(shards) > _MAX_SHARDS:
                self._compact(shards)
        except OSError:
            return

    def _write_shard(self, keys: list[bytes], data: bytes) -> Path:
        """Write a shard under a name derived from its keys."""
        assert self.folder is not None
        key_block = b"".join(keys)
        path = self.folder / (sha256(key_block).hexdigest()[:20] + SHARD_SUFFIX)
        dims = len(data) // (_FLOAT_BYTES * len(keys))
        checksum = zlib.crc32(data, zlib.crc32(key_block))
        replace_file(path, _HEADER.pack(_MAGIC, _VERSION, dims, len(keys), checksum), key_block, data)
        return path

    def _compact(self, shards: list[Path]) -> None:
        """Merge every readable shard into one, then delete the shards merged (and unreadable ones)."""
        merged: dict[bytes, bytes] = {}
        dims: int | None = None
        for shard in shards:
            read = _read_shard(shard, None, dims)
            if read is not None:
                dims, rows = read
                for key, raw in rows.items():
                    merged.setdefault(key, raw)
        if not merged:
            return
        written = self._write_shard(list(merged), b"".join(merged.values()))
        for shard in shards:
            if shard != written:
                shard.unlink(missing_ok=True)


def _read_shard(
    path: Path, wanted: Collection[bytes] | None, dims: int | None
) -> tuple[int, dict[bytes, bytes]] | None:
    """The shard's dims and the rows of the `wanted` keys it holds (None: all its rows); None when the
    file is not an intact shard of this version (or holds vectors of other dims than `dims`)."""
    data = read_regular_file(path)
    if data is None or len(data) < _HEADER.size:
        return None
    magic, version, shard_dims, count, checksum = _HEADER.unpack_from(data)
    row_bytes = shard_dims * _FLOAT_BYTES
    if magic != _MAGIC or version != _VERSION or shard_dims == 0 or dims not in (None, shard_dims):
        return None
    if len(data) != _HEADER.size + count * (KEY_BYTES + row_bytes) or zlib.crc32(data[_HEADER.size :]) != checksum:
        return None
    vectors_start = _HEADER.size + count * KEY_BYTES
    rows: dict[bytes, bytes] = {}
    for row in range(count):
        key = data[_HEADER.size + row * KEY_BYTES : _HEADER.size + (row + 1) * KEY_BYTES]
        if (wanted is None or key in wanted) and key not in rows:
            offset = vectors_start + row * row_bytes
            rows[key] = data[offset : offset + row_bytes]
    return shard_dims, rows
