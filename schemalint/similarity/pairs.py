"""Nearest-neighbour pairs among unit vectors, computed in row blocks so 10k tools fit in memory."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

BLOCK_ROWS = 1024


def candidate_pairs(vectors: np.ndarray, floor: float, top_k: int | None) -> dict[tuple[int, int], float]:
    """Pairs (i < j) whose cosine is at least `floor`, keeping each row's `top_k` nearest (None: all).

    Memory is one block of BLOCK_ROWS x n cosines at a time; a pair is kept when either side has the
    other among its top_k.
    """
    import numpy as np

    count = len(vectors)
    pairs: dict[tuple[int, int], float] = {}
    if count < 2:
        return pairs
    for start in range(0, count, BLOCK_ROWS):
        block = vectors[start : start + BLOCK_ROWS] @ vectors.T
        rows = np.arange(block.shape[0])
        block[rows, rows + start] = -np.inf  # a tool is not its own neighbour
        if top_k is not None and top_k < count - 1:
            nearest = np.argpartition(-block, top_k, axis=1)[:, :top_k]
            values = np.take_along_axis(block, nearest, axis=1)
            hits = np.nonzero(values >= floor)
            lefts, rights, cosines = hits[0] + start, nearest[hits], values[hits]
        else:
            hits = np.nonzero(block >= floor)
            lefts, rights, cosines = hits[0] + start, hits[1], block[hits]
        for left, right, cosine in zip(lefts.tolist(), rights.tolist(), cosines.tolist(), strict=True):
            key = (left, right) if left < right else (right, left)
            pairs[key] = cosine
    return pairs
