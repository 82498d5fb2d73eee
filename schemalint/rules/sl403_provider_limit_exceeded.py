from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from schemalint.diagnostics import Finding
from schemalint.model import Severity, Tool, ToolSet, is_mapping, mappings_in
from schemalint.providers import ANTHROPIC_STRICT, BASE_TARGET, OPENAI_STRICT, TARGETS, Row, label, limit
from schemalint.rules.base import LintContext, ToolSetRule
from schemalint.schema_facts import inline_objects, is_union, schema_parts
from schemalint.targets import finding_severity
from schemalint.text import properties_of

#: a single string enum longer than this has its total length capped (OpenAI strict)
LARGE_ENUM_SIZE = 250
#: keywords holding values, not schemas
_VALUES = frozenset({"enum", "const"})


class ProviderLimitExceeded(ToolSetRule):
    """
    ## What it does
    Checks a tool set (the tools sent together in one request) against each target's limits:

    - `openai`: 128 tools per request.
    - `gemini`: 128 function declarations (Vertex AI).
    - `openai-strict`, per schema: 5,000 object properties; 10 levels of object nesting; 120,000
      characters of property names, definition names, enum and const values; 1,000 enum values;
      15,000 characters in one string enum of more than 250 values.
    - `anthropic-strict`, per request: 20 strict tools; across all strict tools, 24 optional
      parameters and 16 union-typed parameters (`anyOf` or a `type` list, `["T", "null"]` included).

    OpenAI counts the schema root and each definition on its own, without following `$ref`s.
    Every number comes from the table in `schemalint/providers.py` (with its source) and can be
    changed per target in config: `[tool.schemalint.target-limits.openai] max-tools = 200`.

    ## Why is this bad?
    Over a limit the provider rejects the whole request (`array_above_max_length`, `Too many strict
    tools`, `...which exceeds the limit: 16`), however valid each tool is on its own.

    ## Example
    Twenty-one Anthropic tools with `"strict": true` in one request; or 20 strict tools that each
    have two optional parameters (40 > 24).

    ## Use instead
    Split the tools into smaller sets per request, load tools on demand (tool search), make
    parameters required or single-typed, or keep `strict` only on the tools that need it.

    ## Options
    None here: limits are set per target with `target-limits`.

    ## Trade-off
    Counts assume the tool set is what one request sends (one file, or a configured `toolsets`
    group). On an MCP tool a provider's limit is a warning.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.ERROR
    summary = (
        "a target's limit: tool count, total properties, depth, enum size, strict tools, optional or union parameters"
    )

    def check(self, toolset: ToolSet, context: LintContext) -> Iterable[Finding]:
        settings = context.settings
        for target in TARGETS:
            if target in BASE_TARGET:
                continue
            yield from self._over(
                limit(target, "max-tools", settings),
                [(t, t.pointer) for t in toolset.tools if _aims_at(t, context, target)],
                f"this tool set sends {{count}} tools to {label(target)}, which accepts at most {{max}} per request: "
                "split the set or load tools on demand",
            )
        for tool in toolset.tools:
            if OPENAI_STRICT in context.targets(tool):
                yield from self._openai_strict_schema(tool, settings)
        yield from self._anthropic_strict_request(
            [t for t in toolset.tools if ANTHROPIC_STRICT in context.targets(t)], settings
        )

    def _finding(self, tool: Tool, bound: Row, message: str, pointer: str, value: int) -> Finding:
        return Finding(
            message,
            pointer,
            severity=finding_severity(tool, bound.target, bound.severity),
            data={"target": bound.target, "limit": bound.key, "max": bound.value, "value": value,
                  "source": bound.source},
        )  # fmt: skip

    def _over(self, bound: Row | None, places: list[tuple[Tool, str]], message: str) -> Iterator[Finding]:
        """A finding at the first place past `bound` when there are more places than it allows; `message`
        is formatted with the `count` and the `max`."""
        if bound is not None and len(places) > bound.value:
            tool, pointer = places[bound.value]
            yield self._finding(tool, bound, message.format(count=len(places), max=bound.value), pointer, len(places))

    def _openai_strict_schema(self, tool: Tool, settings: Mapping[str, Any]) -> Iterator[Finding]:
        if not is_mapping(tool.parameters) or tool.parameters_pointer is None:
            return
        measured = _measure_openai_strict(tool.parameters)
        what = {
            "max-total-properties": "object properties",
            "max-depth": "levels of object nesting",
            "max-total-string-length": "characters of property names, definition names, enum and const values",
            "max-enum-values": "enum values",
            "max-large-enum-string-length": f"characters in one string enum of more than {LARGE_ENUM_SIZE} values",
        }
        for name, value in measured.items():
            bound = limit(OPENAI_STRICT, name, settings)
            if bound is not None and value > bound.value:
                yield self._finding(
                    tool,
                    bound,
                    f"the parameters of `{tool.display_name}` have {value} {what[name]}; {label(OPENAI_STRICT)} "
                    f"allows {bound.value}: simplify the schema or split the tool",
                    tool.parameters_pointer,
                    value,
                )

    def _anthropic_strict_request(self, tools: list[Tool], settings: Mapping[str, Any]) -> Iterator[Finding]:
        yield from self._over(
            limit(ANTHROPIC_STRICT, "max-strict-tools", settings),
            [(t, t.pointer) for t in tools],
            f"this request carries {{count}} strict tools; {label(ANTHROPIC_STRICT)} allows {{max}}: "
            "keep `strict` only on the tools that need it",
        )
        counted = {
            "max-optional-parameters": (
                "optional parameters",
                "make some of them required",
            ),
            "max-union-parameters": (
                'union-typed parameters (`anyOf` or a `type` list, `["T", "null"]` included)',
                "make some of them single-typed",
            ),
        }
        for name, (what, advice) in counted.items():
            yield from self._over(
                limit(ANTHROPIC_STRICT, name, settings),
                [(tool, pointer) for tool in tools for pointer in _parameters(tool, name)],
                f"the strict tools of this request declare {{count}} {what}; {label(ANTHROPIC_STRICT)} allows {{max}} "
                f"across all strict tools: {advice}, or drop `strict` on some tools",
            )


def _aims_at(tool: Tool, context: LintContext, target: str) -> bool:
    return any(t == target or BASE_TARGET.get(t) == target for t in context.targets(tool))


def _parameters(tool: Tool, limit_name: str) -> Iterator[str]:
    """Pointers of the tool's properties (any depth) that count against an Anthropic strict limit."""
    for node in tool.schema_nodes():
        if not node.is_property or node.parent is None:
            continue
        if limit_name == "max-union-parameters" and is_union(node.schema):
            yield node.pointer
        if limit_name == "max-optional-parameters":
            required = node.parent.schema.get("required") if is_mapping(node.parent.schema) else None
            if not (isinstance(required, list) and node.property_name in required):
                yield node.pointer


def _measure_openai_strict(parameters: Mapping[str, Any]) -> dict[str, int]:
    """The sizes OpenAI strict mode limits, counted the way the API counts them."""
    depth = properties = 0
    for part in schema_parts(parameters):
        objects = list(inline_objects(part))
        depth = max(depth, max((level for _, level in objects), default=0))
        properties = max(properties, sum(len(obj["properties"]) for obj, _ in objects))
    strings = enum_values = large_enum = 0
    for key in ("$defs", "definitions"):
        if is_mapping(parameters.get(key)):
            strings += sum(len(str(name)) for name in parameters[key])
    for node in mappings_in(parameters, skip=_VALUES):
        strings += sum(len(str(name)) for name in properties_of(node))
        enum = node.get("enum")
        if isinstance(enum, list):
            enum_values += len(enum)
            strings += sum(len(v) for v in enum if isinstance(v, str))
            if len(enum) > LARGE_ENUM_SIZE and all(isinstance(v, str) for v in enum):
                large_enum = max(large_enum, sum(len(v) for v in enum))
        if isinstance(node.get("const"), str):
            strings += len(node["const"])
    return {
        "max-total-properties": properties,
        "max-depth": depth,
        "max-total-string-length": strings,
        "max-enum-values": enum_values,
        "max-large-enum-string-length": large_enum,
    }
