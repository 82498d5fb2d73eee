"""Many files: `schemalint check DIR --jobs 1` against `--jobs N` on a generated repository.

Run: python benchmarks/bench_parallel.py [--files 2000] [--tools 20] [--jobs N] [--repeat 3]

The repository is --files JSON files of --tools generated tools each (benchmarks/_generate.py, a
different seed per file). Each measurement is a fresh process (`schemalint check DIR --no-config
--output-format json`), runs alternating between the two job counts after one unmeasured run that
fills the embedding cache. Reported: median and min wall time; CPU time of the whole run and of the
main process alone; an estimate of the wall time on N idle cores (the larger of the main process's
CPU and the whole run's CPU / N: the main process's own work cannot be shared), since on a shared
machine the scheduler gives the whole run one share of CPU however many workers it has; the peak
RSS of the largest single process and the peak summed RSS of the process tree (the main process and
its workers, sampled every 200 ms from /proc). The JSON outputs of every run must
be byte-identical, or the benchmark fails.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _generate import tool_file

PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024
#: runs `schemalint ARGS` and reports the CPU of the main process alone on stderr (the rest is the workers')
MAIN_CPU = (
    "import resource, runpy, sys\n"
    "sys.argv = ['schemalint', *sys.argv[1:]]\n"
    "try:\n    runpy.run_module('schemalint', run_name='__main__')\n"
    "finally:\n    own = resource.getrusage(resource.RUSAGE_SELF)\n"
    "    sys.stderr.write(f'MAIN_CPU {own.ru_utime + own.ru_stime}\\n')\n"
)


def generate_repo(root: Path, files: int, tools: int) -> None:
    for index in range(files):
        folder = root / f"service_{index // 100:02}"
        folder.mkdir(exist_ok=True)
        tool_file(folder / f"tools_{index:04}.json", tools, seed=index)


def _tree_rss_kb(root_pid: int) -> int:
    """Summed resident memory of `root_pid` and all its descendants (Linux /proc)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        rss[int(entry)] = int(fields[21]) * PAGE_KB
    tree, frontier = {root_pid}, [root_pid]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent and pid not in tree]
        tree.update(children)
        frontier.extend(children)
    return sum(rss.get(pid, 0) for pid in tree)


def run_once(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, float, bytes, float, float]:
    """Wall seconds, CPU seconds of the whole run (main process and workers) and of the main process,
    stdout, peak RSS of the largest process (MB), peak summed RSS of the process tree (MB)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd)
    peak_tree = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.2):
            peak_tree[0] = max(peak_tree[0], _tree_rss_kb(process.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    output = process.stdout.read() if process.stdout is not None else b""
    errors = process.stderr.read().decode() if process.stderr is not None else ""
    _, _, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    done.set()
    sampler.join()
    process.returncode = 0  # reaped by wait4
    cpu = usage.ru_utime + usage.ru_stime  # includes the workers, which the pool waits for
    main_cpu = float(next((line.split()[1] for line in errors.splitlines() if line.startswith("MAIN_CPU ")), "nan"))
    return elapsed, cpu, main_cpu, output, usage.ru_maxrss / 1024, peak_tree[0] / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--tools", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    env = dict(os.environ, SCHEMALINT_EMBEDDING_BACKEND="static")
    with tempfile.TemporaryDirectory() as tmp_name:
        repo = Path(tmp_name) / "repo"
        repo.mkdir()
        generate_repo(repo, args.files, args.tools)
        base = [sys.executable, "-c", MAIN_CPU, "check", ".", "--no-config", "--output-format", "json"]
        commands = {jobs: [*base, "--jobs", str(jobs)] for jobs in sorted({1, args.jobs})}
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, load {os.getloadavg()[0]:.1f}")
        print(f"{args.files} files x {args.tools} tools = {args.files * args.tools} tools, repeat={args.repeat}")
        _, _, _, reference, _, _ = run_once(commands[args.jobs], env, repo)  # fills the embedding cache
        times: dict[int, list[float]] = {jobs: [] for jobs in commands}
        cpus: dict[int, list[float]] = {jobs: [] for jobs in commands}
        main_cpus: dict[int, list[float]] = {jobs: [] for jobs in commands}
        peaks: dict[int, list[tuple[float, float]]] = {jobs: [] for jobs in commands}
        for _ in range(args.repeat):
            for jobs, command in commands.items():
                elapsed, cpu, main_cpu, output, largest, tree = run_once(command, env, repo)
                if output != reference:
                    sys.exit(
                        f"--jobs {jobs}: output differs from the first run ({len(output)} vs {len(reference)} bytes)"
                    )
                times[jobs].append(elapsed)
                cpus[jobs].append(cpu)
                main_cpus[jobs].append(main_cpu)
                peaks[jobs].append((largest, tree))
        print(f"outputs byte-identical across {1 + args.repeat * len(commands)} runs ({len(reference)} bytes)")
        # on a machine with `jobs` idle cores the run would take at least the main process's CPU, and the
        # whole run's CPU shared between `jobs` cores
        header = ("jobs", "median s", "min s", "cpu s", "main cpu s", "idle-cores est. s", "largest MB", "tree MB")
        print("{:>5} {:>9} {:>7} {:>7} {:>10} {:>17} {:>10} {:>8}".format(*header))
        for jobs in commands:
            total, main_cpu = statistics.median(cpus[jobs]), statistics.median(main_cpus[jobs])
            row = (
                jobs,
                statistics.median(times[jobs]),
                min(times[jobs]),
                total,
                main_cpu,
                max(main_cpu, total / jobs),
                max(p[0] for p in peaks[jobs]),
                max(p[1] for p in peaks[jobs]),
            )
            print("{:>5} {:>9.2f} {:>7.2f} {:>7.1f} {:>10.1f} {:>17.1f} {:>10.1f} {:>8.1f}".format(*row))
        if len(commands) > 1:
            speedup = statistics.median(times[1]) / statistics.median(times[args.jobs])
            print(f"speed-up with --jobs {args.jobs}: {speedup:.2f}x")


if __name__ == "__main__":
    main()
