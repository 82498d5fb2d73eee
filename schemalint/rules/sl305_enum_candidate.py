from __future__ import annotations

import re
from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.lazy_pattern import LazyPattern
from schemalint.model import SchemaNode, Severity
from schemalint.rules.base import LintContext, NodeRule, Nodes, rule_options, vocabulary
from schemalint.text import is_constrained_string, last_word_in, lists_values, sibling_names, split_name

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
#: The description says the values are open: they depend on the account's configuration, or are a pattern or code
#: to write (a date format `YYYY-MM-DD`, an Excel `#,##0.00`), a JSON value, an identifier, a database column type.
_OPEN_SET = LazyPattern(
    r"(?i)\bdepend(?:s|ing)?\s+on\s+(?:your|the)\s+(?:\w+\s+){0,2}"
    r"(?:project|configuration|config|instance|workspace|site|server|account|setup)\b"
    r"|\b(?:yyyy|mm[-/]dd|dd[-/]mm|hh:mm)|%[ymdhs]\b|#,##0"
    r"|\bjson[\s-](?:string|object)\b|\buuid\b|\bthe\s+id\s+of\b|^\s*(?:the|an?)\s+(?:[\w-]+\s+){0,2}(?:ids?|identifier)\b"
    r"|\b(?:varchar|bigint|jsonb|timestamptz)\b|\b(?:postgres(?:ql)?|sql|column)\s+(?:data\s+)?types?\b"
)
#: the word before "ID": the field's own word there says its value is an id
_WORD_BEFORE_ID = LazyPattern(r"\b(\w+)\s+ids?\b", re.IGNORECASE)
#: A list of kinds of things that trails off ("war, invention, etc."): an open taxonomy, unless the text calls
#: them the options. Units, formats, modes... stay: the code behind them takes a fixed set.
_TRAILING_OFF = LazyPattern(r"\betc\b|\band\s+so\s+on\b|\bamong\s+others\b", re.IGNORECASE)
_OPTIONS_NAMED = LazyPattern(
    r"\b(?:options?|choices?|one\s+of|(?:possible|allowed|accepted|valid|supported)\s+values?)\b", re.IGNORECASE
)
_TAXONOMY_WORDS = frozenset(("type", "kind", "category", "period"))
#: `state` as a place (beside a `city` or `zip`, "the U.S. state"), not a status.
_PLACE_NAMES = frozenset("city country county province zip zipcode zip_code postal_code postcode street".split())
_PLACE_TEXT = LazyPattern(
    r"(?-i:\bUS\b)|\b(?i:u\.\s?s\b\.?|united\s+states|city|country|county|province|zip|postal|located|resides"
    r"|abbreviation|two-letter)\b"
)
#: Names of free content: values listed in their description are special cases ("`true` for a checkbox"), not
#: the set.
_FREE_CONTENT_WORDS = frozenset(
    "value values text content body message query prompt path file filename url uri comment "
    "script expression base64 input".split()
)


def _is_open_set(node: SchemaNode) -> bool:
    """The description or the context says the values are open: `_OPEN_SET`, a taxonomy that trails off, a
    place's `state`, the `category` label of a data point beside its `value`."""
    description = node.description
    default = node.schema.get("default") if isinstance(node.schema, dict) else None
    if _OPEN_SET.search(description if not isinstance(default, str) else f"{description} {default}"):
        return True
    words = node.words
    if not words:
        return False
    if any(match[1].lower() == words[-1] for match in _WORD_BEFORE_ID.finditer(description)):  # "the category ID"
        return True
    if words[-1] in _TAXONOMY_WORDS and _TRAILING_OFF.search(description) and not _OPTIONS_NAMED.search(description):
        return True
    if words[-1] not in ("state", "category"):
        return False
    siblings = {"_".join(split_name(sibling)) for sibling in sibling_names(node)}
    if words[-1] == "category":
        return "value" in siblings
    return bool(siblings & _PLACE_NAMES) or bool(_PLACE_TEXT.search(description))


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
    listed beside an identifier (`'none'` or `'any'` where a user id goes) or a free-content
    field (`'true'` for a checkbox in a form `value`, `text`, `query`, `path`). A MIME (media,
    content) type is an open registry and is left alone, and so is a set the text says is open:
    a pattern to write (a date format `YYYY-MM-DD`, a spreadsheet code `#,##0.00`), values that
    depend on the account's configuration, an identifier ("the category ID"), a JSON string, a
    database column type, a kind of thing whose examples trail off ("e.g. war, invention, etc.",
    unless the text calls them the options), a place's `state` (beside a `city` or `zip`, "the
    U.S. state"), a data point's `category` label beside its `value`. Some others are open-ended
    too (an ISO `currency`): this is an info finding, a prompt to check, not a defect.

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
        elif lists_values(node.description) and not last_word_in(name, _FREE_CONTENT_WORDS | _IDENTIFIER_WORDS):
            why = "its description lists the values it takes"
        else:
            return
        if _is_open_set(node):
            return
        yield Finding(
            f"`{node.property_name}` is a free string but {why}; list them with `enum`",
            node.pointer,
            key=True,
            data={"parameter": node.property_name},
        )
