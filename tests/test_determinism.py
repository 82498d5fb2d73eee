"""Same input, same bytes out: regardless of PYTHONHASHSEED, the order files are named in, or --jobs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from .conftest import REPO


def run(cwd: Path, args: list[str], seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run(
        [sys.executable, "-m", "schemalint", "check", *args, "--no-config", "--output-format", "json"],
        cwd=cwd, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


def test_output_bytes_do_not_depend_on_hash_seed_or_file_order(tmp_path: Path) -> None:
    shutil.copytree(REPO / "rules", tmp_path / "rules")
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    files = sorted(str(p.relative_to(tmp_path)) for p in (tmp_path / "rules").rglob("bad*.*"))
    first = run(tmp_path, files, "0")
    assert first.count('"code"') > 50
    assert run(tmp_path, list(reversed(files)), "12345") == first
    assert run(tmp_path, ["rules", "examples", "--jobs", "1"], "1") == run(tmp_path, ["examples", "rules"], "987")
