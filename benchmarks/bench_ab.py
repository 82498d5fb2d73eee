"""Before/after wall time of `schemalint check` for two checkouts, in one run.

Run: python benchmarks/bench_ab.py BEFORE_DIR AFTER_DIR FILE [--repeat 5] [-- extra check options]

e.g. `python benchmarks/bench_ab.py /work/main . /tmp/perf/t10000.json -- --ignore SL502,SL504`.
The machine is shared and noisy, so the two checkouts run alternately (A B A B ...) as fresh
subprocesses (`PYTHONPATH=<checkout> python -m schemalint check FILE --no-config --output-format json`),
and the script prints each one's median and min and the ratio of the medians. It also checks that
both produce the same output, since a speed-up must not change it.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _ab import ab_arguments


def run_once(checkout: Path, path: str, extra: list[str], cwd: str) -> tuple[float, str]:
    env = {**os.environ, "PYTHONPATH": str(checkout), "SCHEMALINT_EMBEDDING_BACKEND": "static"}
    command = [sys.executable, "-m", "schemalint", "check", path, "--no-config", "--output-format", "json", *extra]
    started = time.perf_counter()
    # `python -m` puts the working directory first on sys.path: run outside both checkouts
    output = subprocess.run(command, capture_output=True, env=env, cwd=cwd, check=False).stdout
    return time.perf_counter() - started, hashlib.sha256(output).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser()
    args, checkouts, extra = ab_arguments(parser)
    times: dict[str, list[float]] = {name: [] for name in checkouts}
    digests: dict[str, set[str]] = {name: set() for name in checkouts}
    path = str(Path(args.file).resolve())
    with tempfile.TemporaryDirectory() as neutral:
        for _ in range(args.repeat):
            for name, checkout in checkouts.items():
                elapsed, digest = run_once(checkout, path, extra, neutral)
                times[name].append(elapsed)
                digests[name].add(digest)
    for name, checkout in checkouts.items():
        print(f"{name:>6}: median {statistics.median(times[name]):6.2f} s  min {min(times[name]):6.2f} s  ({checkout})")
    ratio = statistics.median(times["before"]) / statistics.median(times["after"])
    same = digests["before"] == digests["after"] and len(digests["after"]) == 1
    print(f"speed-up {ratio:.2f}x; output {'identical' if same else 'DIFFERS'}")


if __name__ == "__main__":
    main()
