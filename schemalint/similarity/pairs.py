"""Nearest-neighbour pairs among unit vectors, and their cosines.

Vectors come in two forms (`Vectors`), and both give the same pairs with the same cosines:
- a small set is a list of rows of Python floats: every pair's cosine is computed in pure Python,
  so a small tool set never imports numpy (that import alone costs more than the whole lint);
- a big set is a numpy float32 matrix: float32 products of the upper triangle (each pair once), in
  blocks of BLOCK_ROWS rows (so 10k tools fit in memory), find a superset of the candidates, wide
  enough for float32's rounding error, and the candidates' cosines are then computed exactly as the
  small path computes them. With `top_k`, each row's bar is first raised to a lower bound of its
  k-th largest cosine, taken from SAMPLE_ROWS sampled rows (a tenth of the work at 10k tools), so
  no full row is ever sorted or partitioned.

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
#: rows sampled for each row's first lower bound of its k-th largest cosine (`_sampled_kth`)
SAMPLE_ROWS = 1024
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
    """The numpy path. Float32 cosines are within `margin` of the exact ones, so row i can only select
    an entry whose float32 cosine reaches the row's bar: `floor - margin`, and with `top_k` also a
    lower bound of the row's exact k-th largest cosine less `margin`. Only the upper triangle of the
    cosine matrix is computed (each pair once); an entry is kept when it reaches the bar of either of
    its rows, and the entries kept are then selected by their exact cosines."""
    import numpy as np

    vectors = np.asarray(vectors, dtype=np.float32)
    count, dims = vectors.shape
    largest_norm = float(np.sqrt(np.einsum("ij,ij->i", vectors, vectors, dtype=np.float64).max()))
    # the bars' own float32 rounding (2**-24 of a cosine) is covered by the factor 2 in the margin
    margin = dims * _FLOAT32_ERROR_PER_TERM * largest_norm**2
    bars = np.full(count, floor - margin, dtype=np.float32)
    if keep_top is not None:
        bars = np.maximum(bars, _sampled_kth(vectors, keep_top) - 2 * margin)
    lefts, rights, values = _upper_entries(vectors, bars)
    if keep_top is not None and len(lefts) > keep_top * count:
        # a loose sample bound: each row's k-th largest float32 cosine among the entries kept (they hold
        # every entry over the row's bar, at least k of them) is the row's own, a tighter bound
        ends = np.concatenate((lefts, rights))
        bars = np.maximum(bars, _kth_largest(ends, np.concatenate((values, values)), count, keep_top) - 2 * margin)
        kept = (values >= bars[lefts]) | (values >= bars[rights])
        lefts, rights = lefts[kept], rights[kept]
    cosines = matrix_dots(vectors, lefts, rights)
    over = cosines >= floor
    lefts, rights, cosines = lefts[over], rights[over], cosines[over]
    if keep_top is not None and len(lefts):
        # each row's candidates, best first (ties: the lower index first); a pair is kept when either
        # of its rows has it among its first top_k
        rows = np.concatenate((lefts, rights))
        order = np.lexsort((np.concatenate((rights, lefts)), -np.concatenate((cosines, cosines)), rows))
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order)) - np.searchsorted(rows[order], rows[order], side="left")
        kept = (rank[: len(lefts)] < keep_top) | (rank[len(lefts) :] < keep_top)
        lefts, rights, cosines = lefts[kept], rights[kept], cosines[kept]
    return dict(zip(zip(lefts.tolist(), rights.tolist(), strict=True), cosines.tolist(), strict=True))


def _sampled_kth(vectors: np.ndarray, keep_top: int) -> np.ndarray:
    """Each row's k-th largest float32 cosine with an evenly spaced sample of up to SAMPLE_ROWS other
    rows: k rows have at least that (within `margin`), so the row's exact k-th largest cosine is at
    least this less `margin`; the sample costs SAMPLE_ROWS / count of the whole matrix."""
    import numpy as np

    count = len(vectors)
    size = max(keep_top + 1, min(SAMPLE_ROWS, count // 4))  # a quarter of a smaller set is close enough
    sample = np.arange(0, count, max(1, count // size))
    sampled = vectors[sample].T
    kth = np.empty(count, dtype=np.float32)
    for start in range(0, count, BLOCK_ROWS):
        block = vectors[start : start + BLOCK_ROWS] @ sampled
        inside = np.flatnonzero((sample >= start) & (sample < start + len(block)))
        block[sample[inside] - start, inside] = -np.inf  # a row is not its own neighbour
        block.partition(len(sample) - keep_top, axis=1)
        kth[start : start + len(block)] = block[:, len(sample) - keep_top]
    return kth


def _upper_entries(vectors: np.ndarray, bars: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pairs (i < j) whose float32 cosine reaches the bar of i or of j: lefts, rights, cosines."""
    import numpy as np

    count = len(vectors)
    lefts, rights, values = [], [], []
    for start in range(0, count, BLOCK_ROWS):
        stop = min(start + BLOCK_ROWS, count)
        block = vectors[start:stop] @ vectors[start:].T  # row r, column c: rows start + r and start + c
        flat = np.flatnonzero((block >= bars[start:stop, None]) | (block >= bars[None, start:]))
        rows, columns = np.divmod(flat, block.shape[1])  # much faster than a 2-d nonzero
        upper = columns > rows
        lefts.append(rows[upper] + start)
        rights.append(columns[upper] + start)
        values.append(block.reshape(-1)[flat[upper]])
    return np.concatenate(lefts), np.concatenate(rights), np.concatenate(values)


def _kth_largest(rows: np.ndarray, values: np.ndarray, count: int, k: int) -> np.ndarray:
    """Each of `count` rows' k-th largest float32 value among the (row, value) entries; -inf with fewer.
    One sort of int64 keys (row, then value descending), several times faster than a lexsort."""
    import numpy as np

    bits = values.astype(np.float32).view(np.int32).astype(np.int64)
    ascending = np.where(bits >= 0, bits, -(2**31) - bits)  # the float order as integers (-0.0 = 0.0)
    keys = np.sort((rows.astype(np.int64) << 32) | (2**31 - 1 - ascending))
    sorted_rows = keys >> 32
    at = np.arange(len(keys)) - np.searchsorted(sorted_rows, sorted_rows, side="left") == k - 1
    ascending = 2**31 - 1 - (keys[at] & 0xFFFFFFFF)
    kth = np.full(count, -np.inf, dtype=np.float32)
    kth[sorted_rows[at]] = np.where(ascending >= 0, ascending, -(2**31) - ascending).astype(np.int32).view(np.float32)
    return kth


def matrix_dots(vectors: np.ndarray, lefts: np.ndarray, rights: np.ndarray) -> np.ndarray:
    """`dot` of rows `lefts[n]` and `rights[n]` for every n, vectorised over the pairs: one float64
    product and one addition per dimension, in the same order as `dot`."""
    import numpy as np

    columns = np.asarray(vectors, dtype=np.float32).T.astype(np.float64)  # one contiguous row per dimension
    total = np.zeros(len(lefts), dtype=np.float64)
    for column in columns:
        total += column[lefts] * column[rights]
    return total
