"""Nearest-neighbour pairs among unit vectors, and their cosines.

Vectors come in two forms (`Vectors`), and both give the same pairs with the same cosines:
- a small set is a list of rows of Python floats, searched in pure Python, so a small tool set never
  imports numpy (that import alone costs more than the whole lint): big-integer arithmetic gives
  every pair's cosine approximately, with a proven error bound (`_GridDots`), which drops the pairs
  that cannot be selected, and only the rest get their exact cosine;
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

import heapq
import itertools
import math
import operator
import sys
from array import array
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
#: more surviving pairs than this in the pure-Python path get their exact cosines from numpy:
#: `import numpy` costs about as much as 5,000 `dot`s (threshold 0 asks for every pair)
PYTHON_DOTS = 5000
#: the pure-Python path's grid (`_GridDots`): the longest row is at most 2**_GRID_BITS steps long
_GRID_BITS = 15
#: a big integer's slot per pair: 32 bits, holding the integer dot plus _SLOT_OFFSET
_SLOT_TYPE = next(code for code in "IL" if array(code).itemsize == 4)
_SLOT_BYTES = 4
_SLOT_OFFSET = 1 << 31
_BIAS = 1 << 16
#: at most this many rows per packed column: 96 slots of 32 bits stay within CPython's small-object
#: allocator (512 bytes)
_CHUNK_ROWS = 96


def _ordered_dot(left: Sequence[float], right: Sequence[float]) -> float:
    """The cosine of two unit vectors of float32 values: float64 products summed in dimension order."""
    return reduce(operator.add, map(operator.mul, left, right), 0.0)


def _summed_dot(left: Sequence[float], right: Sequence[float]) -> float:
    """The same bits as `_ordered_dot`, twice as fast, before Python 3.12: sum() adds floats one after
    the other in a C double (3.12 made it a compensated sum, whose bits differ)."""
    return sum(map(operator.mul, left, right), 0.0)


dot = _summed_dot if sys.version_info < (3, 12) else _ordered_dot


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
    """The pure-Python path. Approximate cosines with an error bound (`_GridDots`) drop the pairs that
    cannot be selected; the survivors' cosines are then computed exactly (`dot`) and selected.

    Why no pair that the exact rule keeps is dropped: let K_i be row i's k-th largest exact cosine
    (over every j != i). If row i keeps j, then cos(i, j) >= floor and, with `top_k`, at most k - 1
    other entries rank before j, so cos(i, j) >= K_i (ties included: every comparison is >=). The k
    entries of row i with the largest approximations (the k-th of them `kth`) all have an exact cosine
    of at least `kth - error`, so K_i >= kth - error. Hence cos(i, j) >= bar_i = max(floor, kth - error),
    and the approximation of (i, j) is at least bar_i - error (`error` also covers the few float
    roundings of the bars, each under 1e-15). A pair kept by row i or by row j therefore has an
    approximation of at least min(bar_i, bar_j) - error, which is the survival test. Every pair a
    row keeps survives, so among the survivors each row has the same first top_k, and the selection
    below, applied to the survivors' exact cosines, gives what it gives on every pair."""
    count = len(rows)
    norms = [math.hypot(*row) for row in rows]
    largest = max(norms)
    # every pair reaches the floor, or a corrupt cached vector holds an infinity or a NaN (no grid)
    if (keep_top is None and floor <= -(largest**2) - 1e-9) or not math.isfinite(sum(norms)):
        survivors = [(left, right) for left in range(count) for right in range(left + 1, count)]
    else:
        survivors = _surviving_pairs(_GridDots(rows, largest), floor, keep_top)
    if len(survivors) > PYTHON_DOTS:
        import numpy as np

        cosines = pair_cosines(np.array(rows, dtype=np.float32), survivors)  # the same bits
    else:
        cosines = pair_cosines(rows, survivors)
    neighbours: list[list[tuple[float, int]]] = [[] for _ in rows]
    for (left, right), cosine in zip(survivors, cosines, strict=True):
        if cosine >= floor:
            neighbours[left].append((-cosine, right))
            neighbours[right].append((-cosine, left))
    pairs: dict[tuple[int, int], float] = {}
    for row, found in enumerate(neighbours):
        kept = sorted(found)[:keep_top] if keep_top is not None else found
        for negated, other in kept:
            pairs[(row, other) if row < other else (other, row)] = -negated
    return pairs


def _surviving_pairs(approximate: _GridDots, floor: float, keep_top: int | None) -> list[tuple[int, int]]:
    """The pairs (i < j) whose approximate cosine reaches bar_i - error or bar_j - error (see above)."""
    rows = approximate.rows
    error, scale = approximate.error, approximate.scale
    survivors: set[tuple[int, int]] = set()
    for row, values in enumerate(rows):
        bar = floor
        if keep_top is not None:  # the diagonal (0) is below every other slot, and keep_top < len(rows) - 1
            bar = max(floor, scale * (heapq.nlargest(keep_top, values)[-1] - _SLOT_OFFSET) - error)
        lowest = _SLOT_OFFSET + math.floor((bar - error) / scale)  # in slot units, rounded down
        reached = itertools.compress(range(len(rows)), map(operator.ge, values, itertools.repeat(lowest)))
        survivors.update((row, other) if row < other else (other, row) for other in reached if other != row)
    return sorted(survivors)


class _GridDots:
    """Every pair's dot product, approximately and fast, without numpy. Each row is rounded to a grid
    of integers g (the step a power of two, so scaling is exact; the longest row at most
    2**_GRID_BITS steps), and row i's integer dots with a chunk of rows come out of one sum of
    big-integer products, `sum(g_i[d] * column_d)`, where column_d holds the chunk's d-th grid
    coordinates in 32-bit slots: several times faster than `dot`, pair for pair. `rows[i][j]` holds
    `_SLOT_OFFSET + g_i . g_j` (0 on the diagonal, below every other slot), and
    `scale * (rows[i][j] - _SLOT_OFFSET)` is within `error` of `dot(vectors[i], vectors[j])`."""

    def __init__(self, vectors: list[list[float]], largest: float) -> None:
        """`largest`: the largest row norm."""
        dims = len(vectors[0])
        step = 2.0 ** (math.ceil(math.log2(largest * (1 - 2**-20))) - _GRID_BITS) if largest > 0 else 1.0
        self.scale = step * step
        # each coordinate is rounded to the nearest step (the float sum below rounds it by < 2**-36 step)
        residual = step * (0.5 + 2**-20) * math.sqrt(dims)
        # x.y - (step g).(step h) = (step g).r_y + r_x.(step h) + r_x.r_y, with |step g| <= largest + residual;
        # 1e-9 covers `dot`'s own rounding (< dims * 2**-53 * largest**2) and the bars' float roundings
        self.error = (2 * (largest + residual) + residual) * residual + 1e-9 * max(1.0, largest * largest)
        # |g| <= 2**15 + sqrt(dims) / 2, so |g_i . g_j| < 2**31 = _SLOT_OFFSET: each slot is in [0, 2**32);
        # a coordinate plus _BIAS is in [0, 2**17], so the columns pack non-negative slots
        to_grid = itertools.repeat(1 / step)
        rounding = itertools.repeat(_BIAS + 0.5)  # then rounded down: to the nearest step
        biased = [
            list(map(math.floor, map(operator.add, map(operator.mul, row, to_grid), rounding))) for row in vectors
        ]
        sums = list(map(sum, biased))
        chunks = -(-len(vectors) // _CHUNK_ROWS)
        size = -(-len(vectors) // chunks)  # chunks of equal size: a small last chunk would cost every row
        starts = range(0, len(vectors), size)
        # blocks[a, b]: the dots of chunk a's rows with chunk b's rows, one array per row of chunk a;
        # computed for a <= b only (each chunk against itself and the chunks after it)
        blocks: dict[tuple[int, int], list[array[int]]] = {}
        for later, start in enumerate(starts):
            segments = _chunk_dots(biased, sums, start, size)
            for earlier, first in enumerate(starts[: later + 1]):
                blocks[earlier, later] = segments[first : first + size]
        self.rows: list[array[int]] = []
        for chunk_index in range(len(starts)):
            # the blocks left of the diagonal are the transposes of those above it (the dots are symmetric)
            left = [list(zip(*blocks[earlier, chunk_index], strict=True)) for earlier in range(chunk_index)]
            for offset in range(len(blocks[chunk_index, chunk_index])):
                values = array(_SLOT_TYPE)
                for block in left:
                    values.extend(block[offset])
                for later in range(chunk_index, len(starts)):
                    values.extend(blocks[chunk_index, later][offset])
                values[len(self.rows)] = 0  # a row is not its own neighbour
                self.rows.append(values)


def _chunk_dots(biased: list[list[int]], sums: list[int], start: int, size: int) -> list[array[int]]:
    """The slots of every row up to the chunk's end (the chunk: `size` rows from `start`) with the
    chunk's rows. `biased`: the grid rows g plus _BIAS (b); `sums`: their sums."""
    dims = len(biased[0])
    chunk = biased[start : start + size]
    columns = [_packed(column) for column in zip(*chunk, strict=True)]
    # sum_d (g_i + b)(g_j + b) = g_i . g_j + b * sums_i + b * sums_j - dims * b**2
    chunk_sums = _packed(sums[start : start + size]) * _BIAS
    ones = _packed([1] * len(chunk))
    constant = _SLOT_OFFSET + dims * _BIAS * _BIAS
    segments = []
    for grid, total in zip(biased[: start + len(chunk)], sums, strict=False):
        slots = sum(map(operator.mul, grid, columns)) - chunk_sums + (constant - _BIAS * total) * ones
        segments.append(array(_SLOT_TYPE, slots.to_bytes(len(chunk) * _SLOT_BYTES, sys.byteorder)))
    return segments


def _packed(values: Sequence[int]) -> int:
    """Non-negative integers below 2**32 as one big integer, values[n] in bits 32 n to 32 n + 31."""
    return int.from_bytes(array(_SLOT_TYPE, values).tobytes(), sys.byteorder)


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
