"""Benchmarks for the tool-set similarity rules (SL502 with the static backend, SL504).

    python benchmarks/bench_similarity.py            # 1k and 10k tools
    python benchmarks/bench_similarity.py --sizes 1000

Each measurement is a fresh `schemalint check` process (imports, model load, embedding, pairing
and the JSON report included) on a generated tool file with realistic, distinct descriptions:
- cold: SL502 alone with an empty vector cache (targets: 1k <= 2 s, 10k <= 10 s);
- warm: SL502 alone again, every vector cached (no model is loaded);
- all rules with the warm cache against all rules without SL502 (target: ratio <= 1.2), for sizes
  up to --all-rules-up-to;
- SL502 in process through run_rule, cold, to separate the rule from the engine's placement.
Peak memory is the child process's maximum resident set size.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
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
    print("MAXRSS", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""


def run_check(folder: Path, *args: str) -> tuple[float, int, int]:
    """Wall seconds, peak RSS in MiB, number of findings."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
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
    rss = next(int(line.split()[1]) for line in done.stderr.splitlines() if line.startswith("MAXRSS"))
    findings = len(json.loads(done.stdout)) if done.stdout.strip() else 0
    return elapsed, rss // 1024, findings


def rule_only_seconds(tools: list[dict], cache: Path) -> tuple[float, int]:
    """SL502 through run_rule in this process (no engine placement, no report): seconds, findings."""
    sys.path.insert(0, str(ROOT))
    from schemalint.rules.sl502_similar_descriptions import SimilarDescriptions
    from schemalint.testing import run_rule

    start = time.perf_counter()
    findings = run_rule(SimilarDescriptions(), tools, settings={"embedding-backend": "static", "cache-dir": str(cache)})
    return time.perf_counter() - start, len(findings)


def bench(size: int, compare_all_rules: bool) -> None:
    tools = make_tools(size)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "tools.json").write_text(json.dumps(tools), encoding="utf-8")
        (folder / ".schemalint.toml").write_text(
            f'embedding-backend = "static"\ncache-dir = "{folder / "cache"}"\n', encoding="utf-8"
        )
        cold = run_check(folder, "--select", "SL502")
        warm = run_check(folder, "--select", "SL502")
        in_process = rule_only_seconds(tools, folder / "cache-in-process")
        print(f"{size} tools")
        print(f"  SL502 static cold : {cold[0]:6.2f} s  peak {cold[1]} MiB  ({cold[2]} findings)")
        print(f"  SL502 static warm : {warm[0]:6.2f} s  peak {warm[1]} MiB")
        print(f"  SL502 rule alone  : {in_process[0]:6.2f} s  cold, in process, without the engine")
        if compare_all_rules:
            with_sl502 = run_check(folder)
            without_sl502 = run_check(folder, "--ignore", "SL502")
            print(f"  all rules, warm   : {with_sl502[0]:6.2f} s  peak {with_sl502[1]} MiB")
            print(f"  all rules - SL502 : {without_sl502[0]:6.2f} s  peak {without_sl502[1]} MiB")
            print(f"  warm ratio        : {with_sl502[0] / without_sl502[0]:6.2f} x (target <= 1.2)")
        sl504 = run_check(folder, "--select", "SL504")
        print(f"  SL504 alone       : {sl504[0]:6.2f} s  ({sl504[2]} findings)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--all-rules-up-to", type=int, default=2000, help="compare with all rules up to this size")
    args = parser.parse_args()
    for size in args.sizes:
        bench(size, size <= args.all_rules_up_to)


if __name__ == "__main__":
    main()
