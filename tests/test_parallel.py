"""--jobs: parallel workers give byte-identical output, and never split a configured tool set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from schemalint import engine
from schemalint.cli import main
from schemalint.engine import PARALLEL_MIN_FILES


def make_repo(root: Path, files: int) -> None:
    for i in range(files):
        tools = [
            {"name": f"get_item_{i % 7}", "description": "" if i % 3 == 0 else "Get an item by id.",
             "parameters": {"type": "object", "properties": {"item_id": {"type": "strng"}}}},
            {"name": f"get_item_{i % 7}", "description": "Dup name.", "parameters": {"type": "object"}},
        ]  # fmt: skip
        (root / f"tools_{i:03}.json").write_text(json.dumps(tools, indent=1), encoding="utf-8")


@pytest.mark.parametrize("toolsets", [False, True])
def test_parallel_output_is_identical(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolsets: bool) -> None:
    monkeypatch.chdir(tmp_path)
    make_repo(tmp_path, PARALLEL_MIN_FILES + 6)
    if toolsets:
        (tmp_path / ".schemalint.toml").write_text('[toolsets]\nall = ["tools_0*.json"]\n')
    runner = CliRunner()
    outputs = {}
    for jobs in ("1", "2", "3"):
        for fmt in ("json", "text"):
            result = runner.invoke(main, ["check", ".", "--jobs", jobs, "--output-format", fmt])
            assert result.exit_code == 1, result.output
            outputs[(jobs, fmt)] = result.output
    assert outputs[("1", "json")] == outputs[("2", "json")] == outputs[("3", "json")]
    assert outputs[("1", "text")] == outputs[("2", "text")] == outputs[("3", "text")]
    duplicates = [f for f in json.loads(outputs[("1", "json")]) if f["code"] == "SL104"]
    # one set per file: 1 duplicate per file; grouped: names repeat across the files of the set too
    assert len(duplicates) > (PARALLEL_MIN_FILES + 6 if toolsets else 0)


@pytest.mark.parametrize("toolsets", [False, True])
def test_a_large_tool_set_split_between_workers_gives_identical_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolsets: bool
) -> None:
    """Few files, so no file-level parallelism: the tool rules of each set run in slices in workers."""
    monkeypatch.chdir(tmp_path)
    make_repo(tmp_path, 5)
    if toolsets:
        (tmp_path / ".schemalint.toml").write_text('[toolsets]\nall = ["tools_00*.json"]\n')
    monkeypatch.setattr(engine, "SPLIT_MIN_TOOLS", 2)
    split_sets: list[int] = []

    class RecordingSplit(engine._SplitToolRules):
        def mark(self, index: int, members: list[engine.SourceResult]) -> None:
            split_sets.append(index)
            super().mark(index, members)

    monkeypatch.setattr(engine, "_SplitToolRules", RecordingSplit)
    runner = CliRunner()
    outputs = {}
    for jobs in ("1", "2", "3"):
        result = runner.invoke(main, ["check", ".", "--jobs", jobs, "--output-format", "json"])
        assert result.exit_code == 1, result.output
        outputs[jobs] = result.output
    assert outputs["1"] == outputs["2"] == outputs["3"]
    assert len(split_sets) == (2 if toolsets else 10)  # every set, in the runs with 2 and 3 jobs
    assert {f["code"] for f in json.loads(outputs["1"])} >= {"SL104", "SL309"}
