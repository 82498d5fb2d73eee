"""Dialect detection and normalisation, one case per accepted shape."""

from __future__ import annotations

import json
from typing import Any

import pytest

from schemalint.dialects import detect_tools, export_tools
from schemalint.loaders.jsonyaml import load_json
from schemalint.model import Dialect, escape_pointer_token

PARAMS = {"type": "object", "properties": {"city": {"type": "string"}}}


def detect(data: Any) -> list[tuple[str | None, Dialect, str | None]]:
    document = load_json(json.dumps(data), "t.json")
    return [(t.name, t.dialect, t.parameters_pointer) for t in detect_tools(document)]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            [{"type": "function", "function": {"name": "a", "parameters": PARAMS}}],
            [("a", Dialect.OPENAI_CHAT, "/0/function/parameters")],
        ),
        (
            {"type": "function", "function": {"name": "a", "parameters": PARAMS}},
            [("a", Dialect.OPENAI_CHAT, "/function/parameters")],
        ),
        (
            {"model": "gpt-x", "functions": [{"name": "a"}, {"name": "b", "parameters": PARAMS}]},
            [("a", Dialect.OPENAI_FUNCTIONS, None), ("b", Dialect.OPENAI_FUNCTIONS, "/functions/1/parameters")],
        ),
        (
            [{"type": "function", "name": "a", "parameters": PARAMS, "strict": True}, {"type": "web_search"}],
            [("a", Dialect.OPENAI_RESPONSES, "/0/parameters")],
        ),
        (
            {"model": "claude", "tools": [{"name": "a", "description": "d", "input_schema": PARAMS}]},
            [("a", Dialect.ANTHROPIC, "/tools/0/input_schema")],
        ),
        (
            {"tools": [{"functionDeclarations": [{"name": "a"}, {"name": "b", "parametersJsonSchema": PARAMS}]}]},
            [
                ("a", Dialect.GEMINI, None),
                ("b", Dialect.GEMINI, "/tools/0/functionDeclarations/1/parametersJsonSchema"),
            ],
        ),
        (
            {"function_declarations": [{"name": "a", "parameters": PARAMS}]},
            [("a", Dialect.GEMINI, "/function_declarations/0/parameters")],
        ),
        (
            {
                "jsonrpc": "2.0",
                "id": 1,
                "result": {"tools": [{"name": "a", "inputSchema": PARAMS}], "nextCursor": None},
            },
            [("a", Dialect.MCP, "/result/tools/0/inputSchema")],
        ),
        ({"name": "a", "inputSchema": PARAMS}, [("a", Dialect.MCP, "/inputSchema")]),
        ([{"name": "a", "description": "d", "parameters": PARAMS}], [("a", Dialect.GENERIC, "/0/parameters")]),
    ],
)
def test_detects_each_dialect(data: Any, expected: list[tuple[str, Dialect, str | None]]) -> None:
    assert detect(data) == expected


@pytest.mark.parametrize(
    "data",
    [
        {"name": "my-package", "version": "1.0.0", "description": "a package.json"},
        {"type": "object", "properties": {"a": {"type": "string"}}},  # a bare JSON Schema is not a tool
        {"tools": ["ruff", "mypy"]},
        [],
    ],
)
def test_non_tool_documents_have_no_tools(data: Any) -> None:
    assert detect(data) == []


def test_mcp_tool_keeps_annotations_and_output_schema() -> None:
    document = load_json(
        json.dumps(
            {
                "tools": [
                    {
                        "name": "a",
                        "title": "A",
                        "inputSchema": PARAMS,
                        "outputSchema": {"type": "object"},
                        "annotations": {"readOnlyHint": True},
                    }
                ]
            }
        ),
        "t.json",
    )
    (tool,) = detect_tools(document)
    assert tool.annotations == {"readOnlyHint": True}
    assert tool.output_pointer == "/tools/0/outputSchema"
    assert tool.annotations_pointer == "/tools/0/annotations"
    assert tool.title == "A"
    assert (tool.name_pointer, tool.description_pointer) == ("/tools/0/name", None)


def test_shape_keys_are_plain_pointer_tokens() -> None:
    """Shape.read appends its keys to pointers as they are: none may need escaping."""
    import schemalint.dialects as package
    from schemalint.dialects.base import Shape

    modules = [package, *(m for m in vars(package).values() if getattr(m, "__package__", None) == package.__name__)]
    shapes = [value for module in modules for value in vars(module).values() if isinstance(value, Shape)]
    assert len(shapes) >= 7  # every dialect's shapes were found
    for shape in shapes:
        for key in (*shape.parameters, *shape.output, shape.annotations, shape.wrapper):
            assert key is None or escape_pointer_token(key) == key


def test_export_round_trips_between_dialects() -> None:
    source = [{"name": "get_weather", "description": "Weather.", "input_schema": PARAMS}]
    tools = detect_tools(load_json(json.dumps(source), "t.json"))
    for dialect in ("openai", "openai-responses", "anthropic", "gemini", "mcp"):
        exported = export_tools(tools, dialect)
        again = detect_tools(load_json(json.dumps(exported), "e.json"))
        assert [(t.name, t.description, t.parameters) for t in again] == [("get_weather", "Weather.", PARAMS)]
    canonical = export_tools(tools, "canonical")
    assert canonical[0]["dialect"] == "anthropic"
    assert canonical[0]["source"] == {"path": "t.json", "pointer": "/0"}
