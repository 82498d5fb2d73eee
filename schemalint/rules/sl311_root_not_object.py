from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import JSON_SCHEMA_TYPES, Severity, Tool, is_mapping, schema_types
from schemalint.rules.base import LintContext, ToolRule


class RootNotObject(ToolRule):
    """
    ## What it does
    Flags a tool whose parameters (input schema) root is not `"type": "object"`: a missing type, a
    string or array root, or a root union.

    ## Why is this bad?
    Arguments are passed as a JSON object of named values. OpenAI, Anthropic and MCP require an
    object root, and OpenAI rejects top-level `anyOf`/`oneOf`/`enum`/`not`.

    ## Example
    ```json
    {"name": "set_volume", "parameters": {"type": "integer"}}
    ```

    ## Use instead
    ```json
    {"name": "set_volume", "parameters": {"type": "object",
      "properties": {"volume_pct": {"type": "integer", "minimum": 0, "maximum": 100}},
      "required": ["volume_pct"], "additionalProperties": false}}
    ```

    ## Trade-off
    A root type that is not JSON Schema at all (`"dict"`) is left to SL309, which names the right
    spelling. A tool with no parameters at all is fine.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.ERROR
    summary = "the parameters root is not type: object"

    def check(self, tool: Tool, context: LintContext) -> Iterable[Finding]:
        if tool.parameters_pointer is None:
            return
        root = tool.parameters
        if not is_mapping(root):
            yield Finding(
                f"the parameters of `{tool.display_name}` must be a JSON object schema", tool.parameters_pointer
            )
            return
        types = schema_types(root)
        if "object" in types:
            return
        if types and not types <= JSON_SCHEMA_TYPES:
            return  # SL309 names the invalid type
        found = f"`type: {root['type']}`" if types else "no `type`"
        yield Finding(
            f'the parameters root of `{tool.display_name}` has {found}; it must be `"type": "object"`',
            tool.parameters_pointer,
            data={"type": root.get("type")},
        )
