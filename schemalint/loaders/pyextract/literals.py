"""Literal tool definitions written in Python: `tools = [{"type": "function", ...}]`,
`Tool(name=..., inputSchema={...})`, `types.Tool(...)`.

Each outermost candidate literal is converted to JSON with positions; the dialect layer runs the
same detection JSON files go through on it, and what it recognises becomes tools. Values only
known at run time (f-strings, calls) are kept as well as possible and reported as SL004 assumptions.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import libcst as cst

from schemalint.diagnostics import Finding
from schemalint.loaders.pyextract.schema import Flavor, SchemaBuilder, SpanPair, class_kind
from schemalint.loaders.pyextract.source import (
    LITERAL_MARKER,
    UNKNOWN,
    Assumptions,
    SourceModule,
    dotted_name,
    last_name,
)
from schemalint.model import Tool, escape_pointer_token

#: pydantic's own `Model.model_json_schema()`: titles kept, `Annotated[T, "doc"]` ignored
_PYDANTIC = Flavor("pydantic", annotated_doc=False)


@dataclass
class Candidate:
    """A literal that may hold tools, for dialect detection to recognise."""

    value: Any
    #: relative pointer -> spans; computed only for a literal that holds tools
    spans: Callable[[], dict[str, SpanPair]]
    assumptions: dict[str, list[str]]  # relative pointer -> texts


class _Converter:
    """CST literal -> JSON value, recording (key span, value span) per relative pointer."""

    def __init__(self, source: SourceModule) -> None:
        self.source = source
        #: pointer -> (key node, value node); turned into spans only when the literal holds tools
        self.nodes: dict[str, tuple[cst.CSTNode | None, cst.CSTNode]] = {}
        self.spans: dict[str, SpanPair] = {}
        self.assumptions: dict[str, list[str]] = {}
        self.roots: list[cst.CSTNode] = []  # module constants the literal refers to

    def resolved_spans(self) -> dict[str, SpanPair]:
        for root in self.roots:
            self.source.activate(root)
        spans = {}
        for pointer, (key_node, value_node) in self.nodes.items():
            value = self.source.span(value_node)
            spans[pointer] = (self.source.span(key_node) if key_node is not None else value, value)
        spans.update(self.spans)
        return spans

    def assume(self, pointer: str, text: str) -> None:
        self.assumptions.setdefault(pointer, []).append(text)

    def convert(
        self, node: cst.BaseExpression, pointer: str, key_node: cst.CSTNode | None = None, depth: int = 0
    ) -> Any:
        self.nodes.setdefault(pointer, (key_node, node))
        if depth > 60:
            self.assume(pointer, "the literal is nested too deeply to read")
            return None
        if isinstance(node, cst.Dict):
            result: dict[str, Any] = {}
            for element in node.elements:
                if not isinstance(element, cst.DictElement):
                    self.assume(pointer, f"`{self.code(element.value)}` is unpacked at run time; its keys are unknown")
                    continue
                key = self.source.literal(element.key)
                if not isinstance(key, str):
                    self.assume(pointer, f"the key `{self.code(element.key)}` is computed at run time; it is left out")
                    continue
                result[key] = self.convert(
                    element.value, f"{pointer}/{escape_pointer_token(key)}", element.key, depth + 1
                )
            return result
        if isinstance(node, (cst.List, cst.Tuple)):
            items: list[Any] = []
            for item in node.elements:
                if isinstance(item, cst.StarredElement):
                    self.assume(pointer, f"`*{self.code(item.value)}` is unpacked at run time; its items are unknown")
                    continue
                items.append(self.convert(item.value, f"{pointer}/{len(items)}", None, depth + 1))
            return items
        if isinstance(node, cst.Call):
            return self.call(node, pointer, depth)
        if isinstance(node, cst.FormattedString):
            return self.formatted(node, pointer)
        if isinstance(node, cst.Name) and node.value in self.source.constants:
            target = self.source.constants[node.value]
            if isinstance(target, (cst.Dict, cst.List, cst.Tuple, cst.Call, cst.FormattedString)):
                self.roots.append(target)
                return self.convert(target, pointer, key_node, depth + 1)
        value = self.source.literal(node)
        if value is UNKNOWN:
            self.assume(pointer, f"`{self.code(node)}` is computed at run time; null was assumed")
            return None
        return value

    def call(self, node: cst.Call, pointer: str, depth: int) -> Any:
        func = node.func
        if is_tool_constructor(self.source, func) or dotted_name(func) == "dict":
            result: dict[str, Any] = {}
            for arg in node.args:
                if arg.keyword is None:
                    self.assume(pointer, f"the positional argument `{self.code(arg.value)}` is left out")
                    continue
                key = arg.keyword.value
                result[key] = self.convert(arg.value, f"{pointer}/{escape_pointer_token(key)}", arg.keyword, depth + 1)
            return result
        if isinstance(func, cst.Attribute) and func.attr.value in ("model_json_schema", "schema"):
            model = dotted_name(func.value)
            if model is not None and class_kind(self.source, model) in ("model", "dataclass", "typeddict"):
                return self.model_schema(model, pointer)
        self.assume(pointer, f"`{self.code(node)}` is computed at run time; null was assumed")
        return None

    def model_schema(self, model: str, pointer: str) -> Any:
        """`Model.model_json_schema()` for a model in this file, as pydantic writes it."""
        assumptions = Assumptions()
        builder = SchemaBuilder(self.source, _PYDANTIC, assumptions)
        root = dict(builder.class_schema(model))
        others = {name: schema for name, schema in builder.defs.items() if name != model}
        schema = {**({"$defs": others} if others else {}), **root}
        own = f"/$defs/{escape_pointer_token(model)}"
        for relative, pair in builder.def_spans.items():
            target = relative[len(own) :] if relative == own or relative.startswith(own + "/") else relative
            self.spans[pointer + target] = pair
        for text in assumptions.items:
            self.assume(pointer, text)
        return schema

    def formatted(self, node: cst.FormattedString, pointer: str) -> str:
        parts: list[str] = []
        holes: list[str] = []
        for part in node.parts:
            if isinstance(part, cst.FormattedStringText):
                parts.append(part.value)
            else:
                hole = self.code(part)
                holes.append(hole)
                parts.append(hole)
        text = "".join(parts)
        with contextlib.suppress(UnicodeDecodeError):  # resolve escapes the way the string literal would
            text = text.encode("latin-1", "backslashreplace").decode("unicode_escape")
        self.assume(pointer, f"an f-string is filled in at run time; {', '.join(holes)} kept as written")
        return text

    def code(self, node: cst.CSTNode) -> str:
        text = " ".join(self.source.module.code_for_node(node).split())
        return text if len(text) <= 60 else text[:57] + "..."


#: MCP SDK classes whose keyword arguments are read as the JSON object they serialise to
_MCP_CLASSES = {"Tool", "ToolAnnotations"}


def is_tool_constructor(source: SourceModule, func: cst.BaseExpression) -> bool:
    """`Tool(...)` / `types.Tool(...)` / `ToolAnnotations(...)` from the MCP SDK."""
    if last_name(func) not in _MCP_CLASSES:
        return False
    qualified = source.qualified_name(func) or ""
    return qualified.split(".")[0] == "mcp" or (qualified in _MCP_CLASSES and source.imports_module("mcp"))


class _CandidateFinder(cst.CSTVisitor):
    """Outermost list/dict literals and MCP `Tool(...)` calls."""

    def __init__(self, source: SourceModule) -> None:
        self.source = source
        self.found: list[cst.BaseExpression] = []

    def visit_Dict(self, node: cst.Dict) -> bool:
        self.found.append(node)
        return False

    def visit_List(self, node: cst.List) -> bool:
        self.found.append(node)
        return False

    def visit_Call(self, node: cst.Call) -> bool:
        if is_tool_constructor(self.source, node.func):
            self.found.append(node)
            return False
        return True


def literal_candidates(source: SourceModule) -> list[Candidate]:
    candidates: list[Candidate] = []
    for index, code in enumerate(source.statement_code):
        if not LITERAL_MARKER.search(code):
            continue
        finder = _CandidateFinder(source)
        source.module.body[index].visit(finder)
        for candidate in finder.found:
            if not LITERAL_MARKER.search(source.module.code_for_node(candidate)):
                continue
            converter = _Converter(source)
            value = converter.convert(candidate, "")
            candidates.append(Candidate(value, _spans(source, converter, candidate, index), converter.assumptions))
    return candidates


def _spans(
    source: SourceModule, converter: _Converter, candidate: cst.CSTNode, index: int
) -> Callable[[], dict[str, SpanPair]]:
    def spans() -> dict[str, SpanPair]:
        source.top_index[id(candidate)] = index
        source.activate(candidate)
        return converter.resolved_spans()

    return spans


def assumption_notes(tools: list[Tool], prefix: str, assumptions: dict[str, list[str]]) -> list[tuple[str, Finding]]:
    """The SL004 notes of the tools found in a literal placed at `prefix`: each tool gets the assumptions
    made under it, the first one those made elsewhere in the literal."""
    notes: list[tuple[str, Finding]] = []
    leftover = [text for texts in assumptions.values() for text in texts]
    for tool in tools:
        relative = tool.pointer[len(prefix) :]
        mine = [
            text
            for pointer, texts in assumptions.items()
            if pointer == relative or pointer.startswith(relative + "/")
            for text in texts
        ]
        leftover = [text for text in leftover if text not in mine]
        if mine:
            notes.append(("SL004", _note(tool, mine)))
    if leftover and tools:
        notes.append(("SL004", _note(tools[0], leftover)))
    return notes


def _note(tool: Tool, assumptions: list[str]) -> Finding:
    return assumption_finding(tool.name, list(dict.fromkeys(assumptions)), tool.pointer)


def assumption_finding(name: str | None, assumptions: list[str], pointer: str) -> Finding:
    listed = "; ".join(assumptions)
    return Finding(
        f"`{name or '<tool>'}` was extracted statically with assumptions: {listed}",
        pointer,
        key=True,
        data={"assumptions": list(assumptions)},
    )
