"""Nearest-neighbour pairs among unit vectors, computed in row blocks so 10k tools fit in memory."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

BLOCK_ROWS = 1024


def candidate_pairs(vectors: np.ndarray, floor: float, top_k: int | None) -> dict[tuple[int, int], float]:
    """Pairs (i < j) whose cosine is at least `floor`, keeping each row's `top_k` nearest (None: all).

    Memory is one block of BLOCK_ROWS x n cosines at a time; a pair is kept when either side has the
    other among its top_k. Only cosines over the floor are sorted;
    when too many are over it, each row keeps only its top_k first (a partition, linear in the row),
    so the cost stays near the matrix product itself.
    """
    import numpy as np

    count = len(vectors)
    pairs: dict[tuple[int, int], float] = {}
    if count < 2:
        return pairs
    keep_top = top_k if top_k is not None and top_k < count - 1 else None  # None: every pair over the floor
    for start in range(0, count, BLOCK_ROWS):
        block = vectors[start : start + BLOCK_ROWS] @ vectors.T
        rows = np.arange(block.shape[0])
        block[rows, rows + start] = -np.inf  # a tool is not its own neighbour
        over = block >= floor
        if keep_top is not None and int(np.count_nonzero(over)) > 2 * keep_top * len(block):
            over &= _top_mask(block, keep_top)
        flat = np.flatnonzero(over)  # much faster than a 2-d nonzero
        lefts, rights = np.divmod(flat, count)
        cosines = block.ravel()[flat]
        if keep_top is not None and len(lefts):
            # each row's candidates, best first; keep the first top_k of every row
            order = np.lexsort((rights, -cosines, lefts))
            lefts, rights, cosines = lefts[order], rights[order], cosines[order]
            rank = np.arange(len(lefts)) - np.searchsorted(lefts, lefts, side="left")
            keep = rank < keep_top
            lefts, rights, cosines = lefts[keep], rights[keep], cosines[keep]
        for left, right, cosine in zip((lefts + start).tolist(), rights.tolist(), cosines.tolist(), strict=True):
            key = (left, right) if left < right else (right, left)
            pairs[key] = cosine
    return pairs


def _top_mask(block: np.ndarray, k: int) -> np.ndarray:
    """Each row's k largest entries, found by a partition (cheap) rather than an argpartition."""
    import numpy as np

    columns = block.shape[1]
    kth = np.partition(block, columns - k, axis=1)[:, columns - k, None]
    mask = block >= kth
    tied = np.flatnonzero(np.count_nonzero(mask, axis=1) > k)
    if len(tied):  # equal cosines at the k-th place: argpartition picks among them, as it always has
        chosen = np.argpartition(-block[tied], k, axis=1)[:, :k]
        mask[tied] = False
        mask[tied[:, None], chosen] = True
    return mask
