"""Python source -> Document with extracted tools, a synthetic JSON document and its positions."""

from __future__ import annotations

import ast
from typing import Any

import libcst as cst

from schemalint.diagnostics import Finding
from schemalint.loaders import Document, LoadError
from schemalint.loaders.pyextract.frameworks import BuiltTool, RegistrationFinder, build_tool
from schemalint.loaders.pyextract.literals import literal_tools, place
from schemalint.loaders.pyextract.positions import PythonPositions
from schemalint.loaders.pyextract.project import Project
from schemalint.loaders.pyextract.source import SourceModule
from schemalint.model import Dialect, Tool

ASSUMPTION_CODE = "SL004"
#: deeper syntax trees are refused before libcst sees them: its parser slows down sharply with depth
#: (a 3,000-long attribute chain takes seconds, 20,000 never ends), and CPython 3.10's parser accepts
#: depths that 3.11's refuses, so CPython's own limit is not enough
MAX_PYTHON_NESTING = 1_000


def parse_module(text: str, path: str) -> cst.Module:
    """libcst's tree of `text`, after CPython's parser (which parses only, never runs) accepted it.

    libcst's native parser can hang or crash the process on deep input (100,000 nested brackets, a
    20,000-long attribute chain), so CPython goes first: it turns what it cannot parse into
    exceptions, gives the most precise position for syntax errors, and its tree's depth is checked
    against MAX_PYTHON_NESTING.
    """
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as error:
        line, column = error.lineno or 1, error.offset or 1
        raise LoadError(f"invalid Python: {error.msg}", line, column) from None
    except (RecursionError, MemoryError):
        raise LoadError("Python source nested too deeply to parse safely") from None
    except ValueError as error:  # e.g. NUL bytes
        raise LoadError(f"cannot parse Python: {error}") from None
    if _deeper_than(tree, MAX_PYTHON_NESTING):
        raise LoadError("Python source nested too deeply to parse safely")
    try:
        return cst.parse_module(text)
    except cst.ParserSyntaxError as error:
        raise LoadError(f"invalid Python: {error.message}", error.raw_line, error.raw_column + 1) from None
    except (RecursionError, ValueError) as error:
        raise LoadError(f"cannot parse Python: {error}") from None


def _deeper_than(tree: ast.AST, limit: int) -> bool:
    """Whether the tree has more than `limit` levels (level by level, without recursion)."""
    level = [tree]
    for _ in range(limit):
        level = [child for node in level for child in ast.iter_child_nodes(node)]
        if not level:
            return False
    return True


def extract_document(text: str, path: str) -> Document:
    module = parse_module(text, path)
    source = SourceModule(module)
    registrations = RegistrationFinder(source, Project.of(path)).find()
    registrations.sort(key=lambda r: (source.span(r.anchor).line, source.span(r.anchor).column))

    data: list[dict[str, Any]] = []
    positions = PythonPositions()
    tools: list[Tool] = []
    notes: list[tuple[str, Finding]] = []
    for registration in registrations:
        built = build_tool(source, registration)
        _append(built, path, data, positions, tools, notes)

    for literal in literal_tools(source, path):
        index = len(data)
        data.append(literal.value)
        for relative, (key, value) in literal.spans.items():
            positions.add(f"/{index}{relative}", key, value)
        notes.extend(place(literal, index, len(tools)))
        tools.extend(literal.tools)

    return Document(path=path, text=text, data=data, format="python", positions=positions, tools=tools, notes=notes)


def _append(
    built: BuiltTool,
    path: str,
    data: list[dict[str, Any]],
    positions: PythonPositions,
    tools: list[Tool],
    notes: list[tuple[str, Finding]],
) -> None:
    index = len(data)
    pointer = f"/{index}"
    entry: dict[str, Any] = {"name": built.name, "description": built.description, "parameters": built.parameters}
    if built.annotations is not None:
        entry["annotations"] = built.annotations
    if built.output_schema is not None:
        entry["outputSchema"] = built.output_schema
    data.append(entry)
    for relative, (key, value) in built.spans.items():
        positions.add(pointer + relative, key, value)
    tools.append(
        Tool(
            name=built.name,
            description=built.description,
            parameters=built.parameters,
            dialect=Dialect.PYTHON,
            path=path,
            pointer=pointer,
            parameters_pointer=f"{pointer}/parameters",
            name_pointer=f"{pointer}/name",
            description_pointer=f"{pointer}/description",
            strict=built.strict,
            annotations=built.annotations,
            annotations_pointer=f"{pointer}/annotations" if built.annotations is not None else None,
            output_schema=built.output_schema,
            output_pointer=f"{pointer}/outputSchema" if built.output_schema is not None else None,
            framework=built.framework,
            index=len(tools),
        )
    )
    if built.assumptions:
        notes.append((ASSUMPTION_CODE, assumption_finding(built.name, built.assumptions, pointer)))


def assumption_finding(name: str | None, assumptions: list[str], pointer: str) -> Finding:
    listed = "; ".join(assumptions)
    return Finding(
        f"`{name or '<tool>'}` was extracted statically with assumptions: {listed}",
        pointer,
        key=True,
        data={"assumptions": list(assumptions)},
    )
