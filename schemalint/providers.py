"""What each provider accepts in a tool definition: ONE table of limits, name rules and keyword rules.

Every row names its source (see PROVIDERS.md beside DESIGN.md). Limits drift, so a user can override
any limit per target in config:

    [tool.schemalint.target-limits.openai]
    max-tools = 200

which reaches the rules as `LintContext.settings["target-limits"] == {"openai": {"max-tools": 200}}`.
An override on `openai` also applies to `openai-strict` (a strict target inherits its base target's
rows), unless `openai-strict` overrides the same limit itself.

Severity of a row: `uncertain` rows (a single third-party report, an undocumented enforcement) give
warnings; rows that conflict with portable advice another rule gives (`conflicts_with`) give at most
an info finding; every other row gives an error.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from schemalint.model import Severity


class Kind(str, enum.Enum):
    LIMIT = "limit"  # key: a limit name (`max-tools`); value: int
    NAME = "name"  # key: `tool-name`, `property-name`, `nested-property-name`; value: regex of allowed names
    KEYWORD = "keyword"  # key: a JSON Schema keyword; `when` says which use of it is rejected


class When(str, enum.Enum):
    """Which use of a keyword a KEYWORD row rejects."""

    PRESENT = "present"  # any use
    AT_ROOT = "at-root"  # used on the parameters root
    NOT_ALLOWED = "not-allowed"  # key `*`: any keyword outside `value` (an allow-list)
    VALUE_NOT_IN = "value-not-in"  # the keyword's value is not one of `value`
    ABOVE = "above"  # the keyword's numeric value is above `value`
    TYPE_LIST = "type-list"  # `type` written as a list
    REF_SIBLINGS = "ref-siblings"  # `$ref` beside keywords other than `value`
    NON_STRING_VALUES = "non-string-values"  # an enum with a value that is not a string
    NON_PRIMITIVE_VALUES = "non-primitive-values"  # an enum with an object or array value
    UNTYPED_ITEMS = "untyped-items"  # an array whose items have no type
    LOOKAROUND = "lookaround"  # a regex with lookaround or backreferences
    RECURSIVE_REF = "recursive-ref"  # a `$ref` to itself or an enclosing definition
    NON_LOCAL_REF = "non-local-ref"  # a `$ref` that is not `#` or `#/$defs/<name>` (`#/definitions/<name>`)
    NULLABLE_ROOT = "nullable-root"  # the parameters root's `type` is a list (`["object", "null"]`)
    BOOLEAN_SUBSCHEMA = "boolean-subschema"  # key `*`: `true`/`false` as a schema under one of the keywords in `value`


@dataclass(frozen=True, eq=False)  # a row is itself: hashed and compared by identity
class Row:
    target: str
    kind: Kind
    key: str
    value: Any
    source: str
    uncertain: bool = False
    when: When = When.PRESENT
    #: what to do instead, as an imperative clause ("use `anyOf`")
    fix: str = ""
    #: what to do instead when the keyword is on the parameters root, if that differs from `fix`
    root_fix: str = ""
    #: rule code whose (portable) advice wins over this row; the row then only informs
    conflicts_with: str | None = None
    note: str = ""

    @property
    def severity(self) -> Severity:
        if self.conflicts_with:
            return Severity.INFO
        return Severity.WARNING if self.uncertain else Severity.ERROR


OPENAI = "openai"
OPENAI_STRICT = "openai-strict"
ANTHROPIC = "anthropic"
ANTHROPIC_STRICT = "anthropic-strict"
GEMINI = "gemini"
MCP = "mcp"

TARGETS = (OPENAI, OPENAI_STRICT, ANTHROPIC, ANTHROPIC_STRICT, GEMINI, MCP)
#: a strict target also obeys every row of its base target
BASE_TARGET = {OPENAI_STRICT: OPENAI, ANTHROPIC_STRICT: ANTHROPIC}
#: the provider's own name for a target, for messages
TARGET_LABEL = {
    OPENAI: "OpenAI",
    OPENAI_STRICT: "OpenAI strict mode",
    ANTHROPIC: "Anthropic",
    ANTHROPIC_STRICT: "Anthropic strict tool use",
    GEMINI: "Gemini",
    MCP: "MCP",
}

_OAI_STRUCTURED = "[doc] platform.openai.com/docs/guides/structured-outputs (copy)"
_OAI_PYDANTIC_AI = "pydantic-ai profiles/openai.py @e5b2aa9f (_STRICT_INCOMPATIBLE_KEYS)"
_ANT_STRICT = "[doc] platform.claude.com structured-outputs#json-schema-limitations (copies)"
_GEMINI_SCHEMA = "google-genai types.Schema + _common.BaseModel extra='forbid'"
_GEMINI_OBSERVED = "[err] openswarm #24, zed #43231/#53919/#59938, 9router #2309"
#: what to write instead of a boolean subschema
_BOOLEAN_FIX = "write a schema object instead (`{}` for `true`; drop what `false` forbids)"
#: under OpenAI strict `anyOf` is no way out on the root either (openai-agents raises, the docs forbid it)
_ROOT_UNION_FIX = (
    "make the parameters root a plain `type: object` and move the union into a property "
    "(`anyOf` is refused on the root too)"
)

OPENAI_STRICT_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
ANTHROPIC_STRICT_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}
)
#: keywords Anthropic strict tool use documents as supported, and those other rows of the table reject explicitly
ANTHROPIC_STRICT_KEYS = frozenset(
    {
        "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "allOf",
        "$ref", "$defs", "definitions", "default", "format", "description", "title", "pattern", "minItems",
        # rejected by their own rows (reported there, not twice)
        "oneOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength",
        "maxLength", "maxItems", "uniqueItems", "contains", "minContains", "maxContains",
    }
)  # fmt: skip
#: keys google-genai's `types.Schema` accepts (its `extra='forbid'` rejects every other key)
GEMINI_SCHEMA_KEYS = frozenset(
    """
    additionalProperties defs ref anyOf default description enum example format items maxItems maxLength
    maxProperties maximum minItems minLength minProperties minimum nullable pattern properties propertyOrdering
    required title type
    """.split()
)
#: what to use instead of a key google-genai's `types.Schema` rejects
GEMINI_REPLACEMENTS = {
    "const": "use `enum` with the one value",
    "oneOf": "use `anyOf`",
    "$ref": "inline the definition (or send `parametersJsonSchema`)",
    "$defs": "inline the definitions (or send `parametersJsonSchema`)",
    "definitions": "inline the definitions (or send `parametersJsonSchema`)",
    "exclusiveMinimum": "use `minimum`",
    "exclusiveMaximum": "use `maximum`",
    "examples": "use `example` with one value",
    "$schema": "drop it",
}


def _present(target: str, keywords: tuple[str, ...], source: str, fix: str, uncertain: bool = False) -> list[Row]:
    return [Row(target, Kind.KEYWORD, k, None, source, uncertain, When.PRESENT, fix) for k in keywords]


TABLE: tuple[Row, ...] = (
    # ---- OpenAI (Chat Completions / Responses, strict or not)
    Row(OPENAI, Kind.NAME, "tool-name", r"^[a-zA-Z0-9_-]+$",
        "[err] github.com/brekkylab/ailoy/pull/109; github.com/justrach/codegraff/issues/930",
        fix="use only letters, digits, `_` and `-`"),
    Row(OPENAI, Kind.LIMIT, "max-tool-name-length", 64,
        "openai-python function_definition.py docstring; [err] github.com/ravitemer/mcphub.nvim/pull/243"),
    Row(OPENAI, Kind.LIMIT, "max-description-length", 1024,
        "[err] github.com/getsentry/sentry-mcp/issues/106 (observed 2024-11..2025-04)", uncertain=True),
    Row(OPENAI, Kind.LIMIT, "max-tools", 128,
        "[err] github.com/zed-industries/zed/issues/42393; openai-python commit caf837bb"),
    *[
        Row(OPENAI, Kind.KEYWORD, k, None, "[err] github.com/cecli-dev/cecli/issues/281 (uncertain scope)",
            True, When.AT_ROOT, "make the parameters root a plain `type: object` and move the union into a property")
        for k in ("oneOf", "anyOf", "allOf", "enum", "not")
    ],
    # ---- OpenAI strict (structured outputs)
    *_present(OPENAI_STRICT, ("allOf", "not", "dependentRequired", "dependentSchemas", "if", "then", "else"),
              _OAI_STRUCTURED, "express it with `anyOf` or drop it and validate server-side"),
    Row(OPENAI_STRICT, Kind.KEYWORD, "oneOf", None, "[err] quoted in github.com/ai-dynamo/dynamo/pull/15153",
        fix="use `anyOf`", root_fix=_ROOT_UNION_FIX),
    Row(OPENAI_STRICT, Kind.KEYWORD, "type", None, "openai-agents strict_schema.py (`must be a non-nullable object`)",
        when=When.NULLABLE_ROOT, fix='use `type: "object"` on the parameters root'),
    Row(OPENAI_STRICT, Kind.KEYWORD, "anyOf", None, _OAI_STRUCTURED + " \"Root objects must not be anyOf\"",
        when=When.AT_ROOT, fix=_ROOT_UNION_FIX),
    Row(OPENAI_STRICT, Kind.KEYWORD, "default", None, "[3p] zenn.dev/nicopin; pydantic-ai strips it", True,
        fix="state the default in the description too", conflicts_with="SL306",
        note="SL306 recommends a `default`; keep it unless OpenAI rejects the tool"),
    Row(OPENAI_STRICT, Kind.KEYWORD, "patternProperties", None,
        _OAI_PYDANTIC_AI + "; unsupported on fine-tuned models " + _OAI_STRUCTURED, True,
        fix="declare the properties explicitly"),
    *_present(OPENAI_STRICT, ("unevaluatedProperties", "propertyNames", "minProperties", "maxProperties",
                              "unevaluatedItems", "contains", "minContains", "maxContains", "uniqueItems"),
              _OAI_PYDANTIC_AI + "; not in the supported list of " + _OAI_STRUCTURED,
              "drop it and state the constraint in the description"),
    Row(OPENAI_STRICT, Kind.KEYWORD, "format", OPENAI_STRICT_FORMATS, _OAI_STRUCTURED, False, When.VALUE_NOT_IN,
        "use a supported format (" + ", ".join(sorted(OPENAI_STRICT_FORMATS)) + ") or a `pattern`"),
    Row(OPENAI_STRICT, Kind.KEYWORD, "pattern", None, _OAI_PYDANTIC_AI + " (regex lookaround)", True,
        When.LOOKAROUND, "rewrite the regex without lookaround or backreferences"),
    Row(OPENAI_STRICT, Kind.KEYWORD, "$ref", frozenset(), "openai-python _pydantic.py; openai-agents strict_schema.py",
        when=When.REF_SIBLINGS, fix="wrap it as `anyOf: [{\"$ref\": ...}]` and keep the other keywords beside `anyOf`",
        note="openai-java allows title/description beside $ref"),
    Row(OPENAI_STRICT, Kind.KEYWORD, "$ref", None, "pydantic-ai profiles/openai.py _TOP_LEVEL_DEFINITION_REF",
        when=When.NON_LOCAL_REF, fix="move the target under root `$defs` and point at `#/$defs/<name>`"),
    Row(OPENAI_STRICT, Kind.KEYWORD, "items", None, "pydantic-ai profiles/openai.py (issue #4425)",
        when=When.UNTYPED_ITEMS, fix="give `items` a `type`"),
    Row(OPENAI_STRICT, Kind.KEYWORD, "*", ("properties", "anyOf", "oneOf", "allOf", "$defs", "definitions"),
        _OAI_STRUCTURED + " (supported types: no boolean schemas); openai-agents strict_schema.py raises TypeError",
        when=When.BOOLEAN_SUBSCHEMA, fix="openai-agents raises a TypeError on it; " + _BOOLEAN_FIX),
    Row(OPENAI_STRICT, Kind.LIMIT, "max-total-properties", 5000, _OAI_STRUCTURED + " (history: 100)"),
    Row(OPENAI_STRICT, Kind.LIMIT, "max-depth", 10, _OAI_STRUCTURED + " (history: 5)"),
    Row(OPENAI_STRICT, Kind.LIMIT, "max-total-string-length", 120_000, _OAI_STRUCTURED + " (history: 15,000)"),
    Row(OPENAI_STRICT, Kind.LIMIT, "max-enum-values", 1000, _OAI_STRUCTURED + " (history: 500)"),
    Row(OPENAI_STRICT, Kind.LIMIT, "max-large-enum-string-length", 15_000,
        _OAI_STRUCTURED + " (for one string enum of more than 250 values; history: 7,500)"),
    # ---- Anthropic
    Row(ANTHROPIC, Kind.NAME, "tool-name", r"^[a-zA-Z0-9_-]+$",
        "[doc] platform.claude.com/docs/agents-and-tools/tool-use/define-tools; "
        "[err] github.com/home-assistant/core/issues/147760", fix="use only letters, digits, `_` and `-`"),
    Row(ANTHROPIC, Kind.LIMIT, "max-tool-name-length", 128, "[doc] define-tools (history 2025-03: 64)"),
    Row(ANTHROPIC, Kind.KEYWORD, "type", None, "anthropic SDK tool_param.py @a10dbaab (input_schema.type: \"object\")",
        when=When.NULLABLE_ROOT, fix='use `type: "object"` on the parameters root'),
    Row(ANTHROPIC, Kind.NAME, "property-name", r"^[a-zA-Z0-9_.-]+$",
        "[err] github.com/anthropics/claude-code/issues/79418; awslabs issue #709 (Bedrock)",
        fix="use only letters, digits, `_`, `.` and `-`"),
    Row(ANTHROPIC, Kind.NAME, "nested-property-name", r"^[a-zA-Z0-9_.-]+$",
        "[err] github.com/anthropics/claude-code/issues/79418 (reportedly enforced on top-level keys only)", True,
        fix="use only letters, digits, `_`, `.` and `-`"),
    Row(ANTHROPIC, Kind.LIMIT, "max-property-name-length", 64, "[err] github.com/anthropics/claude-code/issues/79418"),
    # ---- Anthropic strict tool use
    *_present(ANTHROPIC_STRICT, ("minimum", "maximum", "multipleOf", "minLength", "maxLength", "maxItems",
                                 "uniqueItems", "minContains", "maxContains", "contains"),
              _ANT_STRICT, "drop it and state the bound in the description"),
    *_present(ANTHROPIC_STRICT, ("exclusiveMinimum", "exclusiveMaximum"),
              _ANT_STRICT + " (numerical constraints); pydantic-ai providers/bedrock.py @2b42e7bb (Bedrock)",
              "drop it and state the bound in the description"),
    Row(ANTHROPIC_STRICT, Kind.KEYWORD, "oneOf", None,
        _ANT_STRICT + " (not in the supported list); anthropic transform_schema makes it anyOf", fix="use `anyOf`"),
    Row(ANTHROPIC_STRICT, Kind.KEYWORD, "*", ANTHROPIC_STRICT_KEYS,
        _ANT_STRICT + " (supported list; other keywords undocumented); anthropic transform_schema moves them into "
        "the description", True, When.NOT_ALLOWED, "drop it or state it in the description"),
    Row(ANTHROPIC_STRICT, Kind.KEYWORD, "minItems", 1, _ANT_STRICT + "; anthropic transform_schema", when=When.ABOVE,
        fix="use `minItems` 0 or 1 and state the bound in the description"),
    Row(ANTHROPIC_STRICT, Kind.KEYWORD, "format", ANTHROPIC_STRICT_FORMATS,
        _ANT_STRICT + "; anthropic transform_schema", when=When.VALUE_NOT_IN,
        fix="use a supported format (" + ", ".join(sorted(ANTHROPIC_STRICT_FORMATS)) + ") or a `pattern`"),
    Row(ANTHROPIC_STRICT, Kind.KEYWORD, "enum", None, _ANT_STRICT + " (complex enum values)",
        when=When.NON_PRIMITIVE_VALUES, fix="use only strings, numbers, booleans and null as enum values"),
    Row(ANTHROPIC_STRICT, Kind.KEYWORD, "pattern", None, "[3p] copies (simple regex only)", True, When.LOOKAROUND,
        "rewrite the regex without lookaround, backreferences or `\\b`"),
    Row(ANTHROPIC_STRICT, Kind.KEYWORD, "$ref", None, _ANT_STRICT + " (recursive schemas)", when=When.RECURSIVE_REF,
        fix="unroll the recursion to a fixed depth"),
    Row(ANTHROPIC_STRICT, Kind.KEYWORD, "$ref", None, _ANT_STRICT + " (external $ref)", when=When.NON_LOCAL_REF,
        fix="move the target under root `$defs` and point at `#/$defs/<name>`"),
    Row(ANTHROPIC_STRICT, Kind.KEYWORD, "*", ("properties", "items", "anyOf", "oneOf", "allOf", "$defs"),
        "anthropic lib/_parse/_transform.py transform_schema (TypeError; pydantic-ai runs it on strict tools); "
        "not in the supported list of " + _ANT_STRICT, True, When.BOOLEAN_SUBSCHEMA,
        "anthropic `transform_schema` (pydantic-ai runs it on strict tools) raises a TypeError on it; "
        + _BOOLEAN_FIX),
    Row(ANTHROPIC_STRICT, Kind.LIMIT, "max-strict-tools", 20,
        _ANT_STRICT + "; github.com/camel-ai/camel/pull/4171 (`Too many strict tools`)"),
    Row(ANTHROPIC_STRICT, Kind.LIMIT, "max-optional-parameters", 24, _ANT_STRICT),
    Row(ANTHROPIC_STRICT, Kind.LIMIT, "max-union-parameters", 16, _ANT_STRICT + " (`...which exceeds the limit: 16`)"),
    # ---- Gemini (`parameters`, the OpenAPI subset)
    Row(GEMINI, Kind.NAME, "tool-name", r"^[a-zA-Z_][a-zA-Z0-9_.:-]*$",
        "google-genai types.py @291034641 / @15666c06 (observed API 2025-08: no colon, 64 chars)",
        fix="start with a letter or `_` and use only letters, digits, `_`, `.`, `:` and `-`"),
    Row(GEMINI, Kind.LIMIT, "max-tool-name-length", 128, "google-genai types.py @291034641 (was 64)"),
    Row(GEMINI, Kind.NAME, "property-name", r"^[a-zA-Z_][a-zA-Z0-9_]*$",
        "google-genai types.py FunctionDeclaration.parameters docstring (enforcement uncertain)", True,
        fix="start with a letter or `_` and use only letters, digits and `_`"),
    Row(GEMINI, Kind.NAME, "nested-property-name", r"^[a-zA-Z_][a-zA-Z0-9_]*$",
        "google-genai types.py FunctionDeclaration.parameters docstring (enforcement uncertain)", True,
        fix="start with a letter or `_` and use only letters, digits and `_`"),
    Row(GEMINI, Kind.LIMIT, "max-property-name-length", 64,
        "google-genai types.py FunctionDeclaration.parameters docstring (enforcement uncertain)", True),
    Row(GEMINI, Kind.LIMIT, "max-tools", 128, "[doc] cloud.google.com vertex function-calling reference (older: 64)"),
    Row(GEMINI, Kind.KEYWORD, "*", GEMINI_SCHEMA_KEYS, _GEMINI_SCHEMA + "; " + _GEMINI_OBSERVED,
        when=When.NOT_ALLOWED, fix="drop it (or send the schema as `parametersJsonSchema`)"),
    Row(GEMINI, Kind.KEYWORD, "*", ("properties", "items", "anyOf"), _GEMINI_SCHEMA + " (a boolean is not a Schema)",
        when=When.BOOLEAN_SUBSCHEMA, fix="google-genai's `types.Schema` refuses it; " + _BOOLEAN_FIX),
    Row(GEMINI, Kind.KEYWORD, "type", None, "[err] zed #43231 (\"Proto field is not repeating\")",
        when=When.TYPE_LIST, fix="use a single `type` with `nullable: true`, or `anyOf`"),
    Row(GEMINI, Kind.KEYWORD, "enum", None, "google-genai types.Schema.enum (list[str])",
        when=When.NON_STRING_VALUES, fix="use string enum values"),
    Row(GEMINI, Kind.KEYWORD, "additionalProperties", None, "[err] 9router #2309 (observed 2025-11); "
        "google-genai raises for it on the Developer API response schema", True, conflicts_with="SL303",
        fix="keep it for the other providers; send Gemini a copy without it if it is rejected",
        note="SL303 asks for `additionalProperties: false` (portable and required by strict modes)"),
    Row(GEMINI, Kind.KEYWORD, "$ref", None, "pydantic-ai profiles/google.py (recursive $ref not supported)",
        when=When.RECURSIVE_REF, fix="unroll the recursion to a fixed depth"),
    # ---- MCP (2025-11-25)
    Row(MCP, Kind.NAME, "tool-name", r"^[A-Za-z0-9_.-]+$",
        "docs/specification/2025-11-25/server/tools.mdx @1b406997", fix="use only letters, digits, `_`, `.` and `-`"),
    Row(MCP, Kind.LIMIT, "max-tool-name-length", 128, "docs/specification/2025-11-25/server/tools.mdx @1b406997"),
)  # fmt: skip


@cache
def rows_for(target: str, kind: Kind | None = None) -> tuple[Row, ...]:
    """The rows a target obeys: its own and its base target's (strict targets inherit)."""
    wanted = {target, BASE_TARGET.get(target, target)}
    return tuple(r for r in TABLE if r.target in wanted and (kind is None or r.kind is kind))


def validate_limit_overrides(overrides: Any) -> dict[str, dict[str, int]]:
    """Check a `target-limits` mapping (`{"openai": {"max-tools": 200}}`); ValueError names the bad key."""
    if not isinstance(overrides, Mapping):
        raise ValueError("`target-limits` must be a table of targets")
    known = {r.key for r in TABLE if r.kind is Kind.LIMIT}
    checked: dict[str, dict[str, int]] = {}
    for target, table in overrides.items():
        if target not in TARGETS:
            raise ValueError(f"`target-limits.{target}`: unknown target (known: {', '.join(TARGETS)})")
        if not isinstance(table, Mapping):
            raise ValueError(f"`target-limits.{target}` must be a table of limits")
        for name, value in table.items():
            if name not in known:
                raise ValueError(f"`target-limits.{target}.{name}`: unknown limit (known: {', '.join(sorted(known))})")
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"`target-limits.{target}.{name}` must be a non-negative integer")
        checked[target] = dict(table)
    return checked


def limit(target: str, name: str, settings: Mapping[str, Any] | None = None) -> Row | None:
    """The LIMIT row of `name` for `target`, after config overrides; None when the target has none."""
    overrides = settings.get("target-limits") if settings else None
    if not overrides:  # the common case, asked for every property name: the table's own limit
        return _table_limit(target, name)
    for source_target in (target, BASE_TARGET.get(target)):
        table = overrides.get(source_target) if source_target else None
        if isinstance(table, Mapping) and isinstance(table.get(name), int):
            return Row(target, Kind.LIMIT, name, table[name], f"config `target-limits.{source_target}.{name}`")
    return _table_limit(target, name)


@cache
def _table_limit(target: str, name: str) -> Row | None:
    """The limit as the table gives it: the target's own row, else its base target's (as `target`'s)."""
    rows = [r for r in rows_for(target, Kind.LIMIT) if r.key == name]
    row = next((r for r in rows if r.target == target), rows[0] if rows else None)
    return replace(row, target=target) if row else None


def label(target: str) -> str:
    return TARGET_LABEL.get(target, target)
