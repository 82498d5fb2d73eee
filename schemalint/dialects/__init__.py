"""Dialect detection: find the tool definitions in a document and normalise them into Tools.

Only known containers are searched (`tools`, `functions`, `functionDeclarations`, a JSON-RPC
`result`), so a file that merely has a `name` and a `description` (package.json) is not a tool.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import PurePath
from typing import Any

from schemalint.dialects import anthropic, docker_catalog, gemini, mcp, openai
from schemalint.dialects.base import Shape, canonical_fields
from schemalint.loaders import Document
from schemalint.model import JSON, Dialect, Tool, is_mapping, join_pointer

ACCEPTED_SHAPES = (
    'OpenAI Chat tools ({"type": "function", "function": {...}} or an array of them), '
    'the legacy "functions" array, OpenAI Responses function tools ({"type": "function", "name": ...}), '
    "Anthropic tools ({name, description, input_schema}), Gemini functionDeclarations, "
    "MCP Tool objects or a tools/list result (also inside a JSON-RPC result), "
    "Docker MCP catalog tool lists ({name, description, arguments: [{name, type, desc}]}), "
    'a request body with a "tools" key, or a bare array of {name, description, parameters}; '
    'and eval fixtures ({"cases": [{"input", "expect": {"tool"}}]}, or JSON Lines of cases)'
)

GENERIC = Shape(Dialect.GENERIC, ("parameters",))


def detect_tools(document: Document) -> list[Tool]:
    """The tools in a document, in source order; [] when it holds none."""
    if document.tools is not None:
        _recognise_literals(document, document.tools)
        return document.tools
    found: list[Tool] = []
    #: pointers of schemas converted from Docker catalog `arguments` -> where they came from
    aliases: dict[str, str] = {}
    _collect(document.data, "", document.path, found, None, aliases)
    if aliases:
        document.positions = docker_catalog.ArgumentPositions(document.positions, aliases)
    return found


def _recognise_literals(document: Document, tools: list[Tool]) -> None:
    """The Python literals that hold tools join the document's data and tools, after the decorated tools
    (numbered on from them)."""
    if not document.literals:
        return
    from schemalint.loaders.pyextract.literals import assumption_notes  # libcst: only for Python files
    from schemalint.loaders.pyextract.positions import PythonPositions

    assert isinstance(document.data, list) and isinstance(document.positions, PythonPositions)
    for literal in document.literals:
        prefix = f"/{len(document.data)}"
        known = len(tools)
        _collect(literal.value, prefix, document.path, tools, None, {})
        if len(tools) == known:
            continue
        document.data.append(literal.value)
        for relative, (key, value) in literal.spans().items():
            document.positions.add(prefix + relative, key, value)
        document.notes.extend(assumption_notes(tools[known:], prefix, literal.assumptions))
    document.literals = []


def _collect(
    value: JSON, pointer: str, path: str, out: list[Tool], container: str | None, aliases: dict[str, str]
) -> None:
    if isinstance(value, list):
        named = not pointer and PurePath(path).name == docker_catalog.FILE_NAME
        if docker_catalog.is_catalog_list(value, named_tools_json=named):
            for i, item in enumerate(value):
                assert is_mapping(item)
                out.append(docker_catalog.read(item, path, join_pointer(pointer, i), len(out), aliases))
            return
        for i, item in enumerate(value):
            if is_mapping(item):
                _collect_object(item, join_pointer(pointer, i), path, out, container, aliases)
    elif is_mapping(value):
        _collect_object(value, pointer, path, out, container, aliases)


def _collect_object(
    obj: Mapping[str, Any], pointer: str, path: str, out: list[Tool], container: str | None, aliases: dict[str, str]
) -> None:
    shape = _shape_of(obj, container)
    if shape is not None:
        out.append(shape.read(obj, path, pointer, len(out)))
        return
    for key in gemini.DECLARATION_KEYS:
        if isinstance(obj.get(key), list):
            _collect(obj[key], join_pointer(pointer, key), path, out, "declarations", aliases)
    for key in ("tools", "functions"):
        if isinstance(obj.get(key), list):
            _collect(obj[key], join_pointer(pointer, key), path, out, key, aliases)
    if "jsonrpc" in obj and is_mapping(obj.get("result")):
        _collect(obj["result"], join_pointer(pointer, "result"), path, out, None, aliases)


def _shape_of(obj: Mapping[str, Any], container: str | None) -> Shape | None:
    if openai.is_chat_tool(obj):
        return openai.CHAT
    if openai.is_responses_tool(obj):
        return openai.RESPONSES
    if not isinstance(obj.get("name"), str):
        return None
    # inside a container that says what its items are, a name is enough (parameters are optional there)
    if container == "declarations":
        return gemini.SHAPE
    if container == "functions":
        return openai.FUNCTIONS
    if mcp.is_tool(obj):
        return mcp.SHAPE
    if anthropic.is_tool(obj):
        return anthropic.SHAPE
    if "parameters" in obj:
        return GENERIC
    return None


def to_canonical(tool: Tool) -> dict[str, Any]:
    """The documented canonical form (docs/canonical.md): what schemalint lints, in one shape."""
    out = canonical_fields(tool)
    out["parameters"] = tool.parameters
    if tool.output_schema is not None:
        out["output_schema"] = tool.output_schema
    if tool.annotations is not None:
        out["annotations"] = dict(tool.annotations)
    if tool.strict is not None:
        out["strict"] = tool.strict
    out["dialect"] = tool.dialect.value
    if tool.framework is not None:
        out["framework"] = tool.framework
    out["source"] = {"path": tool.path, "pointer": tool.pointer}
    return out


EXPORTERS: dict[str, Callable[[Tool], dict[str, Any]]] = {
    "canonical": to_canonical,
    "openai": openai.to_chat,
    "openai-responses": openai.to_responses,
    "anthropic": anthropic.to_anthropic,
    "gemini": gemini.to_gemini,
    "mcp": mcp.to_mcp,
}


#: what each dialect has no place for, of the fields a tool may carry
_NOT_WRITTEN: dict[str, tuple[str, ...]] = {
    "canonical": (),
    "openai": ("title", "output_schema", "annotations"),
    "openai-responses": ("title", "output_schema", "annotations"),
    "anthropic": ("title", "output_schema", "annotations"),
    "gemini": ("title", "annotations", "strict"),
    "mcp": ("strict",),
}


def export_tools(tools: list[Tool], to: str) -> JSON:
    """The tools written in dialect `to`, their schemas in JSON Schema's spelling (a Gemini `parameters` or
    `response` converted); Gemini wraps them in one `functionDeclarations` entry."""
    exported = [
        EXPORTERS[to](
            replace(
                tool,
                parameters=gemini.parameters_as_json_schema(tool),
                output_schema=gemini.output_as_json_schema(tool),
            )
        )
        for tool in tools
    ]
    if to == "gemini":
        return [{"functionDeclarations": exported}]
    return exported


def dropped_fields(tool: Tool, to: str) -> list[str]:
    """The fields of `tool` that dialect `to` has no place for, so an export leaves them out."""
    return [name for name in _NOT_WRITTEN[to] if getattr(tool, name) is not None]
