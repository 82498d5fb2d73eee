"""Speed and soundness of `schemalint diff` on tool-set evolutions.

Run: python benchmarks/bench_diff.py [--versions 300] [--repeat 7] [--seed 11]

1. A pair of 100-tool files (the real github MCP server tools when ../shared/corpus is present,
   generated tools otherwise) with a handful of changes: median wall time of `diff()` (load both
   files, match, compare, place), in-process.
2. A long series of versions, each the previous one with one programmatic mutation (a tool added,
   removed or renamed, a parameter added or removed, a type changed, a bound tightened, an enum
   value removed, a description or default changed, tools reordered, or a reformat-only rewrite:
   another key order, indentation, or YAML). Each consecutive pair is diffed and must report the
   rule the mutation calls for; reformat-only steps and every version against itself must report
   nothing. Prints timings and the findings per rule; exits 1 when an expectation fails.

The corpus is read, mutated in memory and written to a temporary folder; nothing is copied into
the project.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _generate import make_tool  # noqa: E402

from schemalint.diff import diff  # noqa: E402
from schemalint.engine import LintOptions  # noqa: E402

#: the shared corpus sits beside the integration checkout (/work/main -> /work/shared), also from a worktree
CORPUS = next(
    (p / "shared/corpus/mcp-github/current" for p in REPO.parents if (p / "shared/corpus/mcp-github/current").is_dir()),
    REPO.parent / "shared/corpus/mcp-github/current",
)
OPTIONS = LintOptions(select=("SL9",), no_config=True)
Tools = list[dict[str, Any]]


def load_tools(count: int, seed: int) -> tuple[Tools, str]:
    if CORPUS.is_dir():
        tools = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(CORPUS.glob("*.json"))]
        return tools[:count], f"github MCP server tools ({CORPUS})"
    rng = random.Random(seed)
    generated = [make_tool(i, rng)["function"] for i in range(count)]
    tools = [{"name": t["name"], "description": t["description"], "inputSchema": t["parameters"]} for t in generated]
    return tools, "generated tools (corpus absent)"


def properties(tool: dict[str, Any]) -> dict[str, Any]:
    schema = tool.setdefault("inputSchema", {"type": "object"})
    return schema.setdefault("properties", {})


# -- mutations: each edits the tools in place and returns the rule it must trigger (None: nothing) --


def add_tool(tools: Tools, rng: random.Random, step: int) -> str:
    tools.append(
        {
            "name": f"new_tool_{step}",
            "description": f"Fresh tool number {step}.",
            "inputSchema": {"type": "object", "properties": {f"p{step}": {"type": "boolean"}}},
        }
    )
    return "SL916"


def remove_tool(tools: Tools, rng: random.Random, step: int) -> str:
    tools.pop(rng.randrange(len(tools)))
    return "SL901"


def rename_tool(tools: Tools, rng: random.Random, step: int) -> str:
    candidates = [t for t in tools if len(json.dumps(t.get("inputSchema", {}))) > 200]
    rng.choice(candidates)["name"] += f"_v{step}"
    return "SL902"


def with_parameters(rng: random.Random, tools: Tools) -> dict[str, Any]:
    return rng.choice([t for t in tools if properties(t)])


def add_required(tools: Tools, rng: random.Random, step: int) -> str:
    tool = with_parameters(rng, tools)
    properties(tool)[f"req_{step}"] = {"type": "string"}
    tool["inputSchema"].setdefault("required", []).append(f"req_{step}")
    return "SL903"


def add_optional(tools: Tools, rng: random.Random, step: int) -> str:
    properties(with_parameters(rng, tools))[f"opt_{step}"] = {"type": "integer", "description": "Optional."}
    return "SL911"


def remove_parameter(tools: Tools, rng: random.Random, step: int) -> str:
    tool = with_parameters(rng, tools)
    name = rng.choice(sorted(properties(tool)))
    del properties(tool)[name]
    required = tool["inputSchema"].get("required", [])
    if name in required:
        required.remove(name)
    return "SL906"


def change_type(tools: Tools, rng: random.Random, step: int) -> str:
    tool = rng.choice([t for t in tools if any(p.get("type") == "string" for p in properties(t).values())])
    name = rng.choice(sorted(n for n, p in properties(tool).items() if p.get("type") == "string"))
    properties(tool)[name]["type"] = "boolean"
    properties(tool)[name].pop("enum", None)
    return "SL904"


def tighten(tools: Tools, rng: random.Random, step: int) -> str:
    tool = with_parameters(rng, tools)
    schema = properties(tool)[rng.choice(sorted(properties(tool)))]
    keyword = {"array": "maxItems", "string": "maxLength", "integer": "maximum", "number": "maximum"}.get(
        str(schema.get("type"))
    )
    current = schema.get(keyword, 10_000) if keyword else 0
    if keyword and isinstance(current, int) and current > 1:
        schema[keyword] = min(current, 10_000) // 2
    else:
        schema["format"] = f"custom-{step}"  # a format added or changed narrows any type
    return "SL908"


def remove_enum_value(tools: Tools, rng: random.Random, step: int) -> str | None:
    enums = [p for t in tools for p in properties(t).values() if isinstance(p.get("enum"), list) and len(p["enum"]) > 1]
    if not enums:
        return add_optional(tools, rng, step)
    rng.choice(enums)["enum"].pop()
    return "SL905"


def change_description(tools: Tools, rng: random.Random, step: int) -> str:
    tool = rng.choice(tools)
    tool["description"] = (tool.get("description") or "") + f" Revised in step {step}."
    return "SL909"


def change_default(tools: Tools, rng: random.Random, step: int) -> str:
    tool = with_parameters(rng, tools)
    schema = properties(tool)[rng.choice(sorted(properties(tool)))]
    schema["default"] = f"default-{step}" if schema.get("default") != f"default-{step}" else None
    return "SL913"


def reorder(tools: Tools, rng: random.Random, step: int) -> str:
    i, j = sorted(rng.sample(range(len(tools)), 2))
    tools[i], tools[j] = tools[j], tools[i]
    return "SL912"


def reformat_only(tools: Tools, rng: random.Random, step: int) -> None:
    return None  # the writer picks another layout for this version; the content is unchanged


MUTATIONS: list[Callable[[Tools, random.Random, int], str | None]] = [
    add_tool,
    remove_tool,
    rename_tool,
    add_required,
    add_optional,
    remove_parameter,
    change_type,
    tighten,
    remove_enum_value,
    change_description,
    change_default,
    reorder,
    reformat_only,
    reformat_only,
]


def write_version(path_stem: Path, tools: Tools, rng: random.Random, layout: int) -> Path:
    """One of several layouts of the same content: indented, compact with sorted keys, or YAML."""
    if layout % 3 == 2:
        from ruamel.yaml import YAML

        yaml = YAML(typ="safe")
        yaml.default_flow_style = False
        path = path_stem.with_suffix(".yaml")
        with path.open("w", encoding="utf-8") as stream:
            yaml.dump(tools, stream)
        return path
    path = path_stem.with_suffix(".json")
    if layout % 3 == 1:
        path.write_text(json.dumps(tools, sort_keys=True, separators=(",", ":")), encoding="utf-8")
    else:
        path.write_text(json.dumps(tools, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def bench_pair(tools: Tools, folder: Path, repeat: int, rng: random.Random) -> None:
    new = copy.deepcopy(tools)
    for step, mutation in enumerate([remove_tool, rename_tool, add_required, tighten, change_description, add_tool]):
        mutation(new, rng, step)
    old_path = write_version(folder / "pair_old", tools, rng, 0)
    new_path = write_version(folder / "pair_new", new, rng, 0)
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        found = diff(str(old_path), str(new_path), OPTIONS)
        timings.append(time.perf_counter() - started)
    same = diff(str(old_path), str(old_path), OPTIONS)
    print(
        f"pair of {len(tools)}-tool files ({old_path.stat().st_size // 1024} KiB each): "
        f"median {statistics.median(timings) * 1000:.1f} ms, max {max(timings) * 1000:.1f} ms over {repeat} runs; "
        f"{len(found)} findings ({', '.join(sorted({d.code for d in found}))}); identical: {len(same)} findings"
    )
    if same:
        raise SystemExit("identical files reported changes")


def bench_series(tools: Tools, folder: Path, versions: int, rng: random.Random) -> int:
    failures = 0
    timings: dict[str, list[float]] = {"json": [], "yaml": []}
    codes: Counter[str] = Counter()
    current = copy.deepcopy(tools)
    previous = write_version(folder / "v0000", current, rng, 0)
    for step in range(1, versions + 1):
        mutation = rng.choice(MUTATIONS)
        expected = mutation(current, rng, step)
        path = write_version(folder / f"v{step:04d}", current, rng, rng.choice((0, 0, 1, 1, 1, 2)))
        started = time.perf_counter()
        found = diff(str(previous), str(path), OPTIONS)
        timings["yaml" if ".yaml" in (previous.suffix, path.suffix) else "json"].append(time.perf_counter() - started)
        codes.update(d.code for d in found)
        reported = {d.code for d in found}
        if expected is None and found:
            failures += 1
            print(f"  step {step} ({mutation.__name__}): expected nothing, got {[d.message for d in found][:3]}")
        elif expected is not None and expected not in reported:
            failures += 1
            print(f"  step {step} ({mutation.__name__}): expected {expected}, got {sorted(reported)}")
        if diff(str(path), str(path), OPTIONS):
            failures += 1
            print(f"  step {step}: a version compared with itself reported changes")
        previous = path
    total = sum(sum(values) for values in timings.values())
    print(f"series of {versions} versions: {total:.2f} s in total; {failures} failed expectations")
    for kind, values in timings.items():
        if values:
            sides = "a YAML side" if kind == "yaml" else "JSON on both sides"
            print(
                f"  {len(values)} pairs with {sides}: median {statistics.median(values) * 1000:.1f} ms, "
                f"max {max(values) * 1000:.1f} ms"
            )
    print("findings per rule: " + ", ".join(f"{code} {count}" for code, count in sorted(codes.items())))
    return failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--versions", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tools, origin = load_tools(100, args.seed)
    print(f"tools: {len(tools)} {origin}")
    with tempfile.TemporaryDirectory() as tmp:
        bench_pair(tools, Path(tmp), args.repeat, rng)
        failures = bench_series(tools, Path(tmp), args.versions, rng)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
