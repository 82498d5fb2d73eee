"""What SL502 remembers between runs. Stored neighbour lists (similarity/neighbours.py): a re-run
reads them instead of searching, an edited set updates them, and either way the candidates are
exactly the full search's, ties included. Scored pairs (similarity/scored_pairs.py): an unchanged
set reads its pairs back, and whatever a score depends on invalidates them. Damaged files, and
files of other scoring code, are ignored."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest

from schemalint.rules.sl502_similar_descriptions import SimilarDescriptions
from schemalint.similarity import compare as compare_module
from schemalint.similarity import neighbours as neighbours_module
from schemalint.similarity import pairs as pairs_module
from schemalint.similarity import store as store_module
from schemalint.similarity.neighbours import NeighbourStore, neighbour_pairs, plan_update
from schemalint.similarity.pairs import candidate_pairs
from schemalint.similarity.scored_pairs import ScoredPairsStore, set_digest, tool_digests
from schemalint.similarity.scoring import PairScore
from schemalint.testing import run_rule

REPO = Path(__file__).resolve().parent.parent
FLOOR = 0.1
TOP_K = 3


@pytest.fixture(autouse=True)
def _store_small_sets(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests' small sets are stored too (by default only sets of MIN_STORED_SET tools are)."""
    monkeypatch.setattr(store_module, "MIN_STORED_SET", 2)


def _unit(rng: random.Random, dims: int = 6) -> list[float]:
    """A unit vector of float32 values, coarse (few distinct values) so that equal cosines occur."""
    raw = [rng.choice((-2, -1, 0, 1, 2, 3)) for _ in range(dims)]
    if not any(raw):
        raw[0] = 1
    vector = np.array(raw, dtype=np.float32)
    return (vector / np.linalg.norm(vector)).astype(np.float32).tolist()


class _Set:
    """A set of texts (keys) and their vectors, as neighbour_pairs sees them, counting vector loads."""

    def __init__(self, rows: list[list[float]], keys: list[bytes]) -> None:
        self.rows, self.keys, self.loads = rows, keys, 0

    def load(self, rows: bool) -> list[list[float]] | np.ndarray:
        self.loads += 1
        return self.rows if rows else np.array(self.rows, dtype=np.float32)


def _edited(rng: random.Random, rows: list[list[float]], keys: list[bytes], serial: list[int]) -> None:
    """One random edit in place: a changed text, a duplicated one, an insertion or a deletion."""
    kind = rng.choice(("change", "change", "duplicate", "insert", "delete"))
    position = rng.randrange(len(rows))
    serial[0] += 1
    fresh_key = serial[0].to_bytes(16, "big")
    if kind == "change":
        rows[position], keys[position] = _unit(rng), fresh_key
    elif kind == "duplicate":  # the same text as another tool: the same key, an equal cosine of 1
        source = rng.randrange(len(rows))
        rows[position], keys[position] = list(rows[source]), keys[source]
    elif kind == "insert":
        rows.insert(position, _unit(rng))
        keys.insert(position, fresh_key)
    elif len(rows) > TOP_K + 3:
        del rows[position], keys[position]


@pytest.mark.parametrize("seed", range(12))
def test_updated_neighbours_equal_a_full_search_after_random_edits(
    seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(neighbours_module, "UPDATE_SHARE", 1.0)  # update whenever possible (the test's point)
    rng = random.Random(seed)
    count = rng.randrange(12, 60)
    rows = [_unit(rng) for _ in range(count)]
    keys = [n.to_bytes(16, "big") for n in range(count)]
    serial = [10_000]
    store = NeighbourStore(tmp_path, "model")
    updates = 0
    real_finish = neighbours_module.finish_update
    for _ in range(25):
        for _ in range(rng.choice((1, 1, 1, 2, 3))):
            _edited(rng, rows, keys, serial)
        expected = candidate_pairs(rows, FLOOR, TOP_K)
        texts = _Set(rows, list(keys))
        with mock.patch.object(neighbours_module, "finish_update", wraps=real_finish) as finish:
            found = neighbour_pairs(texts.keys, texts.load, FLOOR, TOP_K, store)
            updates += finish.call_count
        assert found == expected  # the same pairs with the same cosines, to the bit
        again = _Set(rows, list(keys))
        assert neighbour_pairs(again.keys, again.load, FLOOR, TOP_K, store) == expected
        assert again.loads == 0  # a re-run reads no vectors
    assert updates >= 20  # most edits were updates, not full searches


def test_one_changed_text_recomputes_only_what_it_touches(tmp_path: Path) -> None:
    rng = random.Random(7)
    rows = [_unit(rng, 16) for _ in range(200)]
    keys = [n.to_bytes(16, "big") for n in range(200)]
    store = NeighbourStore(tmp_path, "model")
    neighbour_pairs(keys, _Set(rows, keys).load, FLOOR, TOP_K, store)
    rows[50], keys[50] = _unit(rng, 16), b"x" * 16
    old = store.nearest(keys, FLOOR, TOP_K)
    assert old is not None
    plan = plan_update(old, keys, FLOOR, TOP_K)
    assert plan is not None and plan.fresh == [50]
    assert 50 in plan.recompute and len(plan.recompute) <= 1 + 2 * TOP_K
    with mock.patch.object(pairs_module, "candidate_pairs", side_effect=AssertionError("full search")):
        found = neighbour_pairs(keys, _Set(rows, keys).load, FLOOR, TOP_K, store)
    assert found == candidate_pairs(rows, FLOOR, TOP_K)


def test_moved_texts_are_recomputed(tmp_path: Path) -> None:
    rng = random.Random(3)
    rows = [_unit(rng) for _ in range(30)]
    keys = [n.to_bytes(16, "big") for n in range(30)]
    store = NeighbourStore(tmp_path, "model")
    neighbour_pairs(keys, _Set(rows, keys).load, FLOOR, TOP_K, store)
    order = list(range(30))
    order[3], order[20] = order[20], order[3]  # two tools swapped: ties are ordered by index
    moved_rows, moved_keys = [rows[n] for n in order], [keys[n] for n in order]
    old = store.nearest(moved_keys, FLOOR, TOP_K)
    assert old is not None
    plan = plan_update(old, moved_keys, FLOOR, TOP_K)
    assert plan is not None and len(plan.fresh) in (1, 2)  # kept in order: the rest
    assert neighbour_pairs(moved_keys, _Set(moved_rows, moved_keys).load, FLOOR, TOP_K, store) == candidate_pairs(
        moved_rows, FLOOR, TOP_K
    )


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "empty", "directory"])
def test_broken_state_files_are_ignored(damage: str, tmp_path: Path) -> None:
    rng = random.Random(5)
    rows = [_unit(rng) for _ in range(40)]
    keys = [n.to_bytes(16, "big") for n in range(40)]
    store = NeighbourStore(tmp_path, "model")
    expected = neighbour_pairs(keys, _Set(rows, keys).load, FLOOR, TOP_K, store)
    assert store.files.folder is not None
    (state,) = store.files.folder.iterdir()
    data = state.read_bytes()
    if damage == "truncate":
        state.write_bytes(data[: len(data) // 2])
    elif damage == "flip":  # a cosine's bit: the checksum catches it
        state.write_bytes(data[:-5] + bytes([data[-5] ^ 1]) + data[-4:])
    elif damage == "garbage":
        state.write_bytes(b"not a state file" * 10)
    elif damage == "empty":
        state.write_bytes(b"")
    else:
        state.unlink()
        state.mkdir()
    texts = _Set(rows, keys)
    assert neighbour_pairs(keys, texts.load, FLOOR, TOP_K, store) == expected
    assert texts.loads == 1  # searched again
    changed = list(keys)
    changed[0] = b"y" * 16
    assert neighbour_pairs(changed, _Set(rows, changed).load, FLOOR, TOP_K, store) == candidate_pairs(
        rows, FLOOR, TOP_K
    )


def test_no_cache_dir_stores_nothing() -> None:
    rng = random.Random(1)
    rows = [_unit(rng) for _ in range(20)]
    keys = [n.to_bytes(16, "big") for n in range(20)]
    texts = _Set(rows, keys)
    store = NeighbourStore(None, "model")
    assert neighbour_pairs(keys, texts.load, FLOOR, TOP_K, store) == candidate_pairs(rows, FLOOR, TOP_K)
    assert neighbour_pairs(keys, texts.load, FLOOR, TOP_K, store) == candidate_pairs(rows, FLOOR, TOP_K)
    assert texts.loads == 2


def test_old_states_are_pruned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(neighbours_module, "MAX_STATES", 4)
    rng = random.Random(2)
    store = NeighbourStore(tmp_path, "model")
    for n in range(10):
        keys = [bytes([n, k]) * 8 for k in range(12)]
        neighbour_pairs(keys, _Set([_unit(rng) for _ in keys], keys).load, FLOOR, TOP_K, store)
    assert store.files.folder is not None
    assert 0 < len(list(store.files.folder.iterdir())) <= 4


def _generated_tools(count: int) -> list[dict]:
    import sys

    sys.path.insert(0, str(REPO / "benchmarks"))
    from bench_similarity import make_tools

    return make_tools(count)


def _findings(tools: list[dict], cache: Path) -> list[str]:
    settings = {"embedding-backend": "static", "cache-dir": str(cache)}
    return [
        json.dumps([finding.pointer, finding.message, finding.data], sort_keys=True)
        for finding in run_rule(SimilarDescriptions(), tools, settings=settings)
    ]


@pytest.mark.parametrize("count", [40, 300])
def test_sl502_with_stored_neighbours_equals_a_cold_run(count: int, tmp_path: Path) -> None:
    tools = _generated_tools(count)
    cold = _findings(tools, tmp_path / "shared")
    assert cold and _findings(tools, tmp_path / "shared") == cold  # warm: from the stored neighbours
    rng = random.Random(count)
    for edit in range(3):  # one description edited per run, as in an editor
        target = rng.randrange(count)
        tools[target] = {**tools[target], "description": f"Edit {edit}: " + tools[rng.randrange(count)]["description"]}
        assert _findings(tools, tmp_path / "shared") == _findings(tools, tmp_path / f"fresh{edit}")
    assert len(list((tmp_path / "shared" / "neighbours").iterdir())) == 1  # one model


def test_mixed_language_set_from_stored_neighbours(tmp_path: Path) -> None:
    tools = [
        {"name": "get_weather", "description": "Get the current weather for a city."},
        {"name": "get_weather_now", "description": "获取某个城市现在的天气情况。"},
        *(
            {"name": f"{verb}_{noun}", "description": f"{verb.title()} the {noun} of a user account by its id."}
            for verb in ("archive", "export", "count")
            for noun in ("invoice", "ticket", "report")
        ),
    ]
    cold = _findings(tools, tmp_path / "shared")
    assert _findings(tools, tmp_path / "shared") == cold
    tools[3] = {**tools[3], "description": "Export every ticket of a user account as CSV."}
    assert _findings(tools, tmp_path / "shared") == _findings(tools, tmp_path / "fresh")


def test_unchanged_set_reads_its_scored_pairs(tmp_path: Path) -> None:
    tools = _generated_tools(60)
    cold = _findings(tools, tmp_path / "shared")
    with (
        mock.patch.object(compare_module, "score_pair", side_effect=AssertionError("scored again")),
        mock.patch.object(compare_module, "embed_texts", side_effect=AssertionError("embedded again")),
    ):
        assert _findings(tools, tmp_path / "shared") == cold


@pytest.mark.parametrize(
    "change",
    [
        lambda tool: {**tool, "name": tool["name"] + "_v2"},
        lambda tool: {**tool, "description": tool["description"] + " Do not use for archived items."},
        lambda tool: {**tool, "parameters": {"type": "object", "properties": {"other_id": {"type": "string"}}}},
    ],
    ids=["name", "boundary sentence", "parameters"],
)
def test_what_a_score_depends_on_invalidates_the_scored_pairs(change: Any, tmp_path: Path) -> None:
    tools = _generated_tools(60)
    _findings(tools, tmp_path / "shared")
    tools[7] = change(tools[7])
    assert _findings(tools, tmp_path / "shared") == _findings(tools, tmp_path / "fresh")


def test_scored_pairs_of_other_scoring_code_or_damaged_files_are_not_read(tmp_path: Path) -> None:
    items = [(t["name"], t["description"], t["parameters"]) for t in _generated_tools(30)]
    tools = tool_digests(items)
    digest = set_digest(tools, 0.5, 5)
    score = PairScore(0.75, 0.5, 0.8, 1.0, 1.0, 0.25)
    ScoredPairsStore(tmp_path, "model").write(tools, digest, [(1, 4, score), (0, 9, score)])
    assert ScoredPairsStore(tmp_path, "model").read(tools, digest) == [(1, 4, score), (0, 9, score)]
    assert ScoredPairsStore(tmp_path, "model").read(tools, set_digest(tools, 0.6, 5)) is None
    assert ScoredPairsStore(tmp_path, "other-model").read(tools, digest) is None
    ScoredPairsStore(tmp_path, "no pairs").write(tools, digest, [])
    assert ScoredPairsStore(tmp_path, "no pairs").read(tools, digest) == []
    with mock.patch.object(store_module, "code_fingerprint", return_value=b"other code"):
        assert ScoredPairsStore(tmp_path, "model").read(tools, digest) is None
    (path,) = (tmp_path / "scored" / "model").iterdir()
    data = path.read_bytes()
    path.write_bytes(data[:-1] + bytes([data[-1] ^ 0x40]))
    assert ScoredPairsStore(tmp_path, "model").read(tools, digest) is None
    assert ScoredPairsStore(tmp_path, "model").nearest(tools) == {}


def test_an_edit_rescores_only_the_pairs_it_changes(tmp_path: Path) -> None:
    tools = _generated_tools(80)
    settings = {"embedding-backend": "static", "cache-dir": str(tmp_path / "shared")}
    before = run_rule(SimilarDescriptions(), tools, settings=settings)
    reported = {(finding.data["sibling"], tools[int(finding.pointer.split("/")[1])]["name"]) for finding in before}
    edited_name = tools[10]["name"]
    tools[10] = {**tools[10], "description": "Edited: " + tools[10]["description"]}
    with mock.patch.object(compare_module, "score_pair", wraps=compare_module.score_pair) as scored:
        after = _findings(tools, tmp_path / "shared")
    rescored = {(a.name, b.name) for (a, b, *_), _ in scored.call_args_list}
    with mock.patch.object(compare_module, "score_pair", wraps=compare_module.score_pair) as scored_fresh:
        assert after == _findings(tools, tmp_path / "fresh")
    # pairs with the edited tool, and pairs not reported before (only reported pairs are stored)
    assert all(edited_name in pair or pair not in reported for pair in rescored)
    assert scored_fresh.call_count - len(rescored) >= len(reported) // 2  # the rest came from the stored scores


def test_small_sets_are_not_stored_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()
    tools = _generated_tools(store_module.MIN_STORED_SET - 1)
    cold = _findings(tools, tmp_path)
    assert _findings(tools, tmp_path) == cold
    assert not (tmp_path / "scored").exists() and not (tmp_path / "neighbours").exists()
    assert _findings(_generated_tools(store_module.MIN_STORED_SET), tmp_path)
    assert (tmp_path / "scored").exists() and (tmp_path / "neighbours").exists()
