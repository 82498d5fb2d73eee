"""FindingCache: what the language server reuses between keystrokes must never change the findings."""

from __future__ import annotations

import json
from pathlib import Path

from schemalint.engine import FindingCache, LintOptions, lint_source


def tools_text(description: str, open_object: bool = True) -> str:
    tools = [
        {
            "name": f"get_order_{i}",
            "description": description if i == 1 else f"Look up order {i} by id. Use for order {i} only.",
            "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}
            | ({} if open_object else {"additionalProperties": False}),
        }
        for i in range(3)
    ]
    return json.dumps(tools, indent=2)


def findings(text: str, path: Path, cache: FindingCache | None, **options: object) -> list[dict[str, object]]:
    result = lint_source(text, str(path), LintOptions(no_config=True, **options), cache=cache)  # type: ignore[arg-type]
    return [d.to_json() for d in result.diagnostics]


def test_cached_lint_equals_a_fresh_one_across_edits(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    cache = FindingCache()
    for text in (
        tools_text("Look up order 1 by id. Use for order 1 only."),
        tools_text(""),  # the edited tool now lacks a description: re-linted, not served from the cache
        tools_text("", open_object=False),  # every tool changed
        tools_text("Look up order 1 by id. Use for order 1 only."),  # back to a state seen before
    ):
        assert findings(text, path, cache) == findings(text, path, None)
    assert any(f["code"] == "SL201" for f in findings(tools_text(""), path, cache))


def test_configuration_is_part_of_the_key(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    cache = FindingCache()
    text = tools_text("")
    assert any(f["code"] == "SL201" for f in findings(text, path, cache))
    assert not any(f["code"] == "SL201" for f in findings(text, path, cache, ignore=("SL201",)))


def test_the_oldest_entries_go_first(tmp_path: Path) -> None:
    cache = FindingCache(max_tools=2)
    path = tmp_path / "tools.json"
    findings(tools_text("A tool. Use it for A only."), path, cache)
    assert len(cache) == 2
