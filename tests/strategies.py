"""Hypothesis strategies shared by the property tests and benchmarks/fuzz.py."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

KEYS = st.sampled_from(
    ["name", "description", "type", "properties", "items", "required", "enum", "anyOf", "oneOf", "allOf",
     "$ref", "$defs", "additionalProperties", "minimum", "maximum", "default", "format", "pattern",
     "parameters", "input_schema", "inputSchema", "function", "tools", "functionDeclarations", "strict",
     "annotations", "outputSchema", "not", "const", "x", "", "~/", "名前"]
)  # fmt: skip
TEXT = st.text(max_size=12)
SCALARS = (
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False, allow_infinity=False) | TEXT
)

json_values = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(KEYS | TEXT, children, max_size=5),
    max_leaves=30,
)

TYPE_NAMES = st.sampled_from(["object", "string", "integer", "number", "boolean", "array", "null", "dict", "STRING"])


def _schema_dicts(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {},
        optional={
            "type": TYPE_NAMES | st.lists(TYPE_NAMES, max_size=3) | SCALARS,
            "description": TEXT,
            "properties": st.dictionaries(TEXT | KEYS, children, max_size=4),
            "items": children | st.lists(children, max_size=2),
            "required": st.lists(TEXT | KEYS, max_size=3) | SCALARS,
            "enum": st.lists(SCALARS, max_size=4) | SCALARS,
            "anyOf": st.lists(children, max_size=3),
            "oneOf": st.lists(children, max_size=3),
            "allOf": st.lists(children, max_size=2),
            "$ref": st.sampled_from(["#", "#/$defs/a", "#/definitions/b", "http://x/y.json", "other.json#/c", "#/nope"])
            | TEXT,
            "$defs": st.dictionaries(st.sampled_from(["a", "b"]), children, max_size=2),
            "additionalProperties": st.booleans() | children,
            "minimum": SCALARS,
            "maxLength": SCALARS,
            "default": SCALARS,
            "format": st.sampled_from(["date-time", "date", "uuid", "uri"]) | TEXT,
            "pattern": st.sampled_from(["^[a-z]+$", "(", "\\d{3}"]) | TEXT,
        },
    )


json_schemas = st.recursive(st.booleans() | _schema_dicts(st.just({})), _schema_dicts, max_leaves=12)


def wrap_tool(shape: str, name: Any, description: Any, schema: Any) -> Any:
    """A tool in one of the dialects schemalint detects."""
    if shape == "openai-chat":
        return [{"type": "function", "function": {"name": name, "description": description, "parameters": schema}}]
    if shape == "openai-responses":
        return [{"type": "function", "name": name, "description": description, "parameters": schema}]
    if shape == "anthropic":
        return {"tools": [{"name": name, "description": description, "input_schema": schema}]}
    if shape == "gemini":
        return {"tools": [{"functionDeclarations": [{"name": name, "description": description, "parameters": schema}]}]}
    if shape == "mcp":
        return {"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": name, "description": description,
                                                                 "inputSchema": schema}]}}  # fmt: skip
    return [{"name": name, "description": description, "parameters": schema}]


SHAPES = ["openai-chat", "openai-responses", "anthropic", "gemini", "mcp", "generic"]

tool_documents = st.builds(wrap_tool, st.sampled_from(SHAPES), TEXT | SCALARS, TEXT | SCALARS, json_schemas).map(
    lambda data: json.dumps(data, ensure_ascii=False)
)


# -- Python sources built from the decorator templates of the frameworks the Python loader reads ----------

#: (imports and setup, decorator) per framework; `{text}` is a random string literal
PYTHON_FRAMEWORKS = [
    ("from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('demo')", "@mcp.tool()"),
    ("from fastmcp import FastMCP\nmcp = FastMCP('demo')", "@mcp.tool(description={text})"),
    ("from agents import function_tool", "@function_tool"),
    ("from agents import function_tool", "@function_tool(name_override={text})"),
    ("from langchain_core.tools import tool", "@tool"),
    ("from pydantic_ai import Agent, RunContext\nagent = Agent('test')", "@agent.tool_plain"),
    ("from pydantic_ai import Agent, RunContext\nagent = Agent('test')", "@agent.tool"),
    ("", "@unknown.decorator"),
]
PYTHON_ANNOTATIONS = st.sampled_from(
    ["", ": str", ": int", ": float", ": bool", ": list[str]", ": dict[str, int]", ": Optional[str]", ": str | None",
     ": Literal['a', 'b']", ": Annotated[int, Field(description={text}, ge=0)]", ": datetime", ": Model", ": 'str'",
     ": RunContext[Deps]", ": tuple[int, ...]", ": Union[int, str]", ": list[Annotated[str, {text}]]"]
)  # fmt: skip
PYTHON_DEFAULTS = st.sampled_from(["", " = None", " = 3", " = {text}", " = []", " = Field(default=1, le=9)"])
PYTHON_NAMES = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True)


@st.composite
def python_tool_sources(draw: st.DrawFn) -> str:
    """A module with random decorated functions: random names, annotations, defaults and docstrings.

    Some are invalid Python (a keyword as a name, a default before a non-default): those must become
    SL002 findings. Every module starts with a statement that would write a file if it were imported.
    """
    lines = ["import pathlib; pathlib.Path(PYTHON_IMPORT_MARKER).write_text('imported')"]
    lines.append("from typing import Annotated, Literal, Optional, Union\nfrom pydantic import Field")
    for _ in range(draw(st.integers(1, 3))):
        setup, decorator = draw(st.sampled_from(PYTHON_FRAMEWORKS))
        text = repr(draw(TEXT))
        parameters = [
            draw(PYTHON_NAMES) + draw(PYTHON_ANNOTATIONS).format(text=text) + draw(PYTHON_DEFAULTS).format(text=text)
            for _ in range(draw(st.integers(0, 4)))
        ]
        prefix = draw(st.sampled_from(["def", "async def"]))
        lines += [setup, decorator.format(text=text), f"{prefix} {draw(PYTHON_NAMES)}({', '.join(parameters)}):"]
        lines.append(f"    {draw(TEXT)!r}" if draw(st.booleans()) else "    ...")
    return "\n".join(lines) + "\n"
