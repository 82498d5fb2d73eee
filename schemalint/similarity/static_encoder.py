"""The static backend's encoder: model2vec's inference, without importing model2vec.

A model2vec static model is a token table (`model.safetensors`), a tokenizer (`tokenizer.json`)
and a `config.json`. A text's vector is the mean of its tokens' rows, computed as model2vec's
`StaticModel.encode` does (texts cut to `max_length` x the median token length in characters,
tokens past `max_length` dropped, unknown tokens left out, the mean taken in float64 and stored as
float32), then L2-normalised: the norm in float64 (`pairs.dot` of the row with itself), each value
divided by it in float64 and stored as float32. Importing model2vec pulls in huggingface_hub, httpx
and joblib (about a third of a second); this needs only `tokenizers`, and numpy for big batches.

Two ways give the same vectors to the bit: `encode` (numpy, the whole table in memory) and
`encode_rows` (pure Python for a few texts: an int8 table's rows are read from the file by offset,
their sums are exact integers, and the mean, norm and division are the same IEEE operations).
tests/test_similarity_backends.py checks that `encode` equals model2vec and `encode_rows` equals `encode`.
"""

from __future__ import annotations

import json
import math
import operator
import struct
from array import array
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemalint.similarity.pairs import dot

if TYPE_CHECKING:
    import numpy as np
    from tokenizers import Tokenizer

#: model2vec's defaults when config.json does not say
DEFAULT_MAX_LENGTH = 512
_BATCH = 1024
_SAFETENSORS_DTYPES = {"I8": "i1", "I16": "<i2", "I32": "<i4", "I64": "<i8", "F16": "<f2", "F32": "<f4", "F64": "<f8"}


class StaticModelError(Exception):
    """The model folder cannot be read (missing file, unknown format)."""


@dataclass(frozen=True)
class TensorLocation:
    """Where a tensor's raw data lies in a safetensors file."""

    path: Path
    dtype: str  # safetensors' name: "I8", "F32", ...
    shape: tuple[int, ...]
    start: int  # byte offset in the file
    size: int  # bytes

    def read_array(self) -> np.ndarray:
        import numpy as np

        with self.path.open("rb") as handle:
            handle.seek(self.start)
            data = handle.read(self.size)
        dtype = np.dtype(_SAFETENSORS_DTYPES[self.dtype])
        return np.frombuffer(data, dtype=dtype, count=self.size // dtype.itemsize).reshape(self.shape)


def safetensors_index(path: Path) -> dict[str, TensorLocation]:
    """The tensors of a safetensors file, read from its header only: an 8-byte little-endian header
    size, a JSON header naming each tensor's dtype, shape and byte range, then the raw data."""
    with path.open("rb") as handle:
        size_bytes = handle.read(8)
        if len(size_bytes) < 8:
            raise StaticModelError(f"{path}: not a safetensors file")
        (header_size,) = struct.unpack("<Q", size_bytes)
        try:
            header = json.loads(handle.read(header_size))
        except ValueError as error:
            raise StaticModelError(f"{path}: not a safetensors file ({error})") from error
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if info.get("dtype") not in _SAFETENSORS_DTYPES:
            raise StaticModelError(f"{path}: tensor {name!r} has unsupported dtype {info.get('dtype')!r}")
        begin, end = info["data_offsets"]
        tensors[name] = TensorLocation(path, info["dtype"], tuple(info["shape"]), 8 + header_size + begin, end - begin)
    return tensors


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Every tensor of a safetensors file, as numpy arrays."""
    return {name: location.read_array() for name, location in safetensors_index(path).items()}


def _median_int(values: list[int]) -> int:
    """int(numpy.median(values)): the middle value, or the mean of the two middle ones, truncated."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    return int(ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2)


def _unit_row(row: list[float]) -> list[float]:
    """A float32 row divided by its float64 L2 norm, stored as float32 (zeros stay zeros)."""
    norm = math.sqrt(dot(row, row))
    if norm == 0:
        return row
    return array("f", [value / norm for value in row]).tolist()


class StaticEncoder:
    """Texts -> L2-normalised float32 vectors with a model2vec model folder."""

    def __init__(self, table: TensorLocation, tokenizer: Tokenizer, config: dict[str, Any]) -> None:
        if len(table.shape) != 2:
            raise StaticModelError(f"{table.path}: the token table has shape {table.shape}")
        self.table = table
        self.dims = table.shape[1]
        self._matrix: np.ndarray | None = None
        self.tokenizer = tokenizer
        self.max_length: int | None = config.get("max_length", DEFAULT_MAX_LENGTH)
        self._median_token_length: int | None = None
        unknown = getattr(tokenizer.model, "unk_token", None)
        self.unknown_id = tokenizer.token_to_id(unknown) if unknown else None
        if self.max_length is None:
            tokenizer.no_truncation()
        else:
            tokenizer.enable_truncation(self.max_length)

    @classmethod
    def from_folder(cls, folder: Path) -> StaticEncoder:
        from tokenizers import Tokenizer

        try:
            config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
            tensors = safetensors_index(folder / "model.safetensors")
            tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        except (OSError, ValueError) as error:
            raise StaticModelError(f"cannot read the static model in {folder}: {error}") from error
        if set(tensors) != {"embeddings"}:  # weighted or vocabulary-quantised models are not supported
            raise StaticModelError(f"{folder}: expected one tensor `embeddings`, found {sorted(tensors)}")
        return cls(tensors["embeddings"], tokenizer, config)

    @property
    def embeddings(self) -> np.ndarray:
        """The whole token table (read on first use)."""
        if self._matrix is None:
            try:
                self._matrix = self.table.read_array()
            except (OSError, ValueError) as error:
                raise StaticModelError(f"cannot read {self.table.path}: {error}") from error
        return self._matrix

    @property
    def median_token_length(self) -> int:
        """The vocabulary's median token length in characters, once the vocabulary is checked against the
        table; computed on first need (listing 30k tokens costs a cold 10-tool run about a tenth)."""
        if self._median_token_length is None:
            vocabulary = self.tokenizer.get_vocab()
            if len(vocabulary) != self.table.shape[0]:
                raise StaticModelError(f"{len(vocabulary)} tokens but {self.table.shape[0]} embedding rows")
            self._median_token_length = _median_int([len(token) for token in vocabulary])
        return self._median_token_length

    def token_ids(self, texts: list[str]) -> list[list[int]]:
        # a token has at least one character, so a text of at most max_length characters is never cut
        if self.max_length is not None and any(len(text) > self.max_length for text in texts):
            limit = self.max_length * self.median_token_length
            texts = [text[:limit] for text in texts]
        encodings = self.tokenizer.encode_batch_fast(texts, add_special_tokens=False)
        if self.unknown_id is None:
            return [encoding.ids for encoding in encodings]
        return [[i for i in encoding.ids if i != self.unknown_id] for encoding in encodings]

    def encode(self, texts: list[str]) -> np.ndarray:
        """The vectors as a float32 matrix (numpy)."""
        import numpy as np

        from schemalint.similarity.pairs import matrix_dots

        _ = self.median_token_length  # the vocabulary is checked against the table before indexing it
        out = np.zeros((len(texts), self.dims), dtype=np.float32)
        for start in range(0, len(texts), _BATCH):
            out[start : start + _BATCH] = self._mean_vectors(self.token_ids(texts[start : start + _BATCH]))
        everyone = np.arange(len(texts))
        norms = np.sqrt(matrix_dots(out, everyone, everyone))
        norms[norms == 0] = 1.0  # a text without tokens keeps its zero vector
        return (out / norms[:, None]).astype(np.float32)

    def _mean_vectors(self, ids: list[list[int]]) -> np.ndarray:
        """Each text's mean token row (zeros for a text without tokens), taken like model2vec does:
        texts of the same token count together, numpy's mean (float64) stored as float32."""
        import numpy as np

        out = np.zeros((len(ids), self.dims), dtype=np.float32)
        by_length: dict[int, list[int]] = defaultdict(list)
        for position, row in enumerate(ids):
            if row:
                by_length[len(row)].append(position)
        for positions in by_length.values():
            out[positions] = self.embeddings[np.array([ids[p] for p in positions], dtype=np.int64)].mean(axis=1)
        return out

    def encode_rows(self, texts: list[str]) -> list[list[float]]:
        """The same vectors as `encode`, as rows of Python floats, without numpy when the table is int8."""
        if self.table.dtype != "I8":
            return self.encode(texts).tolist()
        ids = self.token_ids(texts)
        rows = self._int8_rows(sorted({token for text_ids in ids for token in text_ids}))
        vectors = []
        for text_ids in ids:
            total = [0] * self.dims
            for token in text_ids:
                total = list(map(operator.add, total, rows[token]))
            mean = array("f", [value / len(text_ids) for value in total]) if text_ids else array("f", total)
            vectors.append(_unit_row(mean.tolist()))
        return vectors

    def _int8_rows(self, tokens: list[int]) -> dict[int, array[int]]:
        """The table's rows of `tokens` (ascending), each read from the file at its offset."""
        rows: dict[int, array[int]] = {}
        if tokens and tokens[-1] >= self.table.shape[0]:
            raise StaticModelError(
                f"{self.table.path}: token {tokens[-1]} is past the table's {self.table.shape[0]} rows"
            )
        try:
            with self.table.path.open("rb") as handle:
                for token in tokens:
                    handle.seek(self.table.start + token * self.dims)
                    rows[token] = array("b", handle.read(self.dims))
        except OSError as error:
            raise StaticModelError(f"cannot read {self.table.path}: {error}") from error
        if any(len(row) != self.dims for row in rows.values()):
            raise StaticModelError(f"{self.table.path}: the token table is shorter than its header says")
        return rows
