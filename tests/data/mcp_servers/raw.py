"""A hand-written stdio server (no SDK), to send what the SDK would not: pages and malformed answers.

argv[1] is the mode:
  paged      three tools over three tools/list pages (nextCursor)
  malformed  tools/list answers `tools` that are not objects
  untyped    one tool whose inputSchema has no `type` (the SDK's own client refuses such a list)
  garbage    writes a non-JSON line instead of answering initialize
  logs       logs to stdout before each answer (as some servers do), then answers as `paged`
  env        one tool named by the RAW_TOOL_NAME environment variable (exits without it)
"""

import json
import os
import sys

MODE = sys.argv[1]
if MODE == "env" and "RAW_TOOL_NAME" not in os.environ:
    sys.exit("fatal: RAW_TOOL_NAME is not set")
TOOLS = [
    {
        "name": f"tool_{i}",
        "description": f"Tool number {i}. Use it for task {i} only.",
        "inputSchema": {"type": "object"},
    }
    for i in range(3)
]


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    request = json.loads(line)
    if "id" not in request:
        continue
    method, ident = request["method"], request["id"]
    if MODE == "logs":
        sys.stdout.write(f"[info] handling {method}\n")
        sys.stdout.flush()
    if method == "initialize":
        if MODE == "garbage":
            sys.stdout.write("this is not JSON-RPC\n")
            sys.stdout.flush()
            continue
        result = {
            "protocolVersion": request["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": f"raw-{MODE}", "version": "1.0"},
        }
        send({"jsonrpc": "2.0", "id": ident, "result": result})
    elif method == "tools/list":
        if MODE == "malformed":
            send({"jsonrpc": "2.0", "id": ident, "result": {"tools": ["tool_0", 5]}})
            continue
        if MODE == "untyped":
            tool = {**TOOLS[0], "inputSchema": {"properties": {"query": {"type": "string"}}}}
            send({"jsonrpc": "2.0", "id": ident, "result": {"tools": [tool]}})
            continue
        if MODE == "env":
            tool = {**TOOLS[0], "name": os.environ["RAW_TOOL_NAME"]}
            send({"jsonrpc": "2.0", "id": ident, "result": {"tools": [tool]}})
            continue
        cursor = (request.get("params") or {}).get("cursor")
        page = int(cursor) if cursor else 0
        result = {"tools": [TOOLS[page]]}
        if page + 1 < len(TOOLS):
            result["nextCursor"] = str(page + 1)
        send({"jsonrpc": "2.0", "id": ident, "result": result})
    else:
        send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": "method not found"}})
