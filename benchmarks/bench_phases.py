"""Before/after time of each serial phase of `schemalint check` in the main process, for two checkouts.

Run: python benchmarks/bench_phases.py BEFORE_DIR AFTER_DIR FILE [--repeat 5] [--jobs 2] [-- extra check options]

e.g. `python benchmarks/bench_phases.py /work/main . /tmp/perf/t10000.json -- --select SL002,SL303`.
At `--jobs 2` the rule work is shared with a forked worker, so the main process's serial phases
decide the wall time (`--jobs` is passed on: 2 by default, which a busy machine would not choose
itself): loading the files, forking, collecting the workers' findings (this process
also runs its own slices there), the rest of `run_rules` (suppressions, sorting) and writing the
report. Each run is a fresh process (`PYTHONPATH=<checkout>`, standard output to /dev/null, as a
redirected report is written), the two checkouts alternate, and the script prints the median wall
and CPU seconds of each phase (CPU: the main process's, steadier than wall on a shared machine) and
their ratio. `total` ends when the report is written, before the interpreter exits.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _ab import ab_arguments

#: runs in the measured process: wraps the phases' functions and prints (label, wall, cpu) marks
_PROBE = r"""
import json, sys, time
started = time.perf_counter()
marks = []
def mark(label):
    marks.append((label, time.perf_counter() - started, time.process_time()))
import schemalint.engine as engine
import schemalint.reporters as reporters
def timed(owner, name, label):
    original = getattr(owner, name)
    def wrapper(*args, **kwargs):
        mark(label + " start")
        try:
            return original(*args, **kwargs)
        finally:
            mark(label + " end")
    setattr(owner, name, wrapper)
timed(engine, "_load_file", "load")
timed(engine, "run_rules", "run_rules")
timed(engine._SplitToolRules, "__init__", "fork")
timed(engine._SplitToolRules, "collect", "collect")
timed(reporters, "write_reports", "report")
from schemalint.cli import main
sys.argv = ["schemalint", "check", *sys.argv[1:]]
mark("cli")
try:
    main()
except SystemExit:
    pass
mark("exit")
sys.stderr.write(json.dumps(marks) + "\n")
"""

#: phase -> (first mark, last mark); a phase whose marks are missing (no split: one process) is 0
PHASES = {
    "imports": (None, "cli"),
    "load": ("load start", "load end"),
    "to fork": ("run_rules start", "fork start"),
    "fork": ("fork start", "fork end"),
    "collect": ("collect start", "collect end"),
    "after collect": ("collect end", "run_rules end"),
    "report": ("report start", "report end"),
    "total": (None, "exit"),
}


def run_once(checkout: Path, path: str, options: list[str], cwd: str) -> dict[str, tuple[float, float]]:
    """(wall, cpu) seconds per phase of one run."""
    env = {**os.environ, "PYTHONPATH": str(checkout), "SCHEMALINT_EMBEDDING_BACKEND": "static"}
    command = [sys.executable, "-c", _PROBE, path, "--no-config", "--output-format", "json", *options]
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd, check=False)
    marks: dict[str, tuple[float, float]] = {}
    for label, wall, cpu in json.loads(done.stderr.decode().strip().splitlines()[-1]):
        # several files: a phase runs from its first start to its last end
        marks[label] = marks.get(label, (wall, cpu)) if label.endswith("start") else (wall, cpu)
    zero = (0.0, 0.0)
    phases = {}
    for phase, (first, last) in PHASES.items():
        if last not in marks or (first is not None and first not in marks):
            phases[phase] = zero
            continue
        begin = marks[first] if first is not None else zero
        phases[phase] = (marks[last][0] - begin[0], marks[last][1] - begin[1])
    return phases


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2)
    args, checkouts, extra = ab_arguments(parser)
    runs: dict[str, list[dict[str, tuple[float, float]]]] = {name: [] for name in checkouts}
    path = str(Path(args.file).resolve())
    with tempfile.TemporaryDirectory() as neutral:  # `python -c` puts the working directory first on sys.path
        for _ in range(args.repeat):
            for name, checkout in checkouts.items():
                runs[name].append(run_once(checkout, path, ["--jobs", str(args.jobs), *extra], neutral))
    print(f"medians of {args.repeat} runs each, seconds: before {checkouts['before']}, after {checkouts['after']}")
    print(f"{'phase':<14}{'wall before':>12}{'after':>8}{'ratio':>7}{'cpu before':>12}{'after':>8}{'ratio':>7}")
    for phase in PHASES:
        columns = []
        for kind in (0, 1):
            before = statistics.median(run[phase][kind] for run in runs["before"])
            after = statistics.median(run[phase][kind] for run in runs["after"])
            ratio = f"{after / before:7.2f}" if before > 0 else f"{'-':>7}"
            columns.append(f"{before:12.3f}{after:8.3f}{ratio}")
        print(f"{phase:<14}{''.join(columns)}")


if __name__ == "__main__":
    main()
