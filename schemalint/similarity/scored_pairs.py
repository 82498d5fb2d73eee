"""A set's scored pairs, remembered across runs: a re-run of a set whose tools' names, descriptions
and parameter names are unchanged reads SL502's pairs and scores back instead of scoring them again;
after an edit, a pair of unchanged tools with an unchanged cosine takes its score from the nearest
stored set (`nearest`) instead of being scored again.

A pair's score depends on the model (the folder), on the two tools' names, descriptions and
property keys (`tool_digests`), in their order, and on their cosine; which pairs a set reports
depends on the options too (threshold, top_k: `set_digest`). A file is named by the set's
signatures (store.signed_name) and digest; its payload repeats the digest, then holds the tools'
digests, the pairs' indices and their PairScore fields. Files are store.CheckedFiles (damaged ones
are ignored, writes are atomic, their version includes the scoring code's hash).
"""

from __future__ import annotations

import itertools
import struct
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from schemalint.similarity.cache import from_little_endian, sha256, to_little_endian
from schemalint.similarity.overlap import property_keys
from schemalint.similarity.scoring import PairScore
from schemalint.similarity.store import UINT, CheckedFiles, signed_name

#: sets kept per model (then the least recently used quarter is deleted)
MAX_SETS = 256
_MAGIC = b"SLSP"
_VERSION = 2
_SIZES = struct.Struct("<32sII")  # the set's digest, tools, pairs
_TOOL_BYTES = 16
_FIELDS = len(PairScore._fields)

#: (earlier tool, later tool, score), as compare.SimilarityResult holds them
ScoredPair = tuple[int, int, PairScore]


def tool_digests(items: Sequence[tuple[str | None, str | None, Any]]) -> list[bytes]:
    """What a tool's scores depend on, hashed: its name, description and property keys (repr quotes
    every string, so no two tools share a text)."""
    return [
        sha256(repr((name, description, property_keys(parameters))).encode("utf-8", "surrogatepass")).digest()[
            :_TOOL_BYTES
        ]
        for name, description, parameters in items
    ]


def set_digest(tools: list[bytes], threshold: float, top_k: int | None) -> bytes:
    """The set's tools in order, and the options that choose which pairs are reported."""
    return sha256(repr((threshold, top_k)).encode("ascii") + b"".join(tools)).digest()


class ScoredPairsStore:
    def __init__(self, cache_dir: Path | None, model_key: str) -> None:
        self.files = CheckedFiles(cache_dir, "scored", model_key, _MAGIC, _VERSION, MAX_SETS)

    def read(self, tools: list[bytes], digest: bytes) -> list[ScoredPair] | None:
        """The stored pairs of exactly this set (these tools in this order, these options), if any."""
        stored = self._decode(self.files.read(signed_name(tools, digest.hex()[:24])))
        return stored[2] if stored is not None and stored[0] == digest and stored[1] == tools else None

    def nearest(self, tools: list[bytes]) -> dict[tuple[bytes, bytes], PairScore]:
        """The scores of the stored set like `tools` (CheckedFiles.similar) that shares the most tools
        with it, by the digests of the pair's earlier and later tool."""
        best = self.files.nearest(tools, self._decode, lambda stored: stored[1])
        if best is None:
            return {}
        _, known, pairs = best
        return {(known[left], known[right]): score for left, right, score in pairs}

    def write(self, tools: list[bytes], digest: bytes, pairs: list[ScoredPair]) -> None:
        """Store the set's pairs: the tools' digests, the pairs' indices, then each PairScore field."""
        lefts, rights, scores = zip(*pairs, strict=True) if pairs else ((), (), ())
        indices = array(UINT, itertools.chain(lefts, rights))
        values = array("d", itertools.chain.from_iterable(zip(*scores, strict=True)))
        sizes = _SIZES.pack(digest, len(tools), len(pairs))
        payload = b"".join((sizes, *tools, to_little_endian(indices), to_little_endian(values)))
        self.files.write(signed_name(tools, digest.hex()[:24]), payload)

    @staticmethod
    def _decode(payload: bytes | None) -> tuple[bytes, list[bytes], list[ScoredPair]] | None:
        """The set digest, tool digests and pairs of a payload; None when its sizes or indices do not fit."""
        if payload is None or len(payload) < _SIZES.size:
            return None
        digest, count, pairs = _SIZES.unpack_from(payload)
        start = _SIZES.size + count * _TOOL_BYTES
        if len(payload) != start + pairs * (8 + 8 * _FIELDS):
            return None
        tools = [payload[offset : offset + _TOOL_BYTES] for offset in range(_SIZES.size, start, _TOOL_BYTES)]
        indices = from_little_endian(UINT, payload[start : start + 8 * pairs])
        lefts, rights = indices[:pairs], indices[pairs:]
        if any(left >= right for left, right in zip(lefts, rights, strict=True)) or (pairs and max(rights) >= count):
            return None
        values = from_little_endian("d", payload[start + 8 * pairs :])
        columns = [values[field * pairs : (field + 1) * pairs] for field in range(_FIELDS)]
        scores = map(PairScore._make, zip(*columns, strict=True))
        return digest, tools, list(zip(lefts, rights, scores, strict=True))
