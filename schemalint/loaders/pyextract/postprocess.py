"""What each framework does to pydantic's schema before the model sees it.

Every transform keeps the span map (relative pointer -> spans) in step with the schema, so that
inlined `$defs` still point at the class field they came from.
"""

from __future__ import annotations

import copy
from typing import Any

from schemalint.loaders.pyextract.schema import JSONSchema, SpanPair
from schemalint.model import escape_pointer_token, mappings_in

SpanMap = dict[str, SpanPair]

# FastMCP's compress_schema(prune_titles=True): a title is dropped only from a node that is clearly a schema
_FASTMCP_SCHEMA_KEYWORDS = frozenset({"type", "properties", "$ref", "items", "allOf", "oneOf", "anyOf", "required"})
_FASTMCP_METADATA_KEYS = frozenset({"title", "description", "deprecated", "readOnly", "writeOnly"})
_LITERAL_KEYWORDS = frozenset({"default", "const", "examples", "example", "enum"})


def dereference(schema: JSONSchema, spans: SpanMap) -> tuple[JSONSchema, SpanMap]:
    """Inline every `#/$defs/X` reference (siblings of `$ref` win) and drop `$defs`; a reference back
    into a definition being inlined becomes its siblings alone (LangChain's `{}` for a recursive type)."""
    defs = schema.get("$defs", {})
    new_spans: SpanMap = {k: v for k, v in spans.items() if not k.startswith("/$defs/")}

    def visit(node: Any, pointer: str, expanding: frozenset[str]) -> Any:
        if isinstance(node, list):
            return [visit(item, f"{pointer}/{i}", expanding) for i, item in enumerate(node)]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        name = ref[len("#/$defs/") :] if isinstance(ref, str) and ref.startswith("#/$defs/") else None
        if name is not None and name in defs:
            inlined = {}
            if name not in expanding:
                source_prefix = f"/$defs/{escape_pointer_token(name)}"
                for key, value in spans.items():
                    if key == source_prefix or key.startswith(source_prefix + "/"):
                        new_spans.setdefault(pointer + key[len(source_prefix) :], value)
                inlined = visit(copy.deepcopy(defs[name]), pointer, expanding | {name})
            siblings = {k: visit(v, f"{pointer}/{escape_pointer_token(k)}", expanding) for k, v in node.items()}
            siblings.pop("$ref")
            return {**inlined, **siblings}
        return {
            k: v if k in _LITERAL_KEYWORDS else visit(v, f"{pointer}/{escape_pointer_token(k)}", expanding)
            for k, v in node.items()
        }

    result = visit({k: v for k, v in schema.items() if k != "$defs"}, "", frozenset())
    return result, new_spans


def refers_to_itself(schema: JSONSchema) -> bool:
    """Whether a `$defs` entry reachable from the root refers back to itself (a recursive type)."""
    defs = schema.get("$defs", {})
    if not isinstance(defs, dict):
        return False
    references = {name: _references(value) for name, value in defs.items()}
    done: set[str] = set()

    def cycles(name: str, path: frozenset[str]) -> bool:
        if name in path:
            return True
        if name in done or name not in references:
            return False
        found = any(cycles(target, path | {name}) for target in references[name])
        done.add(name)
        return found

    return any(cycles(name, frozenset()) for name in _references({k: v for k, v in schema.items() if k != "$defs"}))


def _references(node: Any) -> set[str]:
    """The `#/$defs/X` names referenced anywhere in `node`."""
    found: set[str] = set()
    for current in mappings_in(node, skip=_LITERAL_KEYWORDS):
        ref = current.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            found.add(ref[len("#/$defs/") :])
    return found


def prune_titles_fastmcp(node: Any, in_schema: bool = True) -> Any:
    if isinstance(node, list):
        return [prune_titles_fastmcp(item, in_schema) for item in node]
    if not isinstance(node, dict):
        return node
    result: dict[str, Any] = {}
    for key, value in node.items():
        if key in _LITERAL_KEYWORDS:
            result[key] = value
        elif key in ("properties", "$defs", "patternProperties"):
            result[key] = {k: prune_titles_fastmcp(v) for k, v in value.items()} if isinstance(value, dict) else value
        else:
            result[key] = prune_titles_fastmcp(value)
    if (
        in_schema
        and isinstance(result.get("title"), str)
        and (any(k in result for k in _FASTMCP_SCHEMA_KEYWORDS) or all(k in _FASTMCP_METADATA_KEYS for k in result))
    ):
        result.pop("title")
    return result


def remove_titles_langchain(kv: dict[str, Any], prev_key: str = "") -> dict[str, Any]:
    """A port of langchain_core's `_rm_titles` (it does not descend into lists such as anyOf)."""
    new_kv: dict[str, Any] = {}
    for k, v in kv.items():
        if k == "title":
            if isinstance(v, dict) and prev_key == "properties":
                new_kv[k] = remove_titles_langchain(v, k)
            else:
                continue
        elif isinstance(v, dict):
            new_kv[k] = remove_titles_langchain(v, k)
        else:
            new_kv[k] = v
    return new_kv


def remove_property_titles(node: Any) -> Any:
    """pydantic-ai's GenerateToolJsonSchema: property schemas lose their titles, classes keep theirs."""
    if isinstance(node, list):
        return [remove_property_titles(item) for item in node]
    if not isinstance(node, dict):
        return node
    result: dict[str, Any] = {}
    for key, value in node.items():
        if key in _LITERAL_KEYWORDS:
            result[key] = value
        elif key == "properties" and isinstance(value, dict):
            result[key] = {
                name: {k: v for k, v in remove_property_titles(sub).items() if k != "title"}
                if isinstance(sub, dict)
                else sub
                for name, sub in value.items()
            }
        else:
            result[key] = remove_property_titles(value)
    return result


def openai_strict(schema: JSONSchema, spans: SpanMap) -> tuple[JSONSchema, SpanMap]:
    """The Agents SDK's `ensure_strict_json_schema`: closed objects, every property required,
    `default: null` dropped, `$ref` with siblings inlined."""
    root = copy.deepcopy(schema)
    new_spans = dict(spans)

    def resolve(ref: str) -> Any:
        node: Any = root
        for token in ref[2:].split("/"):
            node = node[token]
        return node

    def visit(node: Any, pointer: str) -> Any:
        if not isinstance(node, dict):
            return node
        for defs_key in ("$defs", "definitions"):
            if isinstance(node.get(defs_key), dict):
                for name, sub in node[defs_key].items():
                    visit(sub, f"{pointer}/{defs_key}/{escape_pointer_token(name)}")
        typ = node.get("type")
        if typ is None and isinstance(node.get("properties"), dict):
            node["type"] = typ = "object"
        if (typ == "object" or (isinstance(typ, list) and "object" in typ)) and "additionalProperties" not in node:
            node["additionalProperties"] = False
        if isinstance(node.get("properties"), dict):
            node["required"] = list(node["properties"].keys())
            for key, sub in node["properties"].items():
                visit(sub, f"{pointer}/properties/{escape_pointer_token(key)}")
        if isinstance(node.get("items"), dict):
            visit(node["items"], f"{pointer}/items")
        if isinstance(node.get("anyOf"), list):
            for i, sub in enumerate(node["anyOf"]):
                visit(sub, f"{pointer}/anyOf/{i}")
        if "default" in node and node["default"] is None:
            node.pop("default")
        ref = node.get("$ref")
        if isinstance(ref, str) and len(node) > 1 and ref.startswith("#/"):
            resolved = copy.deepcopy(resolve(ref))
            source_prefix = ref[1:]
            for key, value in list(spans.items()):
                if key.startswith(source_prefix + "/"):
                    new_spans.setdefault(pointer + key[len(source_prefix) :], value)
            node.pop("$ref")
            merged = {**resolved, **node}
            node.clear()
            node.update(merged)
            visit(node, pointer)
        return node

    visit(root, "")
    return root, new_spans
