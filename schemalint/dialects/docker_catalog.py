"""Docker's MCP catalog tool lists (`servers/<name>/tools.json` in docker/mcp-registry, the `tools` of a
catalog entry): `{name, description, arguments: [{name, type, items?, desc, optional?}], annotations?}`.

The gateway serves these as MCP tools, so `arguments` is read as the JSON Schema it stands for
(`properties` from the arguments, `required` from those not `optional`). Findings in that schema
point at the argument it came from: `ArgumentPositions` translates its pointers to the array.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from schemalint.dialects.base import Shape
from schemalint.loaders import PositionIndex
from schemalint.model import JSON, Dialect, Span, Tool, escape_pointer_token, is_mapping, parent_pointer

#: the name the catalog gives its tool lists
FILE_NAME = "tools.json"
#: the keys of a catalog tool; a list whose items have other keys is some other format
TOOL_KEYS = frozenset({"name", "description", "arguments", "annotations"})
#: an argument's keys -> the JSON Schema keyword each stands for; some entries spell `desc` as
#: `description` and mark arguments `required` instead of `optional`
ARGUMENT_KEYWORDS = {"type": "type", "desc": "description", "description": "description", "items": "items"}
ARGUMENT_KEYS = frozenset({"name", "optional", "required", *ARGUMENT_KEYWORDS})
SHAPE = Shape(Dialect.DOCKER_CATALOG, ("arguments",), annotations="annotations")
#: what the converted schema can hold: the arguments' keywords and the object built around them
SOURCE_KEYWORDS = frozenset({"type", "properties", "required", *ARGUMENT_KEYWORDS.values()})


def is_catalog_list(items: Sequence[JSON], named_tools_json: bool) -> bool:
    """Whether `items` is a catalog tool list: every item a tool with only the catalog's keys, and
    some item with an `arguments` list of arguments (or the file is named `tools.json`)."""
    if not items or not all(_is_catalog_tool(item) for item in items):
        return False
    return named_tools_json or any(isinstance(item.get("arguments"), list) for item in items if is_mapping(item))


def _is_catalog_tool(item: JSON) -> bool:
    if not is_mapping(item) or not isinstance(item.get("name"), str) or not set(item) <= TOOL_KEYS:
        return False
    arguments = item.get("arguments", [])
    return isinstance(arguments, list) and all(
        is_mapping(a) and isinstance(a.get("name"), str) and set(a) <= ARGUMENT_KEYS for a in arguments
    )


def read(obj: Mapping[str, Any], path: str, pointer: str, index: int, aliases: dict[str, str]) -> Tool:
    """The tool `obj` defines; `aliases` gains the converted schema's pointers -> the source's."""
    arguments_pointer = f"{pointer}/arguments"
    properties: dict[str, Any] = {}
    required: list[str] = []
    for position, argument in enumerate(obj.get("arguments") or []):
        name = argument["name"]
        source = f"{arguments_pointer}/{position}"
        target = f"{arguments_pointer}/properties/{escape_pointer_token(name)}"
        aliases[target] = source
        schema: dict[str, Any] = {}
        for key, keyword in ARGUMENT_KEYWORDS.items():
            if key in argument and keyword not in schema:  # `desc` wins over `description`
                schema[keyword] = argument[key]
                aliases[f"{target}/{keyword}"] = f"{source}/{key}"
        properties[name] = schema
        if _is_required(argument):
            required.append(name)
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        parameters["required"] = required
    # read as a generic shape whose `arguments` are this schema; annotations only when they are an object
    fields = {key: value for key, value in obj.items() if key != "annotations" or is_mapping(value)}
    tool = SHAPE.read({**fields, "arguments": parameters}, path, pointer, index)
    tool.source_keywords = SOURCE_KEYWORDS
    return tool


def _is_required(argument: Mapping[str, Any]) -> bool:
    """Required unless marked `optional: true`, or `required: false` where `optional` is not given."""
    if "optional" in argument:
        return argument["optional"] is not True
    return argument.get("required") is not False


class ArgumentPositions:
    """The document's positions, with the converted schemas' pointers located at their arguments."""

    def __init__(self, inner: PositionIndex, aliases: dict[str, str]) -> None:
        self.inner = inner
        self.aliases = aliases

    def locate(self, pointer: str, key: bool = False) -> Span | None:
        current = pointer
        while current:
            source = self.aliases.get(current)
            if source is not None:
                return self.inner.locate(source + pointer[len(current) :], key)
            current = parent_pointer(current)
        return self.inner.locate(pointer, key)
