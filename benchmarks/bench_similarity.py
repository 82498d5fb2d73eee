"""Benchmarks for the tool-set similarity rules (SL502 with the static backend, SL504).

    python benchmarks/bench_similarity.py            # 1k and 10k tools
    python benchmarks/bench_similarity.py --sizes 1000 --repeat 3
    python benchmarks/bench_similarity.py --file /tmp/perf/t1000.json   # an existing tool file
    python benchmarks/bench_similarity.py --small-sets   # where the numpy-free pair search ends
    python benchmarks/bench_similarity.py --warm-ratio --repeat 5 --baseline-tree ../main   # A/B, warm
    python benchmarks/bench_similarity.py --warm-ratio --one-edit --repeat 5   # one new description per run

Each measurement is a fresh `schemalint check` process (imports, model load, embedding, pairing
and the JSON report included) on a generated tool file with realistic, distinct descriptions:
- cold: SL502 alone with an empty vector cache (targets: 1k <= 2 s, 10k <= 10 s);
- warm: SL502 alone again, every vector cached (no model is loaded);
- all rules with the warm cache against all rules without SL502 (target: ratio <= 1.2), for sizes
  up to --all-rules-up-to;
- SL502 in process through run_rule, cold, to separate the rule from the engine's placement.
Peak memory is the child process's maximum resident set size; cpu is its user + system time with its
--jobs workers' (steadier than wall time when other processes share the machine). --repeat N shows the
median of N runs; --check-args "--jobs 1" passes arguments on to every --warm-ratio run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERBS = ["Get", "List", "Create", "Update", "Delete", "Search", "Send", "Archive", "Export", "Count"]
OBJECTS = [
    "invoice",
    "order",
    "customer",
    "ticket",
    "repository",
    "branch",
    "commit",
    "playlist",
    "track",
    "device",
    "sensor",
    "room",
    "booking",
    "flight",
    "hotel",
    "payment",
    "refund",
    "subscription",
    "user",
    "group",
    "channel",
    "message",
    "file",
    "folder",
    "document",
    "report",
    "dashboard",
    "metric",
    "alert",
    "incident",
    "deployment",
    "container",
    "cluster",
    "node",
    "volume",
    "secret",
    "certificate",
    "domain",
    "record",
    "lead",
    "contact",
    "campaign",
    "segment",
    "product",
    "review",
    "price",
    "stock",
    "warehouse",
    "shipment",
    "parcel",
    "label",
    "route",
    "vehicle",
    "driver",
]
QUALIFIERS = [
    "by id",
    "for a date range",
    "with pagination",
    "for the signed-in user",
    "in a workspace",
    "by status",
    "with filters",
    "across all projects",
    "for one region",
    "in bulk",
    "with an audit note",
    "for a given team",
    "sorted by newest",
]
DETAILS = [
    "Returns the matching records with their ids.",
    "Requires admin rights.",
    "Results are cached for five minutes.",
    "Fails when the item is locked.",
    "The change is logged for compliance.",
    "Use the id returned by the list tool.",
    "Read-only.",
    "Sends a notification to the owner.",
    "Times are in UTC.",
    "Limited to 100 items per call.",
]


def make_tools(count: int, seed: int = 0) -> list[dict]:
    rng = random.Random(seed)
    tools = []
    for i in range(count):
        verb, obj, extra = rng.choice(VERBS), rng.choice(OBJECTS), rng.choice(OBJECTS)
        description = (
            f"{verb} the {obj} {extra} {rng.choice(QUALIFIERS)}. {rng.choice(DETAILS)} {rng.choice(DETAILS)} Ref {i}."
        )
        params = {f"{obj}_id": {"type": "string", "description": f"The {obj} id"}}
        params[rng.choice(["limit", "status", "since", "fields", "note"])] = {"type": "string", "description": "x"}
        tools.append(
            {
                "type": "function",
                "name": f"{verb.lower()}_{obj}_{extra}_{i}",
                "description": description,
                "parameters": {"type": "object", "properties": params, "required": [f"{obj}_id"]},
            }
        )
    return tools


_RUNNER = """
import resource, runpy, sys
sys.argv = ["schemalint"] + sys.argv[1:]
try:
    runpy.run_module("schemalint", run_name="__main__")
except SystemExit:
    pass
finally:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)  # --jobs workers, reaped by the end of the run
    cpu = usage.ru_utime + usage.ru_stime + workers.ru_utime + workers.ru_stime
    print("USAGE", usage.ru_maxrss, cpu, file=sys.stderr)
"""


@dataclass
class Run:
    seconds: float
    #: user + system CPU seconds of the child and its --jobs workers: steadier than wall time on a
    #: shared machine
    cpu: float
    peak_mib: int
    findings: int


def run_check(folder: Path, *args: str, tree: Path = ROOT) -> Run:
    """One fresh `schemalint check` process on folder/tools.json, with the schemalint of `tree`."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _RUNNER, "check", "tools.json", "--output-format", "json", *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    usage = next(line.split() for line in done.stderr.splitlines() if line.startswith("USAGE"))
    findings = len(json.loads(done.stdout)) if done.stdout.strip() else 0
    return Run(elapsed, float(usage[2]), int(usage[1]) // 1024, findings)


def median_run(repeat: int, measure: Callable[[], Run]) -> Run:
    """The run of median wall time among `repeat` runs."""
    runs = sorted((measure() for _ in range(repeat)), key=lambda r: r.seconds)
    return runs[len(runs) // 2]


def rule_only_seconds(tools: list[dict], cache: Path) -> tuple[float, int]:
    """SL502 through run_rule in this process (no engine placement, no report): seconds, findings."""
    sys.path.insert(0, str(ROOT))
    from schemalint.rules.sl502_similar_descriptions import SimilarDescriptions
    from schemalint.testing import run_rule

    plain = [tool.get("function", tool) if tool.get("type") == "function" else tool for tool in tools]  # OpenAI wrapper
    start = time.perf_counter()
    findings = run_rule(SimilarDescriptions(), plain, settings={"embedding-backend": "static", "cache-dir": str(cache)})
    return time.perf_counter() - start, len(findings)


def _show(label: str, run: Run, extra: str = "") -> None:
    print(f"  {label:<18}: {run.seconds:6.2f} s  cpu {run.cpu:6.2f} s  peak {run.peak_mib} MiB  {extra}".rstrip())


def bench(label: str, tools: list[dict], compare_all_rules: bool, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cache = folder / "cache"
        (folder / "tools.json").write_text(json.dumps(tools), encoding="utf-8")
        (folder / ".schemalint.toml").write_text(
            f'embedding-backend = "static"\ncache-dir = "{cache}"\n', encoding="utf-8"
        )

        def cold() -> Run:
            shutil.rmtree(cache, ignore_errors=True)
            return run_check(folder, "--select", "SL502")

        cold_run = median_run(repeat, cold)
        warm = median_run(repeat, lambda: run_check(folder, "--select", "SL502"))
        in_process = rule_only_seconds(tools, folder / "cache-in-process")
        print(f"{label} ({len(tools)} tools, median of {repeat})")
        _show("SL502 static cold", cold_run, f"({cold_run.findings} findings)")
        _show("SL502 static warm", warm)
        print(
            f"  {'SL502 rule alone':<18}: {in_process[0]:6.2f} s  cold, in process, without the engine "
            f"({in_process[1]} findings)"
        )
        if compare_all_rules:
            shutil.rmtree(cache, ignore_errors=True)
            all_cold = median_run(1, lambda: run_check(folder))
            with_sl502 = median_run(repeat, lambda: run_check(folder))
            without_sl502 = median_run(repeat, lambda: run_check(folder, "--ignore", "SL502"))
            _show("all rules, cold", all_cold)
            _show("all rules, warm", with_sl502)
            _show("all rules - SL502", without_sl502)
            print(
                f"  {'warm ratio':<18}: {with_sl502.seconds / without_sl502.seconds:6.2f} x wall, "
                f"{with_sl502.cpu / without_sl502.cpu:.2f} x cpu (target <= 1.2)"
            )
        sl504 = median_run(repeat, lambda: run_check(folder, "--select", "SL504"))
        _show("SL504 alone", sl504, f"({sl504.findings} findings)")


def warm_ratio(
    label: str, tools: list[dict], trees: dict[str, Path], repeat: int, check_args: list[str], edit: bool = False
) -> None:
    """All rules with a warm vector cache against all rules without SL502, per tree. Runs alternate
    between the trees and the two commands, so every median saw the same machine load; each tree is
    byte-compiled first, as a pip install is, and has its own folder and vector cache. With `edit`,
    one more description is edited before each round (the editor / pre-commit case: one new text
    since the last run)."""
    with tempfile.TemporaryDirectory() as tmp:
        folders = {}
        for name, tree in trees.items():
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "schemalint")], check=True)
            folder = folders[name] = Path(tmp) / name
            folder.mkdir()
            (folder / "tools.json").write_text(json.dumps(tools), encoding="utf-8")
            (folder / ".schemalint.toml").write_text(
                f'embedding-backend = "static"\ncache-dir = "{folder / "cache"}"\n', encoding="utf-8"
            )
            run_check(folder, tree=tree)  # fills the cache
        commands = {"all rules": (*check_args,), "without SL502": (*check_args, "--ignore", "SL502")}
        runs: dict[tuple[str, str], list[Run]] = {(name, command): [] for name in trees for command in commands}
        tools = [dict(tool) for tool in tools]
        for round_number in range(repeat):
            if edit:
                target = tools[(round_number * 37) % len(tools)]
                target["description"] = f"Edited in round {round_number}: {target['description']}"
                for folder in folders.values():
                    (folder / "tools.json").write_text(json.dumps(tools), encoding="utf-8")
            for name, tree in trees.items():
                for command, args in commands.items():
                    runs[(name, command)].append(run_check(folders[name], *args, tree=tree))
        extra = f" ({shlex.join(check_args)})" if check_args else ""
        extra += ", one description edited per round" if edit else ""
        print(f"{label} ({len(tools)} tools), warm cache, median of {repeat} alternating runs{extra}")
        for name in trees:
            wall = {c: statistics.median(r.seconds for r in runs[(name, c)]) for c in commands}
            cpu = {c: statistics.median(r.cpu for r in runs[(name, c)]) for c in commands}
            print(
                f"  {name:<9}: all rules {wall['all rules']:6.2f} s, without SL502 {wall['without SL502']:6.2f} s: "
                f"{wall['all rules'] / wall['without SL502']:.2f} x wall, "
                f"{cpu['all rules'] / cpu['without SL502']:.2f} x cpu (target <= 1.2)"
            )


def _tools_of(path: Path) -> list[dict]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return data if isinstance(data, list) else data["tools"]


def small_sets(repeat: int) -> None:
    """Where the pure-Python pair search stops being cheaper than importing numpy (SMALL_SET_TEXTS):
    the pair search (SL502's default floor and top 5) on the static model's vectors of n generated
    tool descriptions, in Python and with numpy, against the cost of `import numpy` in a fresh
    interpreter. CPU times (steadier than wall time on a shared machine)."""
    sys.path.insert(0, str(ROOT))
    from schemalint.similarity.backends import StaticBackend
    from schemalint.similarity.compare import cosine_floor
    from schemalint.similarity.pairs import candidate_pairs
    from schemalint.similarity.scoring import tool_view

    def seconds(action: Callable[[], object]) -> float:
        times = []
        for _ in range(max(repeat, 3)):
            started = time.process_time()
            action()
            times.append(time.process_time() - started)
        return sorted(times)[len(times) // 2]

    imports = [
        subprocess.run(
            [
                sys.executable,
                "-c",
                "import time; t = time.process_time(); import numpy; print(time.process_time() - t)",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for _ in range(max(repeat, 3))
    ]
    numpy_import = sorted(float(line) for line in imports)[len(imports) // 2]
    print(f"import numpy in a fresh interpreter: {numpy_import * 1000:.0f} ms (median; all times are CPU time)")
    sizes = (16, 32, 64, 96, 128, 160, 192, 256, 320, 384)
    texts = [tool_view(t["name"], t["description"], t["parameters"]).embedding_text() for t in make_tools(max(sizes))]
    vectors = StaticBackend().encode(texts)
    floor = cosine_floor(0.5, "static")
    print("texts  pure Python ms  numpy path ms (numpy imported)  import + numpy path ms")
    for count in sizes:
        matrix = vectors[:count]
        rows = matrix.tolist()
        python = seconds(partial(candidate_pairs, rows, floor, 5))
        vectorised = seconds(partial(candidate_pairs, matrix, floor, 5))
        with_import = (numpy_import + vectorised) * 1000
        print(f"{count:5}  {python * 1000:14.1f}  {vectorised * 1000:31.1f}  {with_import:22.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--file", type=Path, nargs="*", default=[], help="tool files to measure instead of sizes")
    parser.add_argument("--all-rules-up-to", type=int, default=2000, help="compare with all rules up to this size")
    parser.add_argument("--repeat", type=int, default=1, help="runs per measurement (the median is shown)")
    parser.add_argument("--small-sets", action="store_true", help="pure-Python against numpy pair search")
    parser.add_argument(
        "--warm-ratio", action="store_true", help="only all rules against all rules without SL502, warm cache"
    )
    parser.add_argument("--baseline-tree", type=Path, help="with --warm-ratio: another checkout measured alongside")
    parser.add_argument("--one-edit", action="store_true", help="with --warm-ratio: edit one description per round")
    parser.add_argument("--check-args", default="", help="with --warm-ratio: more `check` arguments, e.g. '--jobs 1'")
    args = parser.parse_args()
    if args.small_sets:
        small_sets(args.repeat)
        return
    if args.warm_ratio:
        trees = {"this": ROOT, **({"baseline": args.baseline_tree} if args.baseline_tree else {})}
        sets = [(str(p), _tools_of(p)) for p in args.file] or [("generated", make_tools(n)) for n in args.sizes]
        for label, tools in sets:
            warm_ratio(label, tools, trees, args.repeat, shlex.split(args.check_args), args.one_edit)
        return
    if args.file:
        for path in args.file:
            tools = _tools_of(path)
            bench(str(path), tools, len(tools) <= args.all_rules_up_to, args.repeat)
        return
    for size in args.sizes:
        bench("generated", make_tools(size), size <= args.all_rules_up_to, args.repeat)


if __name__ == "__main__":
    main()
