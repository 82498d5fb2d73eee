"""Editor latency of `schemalint server`: time from didChange to the publishDiagnostics that answers it.

Run: python benchmarks/bench_lsp.py [--tools 100] [--changes 30] [--debounce-ms 0]

A real LSP client (pygls's, over stdio) starts `python -m schemalint server`, opens a generated
file of --tools OpenAI tools, and then edits one tool's description per change, as typing does. Each
change waits for the diagnostics of its own version. With --debounce-ms 0 (the default here) the
numbers are the server's work; an editor session adds the debounce (200 ms unless configured).
Also prints the in-process lint of the same edit with and without the server's finding cache.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))
from _generate import make_tool  # noqa: E402


def tool_text(count: int, edit: int = 0) -> str:
    import random

    rng = random.Random(7)
    tools = [make_tool(i, rng) for i in range(count)]
    if edit:  # one keystroke's worth of change in one tool's description
        target = tools[edit % count]["function"]
        target["description"] += f" Edit {edit}."
    return json.dumps(tools, indent=2)


async def measure_server(
    path: Path, count: int, changes: int, debounce_ms: int
) -> tuple[list[float], int, float, list[tuple[float, float]]]:
    from lsprotocol import types as lsp
    from pygls.lsp.client import LanguageClient

    versions: dict[int, float] = {}
    answered: dict[int, asyncio.Future[float]] = {}
    client = LanguageClient("bench-lsp", "1")
    findings: dict[str, int] = {}

    server_costs: list[tuple[float, float]] = []

    @client.feature(lsp.WINDOW_LOG_MESSAGE)
    def on_log(params: lsp.LogMessageParams) -> None:
        if params.message.startswith("schemalint timing: "):
            wall, cpu = (float(part.split()[0]) for part in params.message.split(": ", 1)[1].split(", "))
            server_costs.append((wall, cpu))

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
        findings[params.uri] = len(params.diagnostics)
        future = answered.get(params.version or 0)
        if future is not None and not future.done():
            future.set_result(time.perf_counter())

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    await client.start_io(sys.executable, "-m", "schemalint", "server", env=env)
    await client.initialize_async(
        lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(),
            initialization_options={"debounceMs": debounce_ms, "reportTiming": True},
        )
    )
    client.initialized(lsp.InitializedParams())
    uri = path.as_uri()
    loop = asyncio.get_running_loop()
    answered[1] = loop.create_future()
    text = tool_text(count)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "json", 1, text)))
    await asyncio.wait_for(answered[1], 120)
    first = time.perf_counter() - started
    latencies = []
    for change in range(1, changes + 1):
        version = change + 1
        answered[version] = loop.create_future()
        edited = tool_text(count, change)
        versions[version] = time.perf_counter()
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
                [lsp.TextDocumentContentChangeWholeDocument(text=edited)],
            )
        )
        done = await asyncio.wait_for(answered[version], 60)
        latencies.append((done - versions[version]) * 1000)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return latencies, findings[uri], first, server_costs[1:]


def measure_in_process(path: Path, count: int, changes: int) -> dict[str, float]:
    """Median wall and CPU milliseconds of one edit's lint, without and with the server's cache."""
    from schemalint.engine import FindingCache, LintOptions, lint_source

    options = LintOptions(skip_non_tool_files=True)
    cache = FindingCache()
    lint_source(tool_text(count), str(path), options, cache=cache)
    samples: dict[str, list[float]] = {"wall": [], "cpu": [], "wall cached": [], "cpu cached": []}
    for change in range(1, changes + 1):
        text = tool_text(count, change)
        for suffix, used in (("", None), (" cached", cache)):
            wall, cpu = time.perf_counter(), time.process_time()
            lint_source(text, str(path), options, cache=used)
            samples["wall" + suffix].append((time.perf_counter() - wall) * 1000)
            samples["cpu" + suffix].append((time.process_time() - cpu) * 1000)
    return {name: statistics.median(values) for name, values in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=100)
    parser.add_argument("--changes", type=int, default=30)
    parser.add_argument("--debounce-ms", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "tools.json")
        path.write_text(tool_text(args.tools), encoding="utf-8")
        latencies, findings, first, server_costs = asyncio.run(
            measure_server(path, args.tools, args.changes, args.debounce_ms)
        )
        in_process = measure_in_process(path, args.tools, args.changes)
    ordered = sorted(latencies)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    print(f"file: {args.tools} tools, {findings} findings; debounce {args.debounce_ms} ms; {args.changes} changes")
    print(f"server start + initialize + first diagnostics: {first * 1000:.0f} ms")
    print(f"didChange -> publishDiagnostics: median {statistics.median(latencies):.1f} ms, p90 {p90:.1f} ms")
    print(
        f"server's own work per change (lint + conversion): median {statistics.median(w for w, _ in server_costs):.1f} "
        f"ms wall, {statistics.median(c for _, c in server_costs):.1f} ms CPU"
    )
    print(
        f"in-process lint of one edit (wall / CPU): without the cache {in_process['wall']:.1f} / "
        f"{in_process['cpu']:.1f} ms, with it {in_process['wall cached']:.1f} / {in_process['cpu cached']:.1f} ms"
    )
    print(f"load average: {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
