from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding, Fix, PatchOperation
from schemalint.model import SchemaNode, Severity, is_mapping, is_object_schema, join_pointer
from schemalint.rules.base import LintContext, NodeRule, Nodes

KEYWORD = "additionalProperties"


class AdditionalPropertiesNotFalse(NodeRule):
    """
    ## What it does
    Flags an object schema without `additionalProperties: false`: the parameters object itself
    and every nested object. A warning, an error for tools checked against a strict target
    (`openai-strict`, `anthropic-strict`), where the provider rejects the schema.

    ## Why is this bad?
    Without it the model may invent extra arguments (`{"city": "Paris", "units": "metric"}` when
    there is no `units`), which your code then silently ignores or crashes on. OpenAI and
    Anthropic strict modes require `false` on every object.

    ## Example
    ```json
    {"type": "object", "properties": {"city": {"type": "string"}}}
    ```

    ## Use instead
    ```json
    {"type": "object", "properties": {"city": {"type": "string"}}, "additionalProperties": false}
    ```

    ## Trade-off
    An object whose `additionalProperties` is a schema is a deliberate map (`dict[str, int]`) and
    is reported only under strict targets. A format with no place for the keyword (Docker's MCP
    catalog lists `arguments`; schemalint builds the object) is not asked for it. Gemini was once
    seen rejecting the keyword; the portable, documented choice wins here (see DESIGN.md), and no
    other rule asks to remove it.

    ## Fix safety
    Safe: adds `"additionalProperties": false`. Calls that relied on extra keys stop validating,
    which is the point of the rule.
    """

    severity = Severity.WARNING
    summary = "an object schema lacks additionalProperties: false (error under strict)"
    fixable = ("safe",)
    nodes = Nodes.OBJECTS
    types = frozenset({"object"})
    keywords = frozenset({"properties"})  # an object schema may leave out `type`

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        schema = node.schema
        if ("object" not in node.types and not is_object_schema(schema)) or not node.tool.can_hold(KEYWORD):
            return
        value = schema.get(KEYWORD, True)
        if value is False:
            return
        strict = any(t.endswith("-strict") for t in context.targets(node.tool))  # a strict variant
        if is_mapping(value) and not strict:
            return
        where = f"object `{node.property_name}`" if node.property_name else "the parameters object"
        if node.parent is not None and node.property_name is None:
            where = "this object"
        yield Finding(
            f"{where} does not set `additionalProperties: false`; the model may invent extra arguments"
            + (" (required by strict mode)" if strict else ""),
            node.pointer,
            key=node.property_name is not None,
            severity=Severity.ERROR if strict else None,
            data={"strict": strict},
            fix=Fix(
                "add `additionalProperties: false`",
                (PatchOperation("add", join_pointer(node.pointer, KEYWORD), False),),
            ),
        )
