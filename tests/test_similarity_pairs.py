"""The two pair searches (pure Python for small sets, numpy blocks for big ones) give the same pairs
with the same cosines, to the bit, ties included; and SL502 gives the same findings either way. The
pure-Python search drops pairs by approximate cosines (`_GridDots`): its error bound holds, is
nearly reached, and a pair that the approximations rank wrongly is still kept."""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schemalint.similarity import embed as embed_module
from schemalint.similarity import pairs as pairs_module
from schemalint.similarity.compare import similar_pairs
from schemalint.similarity.pairs import candidate_pairs, dot, pair_cosines

REPO = Path(__file__).resolve().parent.parent


@st.composite
def vector_sets(draw: st.DrawFn) -> np.ndarray:
    """Unit float32 vectors, some of them repeated (exact ties) or one float32 step apart (near ties)."""
    count = draw(st.integers(2, 30))
    dims = draw(st.integers(1, 24))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    vectors = rng.normal(size=(count, dims)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    for _ in range(draw(st.integers(0, count // 2))):
        source, target = draw(st.integers(0, count - 1)), draw(st.integers(0, count - 1))
        vectors[target] = vectors[source]
        if draw(st.booleans()):  # nudge one component by one float32 step
            column = draw(st.integers(0, dims - 1))
            vectors[target, column] = np.nextafter(vectors[target, column], np.float32(2))
    if draw(st.booleans()):  # a zero vector: a text without a known token
        vectors[draw(st.integers(0, count - 1))] = 0
    if draw(st.booleans()):  # every coordinate about half-way between two points of the Python path's grid
        vectors = _half_way(vectors * 0.999, rng.random(vectors.shape) < 0.5)
    return vectors


GRID_STEP = 2.0**-15  # the pure-Python path's grid step for vectors of norm in (0.5, 1)


def _half_way(vectors: np.ndarray, round_up: np.ndarray) -> np.ndarray:
    """Each coordinate moved to half-way between two grid points (the grid rounds it up by half a
    step), or just under half-way where `round_up` is False (rounded down by almost half a step)."""
    offsets = np.where(round_up, 0.5, 0.5 - 2.0**-9)
    return ((np.floor(vectors / GRID_STEP) + offsets) * GRID_STEP).astype(np.float32)


FLOORS = st.sampled_from([-2.0, 0.0, 0.38, 0.8]) | st.floats(-1, 1)
TOP_K = st.none() | st.integers(1, 6)


@settings(max_examples=300, deadline=None)
@given(
    vectors=vector_sets(),
    floor=FLOORS,
    floor_on_a_pair=st.none() | st.tuples(st.integers(0, 29), st.integers(0, 29)),
    top_k=TOP_K,
    block_rows=st.sampled_from([1, 4, 7, 1024]),
    sample_rows=st.sampled_from([1, 3, 1024]),
    chunk_rows=st.sampled_from([1, 4, 7, 96]),
    python_dots=st.sampled_from([0, 5000]),
)
def test_both_paths_give_the_same_pairs_and_cosines(
    vectors: np.ndarray,
    floor: float,
    floor_on_a_pair: tuple[int, int] | None,
    top_k: int | None,
    block_rows: int,
    sample_rows: int,
    chunk_rows: int,
    python_dots: int,
) -> None:
    rows = vectors.tolist()
    if floor_on_a_pair is not None:  # the floor exactly at a pair's cosine: rounding must not cut it
        first, second = (index % len(rows) for index in floor_on_a_pair)
        floor = dot(rows[first], rows[second])
    with (
        mock.patch.object(pairs_module, "_CHUNK_ROWS", chunk_rows),
        mock.patch.object(pairs_module, "PYTHON_DOTS", python_dots),  # 0: the survivors' cosines by numpy
    ):
        small = candidate_pairs(rows, floor, top_k)
    with (
        mock.patch.object(pairs_module, "BLOCK_ROWS", block_rows),
        mock.patch.object(pairs_module, "SAMPLE_ROWS", sample_rows),
    ):
        big = candidate_pairs(vectors, floor, top_k)
    assert big == small  # same pairs, same float cosines (== on floats: to the bit)
    assert list(small.values()) == pair_cosines(vectors, list(small)) == pair_cosines(rows, list(small))


@settings(max_examples=100, deadline=None)
@given(vectors=vector_sets(), floor=FLOORS, top_k=TOP_K)
def test_small_path_follows_the_selection_rule(vectors: np.ndarray, floor: float, top_k: int | None) -> None:
    """Row i keeps the j whose cosine reaches the floor, or the first top_k by (cosine desc, j); a pair
    is kept when either side keeps it. Cosines are the float64 dot, within 1e-12 of the exact sum."""
    rows = vectors.tolist()
    count = len(rows)
    expected = set()
    for i in range(count):
        over = sorted((-dot(rows[i], rows[j]), j) for j in range(count) if j != i and dot(rows[i], rows[j]) >= floor)
        for _, j in over if top_k is None else over[:top_k]:
            expected.add((min(i, j), max(i, j)))
    found = candidate_pairs(rows, floor, top_k)
    assert set(found) == expected
    for (i, j), cosine in found.items():
        assert abs(cosine - math.fsum(a * b for a, b in zip(rows[i], rows[j], strict=True))) <= 1e-12


def _approximations(rows: list[list[float]]) -> tuple[dict[tuple[int, int], float], float]:
    """The pure-Python path's approximate cosine of every pair (i < j), and its error bound."""
    grid = pairs_module._GridDots(rows, max(math.hypot(*row) for row in rows))
    offset = pairs_module._SLOT_OFFSET
    approximations = {
        (i, j): grid.scale * (grid.rows[i][j] - offset) for i in range(len(rows)) for j in range(i + 1, len(rows))
    }
    return approximations, grid.error


@settings(max_examples=100, deadline=None)
@given(vectors=vector_sets())
def test_grid_approximations_are_within_their_error_bound(vectors: np.ndarray) -> None:
    rows = vectors.tolist()
    approximations, error = _approximations(rows)
    for (i, j), approximation in approximations.items():
        assert abs(approximation - dot(rows[i], rows[j])) <= error


def test_grid_error_bound_is_nearly_reached() -> None:
    """Two equal vectors whose 256 coordinates all round up by half a step: their approximation is off
    by 99.9% of the bound, so a smaller bound would not hold."""
    row = [2047.5 * GRID_STEP] * 256  # 1/16 less half a step: a norm just under 1
    rows = [row, row, [0.0] * 255 + [0.5]]
    approximations, error = _approximations(rows)
    assert 0.999 * error < approximations[(0, 1)] - dot(row, row) <= error


def test_a_pair_ranked_wrongly_by_its_approximation_is_kept() -> None:
    """u's nearest vector is v, just ahead of w, but the approximations put w ahead of v by more than
    the error bound (v's coordinates all round down, w's all round up, and u's rounding favours w's
    side); with top 1, u keeps v. So the pruning must allow for the error twice: on u's k-th
    approximation (w's, too high) and on the pair's own (v's, too low)."""
    dims = 16
    first_half = np.arange(dims) < dims // 2
    u = _half_way(np.full(dims, 8184 * GRID_STEP), ~first_half).tolist()  # norm 0.999
    v_grid = np.floor(_unit([2.0] * 8 + [1.0] * 8) / GRID_STEP)
    w_grid = np.floor(_unit([1.0] * 8 + [2.0] * 8) / GRID_STEP)
    w_grid[8] += v_grid.sum() - 1 - w_grid.sum()  # the grid sums of w (rounded up) exceed v's by dims - 1
    v = _half_way(v_grid * GRID_STEP, np.zeros(dims, dtype=bool)).tolist()
    w = _half_way(w_grid * GRID_STEP, np.ones(dims, dtype=bool)).tolist()
    near_v = _unit([2.2] * 8 + [0.9] * 8).tolist()  # v's and w's own nearest vectors, further from u
    near_w = _unit([0.9] * 8 + [2.2] * 8).tolist()
    rows = [u, v, w, near_v, near_w]
    approximations, error = _approximations(rows)
    assert dot(u, v) > dot(u, w) > max(dot(u, near_v), dot(u, near_w))
    assert approximations[(0, 2)] - approximations[(0, 1)] > 1.2 * error
    expected = {(0, 1), (1, 3), (2, 4)}  # u keeps v, v and near_v keep each other, w and near_w too
    assert set(candidate_pairs(rows, -1.0, 1)) == expected
    assert set(candidate_pairs(np.array(rows, dtype=np.float32), -1.0, 1)) == expected


def _unit(values: list[float]) -> np.ndarray:
    vector = np.array(values, dtype=np.float64)
    return (0.999 * vector / np.linalg.norm(vector)).astype(np.float32)


@settings(max_examples=100, deadline=None)
@given(vectors=vector_sets())
def test_dot_sums_in_dimension_order(vectors: np.ndarray) -> None:
    rows = vectors.tolist()
    for left in rows:
        for right in rows:
            assert dot(left, right) == pairs_module._ordered_dot(left, right)  # to the bit


@pytest.mark.parametrize("bad", [math.inf, math.nan])
def test_vectors_with_an_infinity_or_a_nan_are_compared_without_the_grid(bad: float) -> None:
    """A corrupt cached vector: the pure-Python path compares every pair exactly, as it always did."""
    rows = [[0.6, 0.8], [0.8, 0.6], [bad, 0.0], [1.0, 0.0]]
    over = {(i, j): dot(rows[i], rows[j]) for i in range(4) for j in range(i + 1, 4) if dot(rows[i], rows[j]) >= 0.38}
    assert candidate_pairs(rows, 0.38, None) == over


def test_pair_cosines_of_no_pairs() -> None:
    assert pair_cosines(np.eye(3, dtype=np.float32), []) == pair_cosines([[1.0]], []) == []
    assert candidate_pairs([[1.0]], -2.0, None) == candidate_pairs(np.ones((1, 2), dtype=np.float32), -2.0, 3) == {}


def _dev_tools() -> list[tuple[str, str, object]]:
    tools = {}
    for line in (REPO / "tests" / "data" / "similarity-heldout.jsonl").read_text(encoding="utf-8").splitlines():
        pair = json.loads(line)
        for tool in (pair["a"], pair["b"]):
            tools[tool["name"]] = (tool["name"], tool["description"], tool.get("parameters"))
    return list(tools.values())


@pytest.mark.parametrize(("threshold", "top_k"), [(0.0, None), (0.5, 5), (0.3, 1)])
def test_sl502_findings_are_the_same_on_both_paths(
    threshold: float, top_k: int | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Real tools (English and Chinese, so the name vectors are compared too): the small path
    (rows of floats) and the numpy path give the same pairs and the same scores."""
    tools = _dev_tools()[:30]
    settings = {"embedding-backend": "static", "cache-dir": str(tmp_path)}
    small = similar_pairs(tools, settings, threshold, top_k)
    monkeypatch.setattr(embed_module, "SMALL_SET_TEXTS", 0)
    big = similar_pairs(tools, settings, threshold, top_k)
    assert small.pairs and big.pairs == small.pairs
    assert any(tool[1] != tool[1].encode("ascii", "ignore").decode() for tool in tools)  # Chinese among them


@pytest.mark.parametrize(("texts", "preset", "expected"), [(1000, None, "1"), (1000, "4", "4"), (50_000, None, None)])
def test_numpy_blas_runs_on_one_thread_for_sets_it_cannot_speed_up(
    monkeypatch: pytest.MonkeyPatch, texts: int, preset: str | None, expected: str | None
) -> None:
    from schemalint.similarity.compare import one_blas_thread_for

    monkeypatch.delitem(sys.modules, "numpy", raising=False)  # as if not imported yet (restored after)
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    if preset is not None:
        monkeypatch.setenv("OPENBLAS_NUM_THREADS", preset)
    one_blas_thread_for(texts)
    assert os.environ.get("OPENBLAS_NUM_THREADS") == expected
