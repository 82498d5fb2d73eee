"""`check --watch` in a real subprocess: it lints, waits, lints again when a file changes, and Ctrl-C ends it
with exit 0."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from schemalint.cli import main
from schemalint.watch import relevant

from .conftest import REPO

pytest.importorskip("watchfiles")

TOOL = {
    "name": "get_weather",
    "description": "Current weather for a city. Read-only; not for forecasts.",
    "parameters": {
        "type": "dict",
        "properties": {"city": {"type": "string", "description": "City name."}},
        "required": ["city"],
        "additionalProperties": False,
    },
}


class Watcher:
    """`schemalint check --watch` running in the background; its output read line by line."""

    def __init__(self, folder: Path, *args: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "schemalint", "check", "--watch", *args],
            cwd=folder,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.stderr: list[str] = []
        threading.Thread(target=self._read, args=(self.process.stdout, self.lines.put), daemon=True).start()
        threading.Thread(target=self._read, args=(self.process.stderr, self._waiting), daemon=True).start()
        self.ready = threading.Semaphore(0)

    @staticmethod
    def _read(stream: object, put: object) -> None:
        for line in stream:  # type: ignore[attr-defined]
            put(line)  # type: ignore[operator]

    def _waiting(self, line: str) -> None:
        self.stderr.append(line)
        if line.startswith("Watching for changes"):
            self.ready.release()

    def summary(self, timeout: float = 60) -> str:
        """The next summary line, once the watcher waits for changes again."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            if line.startswith(("Found ", "All clear")):
                assert self.ready.acquire(timeout=max(0.1, deadline - time.monotonic()))
                return line.strip()

    def stop(self) -> int:
        self.process.send_signal(signal.SIGINT)
        return self.process.wait(timeout=30)


def test_watch_lints_again_on_change_and_exits_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    tools = tmp_path / "tools" / "weather.json"
    tools.parent.mkdir()
    tools.write_text(json.dumps([TOOL], indent=2))
    (tmp_path / "notes.txt").write_text("not linted")
    watcher = Watcher(tmp_path, "tools", "--select", "SL309,SL312", "--no-config")
    try:
        assert watcher.summary() == "Found 1 finding(s) in 1 file(s): 1 error. 1 fixable with --fix. Score 75/100."
        time.sleep(0.5)  # the watch is set up right after the summary; give it a moment
        (tmp_path / "notes.txt").write_text("still not linted")  # not a tool file: no new lint
        fixed = {**TOOL, "parameters": {**TOOL["parameters"], "type": "object"}}
        tools.write_text(json.dumps([fixed], indent=2))
        assert watcher.summary() == "All clear: 1 file(s) checked, no findings. Score 100/100."
        # an editor's save: a new file renamed over the old one
        worse = {**fixed, "parameters": {**fixed["parameters"], "properties": {"city": {"default": "Oslo"}}}}
        (tmp_path / "tools" / ".weather.json.swp").write_text(json.dumps([worse]))
        os.replace(tmp_path / "tools" / ".weather.json.swp", tools)
        assert watcher.summary() == "Found 1 finding(s) in 1 file(s): 1 warning. 1 fixable with --fix. Score 95/100."
    finally:
        code = watcher.stop()
    assert code == 0
    assert not any("Traceback" in line or "error" in line for line in watcher.stderr), watcher.stderr
    assert watcher.lines.qsize() == 0 or all(not line.startswith("Found") for line in list(watcher.lines.queue))


def test_watch_shows_a_config_error_and_keeps_watching(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(json.dumps([TOOL]))
    watcher = Watcher(tmp_path, "tools.json", "--select", "SL309")
    try:
        assert watcher.summary().startswith("Found 1 finding(s)")
        time.sleep(0.5)
        (tmp_path / ".schemalint.toml").write_text("fail-on = 3\n")
        assert watcher.ready.acquire(timeout=60)
        assert any("schemalint: error:" in line and "fail-on" in line for line in watcher.stderr)
        (tmp_path / ".schemalint.toml").write_text('ignore = ["SL309"]\n')
        assert watcher.summary() == "All clear: 1 file(s) checked, no findings. Score 100/100."
    finally:
        assert watcher.stop() == 0


@pytest.mark.parametrize(
    "args",
    [["--fix"], ["--diff"], ["--show-fixes"], ["--against", "HEAD"], ["--write-baseline", "b.json"], ["-"]],
)
def test_watch_refuses_what_writes_or_reads_once(args: list[str]) -> None:
    result = CliRunner().invoke(main, ["check", "--watch", *args])
    assert result.exit_code == 2
    assert "--watch" in result.stderr


def test_only_changes_a_lint_can_see_count(tmp_path: Path) -> None:
    folder, single = tmp_path / "tools", tmp_path / "other" / "one.yaml"
    assert relevant(folder / "a.json", [folder], [])
    assert relevant(folder / "deep" / "b.yml", [folder], [])
    assert not relevant(folder / "notes.txt", [folder], [])
    assert not relevant(tmp_path / "elsewhere.json", [folder], [single])
    assert relevant(single, [], [single])
    assert not relevant(single.parent / "two.yaml", [], [single])  # a sibling of a named file
    assert relevant(single.parent / ".schemalint.toml", [], [single])
    assert relevant(folder / "pyproject.toml", [folder], [])
