from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import SchemaNode, Severity
from schemalint.rules._provider_support import name_finding
from schemalint.rules.base import LintContext, NodeRule, Nodes


class InvalidPropertyName(NodeRule):
    """
    ## What it does
    Checks every property key of the parameters schema against the rule of each target:

    | target | allowed keys | length | severity |
    |---|---|---|---|
    | Anthropic | `^[a-zA-Z0-9_.-]+$` | 1-64 | error (top-level keys), warning (nested keys) |
    | Gemini | starts with a letter or `_`; then `[a-zA-Z0-9_]` | 1-64 | warning |

    Anthropic reportedly checks only top-level keys, so nested keys get warnings; Gemini's rule is
    documented by its SDK but its enforcement is uncertain.

    OpenAI and MCP document no rule for property keys.

    ## Why is this bad?
    Anthropic rejects the request (`input_schema: property keys should match pattern ...`), and
    keys with spaces, `$` or non-ASCII letters are also harder for the model to reproduce exactly.

    ## Example
    ```json
    {"name": "get_order", "description": "...",
     "input_schema": {"type": "object", "properties": {"order id": {"type": "string"}}}}
    ```

    ## Use instead
    ```json
    {"name": "get_order", "description": "...",
     "input_schema": {"type": "object", "properties": {"order_id": {"type": "string"}}}}
    ```

    ## Options
    None. Limits (`max-property-name-length`) can be changed per target with `target-limits`.

    ## Trade-off
    On an MCP tool, provider objections are warnings (the tool may never reach that provider).

    ## Fix safety
    No automatic fix: renaming a parameter changes the tool's interface and every caller.
    """

    severity = Severity.ERROR
    summary = "a property key breaks a target's rule for parameter names"
    nodes = Nodes.PROPERTIES

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        top_level = node.parent is not None and node.parent.is_root
        subject = "property-name" if top_level else "nested-property-name"
        finding = name_finding(
            "property name", node.property_name or "", node.tool, context, subject, node.pointer, allow_dash=False
        )
        if finding is not None:
            finding.key = True
            yield finding
