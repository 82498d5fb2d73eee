"""Run the property-based tests (tests/test_properties.py) with many examples.

Run: python benchmarks/fuzz.py [--examples-per-property 4000] [-k python]

Each of the six properties (arbitrary schemas in every dialect, arbitrary JSON, arbitrary YAML,
corrupted documents, arbitrary bytes, Python sources from decorator templates) runs that many
examples; the invariant is that no exception escapes and that linting the same input twice gives
the same bytes (and that no Python source is ever imported). Prints pytest's summary and
hypothesis' statistics (examples run per property).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--examples-per-property", type=int, default=4000)
    parser.add_argument("-k", dest="select", default="", help="only the properties matching (pytest -k)")
    args = parser.parse_args()
    env = {**os.environ, "SCHEMALINT_PROPERTY_EXAMPLES": str(args.examples_per_property)}
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/test_properties.py", "-q", "-p", "no:cacheprovider",
         "--hypothesis-show-statistics", *(["-k", args.select] if args.select else [])],
        cwd=REPO, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    statistics = done.stdout.split("Hypothesis Statistics")[-1]
    for line in statistics.splitlines():
        if "passing," in line or "tests/test_properties.py::" in line or " passed" in line or " failed" in line:
            print(line.strip())
    print(f"total wall: {time.perf_counter() - started:.1f} s; exit code {done.returncode}")
    if done.returncode:
        print(done.stdout[-5000:])
    sys.exit(done.returncode)


if __name__ == "__main__":
    main()
