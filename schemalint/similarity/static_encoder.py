"""The static backend's encoder: model2vec's inference, without importing model2vec.

A model2vec static model is a token table (`model.safetensors`), a tokenizer (`tokenizer.json`)
and a `config.json`. A text's vector is the mean of its tokens' rows, L2-normalised, computed
exactly as model2vec's `StaticModel.encode` does (texts cut to `max_length` x the median token
length in characters, tokens past `max_length` dropped, unknown tokens left out, the mean taken
in float64 and stored as float32). Importing model2vec pulls in huggingface_hub, httpx and joblib
(about a third of a second); this needs only numpy and `tokenizers`. tests/test_similarity_backends.py
checks that the vectors equal model2vec's.
"""

from __future__ import annotations

import json
import struct
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    from tokenizers import Tokenizer

#: model2vec's defaults when config.json does not say
DEFAULT_MAX_LENGTH = 512
_BATCH = 1024
_SAFETENSORS_DTYPES = {"I8": "i1", "I16": "<i2", "I32": "<i4", "I64": "<i8", "F16": "<f2", "F32": "<f4", "F64": "<f8"}


class StaticModelError(Exception):
    """The model folder cannot be read (missing file, unknown format)."""


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """The tensors of a safetensors file: an 8-byte little-endian header size, a JSON header
    naming each tensor's dtype, shape and byte range, then the raw data."""
    import numpy as np

    data = path.read_bytes()
    if len(data) < 8:
        raise StaticModelError(f"{path}: not a safetensors file")
    (header_size,) = struct.unpack("<Q", data[:8])
    try:
        header = json.loads(data[8 : 8 + header_size])
    except ValueError as error:
        raise StaticModelError(f"{path}: not a safetensors file ({error})") from error
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if info.get("dtype") not in _SAFETENSORS_DTYPES:
            raise StaticModelError(f"{path}: tensor {name!r} has unsupported dtype {info.get('dtype')!r}")
        begin, end = info["data_offsets"]
        dtype = np.dtype(_SAFETENSORS_DTYPES[info["dtype"]])
        array = np.frombuffer(data, dtype=dtype, count=(end - begin) // dtype.itemsize, offset=8 + header_size + begin)
        tensors[name] = array.reshape(info["shape"])
    return tensors


class StaticEncoder:
    """Texts -> L2-normalised float32 vectors with a model2vec model folder."""

    def __init__(self, embeddings: np.ndarray, tokenizer: Tokenizer, config: dict[str, Any]) -> None:
        import numpy as np

        self.embeddings = embeddings
        self.tokenizer = tokenizer
        self.normalize = bool(config.get("normalize", False))
        self.max_length: int | None = config.get("max_length", DEFAULT_MAX_LENGTH)
        vocabulary = tokenizer.get_vocab()
        if len(vocabulary) != len(embeddings):
            raise StaticModelError(f"{len(vocabulary)} tokens but {len(embeddings)} embedding rows")
        self.median_token_length = int(np.median([len(token) for token in vocabulary]))
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
            tensors = read_safetensors(folder / "model.safetensors")
            tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        except (OSError, ValueError) as error:
            raise StaticModelError(f"cannot read the static model in {folder}: {error}") from error
        if set(tensors) != {"embeddings"}:  # weighted or vocabulary-quantised models are not supported
            raise StaticModelError(f"{folder}: expected one tensor `embeddings`, found {sorted(tensors)}")
        return cls(tensors["embeddings"], tokenizer, config)

    def token_ids(self, texts: list[str]) -> list[list[int]]:
        if self.max_length is not None:
            limit = self.max_length * self.median_token_length
            texts = [text[:limit] for text in texts]
        encodings = self.tokenizer.encode_batch_fast(texts, add_special_tokens=False)
        if self.unknown_id is None:
            return [encoding.ids for encoding in encodings]
        return [[i for i in encoding.ids if i != self.unknown_id] for encoding in encodings]

    def encode(self, texts: list[str]) -> np.ndarray:
        import numpy as np

        out = np.zeros((len(texts), self.embeddings.shape[1]), dtype=np.float32)
        for start in range(0, len(texts), _BATCH):
            out[start : start + _BATCH] = self._mean_vectors(self.token_ids(texts[start : start + _BATCH]))
        if self.normalize:
            out = out / (np.linalg.norm(out, axis=1, keepdims=True) + 1e-32)
        return out

    def _mean_vectors(self, ids: list[list[int]]) -> np.ndarray:
        """Each text's mean token row (zeros for a text without tokens), taken like model2vec does:
        texts of the same token count together, numpy's mean (float64) stored as float32."""
        import numpy as np

        out = np.zeros((len(ids), self.embeddings.shape[1]), dtype=np.float32)
        by_length: dict[int, list[int]] = defaultdict(list)
        for position, row in enumerate(ids):
            if row:
                by_length[len(row)].append(position)
        for positions in by_length.values():
            out[positions] = self.embeddings[np.array([ids[p] for p in positions], dtype=np.int64)].mean(axis=1)
        return out
