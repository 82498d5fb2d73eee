"""Python source -> Document: the decorated tools, a synthetic JSON document and its positions, and
the literals that may hold tools, for the dialect layer."""

from __future__ import annotations

from typing import Any

from schemalint.diagnostics import Finding
from schemalint.loaders import Document
from schemalint.loaders.pyextract.frameworks import BuiltTool, RegistrationFinder, build_tool
from schemalint.loaders.pyextract.literals import assumption_finding, literal_candidates
from schemalint.loaders.pyextract.positions import PythonPositions
from schemalint.loaders.pyextract.project import Project
from schemalint.loaders.pyextract.source import parse_module
from schemalint.model import Dialect, Tool

ASSUMPTION_CODE = "SL004"


def extract_document(text: str, path: str) -> Document:
    source = parse_module(text, path)
    registrations = RegistrationFinder(source, Project.of(path)).find()
    registrations.sort(key=lambda r: (source.span(r.anchor).line, source.span(r.anchor).column))

    data: list[dict[str, Any]] = []
    positions = PythonPositions()
    tools: list[Tool] = []
    notes: list[tuple[str, Finding]] = []
    for registration in registrations:
        built = build_tool(source, registration)
        _append(built, path, data, positions, tools, notes)

    return Document(
        path=path,
        text=text,
        data=data,
        format="python",
        positions=positions,
        tools=tools,
        notes=notes,
        literals=literal_candidates(source),
    )


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
