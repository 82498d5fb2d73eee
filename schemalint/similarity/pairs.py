"""Nearest-neighbour pairs among unit vectors, and their cosines.

Vectors come in two forms (`Vectors`), and both give the same pairs with the same cosines:
- a small set is a list of rows of Python floats: every pair's cosine is computed in pure Python,
  so a small tool set never imports numpy (that import alone costs more than the whole lint);
- a big set is a numpy float32 matrix: float32 products in blocks of BLOCK_ROWS rows (so 10k tools
  fit in memory) find a superset of the candidates, wide enough for float32's rounding error, and
  the candidates' cosines are then computed exactly as the small path computes them.

The cosine of a pair (`dot`) is the dot product of the two float32 unit vectors with every product
taken in float64 (exact: a float32 has 24 significant bits, float64 holds 53) and summed in
dimension order. IEEE arithmetic in a fixed order gives the same bits in Python and in numpy
(math.fsum would be correctly rounded, but numpy has no cheap equivalent; this sum is within ~1e-14
of the exact one). Both paths then select with the same rule: row i keeps the j != i whose cosine is
at least `floor`, or, with `top_k`, the first `top_k` of them by (cosine descending, j); a pair is a
candidate when either side keeps the other.
"""

from __future__ import annotations

import operator
from functools import reduce
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    import numpy as np

    #: one unit vector per text: rows of Python floats holding float32 values (small sets), or a
    #: float32 matrix (big sets)
    Vectors = list[list[float]] | np.ndarray

BLOCK_ROWS = 1024
#: float32 rounding of one product, relative to the magnitude of the sum (2**-24, with a factor 2 to spare)
_FLOAT32_ERROR_PER_TERM = 2.0**-23


def dot(left: Sequence[float], right: Sequence[float]) -> float:
    """The cosine of two unit vectors of float32 values: float64 products summed in dimension order."""
    return reduce(operator.add, map(operator.mul, left, right), 0.0)


def pair_cosines(vectors: Vectors, pairs: Sequence[tuple[int, int]]) -> list[float]:
    """`dot` of each pair of rows, for either form of vectors."""
    if isinstance(vectors, list):
        return [dot(vectors[left], vectors[right]) for left, right in pairs]
    import numpy as np

    indices = np.array(pairs, dtype=np.int64).reshape(-1, 2)
    return matrix_dots(vectors, indices[:, 0], indices[:, 1]).tolist()


def candidate_pairs(vectors: Vectors, floor: float, top_k: int | None) -> dict[tuple[int, int], float]:
    """Pairs (i < j) whose cosine is at least `floor`, keeping each row's `top_k` nearest (None: all),
    with their cosines."""
    count = len(vectors)
    if count < 2:
        return {}
    keep_top = top_k if top_k is not None and top_k < count - 1 else None  # None: every pair over the floor
    if isinstance(vectors, list):
        return _small_candidate_pairs(vectors, floor, keep_top)
    return _block_candidate_pairs(vectors, floor, keep_top)


def _small_candidate_pairs(rows: list[list[float]], floor: float, keep_top: int | None) -> dict[tuple[int, int], float]:
    neighbours: list[list[tuple[float, int]]] = [[] for _ in rows]
    for left in range(len(rows)):
        for right in range(left + 1, len(rows)):
            cosine = dot(rows[left], rows[right])
            if cosine >= floor:
                neighbours[left].append((-cosine, right))
                neighbours[right].append((-cosine, left))
    pairs: dict[tuple[int, int], float] = {}
    for row, found in enumerate(neighbours):
        kept = sorted(found)[:keep_top] if keep_top is not None else found
        for negated, other in kept:
            pairs[(row, other) if row < other else (other, row)] = -negated
    return pairs


def _block_candidate_pairs(vectors: np.ndarray, floor: float, keep_top: int | None) -> dict[tuple[int, int], float]:
    """The numpy path. Each block's float32 cosines are within `margin` of the exact ones, so an entry
    more than `margin` under the floor, or more than 2 x `margin` under its row's k-th largest float32
    cosine, cannot be selected; the rest are selected by their exact cosines."""
    import numpy as np

    vectors = np.asarray(vectors, dtype=np.float32)
    count, dims = vectors.shape
    largest_norm = float(np.sqrt(np.einsum("ij,ij->i", vectors, vectors, dtype=np.float64).max()))
    margin = dims * _FLOAT32_ERROR_PER_TERM * largest_norm**2
    lefts_parts, rights_parts = [], []
    for start in range(0, count, BLOCK_ROWS):
        block = vectors[start : start + BLOCK_ROWS] @ vectors.T
        rows = np.arange(block.shape[0])
        block[rows, rows + start] = -np.inf  # a tool is not its own neighbour
        over = block >= floor - margin
        if keep_top is not None and int(np.count_nonzero(over)) > 2 * keep_top * len(block):
            kth = np.partition(block, count - keep_top, axis=1)[:, count - keep_top, None]
            over &= block >= kth - 2 * margin
        lefts, rights = np.divmod(np.flatnonzero(over), count)  # much faster than a 2-d nonzero
        lefts_parts.append(lefts + start)
        rights_parts.append(rights)
    lefts, rights = np.concatenate(lefts_parts), np.concatenate(rights_parts)
    # the exact cosine of each distinct pair, then of each (row, neighbour) entry
    unordered = np.minimum(lefts, rights) * count + np.maximum(lefts, rights)
    distinct, entry_pair = np.unique(unordered, return_inverse=True)
    cosines = matrix_dots(vectors, distinct // count, distinct % count)[entry_pair.reshape(-1)]
    over = cosines >= floor
    lefts, rights, cosines = lefts[over], rights[over], cosines[over]
    if keep_top is not None and len(lefts):
        # each row's candidates, best first (ties: the lower index first); keep the first top_k of every row
        order = np.lexsort((rights, -cosines, lefts))
        lefts, rights, cosines = lefts[order], rights[order], cosines[order]
        rank = np.arange(len(lefts)) - np.searchsorted(lefts, lefts, side="left")
        keep = rank < keep_top
        lefts, rights, cosines = lefts[keep], rights[keep], cosines[keep]
    pairs: dict[tuple[int, int], float] = {}
    for left, right, cosine in zip(lefts.tolist(), rights.tolist(), cosines.tolist(), strict=True):
        pairs[(left, right) if left < right else (right, left)] = cosine
    return pairs


def matrix_dots(vectors: np.ndarray, lefts: np.ndarray, rights: np.ndarray) -> np.ndarray:
    """`dot` of rows `lefts[n]` and `rights[n]` for every n, vectorised over the pairs: one float64
    product and one addition per dimension, in the same order as `dot`."""
    import numpy as np

    columns = np.asarray(vectors, dtype=np.float32).T.astype(np.float64)  # one contiguous row per dimension
    total = np.zeros(len(lefts), dtype=np.float64)
    for column in columns:
        total += column[lefts] * column[rights]
    return total
