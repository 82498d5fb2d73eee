from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import JSON, SchemaNode, Severity, schema_types
from schemalint.rules.base import LintContext, NodeRule, Nodes, rule_options, vocabulary
from schemalint.text import (
    EXAMPLE_OR_FORMAT,
    description_of,
    is_constrained_string,
    last_word_in,
)

IDENTIFIER_WORDS = tuple("id ids sku skus uuid uuids guid guids isbn iban ean upc".split())


@rule_options
class Options:
    extend_identifier_words: tuple[str, ...] = ()
    """Extra final name words that mark an identifier (e.g. `ticket`, `pnr`)."""


def _identifier_strings(node: SchemaNode) -> JSON:
    """The string schema holding the identifier: the property itself, or its array's items."""
    schema = node.schema
    if "array" in node.types and isinstance(schema.get("items"), dict):
        return schema["items"]
    return schema


class IdentifierWithoutFormat(NodeRule):
    """
    ## What it does
    Flags an identifier-like string parameter (`order_id`, `orderId`, `sku`, `uuid`, an array of
    `*_ids`) with no `pattern`, `format`, `enum`, `const`, `examples`, and no example or format
    in its description.

    ## Why is this bad?
    Without a shape, the model cannot tell a real id from one it made up, and it will happily
    invent `12345` or pass a name where an id belongs. A pattern or an example ("e.g. A1024")
    lets it, and the validator, reject a wrong value.

    ## Example
    ```json
    {"order_id": {"type": "string", "description": "The order id."}}
    ```

    ## Use instead
    ```json
    {"order_id": {"type": "string", "pattern": "^[A-Z][0-9]{4,10}$",
      "description": "Order number from the user's message, e.g. A1024. Never invent one."}}
    ```

    ## Trade-off
    Only the last word of the name counts (`order_id` yes, `id_type` no). Integer ids are not
    flagged: their shape is already fixed.

    ## Fix safety
    No automatic fix: only the owner knows the id's shape.
    """

    severity = Severity.INFO
    summary = "an id-like string parameter has no pattern, format or example"
    nodes = Nodes.NAMED_PROPERTIES
    types = frozenset({"string", "array"})  # an id string, or an array of them
    Options = Options

    identifier_words = vocabulary(IDENTIFIER_WORDS, "extend_identifier_words")

    def applies_to_name(self, name: str) -> bool:
        return last_word_in(name, self.identifier_words)

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        strings = _identifier_strings(node)
        if "string" not in schema_types(strings):
            return
        if is_constrained_string(strings) or "examples" in strings or "example" in strings:
            return
        if EXAMPLE_OR_FORMAT.search(node.description + " " + description_of(strings)):
            return
        yield Finding(
            f"identifier `{node.property_name}` has no pattern, format or example; give its shape "
            '(e.g. `"pattern": "^[A-Z][0-9]{4,10}$"` or "e.g. A1024" in the description)',
            node.pointer,
            key=True,
            data={"parameter": node.property_name},
        )
