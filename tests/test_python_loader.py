"""Static extraction from Python source: recognition, schema details, positions, assumptions."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from schemalint.dialects import detect_tools
from schemalint.loaders import LoadError
from schemalint.loaders.python import load_python, might_contain_tools
from schemalint.model import Dialect, Span, resolve_pointer


def load(source: str):
    """The document after dialect detection, its literal tool definitions included."""
    document = load_python(textwrap.dedent(source).lstrip("\n"), "tools.py")
    detect_tools(document)
    return document


def line_of(text: str, needle: str) -> int:
    for number, line in enumerate(textwrap.dedent(text).lstrip("\n").splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(needle)


# -- the cheap pre-check -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "@mcp.tool()\ndef f(): ...",
        "@tool\ndef f(): ...",
        "@function_tool(name_override='x')\ndef f(): ...",
        "@agent.tool_plain\ndef f(): ...",
        "mcp.add_tool(f)",
        "StructuredTool.from_function(f)",
        "tools = [{'type': 'function'}]",
        "Tool(name='x', inputSchema={})",
    ],
)
def test_markers_are_recognised(text: str) -> None:
    assert might_contain_tools(text)


@pytest.mark.parametrize("text", ["import os\n\ndef main():\n    print('hi')\n", "@property\ndef x(self): ...", ""])
def test_files_without_markers_are_rejected(text: str) -> None:
    assert not might_contain_tools(text)


def test_precheck_and_loader_import_do_not_import_libcst() -> None:
    code = (
        "import sys\n"
        "from schemalint.loaders.python import might_contain_tools\n"
        "import schemalint.loaders, schemalint.model, schemalint.rules\n"
        "schemalint.rules.all_rules()\n"
        "assert not might_contain_tools('x = 1')\n"
        "print('libcst' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def test_linting_json_and_tool_less_python_never_imports_libcst(tmp_path) -> None:
    (tmp_path / "tools.json").write_text(
        '[{"type": "function", "function": {"name": "get_weather", "description": "Weather.", '
        '"parameters": {"type": "object", "properties": {}}}}]',
        encoding="utf-8",
    )
    (tmp_path / "helpers.py").write_text("def add(a, b):\n    return a + b\n", encoding="utf-8")
    code = (
        "import sys\n"
        "from schemalint.engine import LintOptions, lint\n"
        f"result = lint([{str(tmp_path)!r}], LintOptions(no_config=True))\n"
        "assert {d.path.rsplit('/', 1)[-1] for d in result.diagnostics} <= {'tools.json'}\n"
        "print('libcst' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


# -- parse errors --------------------------------------------------------------------------------


def test_syntax_error_is_a_load_error_with_position() -> None:
    with pytest.raises(LoadError) as caught:
        load_python("@mcp.tool()\ndef broken(:\n    pass\n", "bad.py")
    assert caught.value.line == 2
    assert caught.value.column >= 1
    assert caught.value.message.startswith("invalid Python:")  # the path and position are printed beside it


# -- recognition ---------------------------------------------------------------------------------

SERVER = """
from typing import Annotated
from mcp.server.fastmcp import Context, FastMCP
from pydantic import BaseModel, Field

mcp = FastMCP("orders")


class Item(BaseModel):
    sku: str
    quantity: int = Field(1, ge=1, description="How many")


@mcp.tool(name="order_create")
def create_order(
    ctx: Context,
    customer_id: Annotated[str, Field(description="The customer")],
    items: list[Item],
    note: str | None = None,
) -> str:
    \"\"\"Create an order.\"\"\"
    return ""


@mcp.tool
def cancel_order(order_id: str) -> str:
    \"\"\"Cancel an order.\"\"\"
    return ""
"""


def test_decorated_mcp_tools_are_extracted_with_source_positions() -> None:
    document = load(SERVER)
    assert document.format == "python"
    assert [t.name for t in document.tools] == ["order_create", "cancel_order"]
    first = document.tools[0]
    assert first.dialect is Dialect.PYTHON and first.framework == "mcp"
    assert first.pointer == "/0" and first.parameters_pointer == "/0/parameters"
    assert resolve_pointer(document.data, "/0/name") == "order_create"
    assert resolve_pointer(document.data, "/0/parameters") == first.parameters
    params = first.parameters
    assert list(params["properties"]) == ["customer_id", "items", "note"]  # ctx is injected
    assert params["required"] == ["customer_id", "items"]
    assert params["$defs"]["Item"]["properties"]["quantity"] == {
        "default": 1,
        "description": "How many",
        "minimum": 1,
        "title": "Quantity",
        "type": "integer",
    }

    positions = document.positions
    name_line = line_of(SERVER, '@mcp.tool(name="order_create")')
    assert positions.locate("/0") == positions.locate("/0/name")
    assert positions.locate("/0/name").line == name_line
    assert positions.locate("/1/name") == Span(
        line_of(SERVER, "def cancel_order"), 5, line_of(SERVER, "def cancel"), 17
    )
    assert positions.locate("/0/description").line == line_of(SERVER, '"""Create an order."""')
    key = positions.locate("/0/parameters/properties/customer_id", key=True)
    value = positions.locate("/0/parameters/properties/customer_id")
    assert key.line == value.line == line_of(SERVER, "customer_id: Annotated")
    assert (key.column, key.end_column) == (5, 16)
    assert value.column == 18  # the annotation
    field = positions.locate("/0/parameters/$defs/Item/properties/quantity", key=True)
    assert field.line == line_of(SERVER, "quantity: int")
    # deeper pointers fall back to the nearest mapped ancestor
    deep = positions.locate("/0/parameters/properties/items/items")
    assert deep == positions.locate("/0/parameters/properties/items")
    assert document.notes == []


def test_injected_and_framework_specific_parameters_are_dropped() -> None:
    document = load(
        """
        from typing import Annotated
        from langchain_core.tools import InjectedToolArg, tool
        from langchain_core.runnables import RunnableConfig
        from pydantic_ai import Agent, RunContext
        from agents import RunContextWrapper, function_tool

        agent = Agent("test")

        @tool
        def lc(query: str, user: Annotated[str, InjectedToolArg], config: RunnableConfig) -> str:
            "Search."

        @agent.tool
        def pa(ctx: RunContext[int], query: str) -> str:
            "Search."

        @agent.tool_plain
        def pa_plain(query: str) -> str:
            "Search."

        @function_tool
        def oa(wrapper: RunContextWrapper, query: str) -> str:
            "Search."
        """
    )
    assert [(t.name, t.framework) for t in document.tools] == [
        ("lc", "langchain"),
        ("pa", "pydantic-ai"),
        ("pa_plain", "pydantic-ai"),
        ("oa", "openai-agents"),
    ]
    for tool in document.tools:
        assert list(tool.parameters["properties"]) == ["query"], tool.name
    assert document.tools[3].strict is True
    assert document.tools[3].parameters["additionalProperties"] is False


def test_call_registrations_and_aliases() -> None:
    source = """
    from fastmcp import FastMCP
    from fastmcp.tools import FunctionTool
    from langchain_core.tools import StructuredTool

    mcp = FastMCP("x")

    def lookup(term: str) -> str:
        \"\"\"Look a term up.\"\"\"

    def store(text: str) -> str:
        \"\"\"Store text.\"\"\"

    def add(a: int, b: int) -> int:
        \"\"\"Add.\"\"\"

    wrapped = lookup
    mcp.add_tool(FunctionTool.from_function(store))
    mcp.tool(wrapped, name="lookup_term", description="Look up a glossary term.")
    calculator = StructuredTool.from_function(add, name="adder")
    """
    document = load(source)
    assert [(t.name, t.framework) for t in document.tools] == [
        ("store", "fastmcp"),
        ("lookup_term", "fastmcp"),
        ("adder", "langchain"),
    ]
    assert document.tools[1].description == "Look up a glossary term."
    assert document.positions.locate("/1/description").line == line_of(source, 'name="lookup_term"')
    assert [f.pointer for _, f in document.notes] == ["/1"]
    assert "`wrapped` is reassigned at run time" in document.notes[0][1].message


def test_unrelated_decorators_and_methods_are_ignored() -> None:
    document = load(
        """
        import functools
        from fastmcp import FastMCP

        mcp = FastMCP("x")

        @functools.cache
        def helper(x: int) -> int:
            return x

        @mcp.resource("data://x")
        def resource() -> str:
            return ""

        @mcp.prompt()
        def prompt() -> str:
            return ""
        """
    )
    assert document.tools == []
    assert document.data == []


# -- schema details ------------------------------------------------------------------------------


def test_types_map_like_pydantic() -> None:
    document = load(
        """
        import enum
        from typing import Dict, List, Literal, Optional, Tuple, Union
        from typing_extensions import TypedDict
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")

        class Size(enum.Enum):
            SMALL = enum.auto()
            LARGE = enum.auto()

        class Filters(TypedDict, total=False):
            \"\"\"Optional filters.\"\"\"
            city: str
            max_price: float

        @mcp.tool()
        def find(
            words: List[str],
            counts: Dict[str, int],
            pair: Tuple[int, ...],
            size: Size,
            either: Union[int, "str"],
            maybe: Optional[Literal[1, 2]] = None,
            flags: dict = {},
            filters: Filters | None = None,
        ) -> str:
            ...
        """
    )
    (tool,) = document.tools
    properties = tool.parameters["properties"]
    assert properties["words"] == {"items": {"type": "string"}, "title": "Words", "type": "array"}
    assert properties["counts"] == {"additionalProperties": {"type": "integer"}, "title": "Counts", "type": "object"}
    assert properties["pair"] == {"items": {"type": "integer"}, "title": "Pair", "type": "array"}
    assert properties["size"] == {"$ref": "#/$defs/Size"}
    assert tool.parameters["$defs"]["Size"] == {"enum": [1, 2], "title": "Size", "type": "integer"}
    assert properties["either"]["anyOf"] == [{"type": "integer"}, {"type": "string"}]
    assert properties["maybe"]["anyOf"] == [{"enum": [1, 2], "type": "integer"}, {"type": "null"}]
    assert properties["flags"]["additionalProperties"] is True
    assert "required" not in tool.parameters["$defs"]["Filters"]
    assert tool.parameters["$defs"]["Filters"]["description"] == "Optional filters."
    assert tool.parameters["required"] == ["words", "counts", "pair", "size", "either"]


def test_docstring_sections_feed_parameter_descriptions() -> None:
    document = load(
        '''
        from agents import function_tool

        @function_tool
        def google(city: str, days: int = 3) -> str:
            """Get the forecast.

            Args:
                city: The city name.
                days (int): How many days
                    ahead.
            """

        @function_tool
        def numpy_style(city: str) -> str:
            """Get the forecast.

            Parameters
            ----------
            city : str
                The city name.
            """

        @function_tool
        def rest_style(city: str) -> str:
            """Get the forecast.

            :param city: The city name.
            :returns: text
            """
        '''
    )
    for tool in document.tools:
        assert tool.description == "Get the forecast."
        assert tool.parameters["properties"]["city"]["description"] == "The city name."
    assert document.tools[0].parameters["properties"]["days"]["description"] == "How many days\nahead."


# -- assumptions (SL004) -------------------------------------------------------------------------


def test_unknowable_facts_become_one_note_per_tool() -> None:
    document = load(
        """
        from fastmcp import FastMCP
        from myapp.models import OrderFilter
        from myapp import settings

        mcp = FastMCP("x")

        @mcp.tool(description=settings.SEARCH_DESCRIPTION)
        def search(filter: OrderFilter, since: str = default_since(), **options) -> list[str]:
            \"\"\"Search orders.\"\"\"

        @mcp.tool
        def plain(text: str) -> str:
            \"\"\"Echo.\"\"\"
        """
    )
    assert len(document.tools) == 2
    assert len(document.notes) == 1
    code, finding = document.notes[0]
    assert code == "SL004"
    assert finding.pointer == "/0"
    assumptions = finding.data["assumptions"]
    assert any("`OrderFilter` (imported from `myapp.models`)" in a for a in assumptions)
    assert any("settings.SEARCH_DESCRIPTION" in a and "docstring was used" in a for a in assumptions)
    assert any("`**options`" in a for a in assumptions)
    assert any("default of `since`" in a for a in assumptions)
    assert document.tools[0].description == "Search orders."
    assert document.tools[0].parameters["properties"]["filter"] == {}  # fastmcp prunes the bare title
    assert document.positions.locate(finding.pointer, key=finding.key) is not None


def test_module_constants_are_followed() -> None:
    document = load(
        """
        from langchain_core.tools import tool

        DESCRIPTION = (
            "Search the web. "
            "Do not use for internal documents."
        )
        NAME = "web_search"

        @tool(NAME, description=DESCRIPTION)
        def search(query: str) -> str:
            ...
        """
    )
    (tool,) = document.tools
    assert tool.name == "web_search"
    assert tool.description == "Search the web. Do not use for internal documents."
    assert document.notes == []


def test_prompts_and_resources_built_from_functions_are_not_tools() -> None:
    document = load(
        """
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.prompts import Prompt
        from mcp.server.mcpserver.tools import Tool

        mcp = MCPServer("x")

        def greet(name: str) -> str:
            \"\"\"Greet someone.\"\"\"

        mcp.add_prompt(Prompt.from_function(greet, name="greeting"))
        tool = Tool.from_function(greet, name="greet_tool")
        """
    )
    assert [t.name for t in document.tools] == ["greet_tool"]


# -- literal tool definitions --------------------------------------------------------------------

LITERALS = '''
from enum import Enum
from mcp import types
from mcp.server.fastmcp import FastMCP
from pydantic import BaseModel, Field

mcp = FastMCP("mixed")
ZONE = "UTC"


class Names(str, Enum):
    NOW = "get_now"


class Shift(BaseModel):
    hours: int = Field(description="Hours to add", ge=-12, le=12)


@mcp.tool()
def decorated(city: str) -> str:
    """Weather for a city."""


OPENAI_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "lookup_order",
            "description": "Find an order by id.",
            "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}},
        },
    }
]


def list_tools() -> list[types.Tool]:
    return [
        types.Tool(
            name=Names.NOW.value,
            description=f"Current time; default zone {ZONE}.",
            inputSchema={"type": "object", "properties": {"zone": {"type": "string"}}},
            annotations=types.ToolAnnotations(readOnlyHint=True),
        ),
        types.Tool(name="shift_time", description="Shift a time.", inputSchema=Shift.model_json_schema()),
    ]
'''


def test_literal_definitions_go_through_dialect_detection() -> None:
    document = load(LITERALS)
    names = [(t.name, t.dialect.value, t.index) for t in document.tools]
    assert names == [
        ("decorated", "python", 0),
        ("lookup_order", "openai-chat", 1),
        ("get_now", "mcp", 2),
        ("shift_time", "mcp", 3),
    ]
    # one synthetic document: the decorated tool at /0, then each literal at its own index
    assert [t.pointer for t in document.tools] == ["/0", "/1/0", "/2/0", "/2/1"]
    for tool in document.tools:
        assert tool.parameters_pointer is not None
        assert resolve_pointer(document.data, tool.parameters_pointer) == tool.parameters
    now = document.tools[2]
    assert now.annotations == {"readOnlyHint": True}
    assert now.description == "Current time; default zone {ZONE}."
    shift = document.tools[3].parameters
    assert shift["properties"]["hours"] == {
        "description": "Hours to add",
        "maximum": 12,
        "minimum": -12,
        "title": "Hours",
        "type": "integer",
    }
    positions = document.positions
    assert positions.locate("/1/0/function/name").line == line_of(LITERALS, '"name": "lookup_order"')
    key = positions.locate("/1/0/function/parameters/properties/order_id", key=True)
    assert key.line == line_of(LITERALS, '"order_id"')
    assert positions.locate("/2/0/name", key=True).line == line_of(LITERALS, "name=Names.NOW.value")
    assert positions.locate("/2/1/inputSchema/properties/hours", key=True).line == line_of(LITERALS, "hours: int")
    notes = {finding.pointer: finding for _, finding in document.notes}
    assert list(notes) == ["/2/0"]
    assert "f-string" in notes["/2/0"].message and "{ZONE}" in notes["/2/0"].message


def test_literals_that_are_not_tools_are_ignored() -> None:
    document = load(
        """
        CONFIG = {"parameters": {"retries": 3}, "type": "function-ish"}
        ITEMS = [{"name": "x", "value": 1}]
        """
    )
    assert document.tools == []
    assert document.data == []


def test_mcp_tool_annotations_are_read() -> None:
    source = """
    from fastmcp import FastMCP
    from mcp.types import ToolAnnotations

    mcp = FastMCP("x")

    @mcp.tool(annotations=ToolAnnotations(readOnlyHint=True, destructiveHint=False))
    def list_orders() -> list[str]:
        \"\"\"List orders.\"\"\"

    @mcp.tool(annotations={"destructiveHint": True, "title": TITLE})
    def delete_order(order_id: str) -> str:
        \"\"\"Delete an order.\"\"\"
    """
    document = load(source)
    first, second = document.tools
    assert first.annotations == {"readOnlyHint": True, "destructiveHint": False}
    assert first.annotations_pointer == "/0/annotations"
    assert resolve_pointer(document.data, "/0/annotations/readOnlyHint") is True
    assert document.positions.locate("/0/annotations/readOnlyHint", key=True).line == line_of(source, "readOnlyHint")
    assert second.annotations == {"destructiveHint": True}
    assert [f.pointer for _, f in document.notes] == ["/1"]
    assert "`title` is computed at run time" in document.notes[0][1].message


FASTMCP_TOOL = '''
from fastmcp import FastMCP

mcp = FastMCP("x")


@mcp.tool
def forecast(city: str) -> str:
    """Get the forecast.

    Args:
        city: The city name.
    """
'''


def _load_in_project(tmp_path: Path, pyproject: str | None) -> Any:
    if pyproject is not None:
        (tmp_path / "pyproject.toml").write_text(textwrap.dedent(pyproject), encoding="utf-8")
    (tmp_path / ".git").mkdir()
    server = tmp_path / "server.py"
    text = textwrap.dedent(FASTMCP_TOOL).lstrip("\n")
    server.write_text(text, encoding="utf-8")
    (tool,) = load_python(text, str(server)).tools
    return tool


@pytest.mark.parametrize(
    "pyproject",
    [
        '[project]\nname = "x"\ndependencies = ["fastmcp>=2.10,<3"]\n',
        '[project]\nname = "x"\ndependencies = ["fastmcp[cli]==2.14.7"]\n',
        '[project]\nname = "x"\ndependencies = ["fastmcp ~= 2.14"]\n',
        '[tool.poetry.dependencies]\npython = "^3.11"\nfastmcp = "^2.10"\n',
        '[tool.poetry.dependencies]\nfastmcp = {version = "2.14.7", extras = ["cli"]}\n',
    ],
)
def test_a_project_pinned_to_fastmcp_2_keeps_the_whole_docstring(tmp_path: Path, pyproject: str) -> None:
    """Seen with fastmcp 2.14.7: no docstring sections, no closed root; 3.4.11 and 4.2.3 split them."""
    old = _load_in_project(tmp_path, pyproject)
    assert old.description == "Get the forecast.\n\nArgs:\n    city: The city name."
    assert old.parameters == {"properties": {"city": {"type": "string"}}, "required": ["city"], "type": "object"}


@pytest.mark.parametrize(
    "pyproject",
    [
        None,
        '[project]\nname = "x"\ndependencies = ["fastmcp>=2.10"]\n',
        '[project]\nname = "x"\ndependencies = ["fastmcp>=3,<5", "httpx"]\n',
        '[project]\nname = "x"\ndependencies = ["mcp>=1.10"]\n',
        '[tool.poetry.dependencies]\nfastmcp = "^3.1"\n',
        '[project]\nname = "x"\ndependencies = ["fastmcp @@ not a requirement"]\n',
    ],
)
def test_fastmcp_3_and_later_split_the_docstring_whatever_is_installed(tmp_path: Path, pyproject: str | None) -> None:
    """Only the project's declaration decides, never the fastmcp installed beside schemalint."""
    new = _load_in_project(tmp_path, pyproject)
    assert new.description == "Get the forecast."
    assert new.parameters["properties"]["city"] == {"type": "string", "description": "The city name."}
    assert new.parameters["additionalProperties"] is False


def test_positional_tool_names() -> None:
    source = """
        from mcp.server.fastmcp import FastMCP
        from langchain_core.tools import tool

        mcp = FastMCP("x")

        @mcp.tool("named_tool")
        def first(a: int) -> int:
            "Add one."

        @tool("lc_named")
        def second(a: int) -> int:
            "Add two."
        """
    document = load(source)
    assert [t.name for t in document.tools] == ["named_tool", "lc_named"]
    assert document.positions.locate("/0/name").line == line_of(source, '@mcp.tool("named_tool")')


def test_the_files_own_syntax_warnings_are_not_printed() -> None:
    """An invalid escape in the linted file is its own style problem: Python 3.12+ would warn on stderr."""
    import warnings

    source = 'from agents import function_tool\n\n@function_tool\ndef f(x: str = "\\e") -> str:\n    """Doc."""\n'
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        document = load_python(source, "tools.py")
    assert document.data is not None
    assert [str(w.message) for w in caught] == []


BODIES = '''\
from fastmcp import FastMCP

mcp = FastMCP("bodies")


@mcp.tool()
def documented(path: str) -> str:
    """Read a file."""
    with open(path) as handle:
        return handle.read()


@mcp.tool(name="bare")
async def no_docstring(limit: int = 3) -> list[int]:
    values = list(range(limit))
    return values


@mcp.tool()
def one_line(x: int) -> int: return x


@mcp.tool()
def with_a_helper(text: str) -> str:
    """Keep the helper: a nested function is read."""

    def helper() -> str:
        return text

    return helper()


@mcp.tool()
def returns_content(query: str) -> dict:
    """A literal with "type" in the body is kept, whatever it is."""
    return {"type": "text", "text": query}
'''


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_tool_bodies_are_left_out_of_the_parse_without_changing_the_result(
    newline: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from schemalint.loaders.pyextract import project, source

    text = BODIES.replace("\n", newline)
    parsed = source.parse_module(text, "bodies.py").module.code
    assert parsed.count(newline) == text.count(newline)  # every line stays where it was
    assert "handle.read()" not in parsed and "values = list" not in parsed and "return x" in parsed
    assert "def helper" in parsed and '"type": "text"' in parsed

    def extracted() -> tuple[Any, ...]:
        project._parsed.cache_clear()
        document = load_python(text, "bodies.py")
        positions = getattr(document.positions, "spans", None)
        return document.data, positions, [(t.name, t.parameters, t.output_schema) for t in document.tools or []]

    blanked = extracted()
    monkeypatch.setattr(source, "_blank_tool_bodies", lambda lines, functions: None)
    assert blanked == extracted()
    assert [name for name, _, _ in blanked[2]] == ["documented", "bare", "one_line", "with_a_helper", "returns_content"]


STATEMENTS = '''\
"""Ledger tools."""
from enum import Enum

from pydantic import BaseModel, Field

from fastmcp import FastMCP

LIMIT = 50
UNUSED = {"a": 1}


class Currency(str, Enum):
    EUR = "eur"
    USD = "usd"


class Entry(BaseModel):
    """One ledger line."""

    amount: float = Field(gt=0)
    currency: Currency


def make_server() -> FastMCP:
    return FastMCP("ledger")


mcp = make_server()


def render(entry: Entry) -> str:  # only a tool body calls it: never read
    return f"{entry.amount} {entry.currency}"


class Cache:  # nothing read mentions it
    def get(self, key: str) -> str:
        return key


@mcp.tool()
def add_entry(entry: Entry, limit: int = LIMIT) -> str:
    """Add a line."""
    return render(entry)


def audit(x: int) -> int: return x
mcp.add_tool(audit)

if __name__ == "__main__":
    mcp.run()
'''


def test_statements_nothing_reads_are_left_out_of_the_parse_without_changing_the_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from schemalint.loaders.pyextract import extract, project, source

    parsed = source.parse_module(STATEMENTS, "ledger.py").module.code
    assert parsed.count("\n") == STATEMENTS.count("\n")
    assert "def render" not in parsed and "class Cache" not in parsed and "UNUSED" not in parsed
    assert "mcp.run()" not in parsed and "Ledger tools" not in parsed
    for kept in ("class Entry", "class Currency", "LIMIT = 50", "def make_server", "def audit", "import FastMCP"):
        assert kept in parsed
    whole = source.parse_module(STATEMENTS, "ledger.py", every_statement=True).module.code
    assert "def render" in whole and "class Cache" in whole

    def extracted() -> tuple[Any, ...]:
        project._parsed.cache_clear()
        document = load_python(STATEMENTS, "ledger.py")
        positions = getattr(document.positions, "spans", None)
        return document.data, positions, [(t.name, t.parameters) for t in document.tools or []]

    left_out = extracted()
    monkeypatch.setattr(extract, "parse_module", lambda text, path: source.parse_module(text, path, True))
    assert left_out == extracted()
    assert [name for name, _ in left_out[2]] == ["add_entry", "audit"]
    assert left_out[2][0][1]["properties"]["limit"]["default"] == 50


def test_a_decorator_written_below_its_at_sign_is_kept_whole() -> None:
    """CPython gives such a decorator the line of its expression, not of its `@`; the statement must still
    be read or left out whole, never cut below the `@`."""
    source = textwrap.dedent(
        """\
        import functools
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("demo")


        @(
            functools.cache
        )
        def helper() -> int:
            return 1


        @mcp.tool()
        def get_order(order_id: str) -> str:
            \"\"\"Look up one order by its id.\"\"\"
            return order_id
        """
    )
    document = load_python(source, "server.py")
    assert [tool.name for tool in detect_tools(document)] == ["get_order"]


# -- registration order and the call walk ---------------------------------------------------------

ORDERED = """
from fastmcp import FastMCP

mcp = FastMCP("x")


@mcp.tool()
def zeta(q: str) -> str:
    '''Search.'''
    return q


def make(server: FastMCP) -> None:
    server.add_tool(helper)

    @server.tool()
    def nested(x: int) -> int:
        '''Do it.'''
        return x


class Handlers:
    def __init__(self, mcp: FastMCP) -> None:
        mcp.tool(name="second")(self.beta)
        mcp.tool(name="first")(self.alpha)

    def alpha(self, a: str) -> str:
        '''Alpha.'''
        return a

    def beta(self, b: str) -> str:
        '''Beta.'''
        return b


@mcp.tool()
def alpha_last(count: int) -> int:
    '''Count.'''
    return count


def helper(path: str) -> str:
    '''Read.'''
    return path
"""


def test_tools_keep_the_order_of_their_registrations_in_the_file() -> None:
    """Decorated functions and registering calls are sorted by place, also where one statement holds both."""
    document = load(ORDERED)
    assert [t.name for t in document.tools] == ["zeta", "helper", "nested", "second", "first", "alpha_last"]
    assert document.positions.locate("/1").line == line_of(ORDERED, "def helper")
    assert document.positions.locate("/2/name").line == line_of(ORDERED, "def nested")


def test_a_finding_on_a_python_tool_is_placed_on_its_parameter() -> None:
    from schemalint.engine import lint_source

    result = lint_source(textwrap.dedent(ORDERED).lstrip("\n"), "ordered_tools.py")
    placed = {(d.pointer, d.span.line, d.span.column) for d in result.diagnostics}
    assert ("/2/parameters/properties/x", line_of(ORDERED, "def nested"), 16) in placed
    assert ("/1/parameters/properties/path", line_of(ORDERED, "def helper"), 12) in placed


HANDLERS = '''
from fastmcp import FastMCP
from langchain_core.tools import tool as lc_tool
from pydantic import BaseModel


class Query(BaseModel):
    """A query."""

    text: str


class Handlers:
    def __init__(self, mcp: FastMCP) -> None:
        mcp.tool(name="b")(self.beta)
        for fn in (self.alpha,):
            mcp.add_tool(fn)

    def helper(self) -> list[str]:
        return [str(i) for i in range(3)]

    def alpha(self, a: str) -> str:
        """Alpha."""
        return a

    def beta(self, b: str) -> str:
        """Beta."""
        return b

    def model_tool(self):
        def inner():
            return lc_tool(Query)

        return inner
'''


def test_the_call_walk_enters_only_functions_whose_calls_may_register_tools() -> None:
    from schemalint.loaders.pyextract.source import parse_module

    module = parse_module(textwrap.dedent(HANDLERS).lstrip("\n"), "handlers.py")
    top = next(i for i, s in enumerate(module.module.body) if getattr(s, "name", None) and s.name.value == "Handlers")
    skipped = module.without_registering_calls(top)
    entered = [d.name.value for d in module._definitions[top] if id(d) not in skipped]
    assert entered == ["Handlers", "__init__", "model_tool", "inner"]
    assert [t.name for t in load(HANDLERS).tools] == ["b", "alpha", "Query"]


def test_self_assignments_are_read_in_source_order_outside_nested_scopes() -> None:
    from schemalint.loaders.pyextract.source import dotted_name, parse_module

    text = """
class Server:
    def __init__(self, a, b, c, d, e, f):
        try:
            self.mcp = a
        except ValueError:
            self.mcp = b
        else:
            self.mcp: object = c
        finally:
            if d: self.mcp = d
        with f:
            self.other = self.mcp = e

        def nested():
            self.mcp = f
"""
    module = parse_module(text, "server.py", every_statement=True)
    owner = module.classes["Server"]
    assert [dotted_name(value) for value, _ in module.self_assignments(owner, "mcp")] == ["a", "b", "c", "d", "e"]
    assert [dotted_name(value) for value, _ in module.self_assignments(owner, "other")] == ["e"]
