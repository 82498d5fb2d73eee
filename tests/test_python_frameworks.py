"""The static schema of each example file equals what the real framework generates for it.

Each test imports the framework (skipped when it is not installed), executes the example file
(our own test data, never user code) to ask the framework for its tool list, and compares it with
what `load_python` extracts without running anything: names, descriptions and every parameter
field (type, required, enum, description, defaults, constraints, nested models).
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from schemalint.dialects import detect_tools
from schemalint.loaders.python import load_python

DATA = Path(__file__).parent / "data" / "python"


def _execute(path: Path) -> ModuleType:
    name = f"_schemalint_example_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _mcp_server_tools(module: ModuleType, to_mcp: bool) -> dict[str, dict[str, Any]]:
    tools = asyncio.run(module.mcp.list_tools())
    result = {}
    for tool in tools:
        if to_mcp:
            tool = tool.to_mcp_tool()
        schema = getattr(tool, "input_schema", None) or getattr(tool, "inputSchema", None)
        result[tool.name] = {"description": tool.description, "parameters": schema}
    return result


def real_tools(framework: str, path: Path) -> dict[str, dict[str, Any]]:
    """name -> {description, parameters} as the framework presents the tools to a model."""
    module = _execute(path)
    if framework == "mcp":
        return _mcp_server_tools(module, to_mcp=False)
    if framework == "fastmcp":
        return _mcp_server_tools(module, to_mcp=True)
    if framework == "langchain":
        from langchain_core.tools import BaseTool
        from langchain_core.utils.function_calling import convert_to_openai_tool

        functions = [convert_to_openai_tool(v)["function"] for v in vars(module).values() if isinstance(v, BaseTool)]
        return {f["name"]: {"description": f["description"], "parameters": f["parameters"]} for f in functions}
    if framework == "openai-agents":
        from agents import FunctionTool

        return {
            v.name: {"description": v.description, "parameters": v.params_json_schema}
            for v in vars(module).values()
            if isinstance(v, FunctionTool)
        }
    assert framework == "pydantic-ai"
    from pydantic_ai.models.test import TestModel

    model = TestModel(call_tools=[])
    module.agent.run_sync("hello", model=model)
    request = model.last_model_request_parameters
    assert request is not None
    return {
        t.name: {"description": t.description, "parameters": t.parameters_json_schema} for t in request.function_tools
    }


def static_tools(path: Path) -> dict[str, dict[str, Any]]:
    document = load_python(path.read_text(encoding="utf-8"), str(path))
    return {t.name or "": {"description": t.description, "parameters": t.parameters} for t in detect_tools(document)}


def _differences(real: Any, mine: Any, pointer: str = "") -> list[str]:
    if isinstance(real, dict) and isinstance(mine, dict):
        found = []
        for key in sorted(set(real) | set(mine)):
            if key not in mine:
                found.append(f"{pointer}/{key}: missing (real: {json.dumps(real[key])[:120]})")
            elif key not in real:
                found.append(f"{pointer}/{key}: extra (static: {json.dumps(mine[key])[:120]})")
            else:
                found.extend(_differences(real[key], mine[key], f"{pointer}/{key}"))
        return found
    if isinstance(real, list) and isinstance(mine, list) and len(real) == len(mine):
        return [
            d for i, (a, b) in enumerate(zip(real, mine, strict=True)) for d in _differences(a, b, f"{pointer}/{i}")
        ]
    return [] if real == mine else [f"{pointer}: real {json.dumps(real)[:120]} != static {json.dumps(mine)[:120]}"]


GOOGLE_DOCSTRING = '''    """Search the documents.

    Use this before answering questions about the handbook.

    Args:
        query: The search text.
        limit: At most this many.
        sort: Sort order of the hits,
            by date.
    """
'''
NUMPY_DOCSTRING = '''    """Search the documents.

    Parameters
    ----------
    query : str
        The search text.
    limit : int
        At most this many.
    """
'''

#: how each framework declares the same tools (filled into tests/data/python/tool_examples.py.tmpl)
FRAMEWORKS: dict[str, dict[str, str]] = {
    "mcp": {
        "imports": "from mcp.server.mcpserver import Context, MCPServer",
        "setup": 'mcp = MCPServer("demo")',
        "decorator": "@mcp.tool()",
        "search_decorator": '@mcp.tool(name="find_docs", description="Find documents by text.")',
        "count_decorator": "@mcp.tool()",
        "injected": "    ctx: Context,\n",
        "search_injected": "",
        "search_docstring": NUMPY_DOCSTRING,
    },
    "fastmcp": {
        "imports": "from fastmcp import Context, FastMCP",
        "setup": 'mcp = FastMCP("demo")',
        "decorator": "@mcp.tool",
        "search_decorator": '@mcp.tool("find_docs")',
        "count_decorator": "@mcp.tool",
        "injected": "    ctx: Context,\n",
        "search_injected": "",
        "search_docstring": NUMPY_DOCSTRING,
    },
    "langchain": {
        "imports": "from langchain_core.tools import InjectedToolArg, tool",
        "setup": "",
        "decorator": "@tool(parse_docstring=False)",
        "search_decorator": '@tool("find_docs", parse_docstring=True)',
        "count_decorator": '@tool(description="Count the words in a text.")',
        "injected": "    user_id: Annotated[str, InjectedToolArg],\n",
        "search_injected": "",
        "search_docstring": GOOGLE_DOCSTRING,
    },
    "openai-agents": {
        "imports": "from agents import RunContextWrapper, function_tool",
        "setup": "",
        "decorator": "@function_tool(strict_mode=False)",
        "search_decorator": '@function_tool(name_override="find_docs")',
        "count_decorator": "@function_tool",
        "injected": "    ctx: RunContextWrapper,\n",
        "search_injected": "",
        "search_docstring": NUMPY_DOCSTRING,
    },
    "pydantic-ai": {
        "imports": "from pydantic_ai import Agent, RunContext",
        "setup": 'agent = Agent("test")',
        "decorator": "@agent.tool_plain",
        "search_decorator": '@agent.tool(name="find_docs")',
        "count_decorator": "@agent.tool_plain",
        "injected": "",
        "search_injected": "ctx: RunContext[None], ",
        "search_docstring": NUMPY_DOCSTRING,
    },
}
PACKAGES = {"mcp": "mcp", "fastmcp": "fastmcp", "langchain": "langchain_core", "openai-agents": "agents"}


def example_file(framework: str, directory: Path) -> Path:
    """The example tool file for `framework`, written from the shared template."""
    template = (DATA / "tool_examples.py.tmpl").read_text(encoding="utf-8")
    path = directory / f"{framework.replace('-', '_')}_tools.py"
    path.write_text(template.format(**FRAMEWORKS[framework]), encoding="utf-8")
    return path


@pytest.mark.parametrize("framework", sorted(FRAMEWORKS))
def test_static_schema_equals_framework_schema(framework: str, tmp_path: Path) -> None:
    pytest.importorskip(PACKAGES.get(framework, "pydantic_ai"))
    path = example_file(framework, tmp_path)
    real = real_tools(framework, path)
    mine = static_tools(path)
    assert sorted(mine) == sorted(real)
    assert len(real) == 5
    problems = {name: _differences(real[name], mine[name]) for name in real}
    assert {name: p for name, p in problems.items() if p} == {}
    # the examples exercise the interesting parts; make sure they really are in the schemas
    place_order = mine["place_order"]["parameters"]
    assert "ctx" not in place_order["properties"] and "user_id" not in place_order["properties"]
    assert place_order["properties"]["qty"]["maximum"] == 10
    assert "item" in place_order["required"]


@pytest.mark.parametrize("framework", sorted(FRAMEWORKS))
def test_framework_label(framework: str, tmp_path: Path) -> None:
    path = example_file(framework, tmp_path)
    document = load_python(path.read_text(encoding="utf-8"), path.name)
    assert document.tools is not None
    assert {t.framework for t in document.tools} == {framework}


def test_model_json_schema_of_same_file_models_equals_pydantic() -> None:
    pytest.importorskip("mcp")
    path = DATA / "pydantic_models.py"
    module = _execute(path)
    mine = static_tools(path)
    real = {
        "search_orders": module.SearchOrders.model_json_schema(),
        "price_line": module.Line.model_json_schema(),
    }
    assert sorted(mine) == sorted(real)
    for name, schema in real.items():
        assert _differences(schema, mine[name]["parameters"]) == [], name
    assert mine["search_orders"]["parameters"]["additionalProperties"] is False
    assert "customerId" in mine["search_orders"]["parameters"]["properties"]


RECURSIVE_TYPES = '''\
from typing import Optional, Union

from pydantic import BaseModel, Field
from typing_extensions import TypeAliasType, TypedDict

{imports}

Value = TypeAliasType("Value", Union[dict[str, "Value"], list["Value"], str, float, bool, None])
Tags = TypeAliasType("Tags", list[str])


class Section(BaseModel):
    """A section of an outline."""

    heading: str
    subsections: list["Section"] = Field(default_factory=list, description="Nested sections.")


class Comment(TypedDict):
    text: str
    replies: list["Comment"]


class Page(BaseModel):
    title: str
    parent: Optional["Page"] = None


{setup}


{decorator}
def save_outline(outline: Section, metadata: Value, tags: Tags, thread: Optional[Comment] = None) -> str:
    """Save an outline."""
    return outline.heading


{decorator}
def move_page(page: Page, position: int = 0) -> str:
    """Move a page."""
    return page.title
'''


@pytest.mark.parametrize("framework", sorted(FRAMEWORKS))
def test_recursive_types_get_the_frameworks_defs_and_refs(framework: str, tmp_path: Path) -> None:
    """Self-referring models, TypedDicts and TypeAliasTypes: `$defs` + `$ref` where the framework keeps
    them (FastMCP keeps every definition of a recursive schema), `{}` where LangChain cuts the cycle."""
    pytest.importorskip(PACKAGES.get(framework, "pydantic_ai"))
    path = tmp_path / f"recursive_{framework.replace('-', '_')}.py"
    path.write_text(RECURSIVE_TYPES.format(**FRAMEWORKS[framework]), encoding="utf-8")
    real = real_tools(framework, path)
    document = load_python(path.read_text(encoding="utf-8"), str(path))
    mine = {t.name or "": {"description": t.description, "parameters": t.parameters} for t in document.tools or []}
    assert sorted(mine) == ["move_page", "save_outline"]
    assert {name: _differences(real[name], mine[name]) for name in real} == {"move_page": [], "save_outline": []}
    assert document.notes == []


def test_a_plain_alias_that_refers_to_itself_is_read_as_its_type_alias_spelling(tmp_path: Path) -> None:
    """pydantic refuses `Json = Union[..., list["Json"]]` at run time (RecursionError); schemalint gives
    the `TypeAliasType` schema and says so, instead of failing the file."""
    pytest.importorskip("fastmcp")
    plain = RECURSIVE_TYPES.replace(
        'TypeAliasType("Value", Union[dict[str, "Value"], list["Value"], str, float, bool, None])',
        'Union[dict[str, "Value"], list["Value"], str, float, bool, None]',
    ).format(**FRAMEWORKS["fastmcp"])
    declared = tmp_path / "declared.py"
    declared.write_text(RECURSIVE_TYPES.format(**FRAMEWORKS["fastmcp"]), encoding="utf-8")
    document = load_python(plain, "plain.py")
    assert document.tools is not None
    save = next(t for t in document.tools if t.name == "save_outline")
    assert save.parameters == real_tools("fastmcp", declared)["save_outline"]["parameters"]
    assert [note.data["assumptions"] for _, note in document.notes] == [
        [
            "the alias `Value` refers to itself: pydantic cannot build it (RecursionError) unless it is declared as "
            '`Value = TypeAliasType("Value", ...)`; that schema is assumed'
        ]
    ]


RETURN_TYPES = '''\
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, Dict, List, Literal, Optional, Union

from pydantic import BaseModel, Field
from typing_extensions import TypeAliasType, TypedDict

{imports}

Scores = TypeAliasType("Scores", dict[str, float])


class Color(Enum):
    RED = "red"
    BLUE = "blue"


class Money(BaseModel):
    amount: float = Field(ge=0)
    currency: str = "EUR"


class Invoice(BaseModel):
    """One invoice."""

    number: str
    total: Money
    lines: list[str] = []


class Folder(BaseModel):
    name: str
    children: list["Folder"] = []


class Summary(TypedDict):
    count: int
    newest: Optional[str]


@dataclass
class Span:
    """A stretch of text."""

    start: int
    end: int = 0


{setup}

'''
RETURNS = [
    "None",
    "str",
    "int",
    "float",
    "bool",
    "bytes",
    "Any",
    "list",
    "dict",
    "tuple[int, ...]",
    "list[Any]",
    "list[str]",
    "List[int]",
    "dict[str, int]",
    "Dict[str, int]",
    "dict[int, str]",
    "dict[str, Any]",
    "Optional[str]",
    "str | None",
    "Union[int, str]",
    "Literal['a', 'b']",
    "tuple[int, str]",
    "Annotated[str, Field(description='The answer.')]",
    "Color",
    "Money",
    "Invoice",
    "Optional[Invoice]",
    "list[Invoice]",
    "Folder",
    "Summary",
    "Span",
    "Scores",
    "'Invoice'",
    "Union[bytes, str]",
]


def _return_types_file(framework: str, directory: Path) -> Path:
    spec = FRAMEWORKS[framework]
    text = RETURN_TYPES.format(**spec)
    for index, annotation in enumerate(RETURNS):
        text += f'\n{spec["decorator"]}\ndef returns_{index}(query: str) -> {annotation}:\n    """Answer."""\n'
    text += f'\n{spec["decorator"]}\ndef returns_nothing_declared(query: str):\n    """Answer."""\n'
    option = "structured_output=False" if framework == "mcp" else "output_schema=None"
    text += f'\n@mcp.tool({option})\ndef returns_opted_out(query: str) -> Invoice:\n    """Answer."""\n'
    path = directory / f"returns_{framework}.py"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("framework", ["mcp", "fastmcp"])
def test_output_schema_equals_the_frameworks(framework: str, tmp_path: Path) -> None:
    """Every return annotation above gets the `outputSchema` the framework publishes: the type's own
    schema for objects, `{"result": ...}` for the rest, none where the framework derives none."""
    pytest.importorskip(framework)
    path = _return_types_file(framework, tmp_path)
    module = _execute(path)
    real = {}
    for tool in asyncio.run(module.mcp.list_tools()):
        tool = tool.to_mcp_tool() if framework == "fastmcp" else tool
        real[tool.name] = getattr(tool, "output_schema", None) or getattr(tool, "outputSchema", None)
    document = load_python(path.read_text(encoding="utf-8"), str(path))
    mine = {t.name: t.output_schema for t in document.tools or []}
    assert sorted(mine) == sorted(real)
    labelled = {f"{name} -> {RETURNS[int(name[8:])] if name[8:].isdigit() else '?'}": name for name in real}
    assert {label: _differences(real[n], mine[n]) for label, n in labelled.items() if real[n] != mine[n]} == {}
    assert sum(schema is not None for schema in real.values()) >= 20  # most cases do publish one
    assert document.notes == []
    invoice = next(
        t for t in document.tools or [] if t.output_schema and t.name == f"returns_{RETURNS.index('Invoice')}"
    )
    assert invoice.output_pointer is not None
    assert document.positions is not None
