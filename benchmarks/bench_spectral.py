"""schemalint beside Stoplight Spectral, the generic linter a team would otherwise configure.

Run: python benchmarks/bench_spectral.py [--repeat 5] [--spectral-dir DIR]

Spectral runs benchmarks/spectral/ruleset.yaml, which implements the same four checks
(additionalProperties false, no anyOf/oneOf, description present, nesting depth); schemalint
runs the same four rules (`--select SL303,SL302,SL201,SL301`) and, separately, its full
default rule set. Both on the same generated files: 10 tools and 10,000 tools. Wall-clock
medians of whole processes, measured in one run, and their ratio. Spectral is installed from
the npm registry into --spectral-dir (default: a temporary folder) on first use; the benchmark
skips it when node/npm are absent.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _generate import tool_file

RULESET = Path(__file__).resolve().parent / "spectral" / "ruleset.yaml"
SAME_RULES = "SL303,SL302,SL201,SL301"


def median_wall(command: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def spectral_binary(folder: Path) -> Path | None:
    if shutil.which("npm") is None or shutil.which("node") is None:
        return None
    binary = folder / "node_modules" / ".bin" / "spectral"
    if not binary.exists():
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "@stoplight/spectral-cli"],
            cwd=folder, stdout=subprocess.DEVNULL, check=False,
        )  # fmt: skip
    return binary if binary.exists() else None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--spectral-dir", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        spectral = spectral_binary(args.spectral_dir or Path(tmp) / "spectral")
        schemalint = [sys.executable, "-m", "schemalint", "check", "--no-config", "--output-format", "json"]
        print(f"{'file':>12} {'spectral s':>11} {'schemalint (same 4) s':>22} {'ratio':>6} {'schemalint (all) s':>19}")
        for size in (10, 10_000):
            path = tool_file(Path(tmp) / f"tools_{size}.json", size)
            ours_same = median_wall([*schemalint, "--select", SAME_RULES, str(path)], args.repeat)
            ours_all = median_wall([*schemalint, str(path)], args.repeat)
            if spectral is None:
                print(f"{size:>6} tools {'skipped':>11} {ours_same:>22.3f} {'-':>6} {ours_all:>19.3f}")
                continue
            theirs = median_wall(
                [str(spectral), "lint", "--ruleset", str(RULESET), "--format", "json", "--quiet", str(path)],
                args.repeat,
            )
            print(f"{size:>6} tools {theirs:>11.3f} {ours_same:>22.3f} {theirs / ours_same:>5.1f}x {ours_all:>19.3f}")
        if spectral is None:
            print("Spectral skipped: node/npm not found or the install failed")


if __name__ == "__main__":
    main()
