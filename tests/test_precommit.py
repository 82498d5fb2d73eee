"""The pre-commit hook: its definition, and its entry run the way pre-commit runs it.

pre-commit itself installs a hook's repository into a fresh environment with pip, which needs the
package index at test time; that runs only with SCHEMALINT_NETWORK_TESTS=1. The always-on tests
check the hook's file patterns with pre-commit's own file classifier (`identify`) and run the
hook's entry on the files pre-commit would pass.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from .conftest import REPO

HOOKS = YAML(typ="safe").load((REPO / ".pre-commit-hooks.yaml").read_text())
HOOK = next(h for h in HOOKS if h["id"] == "schemalint")

TOOL = [{"name": "run", "description": "", "parameters": {"type": "object"}}]


def staged_files(root: Path) -> dict[str, str]:
    files = {
        "package.json": json.dumps({"name": "web", "description": "not a tool", "scripts": {"test": "jest"}}),
        ".github/workflows/ci.yml": "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n",
        "app/models.py": "import os\n\n\nclass User:\n    name: str\n",
        "broken.yaml": "key: [unclosed\n",
        "tools/search.json": json.dumps(TOOL),
        "README.md": "# not linted\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return files


def hook_files(root: Path, names: list[str]) -> list[str]:
    """The files pre-commit passes to the hook: classified by `identify`, as pre-commit does."""
    from identify.identify import tags_from_path

    wanted = set(HOOK["types_or"])
    return [n for n in names if wanted & tags_from_path(str(root / n))]


def test_hook_definition() -> None:
    assert HOOK["language"] == "python"
    assert HOOK["require_serial"] is True
    assert set(HOOK["types_or"]) == {"json", "yaml", "python"}
    assert HOOK.get("pass_filenames", True) is True


def test_hook_entry_skips_non_tool_files_silently_and_reports_tools(tmp_path: Path) -> None:
    names = list(staged_files(tmp_path))
    passed = hook_files(tmp_path, names)
    assert "README.md" not in passed and "package.json" in passed and "app/models.py" in passed
    entry = shlex.split(HOOK["entry"])
    assert entry[0] == "schemalint"
    command = [sys.executable, "-m", "schemalint", *entry[1:]]
    started = time.perf_counter()
    done = subprocess.run([*command, *passed], cwd=tmp_path, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    assert done.returncode == 1, done.stdout + done.stderr
    reported = {line.split(":")[0] for line in done.stdout.splitlines() if ": SL" in line}
    assert reported == {"tools/search.json"}, done.stdout
    assert "SL003" not in done.stdout and "SL002" not in done.stdout
    assert elapsed < 30  # sanity bound only; speed is measured in benchmarks/


@pytest.mark.skipif(os.environ.get("SCHEMALINT_NETWORK_TESTS") != "1", reason="pre-commit installs from the index")
@pytest.mark.skipif(shutil.which("git") is None, reason="git is needed")
def test_pre_commit_try_repo(tmp_path: Path) -> None:
    staged_files(tmp_path)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
    done = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "schemalint", "--all-files"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PRE_COMMIT_HOME": str(tmp_path / ".cache")},
    )
    assert done.returncode == 1
    assert "tools/search.json" in done.stdout and "SL201" in done.stdout
    assert "package.json" not in done.stdout.split("Failed")[-1]
