from __future__ import annotations

import re
from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.lazy_pattern import LazyPattern
from schemalint.model import SchemaNode, Severity
from schemalint.rules.base import LintContext, NodeRule, Nodes
from schemalint.text import named_property

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
    No automatic fix: only the owner knows the type.
    """

    code = "SL312"
    slug = "missing-type"
    severity = Severity.WARNING
    summary = "a property has no type (and no enum/const/$ref)"
    nodes = Nodes.NAMED_PROPERTIES

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        prop = named_property(node)
        if prop is None:
            return
        if not TYPE_GIVING.isdisjoint(prop.schema) or _ANY_VALUE.search(prop.description):
            return
        yield Finding(
            f"property `{node.property_name}` has no `type`; the model may send any JSON value",
            node.pointer,
            key=True,
            data={"parameter": node.property_name},
        )
