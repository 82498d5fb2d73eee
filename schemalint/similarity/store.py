"""Checked files in the cache, for what SL502 remembers between runs besides vectors (each text's
nearest neighbours, a set's scored pairs): `<cache-dir>/<kind>/<model key>/<name><suffix>`.

A file is a header (magic, version, payload length, sha256 of the payload), then the payload. The
version is a hash of the file format's version and of the code that computes what is stored
(`code_fingerprint`), so a schemalint whose scoring changed never reads an older one's results. A
file that cannot be read, is truncated, of another format or version, or fails its checksum reads
as absent: linting never fails because of the cache, and never trusts a torn or
damaged file. Files are written to a temp file and renamed (cache.replace_file). Reading a file
marks it used; past `max_files` files the least recently used quarter is deleted.
"""

from __future__ import annotations

import contextlib
import os
import struct
from array import array
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

from schemalint.similarity.cache import ensure_cache_dir, read_header, replace_file, sha256

_HEADER = struct.Struct("<4s16sQ32s")  # magic, version, payload bytes, sha256 of the payload
#: the modules whose code decides what is stored (cosines, neighbours, scores)
RESULT_MODULES = (
    "actions.py",
    "compare.py",
    "neighbours.py",
    "overlap.py",
    "pairs.py",
    "scored_pairs.py",
    "scoring.py",
    "store.py",
)
#: what a caller of CheckedFiles.nearest decodes a file into
_Decoded = TypeVar("_Decoded")
#: the array typecode of a 4-byte unsigned integer
UINT = next(code for code in "IL" if array(code).itemsize == 4)


#: smaller sets are not stored: they are compared in a few ms, and a project of many small files
#: would otherwise churn the least-recently-used files out (and write one per set on every run)
MIN_STORED_SET = 32
#: at most this many stored files are read to find the one nearest to a set (`CheckedFiles.similar`)
NEAREST_READS = 3
#: byte ranges of the keys (sha256 prefixes, so independent) whose minima sign a set
SIGNATURE_SLICES = ((0, 3), (3, 6), (6, 9))


def signatures(keys: list[bytes]) -> list[str]:
    """A few min-hashes of a set of keys (the smallest of each of SIGNATURE_SLICES of the keys): a
    set with one key changed shares most of them, so a file named by them is found from its name
    alone, without reading the others."""
    return [min(key[start:stop] for key in keys).hex() for start, stop in SIGNATURE_SLICES]


def signed_name(keys: list[bytes], exact: str) -> str:
    """A file name for the set of `keys`: its signatures, then `exact` (a hash of what is stored)."""
    return "-".join((*signatures(keys), exact))


@lru_cache(maxsize=1)
def code_fingerprint() -> bytes | None:
    """A hash of RESULT_MODULES' source (None when it cannot be read: then nothing is stored)."""
    digest = sha256()
    try:
        for name in RESULT_MODULES:
            digest.update((Path(__file__).parent / name).read_bytes())
    except OSError:
        return None
    return digest.digest()


class CheckedFiles:
    def __init__(
        self, cache_dir: Path | None, kind: str, model_key: str, magic: bytes, version: int, max_files: int
    ) -> None:
        code = code_fingerprint()
        self.cache_dir = cache_dir
        self.folder = None if cache_dir is None or code is None else cache_dir / kind / model_key
        self.magic, self.max_files = magic, max_files
        self.version = sha256(magic + version.to_bytes(4, "little") + (code or b"")).digest()[:16]
        self.suffix = f".{magic.decode('ascii').lower()}"

    def read(self, name: str) -> bytes | None:
        """The payload of `name`, None when it is absent or not a whole, valid file."""
        if self.folder is None:
            return None
        path = self.folder / (name + self.suffix)
        try:
            with path.open("rb") as handle:
                header = read_header(handle, _HEADER)
                if header is None or header[:2] != (self.magic, self.version):
                    return None
                size, digest = header[2:]
                if os.fstat(handle.fileno()).st_size != _HEADER.size + size:
                    return None
                payload = handle.read(size)
        except OSError:
            return None
        if len(payload) != size or sha256(payload).digest() != digest:
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: the last to be pruned
        return payload

    def used(self, name: str) -> int:
        """When `name` was last read or written (ns; 0 when absent)."""
        if self.folder is None:
            return 0
        try:
            return (self.folder / (name + self.suffix)).stat().st_mtime_ns
        except OSError:
            return 0

    def similar(self, keys: list[bytes]) -> list[str]:
        """The names (`signed_name`) of at most NEAREST_READS files of sets like `keys`: those sharing
        the most signatures, the most recently used first (an editor's previous run is the latest)."""
        mine = signatures(keys)
        shared = {name: sum(a == b for a, b in zip(mine, name.split("-"), strict=False)) for name in self.names()}
        matching = [name for name, count in shared.items() if count]
        return sorted(matching, key=lambda name: (shared[name], self.used(name)), reverse=True)[:NEAREST_READS]

    def nearest(
        self,
        keys: list[bytes],
        decode: Callable[[bytes | None], _Decoded | None],
        keys_of: Callable[[_Decoded], list[bytes]],
    ) -> _Decoded | None:
        """Of the files of sets like `keys` (`similar`), the one that `decode` accepts and whose set
        (`keys_of`) shares the most keys with `keys`; the first of equals."""
        wanted = set(keys)
        best: _Decoded | None = None
        most = -1
        for name in self.similar(keys):
            found = decode(self.read(name))
            if found is not None and (shared := len(wanted.intersection(keys_of(found)))) > most:
                best, most = found, shared
        return best

    def names(self) -> list[str]:
        """The names of the files present (without the suffix)."""
        if self.folder is None:
            return []
        try:
            with os.scandir(self.folder) as entries:
                return [entry.name[: -len(self.suffix)] for entry in entries if entry.name.endswith(self.suffix)]
        except OSError:
            return []

    def write(self, name: str, payload: bytes) -> None:
        """Write `name` atomically, then prune; I/O errors are ignored."""
        if self.folder is None or self.cache_dir is None:
            return
        try:
            ensure_cache_dir(self.cache_dir)
            self.folder.mkdir(parents=True, exist_ok=True)
            header = _HEADER.pack(self.magic, self.version, len(payload), sha256(payload).digest())
            replace_file(self.folder / (name + self.suffix), header, payload)
            self._prune()
        except OSError:
            return

    def _prune(self) -> None:
        assert self.folder is not None
        paths = [self.folder / (name + self.suffix) for name in self.names()]
        if len(paths) <= self.max_files:
            return
        by_age = sorted(paths, key=lambda path: path.stat().st_mtime_ns)
        for path in by_age[: len(paths) - self.max_files * 3 // 4]:
            path.unlink(missing_ok=True)
