from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import SchemaNode, Severity
from schemalint.rules.base import LintContext, NodeRule, rule_options


@rule_options
class Options:
    max_depth: int = 2
    """How many object/array levels below the parameters object are allowed."""


class NestingTooDeep(NodeRule):
    """
    ## What it does
    Flags a property nested deeper than `max-depth` object or array levels below the parameters
    object. A top-level parameter is level 1; a property of an object parameter is level 2.

    ## Why is this bad?
    Models fill deep structures in wrongly: they drop inner required fields, flatten levels, or put
    values one level too high. Flat parameters are filled far more reliably, and strict modes cap
    nesting too.

    ## Example
    ```json
    {"type": "object", "properties": {"order": {"type": "object", "properties": {
      "shipping": {"type": "object", "properties": {"address": {"type": "object",
        "properties": {"city": {"type": "string"}}}}}}}}}
    ```

    ## Use instead
    Flatten: `shipping_city`, `shipping_postcode` as top-level parameters, or split the tool.
    ```json
    {"type": "object", "properties": {"order_id": {"type": "string"},
      "shipping_city": {"type": "string"}, "shipping_postcode": {"type": "string"}}}
    ```

    ## Trade-off
    Reported once, at the first node past the limit on each branch, so a deep subtree gives one
    finding rather than one per descendant.

    ## Fix safety
    No automatic fix: flattening changes the tool's interface.
    """

    severity = Severity.WARNING
    summary = "objects/arrays nested deeper than max-depth below the parameters object"
    Options = Options

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        limit = self.options.max_depth
        if node.depth <= limit or (node.parent is not None and node.parent.depth > limit):
            return
        if node.via not in ("properties", "items", "patternProperties", "prefixItems"):
            return
        yield Finding(
            f"`{node.property_name or node.via}` is nested {node.depth} levels deep (max-depth is {limit}); "
            "flatten it into top-level parameters",
            node.pointer,
            key=node.property_name is not None,
            data={"depth": node.depth, "max_depth": limit},
        )
