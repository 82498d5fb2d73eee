"""Run every rule over the real-world corpus and print hits per rule per corpus.

    PYTHONPATH=. python benchmarks/corpus_rule_hits.py                  # the table
    PYTHONPATH=. python benchmarks/corpus_rule_hits.py --show SL304 -n 20 [--corpus bfcl] [--seed 1]

`--show` prints a random sample of one rule's hits (tool, pointer, message, the text it judged)
so that a person can read them and judge the rule's precision. The corpus lives outside the
project (../shared/corpus, or $SCHEMALINT_CORPUS); the script exits quietly when it is absent.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from schemalint.diagnostics import Finding
from schemalint.model import Dialect, Tool, ToolSet, resolve_pointer
from schemalint.rules import all_rules
from schemalint.rules.base import LintContext, NodeRule, ToolRule, ToolSetRule
from schemalint.targets import resolve_targets
from schemalint.testing import make_tool

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def corpus_root() -> Path:
    return Path(os.environ.get("SCHEMALINT_CORPUS", "/work/shared/corpus"))


def load_corpora(root: Path) -> dict[str, tuple[list[dict[str, Any]], Dialect]]:
    """Each corpus as plain `{name, description, parameters, annotations}` dicts plus its dialect."""
    corpora: dict[str, tuple[list[dict[str, Any]], Dialect]] = {}
    bfcl = root / "bfcl" / "all_unique.openai.json"
    if bfcl.exists():
        corpora["bfcl"] = (json.loads(bfcl.read_text()), Dialect.OPENAI_FUNCTIONS)
    snaps = sorted((root / "mcp-github" / "current").glob("*"))
    if snaps:
        tools = []
        for snap in snaps:
            raw = json.loads(snap.read_text())
            tools.append(
                {
                    "name": raw.get("name"),
                    "description": raw.get("description"),
                    "parameters": raw.get("inputSchema"),
                    "annotations": raw.get("annotations"),
                }
            )
        corpora["mcp-github"] = (tools, Dialect.MCP)
    tau = root / "tau-bench" / "all.openai_tools.json"
    if tau.exists():
        corpora["tau-bench"] = ([entry["function"] for entry in json.loads(tau.read_text())], Dialect.OPENAI_CHAT)
    return corpora


def run_all(definitions: list[dict[str, Any]], dialect: Dialect) -> Iterator[tuple[str, Tool, Finding]]:
    tools = [make_tool(d, i, dialect) for i, d in enumerate(definitions)]
    context = LintContext({id(t): resolve_targets(t) for t in tools})
    toolset = ToolSet("corpus", tools)
    for rule_class in all_rules():
        rule = rule_class()
        if isinstance(rule, ToolSetRule):
            for finding in rule.check(toolset, context):
                tool = next((t for t in tools if finding.pointer.startswith(t.pointer + "/")), tools[0])
                yield rule.code, tool, finding
        for tool in tools:
            if isinstance(rule, ToolRule):
                for finding in rule.check(tool, context):
                    yield rule.code, tool, finding
            elif isinstance(rule, NodeRule):
                for node in tool.schema_nodes():
                    for finding in rule.check(node, context):
                        yield rule.code, tool, finding


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--show", help="print a sample of this rule's hits")
    parser.add_argument("-n", type=int, default=15, help="sample size for --show")
    parser.add_argument("--corpus", help="only this corpus (bfcl, mcp-github, tau-bench)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    root = corpus_root()
    corpora = load_corpora(root)
    if not corpora:
        print(f"corpus not found at {root}; nothing to measure", file=sys.stderr)
        return 0
    if args.corpus:
        corpora = {args.corpus: corpora[args.corpus]}

    table: dict[str, Counter[str]] = {name: Counter() for name in corpora}
    tool_counts = {name: len(defs) for name, (defs, _) in corpora.items()}
    samples: list[tuple[str, Tool, Finding, dict[str, Any]]] = []
    for name, (definitions, dialect) in corpora.items():
        document = definitions
        for code, tool, finding in run_all(definitions, dialect):
            table[name][code] += 1
            if args.show and code == args.show.upper():
                samples.append((name, tool, finding, document))

    if args.show:
        random.Random(args.seed).shuffle(samples)
        for name, tool, finding, document in samples[: args.n]:
            try:
                node = resolve_pointer(document, finding.pointer)
            except KeyError:
                node = None
            shown = json.dumps(node, ensure_ascii=False)
            print(f"--- [{name}] {tool.display_name} {finding.pointer}\n    {finding.message}")
            print(f"    tool description: {(tool.description or '')[:300]!r}")
            print(f"    at pointer: {shown[:400]}")
        print(f"({len(samples)} hits in total)")
        return 0

    codes = sorted({code for counts in table.values() for code in counts} | {r.code for r in all_rules()})
    names = list(corpora)
    header = f"{'rule':<8}{'sev':<5}" + "".join(f"{n:>14}" for n in names)
    print(header)
    print(f"{'tools':<13}" + "".join(f"{tool_counts[n]:>14}" for n in names))
    severities = {r.code: r.severity.label[0].upper() for r in all_rules()}
    for code in codes:
        print(f"{code:<8}{severities.get(code, '?'):<5}" + "".join(f"{table[n][code]:>14}" for n in names))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
