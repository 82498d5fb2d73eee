"""Speed of the JSON/YAML loaders on generated tool files (no corpus needed).

Run: python benchmarks/bench_loaders.py [--repeat 5] [--tools 10000] [--yaml-tools 1000]

Prints median wall and CPU times over --repeat runs for: decoding the bytes, `load_json` (the C
json module plus duplicate-key checks, and one pass over the tokens for positions and depth), the
first `locate()`, locating two values in every tool, four as rule findings do (a
schema's span and members deep inside it), a later `locate()`, and `load_yaml`
(data and positions in one pass; libyaml events, and ruamel.yaml's for comparison) on a smaller
YAML file, plus the memory of a loaded document (data and position index). Loading rates are in MB per CPU second.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _generate import make_tool

from schemalint.loaders import LoadError
from schemalint.loaders.jsonyaml import decode_source, load_json, load_yaml


def median_seconds(action: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """Median wall and CPU seconds (CPU time is the steadier number on a busy machine)."""
    wall, cpu = [], []
    for _ in range(repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        action()
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    return statistics.median(wall), statistics.median(cpu)


def show(label: str, seconds: tuple[float, float], scale: float = 1.0, unit: str = "s", megabytes: float = 0) -> None:
    rate = f"  {megabytes / seconds[1]:6.2f} MB/s (cpu)" if megabytes and seconds[1] else ""
    print(f"  {label:26}{seconds[0] * scale:9.3f} {unit} wall {seconds[1] * scale:9.3f} {unit} cpu{rate}")


def tools_json(count: int, indent: int | None) -> bytes:
    rng = random.Random(7)
    return json.dumps([make_tool(i, rng) for i in range(count)], indent=indent, ensure_ascii=False).encode()


def tools_yaml(count: int) -> str:
    import io

    from ruamel.yaml import YAML

    rng = random.Random(7)
    stream = io.StringIO()
    YAML(typ="safe", pure=True).dump([make_tool(i, rng) for i in range(count)], stream)
    return stream.getvalue()


def _refused(load: Callable[[str, str], Any], text: str) -> None:
    try:
        load(text, "hostile")
    except LoadError:
        return
    raise AssertionError("hostile input was accepted")


def _laughs() -> str:
    """The billion-laughs alias bomb: nine levels of nine aliases each."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for previous, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{previous}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def _load_yaml_with_ruamel(text: str) -> None:
    """The loader without its libyaml fast path: what every YAML file cost before it."""
    from schemalint.loaders import jsonyaml

    jsonyaml._build_with_ruamel(jsonyaml._YamlBuilder(), text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--tools", type=int, default=10_000)
    parser.add_argument("--indent", type=int, default=None, help="JSON indent (default: compact, ~6 MB for 10k tools)")
    parser.add_argument("--yaml-tools", type=int, default=1_000)
    args = parser.parse_args()

    raw = tools_json(args.tools, args.indent)
    text = decode_source(raw, "bench.json")
    last = f"/{args.tools - 1}/function/parameters/properties/limit/maximum"
    print(f"JSON: {args.tools} tools, {len(raw) / 1e6:.1f} MB, median of {args.repeat}")
    show("decode_source", median_seconds(lambda: decode_source(raw, "bench.json"), args.repeat))
    show("json.loads (bare)", median_seconds(lambda: json.loads(text), args.repeat))
    show("load_json", median_seconds(lambda: load_json(text, "bench.json"), args.repeat), megabytes=len(raw) / 1e6)

    def first_locate() -> None:
        document = load_json(text, "bench.json")
        first_locate_times.append(median_seconds(lambda: document.positions.locate(last), 1))

    first_locate_times: list[tuple[float, float]] = []
    for _ in range(args.repeat):
        first_locate()
    walls, cpus = zip(*first_locate_times, strict=True)
    show("first locate()", (statistics.median(walls), statistics.median(cpus)))

    def locate_every_tool() -> None:
        document = load_json(text, "bench.json")
        for index in range(args.tools):
            document.positions.locate(f"/{index}/function/name", key=True)
            document.positions.locate(f"/{index}/function/parameters/required/0")

    show("locate in every tool", median_seconds(locate_every_tool, args.repeat))

    def locate_like_findings() -> None:
        """What rule findings ask of every tool: a schema's span, keys and values deep in it."""
        document = load_json(text, "bench.json")
        for index in range(args.tools):
            document.positions.locate(f"/{index}/function/parameters")
            document.positions.locate(f"/{index}/function/parameters/properties/limit", key=True)
            document.positions.locate(f"/{index}/function/parameters/properties/status/enum/2")
            document.positions.locate(f"/{index}/function/description")

    show("locate like findings", median_seconds(locate_like_findings, args.repeat))
    document = load_json(text, "bench.json")
    document.positions.locate(last)
    show("later locate()", median_seconds(lambda: document.positions.locate(last, key=True), 1000), 1e6, "µs")

    tracemalloc.start()
    before, _ = tracemalloc.get_traced_memory()
    document = load_json(text, "bench.json")
    for index in range(args.tools):
        document.positions.locate(f"/{index}/function/name", key=True)
        document.positions.locate(f"/{index}/function/parameters/required/0")
    after, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    grown, peaked = (after - before) / 1e6, (peak - before) / 1e6
    print(f"  document                {grown:.1f} MB after locating in every tool (peak {peaked:.1f} MB)")

    for label, hostile in (("[" * 100_000, "100,000 x '['"), ('{"a":' * 100_000, "100,000 x '{\"a\":'")):
        show(f"load_json {hostile}", median_seconds(lambda hostile=label: _refused(load_json, hostile), args.repeat))
        show(f"load_yaml {hostile}", median_seconds(lambda hostile=label: _refused(load_yaml, hostile), args.repeat))
    yaml_only = (
        ("{a: " * 100_000, "100,000 x '{a: '"),
        ("- " * 100_000 + "x\n", "100,000 x '- '"),
        (_laughs(), "9^9 aliases"),
    )
    for text, label in yaml_only:
        show(f"load_yaml {label}", median_seconds(lambda text=text: _refused(load_yaml, text), args.repeat))

    yaml_text = tools_yaml(args.yaml_tools)
    print(f"YAML: {args.yaml_tools} tools, {len(yaml_text.encode()) / 1e6:.2f} MB, median of {args.repeat}")
    yaml_megabytes = len(yaml_text.encode()) / 1e6
    show("load_yaml", median_seconds(lambda: load_yaml(yaml_text, "bench.yaml"), args.repeat), megabytes=yaml_megabytes)
    show(
        "load_yaml (ruamel only)",
        median_seconds(lambda: _load_yaml_with_ruamel(yaml_text), args.repeat),
        megabytes=yaml_megabytes,
    )
    small = tools_yaml(10)
    show("load_yaml (10 tools)", median_seconds(lambda: load_yaml(small, "bench.yaml"), 20), 1e3, "ms")


if __name__ == "__main__":
    main()
