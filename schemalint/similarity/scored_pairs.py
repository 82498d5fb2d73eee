"""A set's scored pairs, remembered across runs: a re-run of a set whose tools' names, descriptions
and parameter names are unchanged reads SL502's pairs and scores back instead of scoring them again.

A file is named by a hash of what the scores depend on: the model (its folder), the options
(threshold, top_k) and every tool's name, description and property keys in order. Its payload
repeats that hash (a name is a prefix of it), then the pairs' indices and their PairScore fields.
Files are store.CheckedFiles (damaged ones are ignored, writes are atomic, their version includes
the scoring code's hash).
"""

from __future__ import annotations

import itertools
import struct
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from schemalint.similarity.cache import sha256
from schemalint.similarity.overlap import property_keys
from schemalint.similarity.scoring import PairScore
from schemalint.similarity.store import UINT, CheckedFiles, doubles, little_endian, uints

#: sets kept per model (then the least recently used quarter is deleted)
MAX_SETS = 256
_MAGIC = b"SLSP"
_VERSION = 1
_SIZES = struct.Struct("<32sII")  # the set's hash, tools, pairs
_FIELDS = len(PairScore._fields)

#: (earlier tool, later tool, score), as compare.SimilarityResult holds them
ScoredPair = tuple[int, int, PairScore]


def set_digest(items: Sequence[tuple[str | None, str | None, Any]], threshold: float, top_k: int | None) -> bytes:
    """What a set's scores depend on, besides the model: the options, and each tool's name,
    description and property keys (repr quotes every string, so no two lists share a text)."""
    described = [(name, description, property_keys(parameters)) for name, description, parameters in items]
    return sha256(repr((threshold, top_k, described)).encode("utf-8", "surrogatepass")).digest()


class ScoredPairsStore:
    def __init__(self, cache_dir: Path | None, model_key: str) -> None:
        self.files = CheckedFiles(cache_dir, "scored", model_key, _MAGIC, _VERSION, MAX_SETS)

    def read(self, digest: bytes, count: int) -> list[ScoredPair] | None:
        """The stored pairs of the set of `digest` (with `count` tools), if any."""
        payload = self.files.read(digest.hex()[:32])
        if payload is None or len(payload) < _SIZES.size:
            return None
        stored, tools, pairs = _SIZES.unpack_from(payload)
        if stored != digest or tools != count or len(payload) != _SIZES.size + pairs * (8 + 8 * _FIELDS):
            return None
        indices = uints(payload[_SIZES.size : _SIZES.size + 8 * pairs])
        lefts, rights = indices[:pairs], indices[pairs:]
        if any(left >= right for left, right in zip(lefts, rights, strict=True)) or (pairs and max(rights) >= count):
            return None
        values = doubles(payload[_SIZES.size + 8 * pairs :])
        columns = [values[field * pairs : (field + 1) * pairs] for field in range(_FIELDS)]
        scores = map(PairScore._make, zip(*columns, strict=True))
        return list(zip(lefts, rights, scores, strict=True))

    def write(self, digest: bytes, count: int, pairs: list[ScoredPair]) -> None:
        """Store the set's pairs: their indices, then each PairScore field for all of them."""
        lefts, rights, scores = zip(*pairs, strict=True) if pairs else ((), (), ())
        indices = array(UINT, itertools.chain(lefts, rights))
        values = array("d", itertools.chain.from_iterable(zip(*scores, strict=True)))
        sizes = _SIZES.pack(digest, count, len(pairs))
        self.files.write(digest.hex()[:32], sizes + little_endian(indices) + little_endian(values))
