from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from typing import Any

from schemalint.diagnostics import Finding
from schemalint.dialects.gemini import sends_json_schema
from schemalint.model import SchemaNode, Severity, join_pointer
from schemalint.providers import GEMINI, GEMINI_REPLACEMENTS, Kind, Row, When, label, rows_for
from schemalint.rules._provider_support import ordered_targets
from schemalint.rules.base import LintContext, NodeRule, Nodes
from schemalint.schema_facts import has_typed_items, is_local_definition_ref, is_recursive_ref, regex_is_complex
from schemalint.targets import finding_severity, is_forwarded


class UnsupportedKeyword(NodeRule):
    """
    ## What it does
    Flags a JSON Schema keyword (or a use of one) that a target rejects or ignores. The table lives
    in `schemalint/providers.py`, one row per provider constraint with its source; the main ones:

    - `openai`: `oneOf`/`anyOf`/`allOf`/`enum`/`not` on the parameters root (warning: observed
      through OpenRouter only).
    - `openai-strict`: `allOf`, `not`, `if`/`then`/`else`, `dependentRequired`, `dependentSchemas`,
      `oneOf`, `anyOf` or a `type` list on the root, `unevaluatedProperties`/`unevaluatedItems`,
      `propertyNames`, `minProperties`/`maxProperties`, `contains`, `uniqueItems`, formats outside
      the documented list, `$ref` with sibling keywords, `$ref` not into root `$defs`, arrays without
      typed `items`. Warnings: `patternProperties`, regex lookaround. (`minLength`/`maxLength` are
      unsupported only on fine-tuned models, which schemalint cannot tell apart: not reported.)
      Info: `default` (one third-party report, and SL306 recommends defaults).
    - `anthropic`: a `type` list on the root (`input_schema.type` must be `"object"`).
    - `anthropic-strict`: `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`,
      `multipleOf`, `minLength`, `maxLength`, `maxItems`, `uniqueItems`, `minItems` above 1, `oneOf`,
      formats outside the documented list, object/array enum values, recursive or external `$ref`.
      Warnings: any other keyword outside the documented list (`not`, `if`, `examples`, ...),
      complex regex.
    - `gemini` (`parameters`): every key google-genai's `types.Schema` does not know (`const`,
      `oneOf`, `allOf`, `$ref`, `$defs`, `$schema`, `exclusiveMinimum`, `multipleOf`, `examples`,
      ...), `type` lists, non-string `enum` values, recursion. Info: `additionalProperties`.
    - Boolean subschemas (`properties: {"p": true}`, `items: true`, `anyOf: [true, ...]`):
      `openai-strict` (error: openai-agents raises), `gemini` (error: google-genai's `Schema`
      refuses them), `anthropic-strict` (warning: `transform_schema`, as pydantic-ai runs it,
      raises). The message names the SDK that refuses it.
      A declaration that sends `parametersJsonSchema` instead is JSON Schema, sent as is
      (google-genai types it `Any`): none of these apply to it.

    Upper-case Gemini type names (`OBJECT`, `STRING`) are that dialect's spelling and are fine.

    ## Why is this bad?
    The provider answers with a 400 error for the whole request, or (Responses API) silently drops
    strict mode; an SDK in between may instead rewrite the schema and lose the constraint
    (SL404 says which).

    ## Example
    `oneOf` under OpenAI strict mode (or Gemini):
    ```json
    {"name": "refund", "strict": true, "parameters": {"type": "object", "additionalProperties": false,
      "required": ["amount"], "properties": {"amount": {"oneOf": [{"type": "integer"}, {"type": "string"}]}}}}
    ```

    ## Use instead
    ```json
    {"name": "refund", "strict": true, "parameters": {"type": "object", "additionalProperties": false,
      "required": ["amount"], "properties": {"amount": {"anyOf": [{"type": "integer"}, {"type": "string"}]}}}}
    ```

    ## Options
    None. The table's rows can be inspected in `schemalint/providers.py`.

    ## Trade-off
    Rows marked uncertain in the table (a single third-party report, an undocumented enforcement)
    give warnings. Where a target pulls against portable advice, the portable advice wins: SL303 asks
    for `additionalProperties: false` everywhere, so Gemini's reported rejection of it is only an
    info finding naming the conflict (and nothing at all on an MCP tool, which is not written for
    Gemini). On an MCP tool, every provider's objection is a warning.

    ## Fix safety
    No automatic fix: the replacement depends on what the constraint meant (drop it, move it into
    the description, or restructure the schema).
    """

    severity = Severity.ERROR
    summary = "a keyword a target rejects or ignores (table in schemalint/providers.py, with sources)"
    nodes = Nodes.OBJECTS

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        schema = node.schema
        reported: set[Row] = set()
        for target in ordered_targets(context.targets(node.tool)):
            if target == GEMINI and sends_json_schema(node.tool):
                continue  # the `gemini` rows are about `parameters` (OpenAPI subset), not JSON Schema
            by_keyword, always = _keyword_rows(target)
            if not always and by_keyword.keys().isdisjoint(schema):
                continue  # most schemas use no keyword the target has a row for
            candidates = [*always, *(row for keyword in schema if keyword in by_keyword for row in by_keyword[keyword])]
            for row in candidates:
                if row in reported or (row.conflicts_with and is_forwarded(node.tool)):
                    continue
                if row.when is When.BOOLEAN_SUBSCHEMA:
                    for keyword, pointer, detail in _boolean_subschemas(row, node):
                        yield _finding(row, node, keyword, detail, pointer, row.fix, key=False)
                    continue
                for keyword, detail in self._violations(row, node):
                    reported.add(row)
                    fix = GEMINI_REPLACEMENTS.get(keyword, row.fix) if row.target == GEMINI else row.fix
                    if node.is_root and row.root_fix:
                        fix = row.root_fix
                    yield _finding(row, node, keyword, detail, _pointer(node, keyword), fix, key=keyword in schema)

    def _violations(self, row: Row, node: SchemaNode) -> Iterator[tuple[str, str]]:
        """(keyword, what is wrong) for each use of the row's keyword that the row rejects."""
        schema = node.schema
        key, value = row.key, schema.get(row.key)
        when = row.when
        if when is When.NOT_ALLOWED:
            for keyword in schema:
                if keyword not in row.value:
                    yield keyword, f"`{keyword}`"
        elif when is When.UNTYPED_ITEMS:
            if "array" in node.types and not has_typed_items(schema):
                yield key, "an array without typed `items`"
        elif key not in schema:
            return
        elif when is When.PRESENT:
            yield key, f"`{key}`"
        elif when is When.AT_ROOT:
            if node.is_root:
                yield key, f"`{key}` on the parameters root"
        elif when is When.VALUE_NOT_IN:
            if isinstance(value, str) and value not in row.value:
                yield key, f"`{key}: {json.dumps(value)}`"
        elif when is When.ABOVE:
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value > row.value:
                yield key, f"`{key}: {value}`"
        elif when is When.NULLABLE_ROOT:
            if node.is_root and isinstance(value, list):
                yield key, f"`type: {json.dumps(value)}` on the parameters root"
        elif when is When.TYPE_LIST:
            if isinstance(value, list):
                yield key, f"a `type` list ({json.dumps(value)})"
        elif when is When.REF_SIBLINGS:
            siblings = sorted(set(schema) - {"$ref"} - set(row.value))
            if siblings:
                yield key, f"`$ref` beside {', '.join(f'`{s}`' for s in siblings)}"
        elif when is When.NON_STRING_VALUES:
            if isinstance(value, list) and any(not isinstance(v, str) for v in value):
                yield key, "an `enum` with non-string values"
        elif when is When.NON_PRIMITIVE_VALUES:
            if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
                yield key, "an `enum` with object or array values"
        elif when is When.LOOKAROUND:
            if isinstance(value, str) and regex_is_complex(value):
                yield key, "a `pattern` with lookaround or backreferences"
        elif when is When.RECURSIVE_REF:
            if isinstance(value, str) and is_recursive_ref(node.tool.parameters, value):
                yield key, f"a recursive `$ref` ({value})"
        elif when is When.NON_LOCAL_REF and not is_local_definition_ref(value):
            yield key, f"`$ref: {json.dumps(value)}` (only `#` and `#/$defs/<name>` resolve)"


def _finding(row: Row, node: SchemaNode, keyword: str, detail: str, pointer: str, fix: str, *, key: bool) -> Finding:
    certainty = " (reported, not documented)" if row.uncertain else ""
    conflict = f"; conflicts with {row.conflicts_with}: {row.note}" if row.conflicts_with else ""
    return Finding(
        f"{detail} is not supported by {label(row.target)}{certainty}: {fix}{conflict}",
        pointer,
        key=key,
        severity=finding_severity(node.tool, row.target, row.severity),
        data={"target": row.target, "keyword": keyword, "source": row.source},
    )


def _boolean_subschemas(row: Row, node: SchemaNode) -> Iterator[tuple[str, str, str]]:
    """(keyword, pointer, what is wrong) for each `true`/`false` written as a schema under the row's keywords
    (`additionalProperties: false` is not one: it is the closure every strict mode asks for)."""
    for keyword in row.value:
        value = node.schema.get(keyword)
        if isinstance(value, Mapping) and keyword in ("properties", "$defs", "definitions"):
            members: Iterable[tuple[Any, Any]] = value.items()
        elif isinstance(value, list):
            members = enumerate(value)
        else:
            members = [(None, value)]
        for token, member in members:
            if isinstance(member, bool):
                tokens = (keyword,) if token is None else (keyword, str(token))
                where = "/".join(tokens)
                yield (
                    keyword,
                    join_pointer(node.pointer, *tokens),
                    f"a boolean schema (`{str(member).lower()}`) at `{where}`",
                )


@cache
def _keyword_rows(target: str) -> tuple[dict[str, tuple[Row, ...]], tuple[Row, ...]]:
    """The target's keyword rows by keyword, and the rows to evaluate on every node (allow-lists, untyped
    arrays, boolean subschemas), in table order."""
    by_keyword: dict[str, list[Row]] = {}
    always: list[Row] = []
    for row in rows_for(target, Kind.KEYWORD):
        if row.when in (When.NOT_ALLOWED, When.UNTYPED_ITEMS, When.BOOLEAN_SUBSCHEMA):
            always.append(row)
        else:
            by_keyword.setdefault(row.key, []).append(row)
    return {k: tuple(v) for k, v in by_keyword.items()}, tuple(always)


def _pointer(node: SchemaNode, keyword: str) -> str:
    return join_pointer(node.pointer, keyword) if keyword in node.schema else node.pointer
