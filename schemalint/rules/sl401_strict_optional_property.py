from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from schemalint.diagnostics import Finding, Fix, PatchOperation
from schemalint.model import JSON, SchemaNode, Severity, is_mapping, join_pointer, schema_types
from schemalint.providers import OPENAI_STRICT, label
from schemalint.rules.base import LintContext, NodeRule, Nodes
from schemalint.schema_facts import is_nullable
from schemalint.targets import finding_severity


class StrictOptionalProperty(NodeRule):
    """
    ## What it does
    Under OpenAI strict mode (`openai-strict`: `"strict": true`, or an OpenAI Responses function
    tool that does not say `"strict": false`), flags every property that is not listed in its
    object's `required`.

    ## Why is this bad?
    OpenAI strict mode requires every key of `properties` to be in `required`; an optional property
    makes the API reject the tool (or, on the Responses API, silently fall back to non-strict mode).
    SDKs that "fix" it for you (openai-agents, pydantic-ai) make the property required *without*
    making it nullable, so the model is forced to invent a value for something that was optional.
    The way to say "optional" in strict mode is a required property that admits `null`.

    ## Example
    ```json
    {"name": "get_weather", "strict": true, "parameters": {
      "type": "object", "additionalProperties": false, "required": ["city"],
      "properties": {"city": {"type": "string"}, "note": {"type": "string"}}}}
    ```

    ## Use instead
    ```json
    {"name": "get_weather", "strict": true, "parameters": {
      "type": "object", "additionalProperties": false, "required": ["city", "note"],
      "properties": {"city": {"type": "string"}, "note": {"type": ["string", "null"]}}}}
    ```

    ## Options
    None.

    ## Trade-off
    Anthropic strict tool use allows optional properties, so this rule only speaks for OpenAI
    strict mode. On an MCP tool checked against OpenAI strict the finding is a warning.

    ## Fix safety
    Unsafe: the fix adds the property to `required` and makes its type nullable (`type: [T, "null"]`,
    `null` added to an `enum`, or `anyOf: [..., {"type": "null"}]` for `$ref`s), which changes what
    the model sends: `null` instead of leaving the key out; the code receiving the call must treat
    `null` as "not given". When the object has no `required` list yet, each fix creates one; apply
    the fixes one at a time (re-check after each).
    """

    severity = Severity.ERROR
    summary = "OpenAI strict mode: a property is not in `required` (optional must be nullable instead)"
    fixable = ("unsafe",)
    nodes = Nodes.PROPERTIES
    targets = frozenset({OPENAI_STRICT})

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        parent, name = node.parent, node.property_name
        assert parent is not None and name is not None  # a property has both
        required = parent.schema.get("required") if is_mapping(parent.schema) else None
        if isinstance(required, list) and name in required:
            return
        nullable_text, nullable_ops = _make_nullable(node.schema, node.pointer)
        required_path = join_pointer(parent.pointer, "required")
        required_op = (
            PatchOperation("add", join_pointer(required_path, "-"), name)
            if isinstance(required, list)
            else PatchOperation("add", required_path, [name])
        )
        advice = f"make `{name}` required" + (f" and {nullable_text}" if nullable_text else " (it already admits null)")
        yield Finding(
            f"{label(OPENAI_STRICT)} requires every property in `required`; `{name}` is optional: {advice}",
            node.pointer,
            key=True,
            severity=finding_severity(node.tool, OPENAI_STRICT, self.severity),
            data={"target": OPENAI_STRICT, "property": name},
            fix=Fix(f"make `{name}` required and nullable", (required_op, *nullable_ops), safe=False),
        )


def _make_nullable(schema: JSON, pointer: str) -> tuple[str, tuple[PatchOperation, ...]]:
    """How to let `schema` admit null: advice text and patch operations (none when it already does)."""
    if not is_mapping(schema) or is_nullable(schema):
        return "", ()
    raw_type = schema.get("type")
    enum_ops: tuple[PatchOperation, ...] = ()
    if isinstance(schema.get("enum"), list):
        enum_ops = (PatchOperation("add", join_pointer(pointer, "enum", "-"), None),)
    if isinstance(raw_type, str):
        nullable = [raw_type, "NULL" if raw_type.isupper() else "null"]
        text = f"`type: {json.dumps(nullable)}`" + (" with `null` in its `enum`" if enum_ops else "")
        return text, (PatchOperation("replace", join_pointer(pointer, "type"), nullable), *enum_ops)
    if isinstance(raw_type, list) and schema_types(schema):
        nullable = [*raw_type, "null"]
        text = f"`type: {json.dumps(nullable)}`" + (" with `null` in its `enum`" if enum_ops else "")
        return text, (PatchOperation("add", join_pointer(pointer, "type", "-"), "null"), *enum_ops)
    if isinstance(schema.get("anyOf"), list):
        return '`{"type": "null"}` added to its `anyOf`', (
            PatchOperation("add", join_pointer(pointer, "anyOf", "-"), {"type": "null"}),
        )
    if enum_ops and "type" not in schema:
        return "`null` added to its `enum`", enum_ops
    annotations = {k: v for k, v in schema.items() if k in ("description", "title")}
    inner: dict[str, Any] = {k: v for k, v in schema.items() if k not in annotations}
    wrapped = {"anyOf": [inner, {"type": "null"}], **annotations}
    return '`anyOf: [<its schema>, {"type": "null"}]`', (PatchOperation("replace", pointer, wrapped),)
