"""Nearest-neighbour pairs among unit vectors, computed in row blocks so 10k tools fit in memory."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

BLOCK_ROWS = 1024


def candidate_pairs(vectors: np.ndarray, floor: float, top_k: int | None) -> dict[tuple[int, int], float]:
    """Pairs (i < j) whose cosine is at least `floor`, keeping each row's `top_k` nearest (None: all).

    Memory is one block of BLOCK_ROWS x n cosines at a time; a pair is kept when either side has the
    other among its top_k. Only cosines over the floor are sorted, so a selective floor keeps the cost
    near the matrix product itself.
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
        over = block >= floor
        if top_k is not None and top_k < count - 1 and int(over.sum()) > 2 * top_k * len(block):
            # an unselective floor: take each row's top_k directly, then apply the floor
            nearest = np.argpartition(-block, top_k, axis=1)[:, :top_k]
            values = np.take_along_axis(block, nearest, axis=1)
            hits = np.nonzero(values >= floor)
            lefts, rights, cosines = hits[0], nearest[hits], values[hits]
            top_k_done = True
        else:
            lefts, rights = np.nonzero(over)
            cosines = block[lefts, rights]
            top_k_done = top_k is None
        if not top_k_done and top_k is not None and len(lefts):
            # each row's candidates, best first; keep the first top_k of every row
            order = np.lexsort((-cosines, lefts))
            lefts, rights, cosines = lefts[order], rights[order], cosines[order]
            rank = np.arange(len(lefts)) - np.searchsorted(lefts, lefts, side="left")
            keep = rank < top_k
            lefts, rights, cosines = lefts[keep], rights[keep], cosines[keep]
        for left, right, cosine in zip((lefts + start).tolist(), rights.tolist(), cosines.tolist(), strict=True):
            key = (left, right) if left < right else (right, left)
            pairs[key] = cosine
    return pairs
