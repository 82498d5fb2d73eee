"""--jobs: parallel workers give byte-identical output, and never split a configured tool set."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from schemalint import engine
from schemalint.cli import main
from schemalint.diagnostics import Diagnostic
from schemalint.engine import PARALLEL_MIN_FILES
from schemalint.math_threads import MATH_THREAD_VARIABLES


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


def test_while_workers_run_the_set_rules_math_uses_one_thread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """numpy's BLAS and torch size their pools from these at import; a value the user set is kept."""
    monkeypatch.chdir(tmp_path)
    make_repo(tmp_path, 1)
    monkeypatch.setattr(engine, "SPLIT_MIN_TOOLS", 2)
    for name in MATH_THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")
    CliRunner().invoke(main, ["check", ".", "--jobs", "1"])
    assert "OPENBLAS_NUM_THREADS" not in os.environ  # no workers, no limit
    CliRunner().invoke(main, ["check", ".", "--jobs", "2"])
    assert (os.environ["OPENBLAS_NUM_THREADS"], os.environ["OMP_NUM_THREADS"], os.environ["MKL_NUM_THREADS"]) == (
        "1",
        "1",
        "3",
    )


_TEST_PROCESS = os.getpid()
_slices_run_here: list[tuple[int, int]] = []
_slice_diagnostics = engine._tool_slice_diagnostics
#: created when this process runs its first slice; a worker's slices wait for it (forked after it is set)
_parent_started: list[Path] = []


def _held_in_workers(index: int, start: int, stop: int) -> dict[str, list[Diagnostic]]:
    """A worker's slice waits until the parent has taken one, so the parent surely finds slices
    that no worker has started, and the worker surely runs the first one."""
    if os.getpid() == _TEST_PROCESS:
        _slices_run_here.append((start, stop))
        _parent_started[0].touch()
    else:
        deadline = time.monotonic() + 30
        while not _parent_started[0].exists() and time.monotonic() < deadline:
            time.sleep(0.01)
    return _slice_diagnostics(index, start, stop)


def test_the_parent_takes_the_slices_no_worker_started(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After its set rules, the main process runs the unstarted slices itself, from the back; the
    worker's slices and its own go back in tool order, so the output is that of --jobs 1."""
    monkeypatch.chdir(tmp_path)
    make_repo(tmp_path, 5)
    (tmp_path / ".schemalint.toml").write_text('[toolsets]\nall = ["tools_00*.json"]\n')  # 10 tools in one set
    expected = CliRunner().invoke(main, ["check", ".", "--jobs", "1", "--output-format", "json"]).output
    monkeypatch.setattr(engine, "SPLIT_MIN_TOOLS", 2)
    monkeypatch.setattr(engine, "SPLIT_SLICES_PER_JOB", 4)
    monkeypatch.setattr(engine, "_tool_slice_diagnostics", _held_in_workers)
    monkeypatch.setattr(sys.modules[__name__], "_parent_started", [tmp_path / "parent-started"])
    slice_count: list[int] = []

    class WorkerStartsFirst(engine._SplitToolRules):
        def collect(self, by_path: dict[str, engine.SourceResult]) -> None:
            (slices,) = self.slices.values()
            slice_count.append(len(slices))
            deadline = time.monotonic() + 30
            while not slices[0][2].running() and time.monotonic() < deadline:
                time.sleep(0.01)
            super().collect(by_path)

    monkeypatch.setattr(engine, "_SplitToolRules", WorkerStartsFirst)
    _slices_run_here.clear()
    result = CliRunner().invoke(main, ["check", ".", "--jobs", "2", "--output-format", "json"])
    assert result.output == expected
    assert slice_count == [8]  # 2 processes x 4 slices, for 10 tools
    # the worker runs the first slice (and those queued for it); this process took all the others, from the back
    slices_from_the_back = [(8, 10), (7, 8), (6, 7), (5, 6), (3, 5), (2, 3), (1, 2), (0, 1)]
    assert 1 <= len(_slices_run_here) <= 7
    assert _slices_run_here == slices_from_the_back[: len(_slices_run_here)]


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
