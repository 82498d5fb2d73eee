"""Small facts about JSON Schema fragments that several provider rules (and the SDK model) need."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, TypeGuard
from urllib.parse import unquote

from schemalint.model import JSON, is_mapping, mappings_in, resolve_pointer, schema_types

_LOCAL_DEFINITION_REF = re.compile(r"^#/(\$defs|definitions)/[^/]+$")
#: lookaround not escaped (after an even run of backslashes), or a backreference
_COMPLEX_REGEX = re.compile(r"(?<!\\)(?:\\\\)*\(\?<?[=!]|\\[1-9]|\\k<")
DEFINITION_KEYS = ("$defs", "definitions")
#: keywords that give a schema node a type (an array's `items` must carry one in OpenAI strict mode)
TYPE_BEARING_KEYS = ("type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const")


def is_nullable(schema: JSON) -> bool:
    """Whether the schema already admits null (`type` with "null", an anyOf null branch, null in enum)."""
    if not is_mapping(schema):
        return False
    if "null" in schema_types(schema) or schema.get("nullable") is True:
        return True
    if isinstance(schema.get("enum"), list) and "type" not in schema and None in schema["enum"]:
        return True
    branches = schema.get("anyOf")
    return isinstance(branches, list) and any(is_nullable(b) for b in branches)


def is_union(schema: JSON) -> bool:
    """anyOf/oneOf or a `type` list (Anthropic counts `["T", "null"]` as a union parameter too)."""
    if not is_mapping(schema):
        return False
    return (
        isinstance(schema.get("anyOf"), list)
        or isinstance(schema.get("oneOf"), list)
        or (isinstance(schema.get("type"), list) and len(schema["type"]) > 1)
    )


def regex_is_complex(pattern: str) -> bool:
    """Lookaround or a backreference: what grammar-compiled strict modes cannot enforce."""
    return _COMPLEX_REGEX.search(pattern) is not None


def is_local_definition_ref(ref: Any) -> TypeGuard[str]:
    return ref == "#" or (isinstance(ref, str) and bool(_LOCAL_DEFINITION_REF.match(ref)))


def has_typed_items(schema: Mapping[str, Any]) -> bool:
    items = schema.get("items")
    if is_mapping(items) and any(k in items for k in TYPE_BEARING_KEYS):
        return True
    return bool(schema.get("prefixItems"))


def resolve_local_ref(root: JSON, ref: str) -> JSON:
    """The target of a local `$ref` (`#`, `#/$defs/X`, `#/components/schemas/X`...) inside `root`.

    Raises KeyError when it does not resolve. Remote refs are never fetched: callers check first.
    """
    if not ref.startswith("#"):
        raise KeyError(ref)
    fragment = unquote(ref[1:])
    if fragment and not fragment.startswith("/"):
        raise KeyError(ref)  # an anchor (`#foo`): not supported by the providers either
    return resolve_pointer(root, fragment)


def refs_in(value: JSON) -> Iterator[str]:
    """Every `$ref` string anywhere in `value`, depth first."""
    for item in mappings_in(value):
        ref = item.get("$ref")
        if isinstance(ref, str):
            yield ref


def is_recursive_ref(root: Mapping[str, Any], ref: str) -> bool:
    """Whether `ref`, met in `root`, takes part in a cycle: `#` itself, or a definition reaching itself."""
    if ref == "#":
        return True
    definitions = {
        f"#/{key}/{name}": definition
        for key in DEFINITION_KEYS
        if is_mapping(group := root.get(key))
        for name, definition in group.items()
    }
    if ref not in definitions:
        return False
    seen: set[str] = set()
    stack = list(refs_in(definitions[ref]))
    while stack:
        reached = stack.pop()
        if reached == ref:
            return True
        if reached not in seen and reached in definitions:
            seen.add(reached)
            stack.extend(refs_in(definitions[reached]))
    return False


def inline_objects(schema: JSON, depth: int = 1) -> Iterator[tuple[Mapping[str, Any], int]]:
    """Each object with `properties` reached through properties, items and anyOf, with its object depth.

    Definitions are not entered and `$ref`s are not followed: OpenAI counts the root and each
    definition on its own (the way pydantic-ai's limit check, which matches observed API errors, counts).
    """
    stack: list[tuple[JSON, int]] = [(schema, depth)]
    while stack:
        node, level = stack.pop()
        if not is_mapping(node):
            continue
        children: list[JSON] = [node.get("items")]
        if isinstance(node.get("anyOf"), list):
            children.extend(node["anyOf"])
        child_level = level
        properties = node.get("properties")
        if is_mapping(properties):
            yield node, level
            children.extend(properties.values())
            child_level = level + 1
        stack.extend((child, child_level) for child in children)


def schema_parts(root: JSON) -> list[JSON]:
    """The root without its definitions, then each definition: the units OpenAI's size limits count."""
    if not is_mapping(root):
        return [root]
    parts: list[JSON] = [{k: v for k, v in root.items() if k not in DEFINITION_KEYS}]
    for key in DEFINITION_KEYS:
        group = root.get(key)
        if is_mapping(group):
            parts.extend(group.values())
    return parts


def validator_class(schema: JSON) -> Any:
    """jsonschema's validator class for `schema`: draft 2020-12 unless the schema says otherwise."""
    from jsonschema.validators import validator_for

    return validator_for(schema, default=validator_for({"$schema": "https://json-schema.org/draft/2020-12/schema"}))


def arguments_validator(schema: JSON) -> Any:
    """A jsonschema validator for a tool's parameters."""
    schema = schema if is_mapping(schema) else {}
    return validator_class(schema)(schema)
