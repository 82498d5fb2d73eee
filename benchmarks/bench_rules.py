"""Where the per-tool and per-node rules spend their time, measured in-process.

Run: PYTHONPATH=. python benchmarks/bench_rules.py [FILE ...] [--ignore SL502,SL504] [--repeat 3] [--per-rule]
     [--profile N]

PYTHONPATH picks the checkout measured, so two checkouts can be compared in one session.
Loads each file, then times the engine's tool/node-rule pass (`engine._tool_findings` over every
tool, as `run_rules` calls it) `--repeat` times on freshly loaded tools and prints the median.
`--per-rule` also times every rule on its own (each tool rule over all tools, each node rule over all
schema nodes, each tool-set rule over the whole set), so a slow rule shows up without cProfile's
overhead; `--profile N` prints cProfile's N functions with the most own time. Without FILE it
generates 1k tools (benchmarks/_generate.py). End-to-end numbers: bench_core.py and bench_ab.py.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _generate import tool_file

from schemalint.config import Config, RuleSet
from schemalint.engine import LintOptions, _load_files, _tool_findings, group_toolsets
from schemalint.gc_pause import paused_gc
from schemalint.loaders.discover import discover
from schemalint.model import Tool, ToolSet
from schemalint.rules.base import LintContext, NodeRule, Rule, ToolRule, ToolSetRule
from schemalint.targets import resolve_targets


def load_tools(path: Path, config: Config) -> tuple[list[Tool], LintContext]:
    sources = _load_files(((source, config) for source in discover([str(path)], (), (), config.root)), LintOptions())
    tools = [tool for toolset, _ in group_toolsets(sources) for tool in toolset.tools]
    return tools, LintContext({id(t): resolve_targets(t, config.targets) for t in tools})


def timed(action: Callable[[], object]) -> float:
    """CPU seconds of this process: on a shared machine, steadier than wall time. The cyclic garbage
    collector is paused, as `run_rules` always runs (engine.lint and friends): its full collections
    over 10,000 loaded tools would otherwise be charged to whichever rule allocates at the time."""
    with paused_gc():
        started = time.process_time()
        action()
        return time.process_time() - started


def all_rules(tools: list[Tool], rules: RuleSet, context: LintContext) -> None:
    for tool in tools:
        _tool_findings(tool, rules, context)


def walk_all(tools: list[Tool]) -> None:
    for tool in tools:
        tool.schema_nodes()


def one_rule(rule: Rule, rules: RuleSet, tools: list[Tool], context: LintContext) -> None:
    if isinstance(rule, ToolRule):
        for tool in tools:
            list(rule.check(tool, context))
    elif isinstance(rule, NodeRule):
        for tool in tools:
            targets = context.targets(tool)
            for node in tool.schema_nodes():
                if rule in rules.node_rules.rules_for(node, targets):
                    list(rule.check(node, context))
    elif isinstance(rule, ToolSetRule):
        list(rule.check(ToolSet("benchmark", tools), context))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="*")
    parser.add_argument("--ignore", default="SL502,SL504")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--per-rule", action="store_true")
    parser.add_argument("--profile", type=int, default=0, help="print the N functions with most own time")
    args = parser.parse_args()
    config = Config(root=Path.cwd().resolve(), ignore=tuple(c for c in args.ignore.split(",") if c))
    rules = RuleSet(config)
    with tempfile.TemporaryDirectory() as tmp:
        files = [Path(f) for f in args.files] or [tool_file(Path(tmp) / "tools_1000.json", 1000)]
        for path in files:
            times = []
            for _ in range(args.repeat):  # fresh tools each time: nothing cached on them from the last run
                tools, context = load_tools(path, config)
                times.append(timed(partial(all_rules, tools, rules, context)))
            nodes = sum(1 for t in tools for _ in t.schema_nodes())
            print(f"{path.name}: {len(tools)} tools, {nodes} schema nodes, {len(rules.instances)} rules")
            print(f"  tool+node rules: median {statistics.median(times):.3f} s CPU, min {min(times):.3f} s")
            if args.profile:
                import cProfile
                import pstats

                tools, context = load_tools(path, config)
                profiler = cProfile.Profile()
                profiler.runcall(all_rules, tools, rules, context)
                pstats.Stats(profiler).sort_stats("tottime").print_stats(args.profile)
            if args.per_rule:
                tools, context = load_tools(path, config)
                # walked once up front, so that the first node rule is not charged for it
                print(f"  {timed(partial(walk_all, tools)):7.3f} s  (walking the schemas)")
                per_rule = [(timed(partial(one_rule, rule, rules, tools, context)), rule) for rule in rules.instances]
                for spent, rule in sorted(per_rule, key=lambda pair: -pair[0]):
                    print(f"  {spent:7.3f} s  {rule.code} {rule.slug} ({rule.scope.value})")


if __name__ == "__main__":
    main()
