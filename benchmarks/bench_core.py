"""End-to-end speed and memory of `schemalint check` on generated JSON tool files.

Run: python benchmarks/bench_core.py [--repeat 5] [--sizes 10,1000,10000,100000]

Each size is a fresh subprocess (`python -m schemalint check FILE --output-format json`) so the
numbers include interpreter start-up and imports, as a user sees them. Prints the median wall
time over --repeat runs, the peak RSS of the child, and the cost per tool, plus the modules a
10-tool run imports that should stay lazy.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _generate import tool_file

LAZY_MODULES = ("libcst", "numpy", "model2vec", "torch", "sentence_transformers", "jsonschema", "ruamel")


def run_once(path: Path) -> tuple[float, int]:
    started = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    subprocess.run(
        [sys.executable, "-m", "schemalint", "check", str(path), "--no-config", "--output-format", "json"],
        stdout=subprocess.DEVNULL,
        check=False,
    )
    elapsed = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return elapsed, max(peak, before)


def imported_modules(path: Path) -> list[str]:
    code = "\n".join(
        [
            f"import sys, runpy; sys.argv = ['schemalint', 'check', {str(path)!r}, '--no-config', '-q']",
            "try:\n    runpy.run_module('schemalint', run_name='__main__')",
            "except SystemExit:\n    pass",
            "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))",
        ]
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False).stdout
    loaded = set(out.split("\n")[-2].split()) if out.strip() else set()
    return [m for m in LAZY_MODULES if m in loaded]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--sizes", default="10,1000,10000,100000")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, repeat={args.repeat}")
        print(f"{'tools':>8} {'MB':>7} {'median s':>9} {'min s':>7} {'ms/tool':>8} {'peak MB':>8}")
        for size in sizes:
            path = tool_file(Path(tmp) / f"tools_{size}.json", size)
            repeat = args.repeat if size <= 10_000 else max(1, args.repeat // 2)
            times, peaks = [], []
            for _ in range(repeat):
                elapsed, _ = run_once(path)
                times.append(elapsed)
            # peak RSS of one isolated child (RUSAGE_CHILDREN is a running maximum)
            peak = subprocess.run(
                [
                    sys.executable,
                    "-c",
                    "import resource,subprocess,sys;subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL);"
                    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)",
                    sys.executable,
                    "-m",
                    "schemalint",
                    "check",
                    str(path),
                    "--no-config",
                    "--output-format",
                    "json",
                ],
                capture_output=True,
                text=True,
                check=False,
            ).stdout.strip()
            peaks.append(int(peak) / 1024)
            median = statistics.median(times)
            size_mb = path.stat().st_size / 1e6
            per_tool = 1000 * median / size
            print(f"{size:>8} {size_mb:>7.2f} {median:>9.3f} {min(times):>7.3f} {per_tool:>8.3f} {peaks[0]:>8.1f}")
        small = tool_file(Path(tmp) / "small.json", 10)
        print("heavy modules imported for a 10-tool JSON file:", ", ".join(imported_modules(small)) or "none")


if __name__ == "__main__":
    main()
