"""Multi-module servers: the server object is made in one module and tools are decorated in others.

Each test writes a small package of its own (layouts seen in real FastMCP servers, none copied),
lints one tool module the way pre-commit does (only that file named), and checks which tools were
found. One test runs the package with the real framework and compares its tool list.
"""

from __future__ import annotations

import asyncio
import sys
import textwrap
from pathlib import Path

import pytest

from schemalint.loaders.python import load_python

SERVER = 'from fastmcp import FastMCP\n\nmcp = FastMCP("acme")\n'
TOOL_BODY = '''
@{receiver}.tool()
def {name}(path: str, limit: int = 10) -> str:
    """Read the file at a path."""
    return path
'''


def write(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


def tool_names(path: Path) -> list[str]:
    document = load_python(path.read_text(encoding="utf-8"), str(path))
    return [tool.name or "" for tool in document.tools or []]


def tools_module(imports: str, receiver: str = "mcp", name: str = "read_file") -> str:
    return imports + "\n" + TOOL_BODY.format(receiver=receiver, name=name)


@pytest.fixture
def package(tmp_path: Path) -> Path:
    """`src/acme/` under a pyproject.toml root, with the server in `acme/common/server.py`."""
    write(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "acme"\n',
            "src/acme/__init__.py": "from .common.server import mcp\n",
            "src/acme/common/__init__.py": "",
            "src/acme/common/server.py": SERVER,
            "src/acme/tools/__init__.py": "",
        },
    )
    return tmp_path


@pytest.mark.parametrize(
    "imports",
    [
        "from ..common.server import mcp",
        "from acme.common.server import mcp",
        "from acme import mcp",  # re-exported by the package's __init__.py
        "from .. import mcp",
        "from ..common.server import mcp as server",
    ],
)
def test_server_imported_from_another_module(package: Path, imports: str) -> None:
    receiver = imports.rsplit(" ", 1)[-1]
    path = package / "src/acme/tools/files.py"
    write(package, {"src/acme/tools/files.py": tools_module(imports, receiver)})
    assert tool_names(path) == ["read_file"]


def test_module_attribute_receiver(package: Path) -> None:
    path = package / "src/acme/tools/files.py"
    write(package, {"src/acme/tools/files.py": tools_module("from ..common import server", "server.mcp")})
    assert tool_names(path) == ["read_file"]


def test_server_made_by_a_factory_or_a_subclass(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            "app/__init__.py": "",
            "app/base.py": "from mcp.server.mcpserver import MCPServer\n\nclass AcmeServer(MCPServer):\n    pass\n",
            "app/factory.py": """\
                from .base import AcmeServer

                def build():
                    server = AcmeServer("acme")
                    return server
                """,
            "app/server.py": "from .factory import build\n\nmcp = build()\n",
            "app/tools.py": tools_module("from app.server import mcp"),
        },
    )
    document = load_python((tmp_path / "app/tools.py").read_text(), str(tmp_path / "app/tools.py"))
    assert [(t.name, t.framework) for t in document.tools or []] == [("read_file", "mcp")]


def test_a_decorator_of_some_other_object_is_not_a_tool(package: Path) -> None:
    write(
        package,
        {
            "src/acme/common/registry.py": "class Registry:\n    def tool(self):\n        return lambda f: f\n\n"
            "registry = Registry()\n",
            "src/acme/tools/files.py": tools_module("from ..common.registry import registry", "registry"),
        },
    )
    assert tool_names(package / "src/acme/tools/files.py") == []


def test_imports_are_not_followed_outside_the_root(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "shared/server.py": SERVER,  # above the project root: never read
            "project/pyproject.toml": '[project]\nname = "p"\n',
            "project/tools.py": tools_module("from shared.server import mcp"),
            "project/pkg/__init__.py": "",
            "project/pkg/tools.py": tools_module("from ...shared.server import mcp"),
        },
    )
    assert tool_names(tmp_path / "project/tools.py") == []
    assert tool_names(tmp_path / "project/pkg/tools.py") == []


@pytest.mark.parametrize(
    ("signature", "framework"),
    [
        ("def register_tools(mcp):", "fastmcp"),
        ("def register(server: FastMCP) -> None:", "fastmcp"),
        ('def register(server: "FastMCP") -> None:', "fastmcp"),
        ("def setup(app):", "fastmcp"),
        ("def add_file_tools(mcp_server, prefix: str = ''):", "fastmcp"),
        ("def register_tools(mcp: Any, client: Any) -> None:", "fastmcp"),
    ],
)
def test_server_passed_as_a_parameter(tmp_path: Path, signature: str, framework: str) -> None:
    receiver = signature.split("(", 1)[1].split(")")[0].split(":")[0].split(",")[0].strip()
    body = textwrap.indent(TOOL_BODY.format(receiver=receiver, name="read_file"), "    ")
    write(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "acme"\ndependencies = ["fastmcp>=2.10"]\n',
            "tools.py": "from typing import Any\n\n" * ("Any" in signature)
            + "from fastmcp import FastMCP\n\n" * ("FastMCP" in signature)
            + f"{signature}\n{body}",
        },
    )
    document = load_python((tmp_path / "tools.py").read_text(), str(tmp_path / "tools.py"))
    assert [(t.name, t.framework) for t in document.tools or []] == [("read_file", framework)]
    assert document.notes == []


def test_parameter_framework_from_the_project_dependencies(tmp_path: Path) -> None:
    body = textwrap.indent(TOOL_BODY.format(receiver="mcp", name="read_file"), "    ")
    pyproject = '[project]\ndependencies = ["mcp[cli]>=1.9"]\n'
    write(tmp_path, {"pyproject.toml": pyproject, "t.py": f"def register(mcp):\n{body}"})
    document = load_python((tmp_path / "t.py").read_text(), str(tmp_path / "t.py"))
    assert [t.framework for t in document.tools or []] == ["mcp"]
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    document = load_python((tmp_path / "t.py").read_text(), str(tmp_path / "t.py"))
    assert [t.framework for t in document.tools or []] == ["fastmcp"]
    assert "parameter `mcp`" in document.notes[0][1].message  # the guess is said (SL004)


def test_parameters_not_named_or_typed_as_a_server_are_not_servers(tmp_path: Path) -> None:
    body = textwrap.indent(TOOL_BODY.format(receiver="registry", name="read_file"), "    ")
    other = textwrap.indent(TOOL_BODY.format(receiver="server", name="read_more"), "    ")
    write(tmp_path, {"t.py": f"def register(registry):\n{body}\n\ndef build(server: Registry):\n{other}"})
    assert tool_names(tmp_path / "t.py") == []


def test_the_real_framework_lists_the_same_tools(package: Path) -> None:
    """The package is ours: run it with fastmcp and compare its tool list with the static one."""
    pytest.importorskip("fastmcp")
    files = {
        "src/acme/tools/files.py": tools_module("from ..common.server import mcp"),
        "src/acme/tools/search.py": tools_module("from acme.common.server import mcp", name="search_files"),
        "src/acme/tools/notes.py": "from fastmcp import FastMCP\n\n\ndef register_note_tools(mcp: FastMCP) -> None:\n"
        + textwrap.indent(TOOL_BODY.format(receiver="mcp", name="add_note"), "    ")
        + "\n\nfrom acme.common.server import mcp as _server\n\nregister_note_tools(_server)\n",
    }
    write(package, files)
    static = {}
    for relative in files:
        document = load_python((package / relative).read_text(), str(package / relative))
        static.update({t.name: t.parameters for t in document.tools or []})
    sys.path.insert(0, str(package / "src"))
    try:
        import acme.tools.files
        import acme.tools.notes
        import acme.tools.search

        real = {t.name: t.to_mcp_tool().input_schema for t in asyncio.run(acme.mcp.list_tools())}
    finally:
        sys.path.remove(str(package / "src"))
        for name in [m for m in sys.modules if m == "acme" or m.startswith("acme.")]:
            del sys.modules[name]
    assert static == real


def test_a_run_naming_only_the_changed_tool_file(package: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pre-commit passes the changed file alone, by a path relative to the repository."""
    from schemalint.engine import lint

    write(package, {"src/acme/tools/files.py": tools_module("from ..common.server import mcp")})
    monkeypatch.chdir(package)
    result = lint(["src/acme/tools/files.py"])
    assert [t.name for f in result.files for t in f.tools] == ["read_file"]
    assert all(d.code != "SL003" for d in result.diagnostics)


PLAIN_FUNCTIONS = """\
from typing import Annotated

from pydantic import Field


def read_file(path: str, limit: int = 10) -> str:
    \"\"\"Read the file at a path.\"\"\"
    return path


def search_files(pattern: Annotated[str, Field(description="A glob.")]) -> list[str]:
    \"\"\"Find files by name.\"\"\"
    return [pattern]


def delete_file(path: str) -> None:
    \"\"\"Delete one file.\"\"\"
"""
#: `acme/app.py` registers functions that other modules define, one by one and in loops
REGISTERING = {
    "src/acme/ops/files.py": PLAIN_FUNCTIONS,
    "src/acme/ops/__init__.py": "from .files import delete_file\n",  # re-exported
    "src/acme/app.py": """\
        from fastmcp import FastMCP

        from . import ops
        from .ops import files
        from .ops.files import read_file, search_files

        mcp = FastMCP("acme")
        mcp.add_tool(read_file)
        mcp.tool(name="find_files")(files.search_files)
        mcp.tool()(ops.delete_file)

        READ_ONLY = [read_file, search_files]


        def register_aliases(server: FastMCP) -> None:
            for tool in READ_ONLY:
                server.tool(name=f"alias_{tool.__name__}")(tool)
        """,
}
#: what acme/app.py registers, in the order of its registrations (the f-string name stays unknown)
REGISTERING_TOOLS = ["read_file", "find_files", "delete_file", "read_file", "search_files"]


def test_functions_defined_in_other_modules_and_registered_in_loops(package: Path) -> None:
    write(package, REGISTERING)
    path = package / "src/acme/app.py"
    document = load_python(path.read_text(), str(path))
    assert [t.name for t in document.tools or []] == REGISTERING_TOOLS
    search = (document.tools or [])[1].parameters
    assert search["properties"]["pattern"]["description"] == "A glob."  # types resolved in files.py
    registered_on = {t.name: document.positions.locate(t.name_pointer or "") for t in document.tools or []}
    # each points at its registration in app.py, not at the def in files.py
    assert [registered_on[name].line for name in ("find_files", "delete_file")] == [9, 10]
    assert len(document.notes) == 2  # each f-string name is said to be assumed (SL004)


def test_registrations_of_other_modules_match_the_real_framework(package: Path) -> None:
    pytest.importorskip("fastmcp")
    write(package, REGISTERING)
    path = package / "src/acme/app.py"
    static = [(t.name, t.parameters) for t in load_python(path.read_text(), str(path)).tools or []]
    sys.path.insert(0, str(package / "src"))
    try:
        import acme.app

        acme.app.register_aliases(acme.app.mcp)
        real = [(t.name, t.to_mcp_tool().input_schema) for t in asyncio.run(acme.app.mcp.list_tools())]
    finally:
        sys.path.remove(str(package / "src"))
        for name in [m for m in sys.modules if m == "acme" or m.startswith("acme.")]:
            del sys.modules[name]
    renamed = {"alias_read_file": "read_file", "alias_search_files": "search_files"}  # f-string names
    assert sorted(static) == sorted((renamed.get(name, name), schema) for name, schema in real)


MARKER = """\
def tool(name, **options):
    \"\"\"Remember the options; `install(server)` hands them to `server.tool(name, **options)`.\"\"\"

    def mark(function):
        function.tool_options = (name, options)
        return function

    return mark
"""


@pytest.mark.parametrize(("dependencies", "expected"), [('["mcp>=1.9"]', [("files_read", "mcp")]), ("[]", [])])
def test_a_tool_decorator_the_project_defines(
    package: Path, dependencies: str, expected: list[tuple[str, str]]
) -> None:
    """The project's own `@tool(...)` marker registers MCP tools only in a project that depends on a framework."""
    write(
        package,
        {
            "pyproject.toml": f'[project]\nname = "acme"\ndependencies = {dependencies}\n',
            "src/acme/marks.py": MARKER,
            "src/acme/tools/files.py": tools_module("from acme.marks import tool", name="read_file").replace(
                "@mcp.tool()", '@tool("files_read", title="Read a file")'
            ),
        },
    )
    path = package / "src/acme/tools/files.py"
    document = load_python(path.read_text(), str(path))
    assert [(t.name, t.framework) for t in document.tools or []] == expected


REGISTERED = Path(__file__).parent / "data" / "python" / "registered_server"
#: the tools of tests/data/python/registered_server, module by module (layouts seen in real servers)
REGISTERED_TOOLS = {
    "acme_ops/server.py": ["ping", "get_server_status"],  # mcp.tool()(fn), mcp.tool(name=...)(fn)
    "acme_ops/handlers/metrics.py": ["get_metric_series", "list_alarms"],  # mcp.tool(...)(self.method)
    "acme_ops/handlers/jobs.py": ["manage_jobs", "cancel_job"],  # self.mcp = mcp; self.mcp.add_tool(...)
    "acme_ops/registry.py": ["list_customer_invoices", "get_invoice"],  # def register(mcp): mcp.add_tool(fn)
    "acme_ops/app.py": ["echo"],  # self.mcp = make_server(); @self.mcp.tool() in a method
}


@pytest.mark.parametrize("relative", sorted(REGISTERED_TOOLS))
def test_registration_calls_methods_and_stored_servers(relative: str) -> None:
    document = load_python((REGISTERED / relative).read_text(encoding="utf-8"), str(REGISTERED / relative))
    assert [t.name for t in document.tools or []] == REGISTERED_TOOLS[relative]
    assert {t.framework for t in document.tools or []} == {"mcp"}
    assert document.notes == []  # the framework is known (imports, factory, project dependencies): no SL004


def test_registered_tools_match_the_real_framework() -> None:
    """Import the fixture package with the MCP SDK and compare every tool's name, description and schema."""
    pytest.importorskip("mcp.server.mcpserver")
    static = {}
    for relative in REGISTERED_TOOLS:
        document = load_python((REGISTERED / relative).read_text(encoding="utf-8"), str(REGISTERED / relative))
        static.update({t.name: (t.description, t.parameters) for t in document.tools or []})
    sys.path.insert(0, str(REGISTERED))
    try:
        import acme_ops.server

        servers = (acme_ops.server.mcp, acme_ops.server.app.mcp)
        listed = [t for server in servers for t in asyncio.run(server.list_tools())]
        real = {t.name: (t.description, t.input_schema) for t in listed}
    finally:
        sys.path.remove(str(REGISTERED))
        for name in [m for m in sys.modules if m == "acme_ops" or m.startswith("acme_ops.")]:
            del sys.modules[name]
    assert static == real
