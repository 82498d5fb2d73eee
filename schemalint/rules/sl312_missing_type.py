from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from schemalint.diagnostics import Finding, Fix, PatchOperation
from schemalint.lazy_pattern import LazyPattern
from schemalint.model import SchemaNode, Severity, join_pointer
from schemalint.rules.base import LintContext, NodeRule, Nodes

#: Keywords that give a property its type when `type` itself is absent.
TYPE_GIVING = frozenset(("type", "enum", "const", "$ref", "anyOf", "oneOf", "allOf"))
#: A description that says any value is accepted makes the missing type deliberate.
_ANY_VALUE = LazyPattern(r"\bany\s+(?:json\s+)?(?:value|type)\b|任意(?:类型|值)", re.IGNORECASE)


class MissingType(NodeRule):
    """
    ## What it does
    Flags a property with no `type` and nothing else that fixes one (`enum`, `const`, `$ref`,
    `anyOf`/`oneOf`/`allOf`).

    ## Why is this bad?
    An untyped property accepts anything: the model may send a string where you parse a number,
    or an object where you expect a list. Strict modes reject untyped properties outright.

    ## Example
    ```json
    {"type": "object", "properties": {"quantity": {"description": "How many to order."}}}
    ```

    ## Use instead
    ```json
    {"type": "object", "properties": {"quantity": {"type": "integer", "minimum": 1}}}
    ```

    ## Options
    None.

    ## Trade-off
    A property whose description says it accepts any value ("Any JSON value is accepted") is
    taken at its word; an explicit union such as `"type": ["string", "number", "boolean",
    "null"]` says the same to strict modes.

    ## Fix safety
    Safe when the `default` (with any `examples`) makes the type certain: a string default gives
    `"type": "string"`, a boolean `"boolean"`, a list `"array"`, an object `"object"`, a
    fractional number `"number"`. Every value the schema shows keeps validating. A whole number
    (`10`: `integer` or `number`?), a `null` default, values of different types or no default
    at all get no fix: only the owner knows the type. (`enum` and `const` already give the
    type, so the rule does not report them.)
    """

    severity = Severity.WARNING
    summary = "a property has no type (and no enum/const/$ref)"
    fixable = ("safe",)
    nodes = Nodes.NAMED_PROPERTIES

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        if not TYPE_GIVING.isdisjoint(node.schema) or _ANY_VALUE.search(node.description):
            return
        yield Finding(
            f"property `{node.property_name}` has no `type`; the model may send any JSON value",
            node.pointer,
            key=True,
            data={"parameter": node.property_name},
            fix=_type_from_values(node.pointer, node.schema),
        )


def _certain_type(value: Any) -> str | None:
    """The one JSON Schema type `value` tells (None for a whole number or null, which leave a choice)."""
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, list):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, float) and not value.is_integer():
        return "number"
    return None


def _type_from_values(pointer: str, schema: Mapping[str, Any]) -> Fix | None:
    """Add the type the `default` and `examples` agree on, when they make it certain."""
    if "default" not in schema:
        return None
    examples = schema.get("examples")
    values = [schema["default"], *(examples if isinstance(examples, list) else ())]
    types = {_certain_type(value) for value in values}
    if len(types) != 1 or None in types:
        return None
    (type_name,) = types
    return Fix(
        f'add `"type": "{type_name}"` (from the default)',
        (PatchOperation("add", join_pointer(pointer, "type"), type_name),),
    )
