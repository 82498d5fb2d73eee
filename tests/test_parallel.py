"""--jobs: parallel workers give byte-identical output, and never split a configured tool set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

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
