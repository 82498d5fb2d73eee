"""End-to-end speed and memory of `schemalint check` on generated JSON tool files.

Run: python benchmarks/bench_core.py [--repeat 7] [--sizes 10,1000,10000,100000] [--ignore SL502]
                                     [--select SL002,SL003,SL104,SL201,SL301,SL302,SL303,SL309,SL311]
                                     [--baseline-tree /path/to/other/checkout]

Each run is a fresh subprocess (`python -m schemalint check FILE --no-config --output-format json`)
so the numbers include interpreter start-up and imports, as a user sees them. As a pip install
does, the measured package is byte-compiled first (PYTHONDONTWRITEBYTECODE=1 would otherwise make
every start compile every module), and SL502 uses the static embedding backend, the one a default
install has.

The 10-tool start-up is measured twice: with a warm embedding cache (the same working directory
every run, after one unmeasured run) and cold (a fresh working directory every run, so SL502 embeds
from scratch). With --baseline-tree, the same start-up runs alternate between the code on PYTHONPATH
(or the installed package) and the checkout named, so a before/after comparison sees the same
machine load. Then the larger sizes: median wall time, peak RSS, cost per tool. Last, every module
a 10-tool run imports, and which of the heavy ones that should stay lazy are among them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _generate import tool_file

LAZY_MODULES = ("libcst", "numpy", "model2vec", "torch", "sentence_transformers", "jsonschema", "ruamel")
PEAK_RSS_KB = "import resource,subprocess,sys;subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL);" + (
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def environment(tree: Path | None) -> dict[str, str]:
    env = dict(os.environ, SCHEMALINT_EMBEDDING_BACKEND="static")
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    return env


def compile_package(env: dict[str, str]) -> Path:
    """Byte-compile the schemalint that `env` imports, as pip does on install; its folder."""
    where = subprocess.run(
        [sys.executable, "-c", "import schemalint, os; print(os.path.dirname(schemalint.__file__))"],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=tempfile.gettempdir(),  # not the current folder, which `python -c` puts first on sys.path
    ).stdout.strip()
    subprocess.run([sys.executable, "-m", "compileall", "-q", where], check=True, stdout=subprocess.DEVNULL)
    return Path(where)


def check_command(path: Path, rule_args: Sequence[str]) -> list[str]:
    command = [sys.executable, "-m", "schemalint", "check", str(path), "--no-config", "--output-format", "json"]
    return command + list(rule_args)


def run_timed(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one run; CPU is the steadier number on a loaded machine."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env, cwd=cwd)
    _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0  # reaped by wait4
    return time.perf_counter() - started, usage.ru_utime + usage.ru_stime


def peak_rss_mb(command: list[str], env: dict[str, str], cwd: Path) -> float:
    """Peak RSS of one isolated child (RUSAGE_CHILDREN is a running maximum, so measure in a fresh parent)."""
    out = subprocess.run(
        [sys.executable, "-c", PEAK_RSS_KB, *command], capture_output=True, text=True, check=False, env=env, cwd=cwd
    ).stdout.strip()
    return int(out) / 1024


def startup(
    small: Path, rule_args: Sequence[str], trees: dict[str, Path | None], repeat: int, tmp: Path
) -> dict[str, dict[str, list[tuple[float, float]]]]:
    """Warm- and cold-cache (wall, CPU) times of a 10-tool check for each tree, runs alternating between trees."""
    command = check_command(small, rule_args)
    envs = {label: environment(tree) for label, tree in trees.items()}
    warm_dirs = {label: tmp / f"warm-{index}" for index, label in enumerate(trees)}
    for label, folder in warm_dirs.items():
        folder.mkdir()
        run_timed(command, envs[label], folder)  # fills the embedding cache
    times: dict[str, dict[str, list[tuple[float, float]]]] = {label: {"warm": [], "cold": []} for label in trees}
    for attempt in range(repeat):
        for label in trees:
            times[label]["warm"].append(run_timed(command, envs[label], warm_dirs[label]))
            cold = Path(tempfile.mkdtemp(prefix=f"cold-{attempt}-", dir=tmp))
            times[label]["cold"].append(run_timed(command, envs[label], cold))
    return times


def imported_modules(command: list[str], env: dict[str, str], cwd: Path) -> list[str]:
    """Every module the check `command` imports (run in-process, output discarded)."""
    code = "\n".join(
        [
            "import os, sys, runpy",
            f"sys.argv = ['schemalint', *{command[3:]!r}]",
            "before = set(sys.modules)",
            "sys.stdout = open(os.devnull, 'w')",
            "try:\n    runpy.run_module('schemalint', run_name='__main__')",
            "except SystemExit:\n    pass",
            "print('MODULES', ' '.join(sorted(set(sys.modules) - before)), file=sys.__stdout__)",
        ]
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, env=env, cwd=cwd
    ).stdout
    line = next((line for line in out.splitlines() if line.startswith("MODULES ")), "MODULES")
    return line.split()[1:]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--sizes", default="1000,10000,100000", help="sizes beyond the 10-tool start-up ('' for none)")
    parser.add_argument("--ignore", action="append", default=[], help="passed to `schemalint check --ignore`")
    parser.add_argument("--select", help="passed to `schemalint check --select` (default: every rule)")
    parser.add_argument("--baseline-tree", type=Path, help="another checkout to compare start-up with, A/B")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    rule_args = [f"--ignore={selector}" for selector in args.ignore]
    if args.select is not None:
        rule_args.append(f"--select={args.select}")
    trees: dict[str, Path | None] = {"this": None}
    if "PYTHONPATH" in os.environ:
        trees["this"] = Path(os.environ["PYTHONPATH"].split(os.pathsep)[0])
    if args.baseline_tree is not None:
        trees["baseline"] = args.baseline_tree
    env = environment(trees["this"])
    for tree in trees.values():
        print("measuring", compile_package(environment(tree)))
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        rules = " ".join(rule_args) or "all"
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, repeat={args.repeat}, rules: {rules}")
        small = tool_file(tmp / "tools_10.json", 10)
        times = startup(small, rule_args, trees, args.repeat, tmp)
        print(f"\n10-tool start-up over {args.repeat} alternating runs: median (min) seconds")
        for label, runs in times.items():
            cells = []
            for cache in ("warm", "cold"):
                wall, cpu = [t[0] for t in runs[cache]], [t[1] for t in runs[cache]]
                cells.append(
                    f"{cache} cache {statistics.median(wall):.3f} ({min(wall):.3f}) wall, "
                    f"{statistics.median(cpu):.3f} ({min(cpu):.3f}) CPU"
                )
            print(f"  {label:<9} " + ";  ".join(cells))
        if "baseline" in times:
            for cache in ("warm", "cold"):
                ratios = [
                    statistics.median(t[i] for t in times["this"][cache])
                    / statistics.median(t[i] for t in times["baseline"][cache])
                    for i in (0, 1)
                ]
                print(f"  this / baseline, {cache} cache: {ratios[0]:.2f} wall, {ratios[1]:.2f} CPU")
        print(f"  peak RSS {peak_rss_mb(check_command(small, rule_args), env, tmp):.1f} MB")

        if sizes:
            header = f"{'tools':>8} {'MB':>7} {'median s':>9} {'min s':>7} {'CPU s':>7} {'ms/tool':>8} {'peak MB':>8}"
            print("\n" + header)
        for size in sizes:
            path = tool_file(tmp / f"tools_{size}.json", size)
            command = check_command(path, rule_args)
            repeat = args.repeat if size <= 10_000 else max(1, args.repeat // 3)
            runs = [run_timed(command, env, tmp) for _ in range(repeat)]
            elapsed = [wall for wall, _ in runs]
            median = statistics.median(elapsed)
            size_mb = path.stat().st_size / 1e6
            print(
                f"{size:>8} {size_mb:>7.2f} {median:>9.3f} {min(elapsed):>7.3f} "
                f"{statistics.median(cpu for _, cpu in runs):>7.3f} {1000 * median / size:>8.3f} "
                f"{peak_rss_mb(command, env, tmp):>8.1f}"
            )

        modules = imported_modules(check_command(small, rule_args), env, tmp)
        ours = [m for m in modules if m.startswith("schemalint")]
        print(f"\nmodules a 10-tool run imports: {len(modules)} ({len(ours)} of schemalint)")
        print("  schemalint:", " ".join(ours))
        print("  others:", " ".join(m for m in modules if not m.startswith("schemalint")))
        heavy = sorted({m.split(".")[0] for m in modules} & set(LAZY_MODULES))
        print("heavy modules imported for a 10-tool JSON file:", ", ".join(heavy) or "none")


if __name__ == "__main__":
    main()
