"""What the official SDKs do to a tool's parameter schema before it is sent, predicted without running them.

Each model mirrors one SDK function (versions checked by the benchmark `benchmarks/provider_agreement.py`
and by `tests/test_sdk_oracles.py`, which run the real SDKs):

- `openai-agents`: `agents.strict_schema.ensure_strict_json_schema` (FunctionTool with
  `strict_json_schema=True`, the default), for `openai-strict`.
- `pydantic-ai-openai`: `pydantic_ai.profiles.openai._OpenAIJsonSchemaTransformer(strict=True)`, for
  `openai-strict`: what `OpenAIProvider.model_profile` gives every model but fine-tuned (`ft:`) ones
  (it keeps `minLength`/`maxLength`, and raises on a `prefixItems` tuple).
- `anthropic`: `anthropic.lib._parse._transform.transform_schema`, for `anthropic-strict`. The anthropic
  SDK runs it on output formats only: `messages.create(tools=[...])` sends a strict tool's `input_schema`
  unchanged. pydantic-ai runs it on strict Anthropic tools (`AnthropicJsonSchemaTransformer`).
- `pydantic-ai-google`: `pydantic_ai.profiles.google.GoogleJsonSchemaTransformer`, for `gemini`.

A prediction is a list of Changes, each at a JSON pointer relative to the parameters root; a change
`rejects` when the SDK raises instead of rewriting, and is `lossy` when the model loses information
it would otherwise have seen or be held to (a constraint moved into prose, a description dropped, an
optional property forced to be sent).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from schemalint.model import JSON, join_pointer
from schemalint.providers import ANTHROPIC_STRICT_FORMATS, GEMINI, OPENAI_STRICT, OPENAI_STRICT_FORMATS
from schemalint.schema_facts import has_typed_items, is_nullable, regex_is_complex, resolve_local_ref


@dataclass(frozen=True)
class Change:
    pointer: str
    what: str
    lossy: bool = False
    rejects: bool = False
    #: the schema node whose content changes, when it is not `pointer` (a property made required
    #: changes its object's `required`)
    edits: str | None = None

    @property
    def edited(self) -> str:
        return self.pointer if self.edits is None else self.edits


@dataclass(frozen=True)
class SdkModel:
    #: the package the modelled function belongs to
    name: str
    target: str
    function: str
    predict: Callable[[JSON], list[Change]]
    #: the SDK that runs the function on a tool's parameters, when not `name` itself
    caller: str = ""

    @property
    def runs_in(self) -> str:
        return self.caller or self.name


def _walk(
    root: JSON, descend: Callable[[Mapping[str, Any]], Iterator[tuple[str, JSON]]]
) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(pointer, node) for every mapping the SDK visits, outermost first."""
    stack: list[tuple[str, JSON]] = [("", root)]
    seen = 0
    while stack and seen < 100_000:
        pointer, node = stack.pop()
        if not isinstance(node, Mapping):
            continue
        seen += 1
        yield pointer, node
        children = [(join_pointer(pointer, *path.split("\0")), child) for path, child in descend(node)]
        stack.extend(reversed(children))


def _members(node: Mapping[str, Any], *keywords: str) -> Iterator[tuple[str, JSON]]:
    for keyword in keywords:
        value = node.get(keyword)
        if isinstance(value, Mapping) and keyword in ("$defs", "definitions", "properties", "patternProperties"):
            for key, sub in value.items():
                yield f"{keyword}\0{key}", sub
        elif isinstance(value, Mapping):
            yield keyword, value
        elif isinstance(value, list) and keyword in ("anyOf", "oneOf", "allOf", "prefixItems", "items"):
            for index, sub in enumerate(value):
                yield f"{keyword}\0{index}", sub


def _required_changes(node: Mapping[str, Any], pointer: str) -> list[Change]:
    """Both OpenAI strict converters set `required` to every property key, in order."""
    properties = node.get("properties")
    if not isinstance(properties, Mapping) or node.get("required") == list(properties):
        return []
    raw_required = node.get("required")
    required: list[Any] = raw_required if isinstance(raw_required, list) else []
    changes = [
        Change(
            join_pointer(pointer, "properties", key),
            f"makes `{key}` required"
            + ("" if is_nullable(sub) else " without making it nullable (the model must always send a value)"),
            lossy=not is_nullable(sub),
            edits=pointer,
        )
        for key, sub in properties.items()
        if key not in required
    ]
    return changes or [Change(join_pointer(pointer, "required"), "reorders `required` to the property order")]


# ---- openai-agents ensure_strict_json_schema

_AGENTS_REF_SIBLINGS = frozenset(
    {
        "$anchor", "$comment", "$defs", "$schema", "contentEncoding", "contentMediaType", "contentSchema",
        "default", "definitions", "deprecated", "description", "examples", "readOnly", "title", "writeOnly",
    }
)  # fmt: skip


def _agents_descend(node: Mapping[str, Any]) -> Iterator[tuple[str, JSON]]:
    yield from _members(node, "$defs", "definitions", "properties", "anyOf", "oneOf", "allOf")
    if isinstance(node.get("items"), Mapping):
        yield "items", node["items"]


def predict_openai_agents(root: JSON) -> list[Change]:
    if not isinstance(root, Mapping):
        return [Change("", "raises: the schema is not an object", rejects=True)]
    if root == {}:
        return [Change("", "replaces the empty schema with an empty closed object")]
    changes: list[Change] = []
    if isinstance(root.get("anyOf"), list):
        changes.append(Change("", "raises: the root of a strict schema must not use `anyOf`", rejects=True))
    if isinstance(root.get("type"), list) and "object" in root["type"]:
        if root["type"] == ["object"]:
            changes.append(Change("/type", 'turns `type: ["object"]` into `"object"`'))
        else:
            changes.append(Change("/type", "raises: the root must be a non-nullable object", rejects=True))
    for pointer, node in _walk(root, _agents_descend):
        properties = node.get("properties")
        if isinstance(properties, Mapping) and any(not isinstance(s, Mapping) for s in properties.values()):
            changes.append(Change(pointer, "raises: a boolean schema under `properties`", rejects=True))
        if "$ref" in node:
            allowed = _AGENTS_REF_SIBLINGS | ({"$id"} if pointer == "" else set())
            if set(node) - {"$ref"} - allowed:
                bad = ", ".join(sorted(set(node) - {"$ref"} - allowed))
                changes.append(Change(pointer, f"raises: `$ref` beside constraining keywords ({bad})", rejects=True))
                continue
        typ = node.get("type")
        if typ is None and isinstance(node.get("properties"), Mapping):
            typ = "object"
            changes.append(Change(pointer, "adds `type: object`"))
        elif typ is None and node.get("additionalProperties", False) is not False:
            changes.append(Change(pointer, "raises: `additionalProperties` is not false", rejects=True))
        is_object = typ == "object" or (isinstance(typ, list) and "object" in typ)
        if is_object and "additionalProperties" not in node:
            changes.append(Change(pointer, "adds `additionalProperties: false`"))
        elif is_object and node["additionalProperties"] is not False:
            changes.append(Change(pointer, "raises: `additionalProperties` is not false", rejects=True))
        changes.extend(_required_changes(node, pointer))
        if isinstance(node.get("oneOf"), list):
            changes.append(Change(join_pointer(pointer, "oneOf"), "turns `oneOf` into `anyOf`", lossy=True))
        if isinstance(node.get("allOf"), list) and len(node["allOf"]) == 1:
            changes.append(Change(join_pointer(pointer, "allOf"), "merges the single `allOf` entry into its parent"))
        if "default" in node and node["default"] is None:
            changes.append(Change(join_pointer(pointer, "default"), "drops `default: null`"))
        if isinstance(node.get("$ref"), str) and len(node) > 1:
            if _circular_ref_chain(root, node["$ref"]):
                changes.append(Change(pointer, "raises: the `$ref` chain it inlines is circular", rejects=True))
            else:
                changes.append(Change(pointer, f"inlines `{node['$ref']}` (a copy replaces the reference)"))
    return changes


def _circular_ref_chain(root: Mapping[str, Any], ref: str) -> bool:
    """Whether following `$ref`s from `ref` (through schemas that are only a reference) comes back around.

    (A self-reference with siblings is rewritten in place by the SDK, order-dependently: not modelled.)"""
    seen: set[str] = set()
    while ref.startswith("#") and ref not in seen:
        seen.add(ref)
        try:
            target = resolve_local_ref(root, ref)
        except KeyError:
            return False
        if not isinstance(target, Mapping) or not isinstance(target.get("$ref"), str) or len(target) > 1:
            return False
        ref = target["$ref"]
    return ref in seen


# ---- pydantic-ai OpenAIJsonSchemaTransformer(strict=True)

_PAI_STRICT_INCOMPATIBLE = (
    "patternProperties", "unevaluatedProperties", "propertyNames", "minProperties",
    "maxProperties", "unevaluatedItems", "contains", "minContains", "maxContains", "uniqueItems",
)  # fmt: skip


def _pydantic_ai_descend(node: Mapping[str, Any]) -> Iterator[tuple[str, JSON]]:
    """The base JsonSchemaTransformer's walk: object keywords only under `type: object`, and so on."""
    typ = node.get("type")
    if typ == "object":
        yield from _members(node, "properties", "patternProperties")
        if isinstance(node.get("additionalProperties"), Mapping):
            yield "additionalProperties", node["additionalProperties"]
    elif typ == "array":
        yield from _members(node, "prefixItems", "items")
    yield from _members(node, "allOf", "anyOf", "oneOf")


def _pydantic_ai_nodes(root: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    body = {k: v for k, v in root.items() if k != "$defs"}
    yield from _walk(body, _pydantic_ai_descend)
    defs = root.get("$defs")
    if isinstance(defs, Mapping):
        for name, definition in defs.items():
            for pointer, node in _walk(definition, _pydantic_ai_descend):
                yield join_pointer("/$defs", name) + pointer, node


def _single_member_union(node: Mapping[str, Any]) -> str | None:
    if node.get("type") is not None:
        return None
    for kind in ("allOf", "anyOf", "oneOf"):
        members = node.get(kind)
        if isinstance(members, list) and len(members) == 1 and isinstance(members[0], Mapping):
            return kind
    return None


def _pydantic_ai_predict(
    root: JSON, dropped: tuple[tuple[str, bool], ...], per_node: Callable[[str, Mapping[str, Any]], list[Change]]
) -> list[Change]:
    """The walk both pydantic-ai transformers share: one-member unions collapse, some keys are dropped."""
    if not isinstance(root, Mapping):
        return [Change("", "raises: the schema is not an object", rejects=True)]
    changes: list[Change] = []
    for pointer, node in _pydantic_ai_nodes(root):
        kind = _single_member_union(node)
        if kind:
            changes.append(Change(join_pointer(pointer, kind), f"replaces the one-member `{kind}` by its member"))
        for key, lossy in dropped:
            if key in node:
                changes.append(Change(join_pointer(pointer, key), f"drops `{key}`", lossy=lossy))
        changes.extend(per_node(pointer, node))
    return changes


def predict_pydantic_ai_openai(root: JSON) -> list[Change]:
    changes = _pydantic_ai_predict(root, (("title", False), ("$schema", False), ("discriminator", False)), _openai_node)
    if isinstance(root, Mapping) and isinstance(root.get("$ref"), str):
        changes.append(Change("", "replaces the root `$ref` by its definition"))
    return changes


def _openai_node(pointer: str, node: Mapping[str, Any]) -> list[Change]:
    changes: list[Change] = []
    if "default" in node:
        changes.append(Change(join_pointer(pointer, "default"), "drops `default`", lossy=True))
    if isinstance(node.get("$ref"), str) and len(set(node) - {"title", "$schema", "discriminator", "default"}) > 1:
        changes.append(Change(pointer, "wraps `$ref` in `anyOf` to keep its sibling keywords"))
    moved = [k for k in _PAI_STRICT_INCOMPATIBLE if k in node]
    if isinstance(node.get("format"), str) and node["format"] and node["format"] not in OPENAI_STRICT_FORMATS:
        moved.append("format")
    if isinstance(node.get("pattern"), str) and regex_is_complex(node["pattern"]):
        moved.append("pattern")
    if moved:
        listed = ", ".join(f"`{k}`" for k in moved)
        changes.append(Change(pointer, f"moves {listed} into the description (no longer enforced)", lossy=True))
    if "oneOf" in node:
        changes.append(Change(join_pointer(pointer, "oneOf"), "turns `oneOf` into `anyOf`", lossy=True))
    if node.get("type") == "object":
        if "properties" not in node:
            changes.append(Change(pointer, "adds `properties: {}`"))
        if node.get("additionalProperties") is not False:
            changes.append(Change(pointer, "sets `additionalProperties: false`", lossy="additionalProperties" in node))
        changes.extend(_required_changes(node, pointer))
    if node.get("type") == "array" and _is_tuple(node):
        changes.append(Change(pointer, "raises: a `prefixItems` tuple in strict mode", rejects=True))
    elif node.get("type") == "array" and not has_typed_items(node):
        changes.append(Change(pointer, "raises: strict mode requires typed array `items`", rejects=True))
    return changes


def _is_tuple(node: Mapping[str, Any]) -> bool:
    """A `prefixItems` array that `_OpenAIJsonSchemaTransformer` refuses (a one-item tuple of at most one
    item it turns into `items` instead)."""
    prefix = node.get("prefixItems")
    if not isinstance(prefix, list) or not prefix:
        return False
    max_items = node.get("maxItems")
    return not (len(prefix) == 1 and type(max_items) is int and max_items == 1)


# ---- anthropic transform_schema

_ANTHROPIC_HANDLED = frozenset({"$defs", "$ref", "type", "anyOf", "oneOf", "allOf", "description", "title"})
_ANTHROPIC_TYPES = frozenset({"object", "array", "string", "integer", "number", "boolean", "null"})


def _is_primitive(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _anthropic_node(node: Mapping[str, Any], pointer: str, changes: list[Change]) -> None:
    """One node of transform_schema, recursing as it does; appends predicted changes."""
    if isinstance(node.get("$defs"), Mapping):
        for name, sub in node["$defs"].items():
            _anthropic_child(sub, join_pointer(pointer, "$defs", name), changes)
    if "$ref" in node:
        dropped = sorted(set(node) - {"$ref", "$defs"})
        if dropped:
            listed = ", ".join(f"`{k}`" for k in dropped)
            changes.append(Change(pointer, f"drops {listed} beside `$ref`", lossy=True))
        return
    typ = node.get("type")
    enum = node.get("enum")
    literal_enum = isinstance(enum, list) and bool(enum) and all(_is_primitive(v) for v in enum)
    literal_const = "const" in node and _is_primitive(node["const"])
    has_literals = literal_enum or literal_const
    union = next((k for k in ("anyOf", "oneOf", "allOf") if isinstance(node.get(k), list)), None)
    if has_literals and typ is not None:
        changes.append(Change(join_pointer(pointer, "type"), "drops `type` beside `enum`/`const`"))
        typ = None
    leftovers = [k for k in node if k not in _ANTHROPIC_HANDLED]
    leftovers = [k for k in leftovers if not ((k == "enum" and literal_enum) or (k == "const" and literal_const))]
    if union:
        if node.get("type") is not None and not has_literals:
            changes.append(Change(join_pointer(pointer, "type"), f"drops `type` beside `{union}`", lossy=True))
        if union == "oneOf":
            changes.append(Change(join_pointer(pointer, "oneOf"), "turns `oneOf` into `anyOf`", lossy=True))
        for other in ("anyOf", "oneOf", "allOf"):
            if other != union and other in node:
                changes.append(Change(join_pointer(pointer, other), f"drops `{other}` beside `{union}`", lossy=True))
        for index, sub in enumerate(node[union]):
            _anthropic_child(sub, join_pointer(pointer, union, index), changes)
    elif not has_literals:
        if typ is None:
            changes.append(Change(pointer, "raises: a schema without `type`, `anyOf` or literal values", rejects=True))
            return
        if not isinstance(typ, str) or typ not in _ANTHROPIC_TYPES:
            changes.append(Change(join_pointer(pointer, "type"), f"raises on `type: {json.dumps(typ)}`", rejects=True))
            return
    handled_here: set[str] = set()
    if typ == "object":  # `type` is None when literal values stand for it
        handled_here |= {"properties", "additionalProperties", "required"}
        properties = node.get("properties", {})
        if "properties" not in node:
            changes.append(Change(pointer, "adds `properties: {}`"))
        if node.get("additionalProperties") is not False:
            changes.append(Change(pointer, "sets `additionalProperties: false`", lossy="additionalProperties" in node))
        if isinstance(properties, Mapping):
            for key, sub in properties.items():
                _anthropic_child(sub, join_pointer(pointer, "properties", key), changes)
    elif typ == "string":
        fmt = node.get("format")
        if not fmt or fmt in ANTHROPIC_STRICT_FORMATS:
            handled_here.add("format")
    elif typ == "array":
        handled_here |= {"items", "minItems"}
        if isinstance(node.get("items"), Mapping):
            _anthropic_child(node["items"], join_pointer(pointer, "items"), changes)
        if "minItems" in node and node["minItems"] not in (0, 1):
            handled_here.discard("minItems")
    moved = [k for k in leftovers if k not in handled_here]
    if moved:
        listed = ", ".join(f"`{k}`" for k in moved)
        changes.append(Change(pointer, f"moves {listed} into the description (no longer enforced)", lossy=True))


def _anthropic_child(sub: JSON, pointer: str, changes: list[Change]) -> None:
    if not isinstance(sub, Mapping):
        changes.append(Change(pointer, "raises: a boolean schema", rejects=True))
        return
    _anthropic_node(sub, pointer, changes)


def predict_anthropic(root: JSON) -> list[Change]:
    changes: list[Change] = []
    _anthropic_child(root, "", changes)
    return changes


# ---- pydantic-ai GoogleJsonSchemaTransformer


def predict_pydantic_ai_google(root: JSON) -> list[Change]:
    dropped = (("$schema", False), ("discriminator", False), ("examples", True), ("title", False))
    return _pydantic_ai_predict(root, dropped, _google_node)


def _google_node(pointer: str, node: Mapping[str, Any]) -> list[Change]:
    changes: list[Change] = []
    if node.get("const") is not None:
        changes.append(Change(join_pointer(pointer, "const"), "turns `const` into a one-value `enum`"))
    if node.get("type") == "string" and node.get("format"):
        changes.append(Change(join_pointer(pointer, "format"), "moves `format` into the description", lossy=True))
    for key in ("exclusiveMinimum", "exclusiveMaximum"):
        if key in node:
            changes.append(Change(join_pointer(pointer, key), f"drops `{key}` (the bound is lost)", lossy=True))
    return changes


SDK_MODELS: tuple[SdkModel, ...] = (
    SdkModel("openai-agents", OPENAI_STRICT, "ensure_strict_json_schema", predict_openai_agents),
    SdkModel("pydantic-ai", OPENAI_STRICT, "_OpenAIJsonSchemaTransformer(strict=True)", predict_pydantic_ai_openai),
    SdkModel("anthropic", "anthropic-strict", "transform_schema", predict_anthropic, caller="pydantic-ai"),
    SdkModel("pydantic-ai", GEMINI, "GoogleJsonSchemaTransformer", predict_pydantic_ai_google),
)


def outcome(changes: list[Change]) -> str:
    """`rejected`, `rewritten` or `unchanged`."""
    if any(c.rejects for c in changes):
        return "rejected"
    return "rewritten" if changes else "unchanged"
