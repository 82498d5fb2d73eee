"""Docstring parsing: the tool description and per-parameter descriptions.

`parse_structured` follows what griffe does for FastMCP, the OpenAI Agents SDK and pydantic-ai
(Google, NumPy or Sphinx/reST sections; the description is the free text before the first section).
`parse_langchain_google` is a port of LangChain's own `_parse_google_docstring`, which differs
(blocks before `Args:` are joined with a space).
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field

_GOOGLE_PARAMS = {"args", "arguments", "parameters", "params", "keyword args", "keyword arguments", "other parameters"}
_GOOGLE_SECTIONS = _GOOGLE_PARAMS | {
    "returns",
    "return",
    "yields",
    "yield",
    "raises",
    "raise",
    "except",
    "exceptions",
    "examples",
    "example",
    "note",
    "notes",
    "attributes",
    "warns",
    "warning",
    "warnings",
    "see also",
    "todo",
    "references",
    "receives",
    "methods",
    "functions",
    "classes",
    "modules",
    "attention",
    "caution",
    "danger",
    "error",
    "hint",
    "important",
    "tip",
}
_NUMPY_PARAMS = {"parameters", "other parameters", "params"}
_NUMPY_SECTIONS = _NUMPY_PARAMS | {
    "returns",
    "yields",
    "receives",
    "raises",
    "warns",
    "examples",
    "notes",
    "see also",
    "references",
    "attributes",
    "methods",
    "warnings",
}
_GOOGLE_HEADER = re.compile(r"^([A-Za-z][A-Za-z ]*):\s*$")
_GOOGLE_PARAM = re.compile(r"^\*{0,2}(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")
_NUMPY_UNDERLINE = re.compile(r"^-{3,}\s*$")
_NUMPY_PARAM = re.compile(r"^\*{0,2}(\w+(?:\s*,\s*\w+)*)\s*(?::.*)?$")
_SPHINX_FIELD = re.compile(r"^:(\w+)(?:\s+([^:]*?))?\s*:\s*(.*)$")


@dataclass
class ParsedDocstring:
    description: str | None = None
    parameters: dict[str, str] = field(default_factory=dict)
    structured: bool = False  # a section (Args, Returns, ...) was recognised


def _finished(result: ParsedDocstring, description: list[str]) -> ParsedDocstring | None:
    """The parse, with the text before the first section as the description; None if no section was found."""
    if not result.structured:
        return None
    result.description = _join_block(description) or None
    return result


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _join_block(lines: list[str]) -> str:
    return inspect.cleandoc("\n".join(lines)).strip() if lines else ""


def _parse_google(lines: list[str]) -> ParsedDocstring | None:
    result = ParsedDocstring()
    description: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        header = _GOOGLE_HEADER.match(line)
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if header and _indent(line) == 0 and header.group(1).strip().lower() in _GOOGLE_SECTIONS and nxt.strip():
            if _indent(nxt) == 0:
                if not result.structured:
                    description.append(line)
                i += 1
                continue
            result.structured = True
            kind = header.group(1).strip().lower()
            i += 1
            block: list[str] = []
            while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > 0):
                block.append(lines[i])
                i += 1
            if kind in _GOOGLE_PARAMS:
                result.parameters.update(_google_params(block))
            continue
        if not result.structured:
            description.append(line)
        i += 1
    return _finished(result, description)


def _google_params(block: list[str]) -> dict[str, str]:
    params: dict[str, str] = {}
    base: int | None = None
    current: str | None = None
    pieces: dict[str, list[str]] = {}
    for line in block:
        if not line.strip():
            if current:
                pieces[current].append("")
            continue
        indent = _indent(line)
        if base is None:
            base = indent
        match = _GOOGLE_PARAM.match(line.strip()) if indent <= base else None
        if match:
            current = match.group(1)
            pieces[current] = [match.group(2)]
        elif current:
            pieces[current].append(line)
    for name, parts in pieces.items():
        first, rest = parts[0], parts[1:]
        text = first + ("\n" + inspect.cleandoc("\n".join(rest)) if any(p.strip() for p in rest) else "")
        params[name] = text.strip()
    return params


def _parse_numpy(lines: list[str]) -> ParsedDocstring | None:
    result = ParsedDocstring()
    description: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if line.strip().lower() in _NUMPY_SECTIONS and _NUMPY_UNDERLINE.match(nxt.strip()):
            result.structured = True
            kind = line.strip().lower()
            i += 2
            block: list[str] = []
            while i < len(lines):
                following = lines[i + 1] if i + 1 < len(lines) else ""
                if lines[i].strip().lower() in _NUMPY_SECTIONS and _NUMPY_UNDERLINE.match(following.strip()):
                    break
                block.append(lines[i])
                i += 1
            if kind in _NUMPY_PARAMS:
                result.parameters.update(_numpy_params(block))
            continue
        if not result.structured:
            description.append(line)
        i += 1
    return _finished(result, description)


def _numpy_params(block: list[str]) -> dict[str, str]:
    pieces: dict[str, list[str]] = {}
    names: list[str] = []
    for line in block:
        if line.strip() and _indent(line) == 0:
            match = _NUMPY_PARAM.match(line.strip())
            names = [n.strip().lstrip("*") for n in match.group(1).split(",")] if match else []
            for name in names:
                pieces[name] = []
        elif names:
            for name in names:
                pieces[name].append(line)
    return {name: _join_block(parts) for name, parts in pieces.items()}


def _parse_sphinx(lines: list[str]) -> ParsedDocstring | None:
    result = ParsedDocstring()
    description: list[str] = []
    current: str | None = None
    pieces: dict[str, list[str]] = {}
    for line in lines:
        match = _SPHINX_FIELD.match(line.strip()) if _indent(line) == 0 else None
        if match:
            result.structured = True
            kind, argument = match.group(1), (match.group(2) or "").split()
            current = None
            if kind in ("param", "parameter", "arg", "argument", "key", "keyword") and argument:
                current = argument[-1]
                pieces[current] = [match.group(3)]
            continue
        if result.structured:
            if current and line.strip() and _indent(line) > 0:
                pieces[current].append(line.strip())
            elif not line.strip() or _indent(line) == 0:
                current = None
            continue
        description.append(line)
    result.parameters = {name: " ".join(p for p in parts if p).strip() for name, parts in pieces.items()}
    return _finished(result, description)


def parse_structured(raw: str | None, style: str | None = None) -> ParsedDocstring:
    """Description and parameter descriptions as griffe reads them (`style`: google, numpy, sphinx or auto)."""
    if not raw:
        return ParsedDocstring()
    doc = inspect.cleandoc(raw)
    lines = doc.splitlines()
    parsers = {"google": _parse_google, "numpy": _parse_numpy, "sphinx": _parse_sphinx}
    order = [parsers[style]] if style in parsers else [_parse_google, _parse_numpy, _parse_sphinx]
    for parser in order:
        parsed = parser(lines)
        if parsed is not None:
            return parsed
    return ParsedDocstring(description=doc.strip() or None)


def parse_langchain_google(raw: str | None) -> ParsedDocstring:
    """LangChain's `parse_docstring=True` reading: blocks before `Args:` joined by a space."""
    if not raw:
        return ParsedDocstring(description="")
    docstring = inspect.cleandoc(raw)
    blocks = docstring.split("\n\n")
    descriptors: list[str] = []
    args_block: str | None = None
    past = False
    for block in blocks:
        if block.startswith("Args:"):
            args_block = block
            break
        if block.startswith(("Returns:", "Example:")):
            past = True
        elif not past:
            descriptors.append(block)
    result = ParsedDocstring(description=" ".join(descriptors).strip(), structured=args_block is not None)
    if args_block:
        arg: str | None = None
        arg_indent: int | None = None
        for line in args_block.split("\n")[1:]:
            if not line.strip():
                continue
            current_indent = _indent(line)
            if arg_indent is None and ":" in line:
                arg_indent = current_indent
            continuation = arg_indent is not None and current_indent > arg_indent
            if arg is not None and continuation:
                result.parameters[arg] += " " + line.strip()
            elif ":" in line:
                arg, desc = line.split(":", maxsplit=1)
                arg = arg.strip()
                arg_name, _, annotation = arg.partition(" ")
                if annotation.startswith("(") and annotation.endswith(")"):
                    arg = arg_name
                result.parameters[arg] = desc.strip()
            elif arg:
                result.parameters[arg] += " " + line.strip()
    return result
