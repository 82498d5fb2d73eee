from __future__ import annotations

import re
from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.lazy_pattern import LazyPattern
from schemalint.model import SchemaNode, Severity
from schemalint.rules.base import LintContext, NodeRule, Nodes, rule_options, vocabulary
from schemalint.text import is_constrained_string, last_word_in, lists_values

ENUM_WORDS = tuple(
    """
    status state type kind mode sort order direction level priority severity currency category unit units
    format fmt outfmt gender visibility role tier plan frequency granularity interval period method
    action operation op
    """.split()
)
#: values listed beside an identifier are special ones (`'none'` or `'any'` besides a user id)
_IDENTIFIER_WORDS = frozenset(("id", "ids"))
#: a MIME (media, content) type: an open registry, not a closed set the schema could list
_MEDIA_TYPE = LazyPattern(r"\b(?:mime|media|content)[ _-]?type", re.IGNORECASE)


@rule_options
class Options:
    enum_words: tuple[str, ...] = ENUM_WORDS
    """Final name words that usually name a closed set of values (replaces the default list)."""
    extend_enum_words: tuple[str, ...] = ()
    """Words added to `enum-words`."""


class EnumCandidate(NodeRule):
    """
    ## What it does
    Flags a free string parameter with no `enum`, `const`, `pattern` or `format` whose name
    usually means a closed set of values (`status`, `state`, `type`, `kind`, `mode`, `sort`,
    `order`, `level`, `priority`, `currency`, `format`, `action`, `operation`, `sort_order`,
    `orderStatus`), or whose description lists the values it takes ("one of: a, b, c",
    "a | b | c", "'json', 'markdown' or 'text'", "allowed values: ...").

    ## Why is this bad?
    Given a free string, the model guesses the spelling: `shipped`, `Shipped`, `SHIPPED`,
    `dispatched`. An `enum` lists the values it may use, and strict modes enforce it.

    ## Example
    ```json
    {"status": {"type": "string", "description": "Order status filter."}}
    ```

    ## Use instead
    ```json
    {"status": {"type": "string", "enum": ["paid", "shipped", "refunded"]}}
    ```

    ## Trade-off
    Only the last word of the name counts (`order_status` yes, `status_message` no). Values
    given as examples ("e.g. 'a' or 'b'") are an open set and do not count, nor do values
    listed beside an identifier (`'none'` or `'any'` where a user id goes). A MIME (media,
    content) type is an open registry and is left alone. Some others are open-ended too (an
    ISO `currency`): this is an info finding, a prompt to check, not a defect.

    ## Fix safety
    No automatic fix: only the owner knows the closed set.
    """

    severity = Severity.INFO
    summary = "a free string named status/state/type/kind/mode/sort/order/level/priority/currency... has no enum"
    nodes = Nodes.NAMED_PROPERTIES
    types = frozenset({"string"})
    Options = Options

    enum_words = vocabulary("enum_words", "extend_enum_words")

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        name = node.property_name or ""
        if node.types != {"string"} or is_constrained_string(node.schema):  # not a nullable string either
            return
        if _MEDIA_TYPE.search(f"{name} {node.description}"):
            return
        if last_word_in(name, self.enum_words):
            why = "its name suggests a fixed set of values"
        elif lists_values(node.description) and not last_word_in(name, _IDENTIFIER_WORDS):
            why = "its description lists the values it takes"
        else:
            return
        yield Finding(
            f"`{node.property_name}` is a free string but {why}; list them with `enum`",
            node.pointer,
            key=True,
            data={"parameter": node.property_name},
        )
