"""--jobs: parallel workers give byte-identical output, and never split a configured tool set."""

from __future__ import annotations

import json
import os
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


@pytest.mark.parametrize(
    ("cpus", "loadavg", "jobs"),
    [
        (2, "0.31 0.52 0.60 1/117 9574\n", 2),  # only the reader runs: every CPU is idle
        (2, "6.72 6.68 5.99 2/412 9519\n", 1),  # one other runnable task takes one of the two
        (8, "6.72 6.68 5.99 4/412 9519\n", 5),
        (2, "6.72 6.68 5.99 7/412 9519\n", 1),  # busier than there are CPUs: still one process
        (4, "", 4),  # unreadable: every CPU
        (4, "0.1 0.1 0.1 x/1 2", 4),
    ],
)
def test_default_jobs_leave_out_the_cpus_other_work_keeps_busy(cpus: int, loadavg: str, jobs: int) -> None:
    assert engine.idle_cpus(cpus, loadavg) == jobs


def test_check_without_jobs_uses_the_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    make_repo(tmp_path, 1)
    monkeypatch.setattr(engine, "default_jobs", lambda: 3)
    seen: list[int] = []
    real_lint = engine.lint

    def recording_lint(paths: tuple[str, ...], options: engine.LintOptions) -> engine.LintResult:
        seen.append(options.jobs)
        return real_lint(paths, options)

    monkeypatch.setattr(engine, "lint", recording_lint)
    runner = CliRunner()
    runner.invoke(main, ["check", "."])
    runner.invoke(main, ["check", ".", "--jobs", "1"])
    assert seen == [3, 1]


def test_the_default_is_at_least_one_and_at_most_the_cpus() -> None:
    assert 1 <= engine.default_jobs() <= (os.cpu_count() or 1)


def test_parallel_links_fixtures_and_applies_silencers_as_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eval fixtures link to sets in any worker's files; comments and per-file-ignores (used or not)
    are judged over the whole run."""
    monkeypatch.chdir(tmp_path)
    make_repo(tmp_path, PARALLEL_MIN_FILES)
    for i in range(4):
        comment = "  # schemalint: disable=SL301" if i % 2 else "  # schemalint: disable=SL303"
        (tmp_path / f"y_{i}.yaml").write_text(
            f"tools:\n  - name: list_items_{i}\n    description: List items.\n    input_schema:\n"
            f"      type: object\n      properties:\n        nested:{comment}\n          type: object\n"
            "          properties:\n            x: {type: object, properties: {y: {type: string}}}\n"
        )
    fixture = {"tools": ["get_item_1", "nope"], "cases": [{"input": "x", "expect": {"tool": "get_item_1"}}]}
    (tmp_path / "evals.json").write_text(json.dumps(fixture))
    (tmp_path / "cases.jsonl").write_text(json.dumps({"input": "a", "expect": {"tool": "zzz"}}) + "\n")
    (tmp_path / ".schemalint.toml").write_text(
        'extend-select = ["ALL"]\n[per-file-ignores]\n"tools_00*.json" = ["SL303"]\n"y_1.yaml" = ["SL105"]\n'
        '[fixtures]\n"cases.jsonl" = ["y_3.yaml", "missing.json"]\n'
    )
    runner = CliRunner()
    outputs = [runner.invoke(main, ["check", ".", "--jobs", jobs, "--output-format", "json"]) for jobs in "123"]
    assert outputs[0].output == outputs[1].output == outputs[2].output
    codes = {finding["code"] for finding in json.loads(outputs[0].output)}
    assert {"SL001", "SL002", "SL811", "SL813"} <= codes
