from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import SchemaNode, Severity
from schemalint.rules.base import LintContext, NodeRule, Nodes


class MissingParameterDescription(NodeRule):
    """
    ## What it does
    Flags a property (at any depth) that has no `description`, or an empty one. A property whose
    schema is only a `$ref` is skipped: the description belongs on the referenced definition.

    ## Why is this bad?
    The model fills parameters from their names and descriptions alone. Without a description it
    has to guess the format, the unit, where the value comes from, and whether it may invent one.

    ## Example
    ```json
    {"type": "object", "properties": {"order_id": {"type": "string"}}}
    ```

    ## Use instead
    ```json
    {"type": "object", "properties": {"order_id": {"type": "string",
      "description": "Order number from the user's message, e.g. A1024. Never invent one."}}}
    ```

    ## Options
    None.

    ## Trade-off
    `title` does not count as a description: generators derive it from the property name
    (`order_id` -> "Order Id"), so it adds nothing the name did not say.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.WARNING
    summary = "a parameter has no description"
    nodes = Nodes.NAMED_PROPERTIES

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        if "$ref" in node.schema or node.description.strip():
            return
        yield Finding(
            f"parameter `{node.property_name}` has no description; say what it holds, its format and where the "
            "value comes from",
            node.pointer,
            key=True,
            data={"parameter": node.property_name},
        )
