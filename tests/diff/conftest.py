from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from schemalint.diagnostics import Diagnostic
from schemalint.diff import diff
from schemalint.engine import LintOptions

Tools = list[dict[str, Any]]


def mcp_tool(name: str, properties: dict[str, Any] | None = None, required: Sequence[str] = (), **extra: Any) -> dict:
    schema: dict[str, Any] = {"type": "object", "properties": properties or {}}
    if required:
        schema["required"] = list(required)
    return {
        "name": name,
        "description": f"Does {name.replace('_', ' ')} for the given repository.",
        "inputSchema": schema,
        **extra,
    }


def base_tools() -> Tools:
    return [
        mcp_tool(
            "list_issues",
            {
                "owner": {"type": "string", "description": "Repository owner"},
                "state": {"type": "string", "enum": ["open", "closed", "all"], "default": "open"},
                "per_page": {"type": "integer", "minimum": 1, "maximum": 100},
                "labels": {"type": "array", "items": {"type": "string", "maxLength": 50}},
                "since": {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}]},
                "filter": {"$ref": "#/$defs/Filter"},
            },
            ["owner"],
            annotations={"readOnlyHint": True},
            outputSchema={
                "type": "object",
                "properties": {"count": {"type": "integer"}, "url": {"type": "string"}},
                "required": ["count", "url"],
            },
        ),
        mcp_tool(
            "create_issue",
            {"title": {"type": "string"}, "body": {"type": "string"}},
            ["title"],
            annotations={"destructiveHint": False},
        ),
        mcp_tool("delete_branch", {"branch": {"type": "string"}}, ["branch"]),
    ]


def with_defs(tools: Tools) -> Tools:
    tools[0]["inputSchema"]["$defs"] = {
        "Filter": {"type": "object", "properties": {"author": {"type": "string"}, "milestone": {"type": "integer"}}}
    }
    return tools


@pytest.fixture
def evolve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., list[Diagnostic]]:
    """evolve(edit) -> the diagnostics of diffing the base tools (changed by `before`) against a copy
    changed by `edit`."""
    monkeypatch.chdir(tmp_path)

    def run(
        edit: Callable[[Tools], Any], select: Sequence[str] = ("SL9",), before: Callable[[Tools], Any] | None = None
    ) -> list[Diagnostic]:
        old = with_defs(base_tools())
        if before is not None:
            before(old)
        new = copy.deepcopy(old)
        edit(new)
        (tmp_path / "old.json").write_text(json.dumps(old, indent=2), encoding="utf-8")
        (tmp_path / "new.json").write_text(json.dumps(new, indent=2), encoding="utf-8")
        return diff("old.json", "new.json", LintOptions(select=tuple(select), no_config=True))

    return run
