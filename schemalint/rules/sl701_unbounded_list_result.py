from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from schemalint.diagnostics import Finding
from schemalint.lazy_pattern import LazyPattern
from schemalint.model import Severity, Tool, is_mapping, join_pointer, schema_types
from schemalint.rules.base import LintContext, ToolRule, rule_options, vocabulary
from schemalint.text import action_verb, properties_of, split_name, word_set

#: words of a result field that tells how many there are or how to get the rest
CONTINUATION_WORDS = word_set(
    "total count returned truncated more next cursor token page offset remaining continuation"
)
#: words of an input parameter that caps how many records come back
LIMIT_WORDS = word_set("limit max count size top k per page results n")
#: a field of these is the server's own fixed catalogue, or what this call found wrong with its input
#: (a run's diagnostics, a batch's errors), not records that grow
_BOUNDED_FIELD_WORDS = word_set("template templates preset presets diagnostics errors warnings")
#: the action of a tool that reports on the one thing it is given: its lists are that thing's parts or findings
_REPORTING_VERBS = word_set("describe validate verify check lint inspect")
#: the action of a tool that reads the one thing it is named (`get_group(group_name)`): its lists are that thing's parts
_ONE_THING_VERBS = word_set("get fetch read retrieve show view")
_PLURAL = LazyPattern(r"[^su]s$")
_STATED_BOUND = LazyPattern(
    r"\b(?:at most|up to|no more than|maximum of|limited to|capped at|first)\s+\d+", re.IGNORECASE
)


@rule_options
class Options:
    continuation_words: tuple[str, ...] = tuple(sorted(CONTINUATION_WORDS))
    """Words of a result field that counts the records or continues the list (replaces the default)."""
    extend_continuation_words: tuple[str, ...] = ()
    """Words added to `continuation-words`."""


class UnboundedListResult(ToolRule):
    """
    ## What it does
    Flags a tool whose output schema returns a list of records at the top of the result (the result
    is an array of objects, or an object with such an array among its fields) with nothing that bounds
    it or says there is more: no `maxItems`, no count or continuation field beside it (`total`,
    `returned`, `truncated`, `has_more`, `next_cursor`, `nextPageToken`, `page`, ...), no input
    parameter that caps it with a `maximum` (`limit`, `max_results`, `page_size`), no required list
    input that the result answers item by item (a batch `create_users(users)`, `get_pages(page_ids)`),
    and no stated bound in the description ("at most 50", "up to 100"). Read wherever an output schema exists: MCP
    `outputSchema`, Gemini `response`, the return annotations of Python tools.

    ## Why is this bad?
    An unbounded list fills the context window: one call that returns 5,000 rows can cost more than
    the whole conversation and push the instructions out. And a list that was cut without saying so
    reads as complete: the model answers "there are 20 orders" when 20 is where the page ended. A
    count and a cursor let it say how many there are and fetch the rest only when it needs them.

    ## Example
    ```json
    {"name": "list_orders", "description": "Lists a customer's orders.", "inputSchema": {"type": "object", "properties": {"customer_id": {"type": "string"}}}, "outputSchema": {"type": "object", "properties": {"orders": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}
    ```

    ## Use instead
    ```json
    {"name": "list_orders", "description": "Lists a customer's orders, newest first.", "inputSchema": {"type": "object", "properties": {"customer_id": {"type": "string"}, "limit": {"type": "integer", "maximum": 50, "default": 20}}}, "outputSchema": {"type": "object", "properties": {"orders": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}, "total": {"type": "integer"}, "next_cursor": {"type": ["string", "null"]}}}}
    ```

    ## Trade-off
    Only the top of the result is read (a list nested inside a record is the record's business), and
    only lists of objects: a bounded-looking list of tags is left alone. So are a server's fixed
    catalogue (a `templates` or `presets` field), what a call found wrong with its input (`errors`,
    `warnings`, `diagnostics` fields), the results of a tool that reports on the one thing it is given
    (`describe_*`, `validate_*`, `verify_*`, `check_*`, `lint_*`, `inspect_*`) or reads it by name
    (`get_group(group_name)`: a read verb, a singular object, a required input), and a result that is
    one record (an `id` field, or the id or thing it was given: `team_id` in, `teamId` or `team` out):
    their lists are that thing's parts or findings.

    ## Fix safety
    No automatic fix: the bound and the continuation are the tool's behaviour.
    """

    severity = Severity.WARNING
    summary = "a tool returns a list of records with no bound, count or continuation"
    Options = Options

    continuation_words = vocabulary("continuation_words", "extend_continuation_words")

    def check(self, tool: Tool, context: LintContext) -> Iterable[Finding]:
        output = tool.output_schema
        if (
            not is_mapping(output)
            or action_verb(split_name(tool.name or "")) in _REPORTING_VERBS
            or _reads_one_named_thing(tool)
            or _capped_by_input(tool.parameters)
            or _STATED_BOUND.search(tool.description or "")
            or _one_record(output, tool.parameters)
        ):
            return
        for pointer, name in self._unbounded_lists(output, tool.output_pointer or tool.pointer):
            what = f"`{name}`" if name else "the result"
            yield Finding(
                f"`{tool.display_name}` returns {what} as a list of records with no bound, count or continuation; "
                "add `maxItems`, a cap on a `limit` parameter, or `total`/`next_cursor` fields",
                pointer,
                key=name is not None,
                data={"tool": tool.name, "field": name},
            )

    def _unbounded_lists(self, output: Mapping[str, Any], pointer: str) -> Iterator[tuple[str, str | None]]:
        if _is_record_list(output):
            yield pointer, None
            return
        properties = properties_of(output)
        fields = [name for name in properties if isinstance(name, str)]
        continued = any(self.continuation_words.intersection(split_name(name)) for name in fields)
        for name in fields:
            schema = properties[name]
            if _is_record_list(schema) and not continued and not _BOUNDED_FIELD_WORDS.intersection(split_name(name)):
                yield join_pointer(pointer, "properties", name), name


def _is_record_list(schema: Any) -> bool:
    if not is_mapping(schema) or "maxItems" in schema or "array" not in schema_types(schema):
        return False
    items = schema.get("items")
    return is_mapping(items) and ("object" in schema_types(items) or "properties" in items or "$ref" in items)


def _one_record(output: Mapping[str, Any], parameters: Any) -> bool:
    """The result is one record: it has an `id`, returns the id it was given (`issue_id` in, `issueId` out)
    or the thing it was given by id or name (`team_id` in, `team` out). Its lists are that record's parts
    (an event's attendees, a team's sections), not results that grow."""
    given_words = [split_name(name) for name in properties_of(parameters) if isinstance(name, str)]
    given_things = {words[:-1] for words in given_words if words[-1:] in (("id",), ("name",))}
    return any(
        isinstance(name, str)
        and (
            name == "id"
            or (split_name(name)[-1:] == ("id",) and split_name(name) in given_words)
            or split_name(name) in given_things
        )
        for name in properties_of(output)
    )


def _reads_one_named_thing(tool: Tool) -> bool:
    """`get_group(group_name)`, `read_table_schema(table)`: a read verb, a singular object, and a required
    input that is not a list (the thing named)."""
    words = split_name(tool.name or "")
    if action_verb(words) not in _ONE_THING_VERBS or _PLURAL.search(words[-1]):
        return False
    parameters = tool.parameters if is_mapping(tool.parameters) else {}
    properties, required = properties_of(parameters), parameters.get("required")
    return isinstance(required, list) and any(
        is_mapping(properties.get(name)) and "array" not in schema_types(properties[name])
        for name in required
        if isinstance(name, str)
    )


def _capped_by_input(parameters: Any) -> bool:
    """A `limit` with a `maximum`, or a required list the result answers item by item (`create_users(users)`,
    `get_pages(page_ids)`): the caller chose how many."""
    properties = properties_of(parameters)
    if not properties:
        return False
    required = parameters.get("required")
    required = required if isinstance(required, list) else []
    return any(
        is_mapping(schema)
        and (
            ("maximum" in schema and LIMIT_WORDS.issuperset(split_name(name)))
            or (name in required and "array" in schema_types(schema))
        )
        for name, schema in properties.items()
        if isinstance(name, str)
    )
