from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from schemalint.diagnostics import Finding, Fix, PatchOperation
from schemalint.model import SchemaNode, Severity, is_mapping, join_pointer, nullable_union_branch
from schemalint.rules.base import LintContext, NodeRule, Nodes

COMPOSITION_KEYWORDS = ("oneOf", "anyOf", "allOf", "not")
_COMPOSITION = frozenset(COMPOSITION_KEYWORDS)


class CompositionKeyword(NodeRule):
    """
    ## What it does
    Flags `oneOf`, `anyOf`, `allOf` and `not` in a parameter schema. When the union is only
    "a type or null", the message suggests the flat form `type: [T, "null"]` (for tools sent only to Gemini,
    `nullable: true`) and offers a fix.

    ## Why is this bad?
    Models fill unions badly: they mix fields of several branches or pick the wrong one. OpenAI
    strict mode rejects `oneOf`, `allOf` and `not`; Gemini rejects `oneOf`; SDKs rewrite them
    silently. A nullable union written as `anyOf` is the most common case and has a plain
    equivalent every provider understands.

    ## Example
    ```json
    {"note": {"anyOf": [{"type": "string"}, {"type": "null"}]}}
    ```

    ## Use instead
    ```json
    {"note": {"type": ["string", "null"]}}
    ```
    For real alternatives, split the tool in two, or use one object with an `enum` discriminator
    and flat optional fields.

    ## Trade-off
    Every use is reported, including unions that are the honest shape of the data: the rule is
    about what models fill reliably, not about what JSON Schema can express. Ignore it per file
    when a union is deliberate.

    ## Fix safety
    The nullable-union rewrite is safe (same set of valid values) and offered only when the
    non-null branch is a plain inline schema whose keywords do not clash with the parent's.
    """

    severity = Severity.WARNING
    summary = 'oneOf/anyOf/allOf/not; a nullable union gets the hint type: [T, "null"]'
    fixable = ("safe",)
    nodes = Nodes.OBJECTS
    keywords = _COMPOSITION

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        schema = node.schema
        nullable = nullable_union_branch(schema)
        for keyword in COMPOSITION_KEYWORDS:
            if keyword not in schema:
                continue
            where = f"`{node.property_name}`" if node.property_name else "this schema"
            if nullable is not None and nullable[0] == keyword:
                # Gemini spells nullability `nullable: true`; every other target (and MCP forwarding) takes a type list
                gemini = context.targets(node.tool) == {"gemini"}
                hint = "`nullable: true`" if gemini else '`type: [T, "null"]`'
                yield Finding(
                    f"{where} uses `{keyword}` only to allow null; write {hint} instead",
                    join_pointer(node.pointer, keyword),
                    key=True,
                    data={"keyword": keyword, "nullable": True},
                    fix=None if gemini else _flatten_nullable(node.pointer, schema, keyword, nullable[1]),
                )
            else:
                yield Finding(
                    f"{where} uses `{keyword}`; models fill unions unreliably and strict modes reject some: "
                    "split the tool or use an enum discriminator with flat fields",
                    join_pointer(node.pointer, keyword),
                    key=True,
                    data={"keyword": keyword, "nullable": False},
                )


def _flatten_nullable(pointer: str, schema: Mapping[str, Any], keyword: str, branch: Any) -> Fix | None:
    if not is_mapping(branch) or "$ref" in branch or not isinstance(branch.get("type"), str):
        return None
    if any(key in schema for key in branch if key != keyword):
        return None
    operations = [PatchOperation("remove", join_pointer(pointer, keyword))]
    for key, value in branch.items():
        new_value = [value, "null"] if key == "type" else value
        operations.append(PatchOperation("add", join_pointer(pointer, key), new_value))
    return Fix(f'replace `{keyword}` with `type: ["{branch["type"]}", "null"]`', tuple(operations), safe=True)
