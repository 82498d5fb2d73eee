from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from schemalint.diagnostics import Finding
from schemalint.model import (
    Severity,
    Tool,
    is_mapping,
    join_pointer,
    nullable_union_branch,
    schema_types,
)
from schemalint.rules.base import LintContext, ToolRule
from schemalint.schema_facts import is_local_definition_ref, resolve_local_ref
from schemalint.text import properties_of, split_name, word_set

#: names of the field that carries an error
ERROR_FIELDS = frozenset({"error", "errors", "err", "error_message", "errormessage", "error_msg", "failure"})
#: words of a result field beside the error that lets the model act on it: a code, whether to retry, a hint
ACTIONABLE_WORDS = word_set("code retryable retriable retry transient hint suggestion remedy")
#: words of a field inside an error object that do the same: also its kind and the argument at fault
ACTIONABLE_INNER_WORDS = ACTIONABLE_WORDS | word_set("type kind category reason field param parameter path action fix")
_ERROR_WORDS = word_set("error err errors failure")


class UnactionableErrorShape(ToolRule):
    """
    ## What it does
    Flags an output schema whose error is a bare message: an `error` (or `errors`, `error_message`)
    field that is a string, or an object with only a message, with nothing beside it that says
    what kind of error it is, whether retrying can help, or what to do next (`code`, `retryable`,
    `hint`, `field`, ...). Read wherever an output schema exists: MCP `outputSchema`, Gemini
    `response`, the return annotations of Python tools; the result itself, its `anyOf`/`oneOf`
    branches (a local `$ref` branch where it points), and a `result` wrapper are searched.

    ## Why is this bad?
    An error is the model's instruction for its next step. `{"error": "operation failed"}` leaves
    it to guess: it retries the same call unchanged, or gives up on an error that one corrected
    argument would fix. A code it can branch on (`INVALID_ARGUMENT`, `NOT_FOUND`, `RATE_LIMITED`),
    a `retryable` flag and a hint ("call search_orders first") turn the failure into a next step,
    and keep it from retrying what cannot succeed.

    ## Example
    ```json
    {"name": "get_order", "inputSchema": {"type": "object", "properties": {"order_id": {"type": "string"}}}, "outputSchema": {"type": "object", "properties": {"order": {"type": "object"}, "error": {"type": "string"}}}}
    ```

    ## Use instead
    ```json
    {"name": "get_order", "inputSchema": {"type": "object", "properties": {"order_id": {"type": "string"}}}, "outputSchema": {"type": "object", "properties": {"order": {"type": "object"}, "error": {"type": "object", "properties": {"code": {"type": "string", "enum": ["NOT_FOUND", "INVALID_ARGUMENT", "RATE_LIMITED"]}, "message": {"type": "string"}, "retryable": {"type": "boolean"}, "hint": {"type": "string"}}}}}}
    ```

    ## Trade-off
    Informational: MCP tools can also report errors as `isError: true` results outside the output
    schema, which this rule cannot see. An error object whose fields are not listed is left alone.

    ## Fix safety
    No automatic fix: the codes are the tool's behaviour.
    """

    severity = Severity.INFO
    summary = "an output schema's error is a bare message with no code, retry flag or hint"

    def check(self, tool: Tool, context: LintContext) -> Iterable[Finding]:
        output = tool.output_schema
        if not is_mapping(output):
            return
        for pointer, name in _bare_errors(output, tool.output_pointer or tool.pointer):
            yield Finding(
                f"`{tool.display_name}` reports errors as a bare message in `{name}`; add a `code`, a `retryable` flag "
                "and a `hint` so the model can tell a corrected call from a hopeless one",
                pointer,
                key=True,
                data={"tool": tool.name, "field": name},
            )


def _bare_errors(output: Mapping[str, Any], pointer: str) -> Iterator[tuple[str, str]]:
    for candidate, candidate_pointer in _result_objects(output, pointer, output, pointer):
        properties = properties_of(candidate)
        names = [name for name in properties if isinstance(name, str)]
        if any(_is_actionable_sibling(name) for name in names):
            continue
        for name in names:
            if name.lower() in ERROR_FIELDS and _is_bare_message(properties[name]):
                yield join_pointer(candidate_pointer, "properties", name), name


def _result_objects(
    output: Mapping[str, Any], pointer: str, root: Mapping[str, Any], root_pointer: str
) -> Iterator[tuple[Mapping[str, Any], str]]:
    """The result object, its union branches, and the same below a `result` wrapper (Python returns); a
    branch that is a local `$ref` (pydantic's `$defs`) is read where it points."""
    yield output, pointer
    for keyword in ("anyOf", "oneOf"):
        branches = output.get(keyword)
        if isinstance(branches, list):
            for i, branch in enumerate(branches):
                if is_mapping(branch):
                    yield _dereferenced(branch, join_pointer(pointer, keyword, i), root, root_pointer)
    wrapped = properties_of(output).get("result")
    if is_mapping(wrapped):
        yield from _result_objects(wrapped, join_pointer(pointer, "properties", "result"), root, root_pointer)


def _dereferenced(
    schema: Mapping[str, Any], pointer: str, root: Mapping[str, Any], root_pointer: str
) -> tuple[Mapping[str, Any], str]:
    ref = schema.get("$ref")
    if ref == "#" or not is_local_definition_ref(ref):
        return schema, pointer
    try:
        target = resolve_local_ref(root, ref)
    except KeyError:
        return schema, pointer
    return (target, root_pointer + ref[1:]) if is_mapping(target) else (schema, pointer)


def _is_actionable_sibling(name: str) -> bool:
    """`code`, `retryable`, `hint`; or an error's own kind beside it (`error_code`, `errorType`)."""
    words = split_name(name)
    return not ACTIONABLE_WORDS.isdisjoint(words) or (
        not _ERROR_WORDS.isdisjoint(words) and not ACTIONABLE_INNER_WORDS.isdisjoint(words)
    )


def _is_bare_message(schema: Any) -> bool:
    """A string (or a list of strings), or an object whose listed fields are only messages."""
    if not is_mapping(schema):
        return False
    optional = nullable_union_branch(schema)  # `str | None` in a Python return type
    if optional is not None:
        return _is_bare_message(optional[1])
    types = schema_types(schema)
    if "string" in types and types <= {"string", "null"}:  # a field typed only `null` says there is none
        return True
    if "array" in types:  # a list of messages; a list of records is the tool's data (a linter's findings)
        items = schema.get("items")
        return is_mapping(items) and "string" in schema_types(items) and schema_types(items) <= {"string", "null"}
    properties = properties_of(schema)
    if "object" in types and properties:
        return all(ACTIONABLE_INNER_WORDS.isdisjoint(split_name(name)) for name in properties if isinstance(name, str))
    return False
