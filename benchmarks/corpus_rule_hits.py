"""Run every rule over the real-world corpus through the engine and print hits per rule per corpus.

    PYTHONPATH=. python benchmarks/corpus_rule_hits.py                  # the table
    PYTHONPATH=. python benchmarks/corpus_rule_hits.py --show SL304 -n 20 [--corpus bfcl] [--seed 1]
    PYTHONPATH=. python benchmarks/corpus_rule_hits.py --select SL304,SL307 --add servers=../realdata/servers

Rows are (rule, severity): a rule that reports at two severities (SL106, SL306, SL308) gets a row
for each. `--show` prints a random sample of one rule's hits with the text it judged, so that a
person can read them and judge the rule's precision. The GitHub MCP snapshots are one tool set
(config `toolsets`), as the server exposes them together. The corpus lives outside the project
(../shared/corpus, or $SCHEMALINT_CORPUS); the script exits quietly when it is absent.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

from schemalint.diagnostics import Diagnostic
from schemalint.engine import LintOptions, LintResult, lint
from schemalint.model import resolve_pointer
from schemalint.rules import all_rules

CORPORA = {
    "bfcl": "bfcl/all_unique.openai.json",
    "mcp-github": "mcp-github/current",
    "tau-bench": "tau-bench/all.openai_tools.json",
    "python-tools": "python-tools",
}
CONFIG = 'toolsets = { github-mcp = ["*/mcp-github/current/*.json"] }\n'


def corpus_root() -> Path:
    """$SCHEMALINT_CORPUS, else the nearest `shared/corpus` beside the checkout or one of its parents."""
    if "SCHEMALINT_CORPUS" in os.environ:
        return Path(os.environ["SCHEMALINT_CORPUS"])
    here = Path(__file__).resolve()
    candidates = [parent / "shared" / "corpus" for parent in here.parents]
    return next((c for c in candidates if c.is_dir()), candidates[1])


def lint_corpus(path: Path, config: Path, select: tuple[str, ...] | None) -> LintResult:
    return lint([str(path)], LintOptions(config_file=config, select=select))


def judged_text(result: LintResult, d: Diagnostic) -> object:
    """What the finding points at: a node of the tool's schema as schemalint read it (a schema converted
    from another format, e.g. Docker catalog arguments, exists only there), else the document's node."""
    for file in result.files:
        if file.path == d.path:
            for tool in file.tools:
                for node in tool.schema_nodes():
                    if node.pointer == d.pointer:
                        return node.schema
            try:
                return resolve_pointer(file.document.data, d.pointer) if file.document is not None else None
            except KeyError:
                return None
    return None


def show(result: LintResult, diagnostics: list[Diagnostic], name: str) -> None:
    for d in diagnostics:
        node = judged_text(result, d)
        print(f"--- [{name}] {d.tool} {d.path}#{d.pointer} [{d.severity.label}]\n    {d.message}")
        print(f"    at pointer: {json.dumps(node, ensure_ascii=False)[:400]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--show", help="print a sample of this rule's hits")
    parser.add_argument("-n", type=int, default=15, help="sample size for --show")
    parser.add_argument("--corpus", help="only this corpus (a name above or one given with --add)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--select", help="only these comma-separated rule codes (faster)")
    parser.add_argument(
        "--add", action="append", default=[], metavar="NAME=PATH", help="also measure this file or folder"
    )
    args = parser.parse_args()

    root = corpus_root()
    corpora = {name: root / rel for name, rel in CORPORA.items() if (root / rel).exists()}
    for added in args.add:
        name, _, path = added.partition("=")
        corpora[name] = Path(path)
    if args.corpus:
        corpora = {k: v for k, v in corpora.items() if k == args.corpus}
    if not corpora:
        print(f"corpus not found at {root}; nothing to measure", file=sys.stderr)
        return 0

    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / ".schemalint.toml"
        config.write_text(CONFIG, encoding="utf-8")
        select = tuple(code.strip().upper() for code in args.select.split(",")) if args.select else None
        if args.show and select:
            select = (*select, args.show.upper())
        results = {name: lint_corpus(path, config, select) for name, path in corpora.items()}

    if args.show:
        code = args.show.upper()
        sample = [(name, r, d) for name, r in results.items() for d in r.diagnostics if d.code == code]
        random.Random(args.seed).shuffle(sample)
        for name, result, d in sample[: args.n]:
            show(result, [d], name)
        print(f"({len(sample)} hits in total)")
        return 0

    counts = {
        name: Counter((d.code, d.severity.label[0].upper()) for d in r.diagnostics) for name, r in results.items()
    }
    rules = [r for r in all_rules() if select is None or r.code in select]
    rows = sorted({key for c in counts.values() for key in c} | {(r.code, r.severity.label[0].upper()) for r in rules})
    names = list(results)
    print(f"{'rule':<8}{'sev':<5}" + "".join(f"{n:>14}" for n in names))
    print(f"{'tools':<13}" + "".join(f"{results[n].tool_count:>14}" for n in names))
    for code, severity in rows:
        print(f"{code:<8}{severity:<5}" + "".join(f"{counts[n][(code, severity)]:>14}" for n in names))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
