"""`schemalint server` end to end: a real LSP client talks to `python -m schemalint server` over stdio."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")
from lsprotocol import types as lsp  # noqa: E402

from schemalint import __version__  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

# the second property sits after an emoji on the same line: its UTF-16 column is one more than its
# code-point column, which is what LSP clients count
BAD_JSON = (
    "[\n"
    '  {"name": "lookup_order", "description": "Look up one order by id. Use for order status questions.",\n'
    '   "inputSchema": {"type": "object",\n'
    '     "properties": {"note😀": {"type": "string", "description": "Note."}, '
    '"bad name": {"type": "string", "description": "Name."}},\n'
    '     "additionalProperties": false}}\n'
    "]\n"
)
FIXED_JSON = BAD_JSON.replace('"note😀"', '"note"').replace('"bad name"', '"bad_name"')

BAD_YAML = """\
tools:
  - name: get_weather
    description: Daily weather forecast for one city. Use for future dates only.
    inputSchema:
      type: object
      properties:
        city: {type: string, description: City name}
"""


def run(
    scenario: Callable[[Any, Path], Awaitable[None]],
    tmp_path: Path,
    capabilities: lsp.ClientCapabilities | None = None,
) -> None:
    async def main() -> None:
        client = pytest_lsp.make_test_lsp_client()
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        await client.start_io(sys.executable, "-m", "schemalint", "server", env=env, cwd=str(tmp_path))
        try:
            await client.initialize_session(
                lsp.InitializeParams(
                    capabilities=capabilities or lsp.ClientCapabilities(),
                    root_uri=tmp_path.as_uri(),
                    initialization_options={"debounceMs": 20},
                )
            )
            await asyncio.wait_for(scenario(client, tmp_path), timeout=60)
        finally:
            await client.shutdown_session()

    asyncio.run(main())


async def diagnostics_for(
    client: Any, uri: str, until: Callable[[Sequence[lsp.Diagnostic]], bool] = lambda _: True
) -> Sequence[lsp.Diagnostic]:
    while True:
        if uri in client.diagnostics and until(client.diagnostics[uri]):
            return client.diagnostics[uri]
        await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)


def open_file(client: Any, path: Path, text: str, language: str = "json") -> str:
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    item = lsp.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=item))
    return uri


def change(client: Any, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def codes(diagnostics: Sequence[lsp.Diagnostic]) -> list[str]:
    return sorted(str(d.code) for d in diagnostics)


def test_open_reports_findings_with_utf16_ranges_and_change_clears_them(tmp_path: Path) -> None:
    async def scenario(client: Any, folder: Path) -> None:
        uri = open_file(client, folder / "tools.json", BAD_JSON)
        found = await diagnostics_for(client, uri)
        assert codes(found) == ["SL107", "SL107"]
        bad_name = next(d for d in found if "bad name" in d.message)
        line = BAD_JSON.splitlines()[3]
        column = line.index('"bad name"')
        assert bad_name.range.start == lsp.Position(3, column + 1)  # the emoji is 2 UTF-16 units
        assert bad_name.range.end == lsp.Position(3, column + 1 + len('"bad name"'))
        assert bad_name.severity == lsp.DiagnosticSeverity.Warning
        assert bad_name.source == "schemalint"
        assert bad_name.code_description is not None
        assert "SL107" in bad_name.code_description.href
        assert "lookup_order" in bad_name.message

        change(client, uri, FIXED_JSON, 2)
        assert await diagnostics_for(client, uri, lambda d: not d) == ()

    run(scenario, tmp_path)


def test_files_without_tools_stay_silent(tmp_path: Path) -> None:
    async def scenario(client: Any, folder: Path) -> None:
        quiet = open_file(client, folder / "package.json", '{"name": "app", "version": "1.0.0"}\n')
        broken = open_file(client, folder / "notes.yaml", "just: [unclosed\n", "yaml")
        uri = open_file(client, folder / "tools.json", BAD_JSON)
        await diagnostics_for(client, uri)  # messages arrive in order: nothing came for the others
        assert quiet not in client.diagnostics
        assert broken not in client.diagnostics

    run(scenario, tmp_path)


def test_hover_shows_the_rule_documentation(tmp_path: Path) -> None:
    async def scenario(client: Any, folder: Path) -> None:
        uri = open_file(client, folder / "tools.json", BAD_JSON)
        found = await diagnostics_for(client, uri)
        where = lsp.TextDocumentPositionParams(lsp.TextDocumentIdentifier(uri), found[0].range.start)
        hover = await client.text_document_hover_async(lsp.HoverParams(where.text_document, where.position))
        assert hover is not None
        assert hover.contents.kind == lsp.MarkupKind.Markdown
        assert "**SL107**" in hover.contents.value
        assert "## What it does" in hover.contents.value
        nowhere = await client.text_document_hover_async(
            lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(0, 0))
        )
        assert nowhere is None

    run(scenario, tmp_path)


def apply_text_edits(text: str, edits: Sequence[lsp.TextEdit]) -> str:
    """Apply LSP edits (ASCII-only test texts: characters are code points)."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(position: lsp.Position) -> int:
        return starts[position.line] + position.character

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


def test_code_actions_fix_json_and_disable_in_yaml(tmp_path: Path) -> None:
    async def scenario(client: Any, folder: Path) -> None:
        json_text = BAD_JSON.replace('"note😀"', '"note"').replace('"bad name"', '"bad_name"')
        json_text = json_text.replace(',\n     "additionalProperties": false}}', "}}")
        uri = open_file(client, folder / "tools.json", json_text)
        found = await diagnostics_for(client, uri)
        assert codes(found) == ["SL303"]
        actions = await client.text_document_code_action_async(
            lsp.CodeActionParams(
                lsp.TextDocumentIdentifier(uri), found[0].range, lsp.CodeActionContext(diagnostics=list(found))
            )
        )
        fix = next(a for a in actions if a.title.startswith("SL303"))
        fixed = apply_text_edits(json_text, fix.edit.changes[uri])
        assert json.loads(fixed)[0]["inputSchema"]["additionalProperties"] is False
        assert not any(a.title.startswith("Disable") for a in actions)  # JSON has no comments

        yaml_uri = open_file(client, folder / "tools.yaml", BAD_YAML, "yaml")
        yaml_found = await diagnostics_for(client, yaml_uri)
        assert codes(yaml_found) == ["SL303"]
        actions = await client.text_document_code_action_async(
            lsp.CodeActionParams(
                lsp.TextDocumentIdentifier(yaml_uri), yaml_found[0].range, lsp.CodeActionContext(list(yaml_found))
            )
        )
        titles = [a.title for a in actions]
        assert "Disable SL303 here" in titles
        disable = next(a for a in actions if a.title == "Disable SL303 here")
        edited = apply_text_edits(BAD_YAML, disable.edit.changes[yaml_uri])
        assert "      # schemalint: disable=SL303\n      type: object" in edited
        add = next(a for a in actions if a.title.startswith("SL303"))
        fixed_yaml = apply_text_edits(BAD_YAML, add.edit.changes[yaml_uri])
        change(client, yaml_uri, fixed_yaml, 2)
        assert await diagnostics_for(client, yaml_uri, lambda d: not d) == ()

    run(scenario, tmp_path)


def test_config_changes_are_picked_up(tmp_path: Path) -> None:
    async def scenario(client: Any, folder: Path) -> None:
        uri = open_file(client, folder / "tools.json", BAD_JSON)
        assert codes(await diagnostics_for(client, uri)) == ["SL107", "SL107"]
        config = folder / ".schemalint.toml"
        config.write_text('ignore = ["SL107"]\n', encoding="utf-8")
        client.workspace_did_change_watched_files(
            lsp.DidChangeWatchedFilesParams([lsp.FileEvent(config.as_uri(), lsp.FileChangeType.Created)])
        )
        assert await diagnostics_for(client, uri, lambda d: not d) == ()

        config.write_text("select = [\n", encoding="utf-8")  # broken: one clear diagnostic, no crash
        client.workspace_did_change_watched_files(
            lsp.DidChangeWatchedFilesParams([lsp.FileEvent(config.as_uri(), lsp.FileChangeType.Changed)])
        )
        broken = await diagnostics_for(client, uri, lambda d: len(d) == 1)
        assert "configuration error" in broken[0].message

    run(scenario, tmp_path)


RESOLVING_CLIENT = lsp.ClientCapabilities(
    text_document=lsp.TextDocumentClientCapabilities(
        code_action=lsp.CodeActionClientCapabilities(
            resolve_support=lsp.ClientCodeActionResolveOptions(properties=["edit"])
        )
    )
)


def test_fix_edit_is_resolved_when_the_client_can(tmp_path: Path) -> None:
    async def scenario(client: Any, folder: Path) -> None:
        text = FIXED_JSON.replace(',\n     "additionalProperties": false}}', "}}")
        uri = open_file(client, folder / "tools.json", text)
        found = await diagnostics_for(client, uri)
        actions = await client.text_document_code_action_async(
            lsp.CodeActionParams(lsp.TextDocumentIdentifier(uri), found[0].range, lsp.CodeActionContext(list(found)))
        )
        [fix] = [a for a in actions if a.title.startswith("SL303")]
        assert fix.edit is None  # rendering waits until the user picks it
        resolved = await client.code_action_resolve_async(fix)
        fixed = apply_text_edits(text, resolved.edit.changes[uri])
        assert json.loads(fixed)[0]["inputSchema"]["additionalProperties"] is False

        change(client, uri, fixed, 2)  # an action from an older version resolves to nothing
        await diagnostics_for(client, uri, lambda d: not d)
        assert (await client.code_action_resolve_async(fix)).edit is None

    run(scenario, tmp_path, RESOLVING_CLIENT)


PYTHON_TOOLS = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("orders")


@mcp.tool()
def refund(order_id: str) -> str:
    return order_id
"""


def test_python_tool_files_get_diagnostics_and_disable_actions(tmp_path: Path) -> None:
    async def scenario(client: Any, folder: Path) -> None:
        uri = open_file(client, folder / "server.py", PYTHON_TOOLS, "python")
        found = await diagnostics_for(client, uri)
        missing = next(d for d in found if d.code == "SL201")
        assert missing.range.start.line == 6  # the `def refund` line (0-based)
        actions = await client.text_document_code_action_async(
            lsp.CodeActionParams(lsp.TextDocumentIdentifier(uri), missing.range, lsp.CodeActionContext([missing]))
        )
        disable = next(a for a in actions if a.title == "Disable SL201 here")
        edited = apply_text_edits(PYTHON_TOOLS, disable.edit.changes[uri])
        assert "# schemalint: disable=SL201\ndef refund" in edited
        assert not any(a.title.startswith("SL201:") for a in actions)  # Python sources are never rewritten

    run(scenario, tmp_path)


def test_code_actions_over_a_large_document_answer_and_shutdown_exits_cleanly(tmp_path: Path) -> None:
    """A range over 1,500 fixable tools: the answer comes (rendering every fix would take minutes),
    holds at most the capped number of actions, and `shutdown` + `exit` then end the server with 0."""
    from schemalint.lsp.server import MAX_CODE_ACTIONS, MAX_EAGER_FIXES

    (tmp_path / ".schemalint.toml").write_text('select = ["SL303"]\n', encoding="utf-8")  # one fixable finding each
    tools = [
        {"name": f"get_item_{i}", "description": "Get one item by its id.", "parameters": {"type": "object"}}
        for i in range(1_500)
    ]
    text = json.dumps(tools, indent=1)

    async def main() -> int | None:
        client = pytest_lsp.make_test_lsp_client()
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        await client.start_io(sys.executable, "-m", "schemalint", "server", env=env, cwd=str(tmp_path))
        await client.initialize_session(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
        uri = open_file(client, tmp_path / "tools.json", text)
        found = await asyncio.wait_for(diagnostics_for(client, uri), timeout=120)
        assert len(found) == len(tools)
        whole = lsp.Range(lsp.Position(0, 0), lsp.Position(text.count("\n") + 1, 0))
        request = lsp.CodeActionParams(lsp.TextDocumentIdentifier(uri), whole, lsp.CodeActionContext([]))
        actions = await asyncio.wait_for(client.text_document_code_action_async(request), timeout=60)
        assert 0 < len(actions) <= min(MAX_EAGER_FIXES, MAX_CODE_ACTIONS)
        assert all(action.edit is not None for action in actions)
        await asyncio.wait_for(client.shutdown_session(), timeout=30)
        return await asyncio.wait_for(client._server.wait(), timeout=30)  # the server process

    assert asyncio.run(main()) == 0


def test_rule_links_follow_the_docs_url_setting(tmp_path: Path) -> None:
    (tmp_path / ".schemalint.toml").write_text('docs-url = "https://docs.example/sl/{version}/"\n', encoding="utf-8")

    async def scenario(client: Any, folder: Path) -> None:
        uri = open_file(client, folder / "tools.json", BAD_JSON)
        found = await diagnostics_for(client, uri)
        hrefs = {d.code_description.href for d in found if d.code_description is not None}
        assert hrefs == {f"https://docs.example/sl/{__version__}/rules/SL107-invalid-property-name.html"}

    run(scenario, tmp_path)
