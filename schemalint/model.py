"""The canonical model every dialect is normalised into.

ToolSet -> Tool -> parameter schema. Nothing here knows about files or dialects: a tool keeps the
JSON pointer of each of its parts inside its source document, and the document's position map turns
a pointer into a line:col span when a diagnostic is reported.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeGuard, TypeVar

from schemalint.text import description_of, split_name

JSON = Any  # a value as json.loads returns it
T = TypeVar("T")

#: JSON Schema keywords whose value is a single sub-schema.
SCHEMA_KEYWORDS_SINGLE = (
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
)
#: Keywords whose value is a list of sub-schemas.
SCHEMA_KEYWORDS_LIST = ("anyOf", "oneOf", "allOf", "prefixItems")
#: Keywords whose value maps names to sub-schemas.
SCHEMA_KEYWORDS_MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


class Severity(enum.IntEnum):
    """Ordered so that `severity >= fail_on` reads naturally."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r} (expected error, warning or info)") from None


class Dialect(str, enum.Enum):
    """Where a tool definition came from; decides the default provider targets."""

    OPENAI_CHAT = "openai-chat"
    OPENAI_FUNCTIONS = "openai-functions"  # the legacy `functions` array
    OPENAI_RESPONSES = "openai-responses"
    ANTHROPIC = "anthropic"
    GEMINI = "gemini"
    MCP = "mcp"
    GENERIC = "generic"  # a bare {name, description, parameters}
    PYTHON = "python"  # extracted from Python source (framework in Tool.framework)
    DOCKER_CATALOG = "docker-catalog"  # Docker's MCP catalog `tools.json` (`arguments` lists)


@dataclass(frozen=True, order=True)
class Span:
    """1-based, end-inclusive start and end-exclusive end, in characters (code points)."""

    line: int
    column: int
    end_line: int
    end_column: int


def is_mapping(value: Any) -> TypeGuard[Mapping[str, Any]]:
    """`isinstance(value, Mapping)`, with the common case first: a dict is checked in C, before the
    slower abstract-class check, and the rules ask it of every node many times."""
    return isinstance(value, (dict, Mapping))


def mappings_in(value: JSON, skip: frozenset[str] = frozenset()) -> Iterator[Mapping[str, Any]]:
    """Every mapping anywhere in `value`, depth first, not looking under the keys in `skip`
    (`enum`, `const`: values, not schemas)."""
    stack = [value]
    while stack:
        node = stack.pop()
        if is_mapping(node):
            yield node
            if skip:
                stack.extend(v for k, v in node.items() if k not in skip)
            else:
                stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def escape_pointer_token(token: str | int) -> str:
    text = str(token)
    if "~" in text or "/" in text:
        return text.replace("~", "~0").replace("/", "~1")
    return text


def join_pointer(base: str, *tokens: str | int) -> str:
    for token in tokens:
        base = f"{base}/{escape_pointer_token(token)}"
    return base


def split_pointer(pointer: str) -> list[str]:
    if not pointer:
        return []
    tokens = pointer[1:].split("/")
    if "~" not in pointer:  # the common case: nothing escaped
        return tokens
    return [t.replace("~1", "/").replace("~0", "~") for t in tokens]


def parent_pointer(pointer: str) -> str:
    """The pointer one level up (`""` above the root); tokens stay escaped, so no split and join."""
    return pointer.rpartition("/")[0]


def pointer_owner(pointer: str, owners: Mapping[str, T]) -> T | None:
    """The value of `owners` (keyed by pointer) at `pointer` or at its nearest ancestor: which tool a
    finding's pointer lies in."""
    while True:
        owner = owners.get(pointer)
        if owner is not None or not pointer:
            return owner
        pointer = parent_pointer(pointer)


def resolve_pointer(document: JSON, pointer: str) -> JSON:
    """The value at `pointer`; raises KeyError when it does not exist."""
    node = document
    for token in split_pointer(pointer):
        if is_mapping(node):
            node = node[token]
        elif isinstance(node, list):
            if not token.isdigit() or int(token) >= len(node):
                raise KeyError(token)
            node = node[int(token)]
        else:
            raise KeyError(token)
    return node


@dataclass
class Tool:
    """One tool as the model will see it, whatever dialect it was written in.

    `pointer` locates the tool object in its document; `parameters_pointer` and `output_pointer`
    locate the schemas (they differ per dialect: `/function/parameters`, `/input_schema`, ...).
    For tools extracted from Python, pointers address the synthetic document the extractor built,
    and its position map points back into the Python source.
    """

    name: str | None
    description: str | None
    parameters: JSON
    dialect: Dialect
    path: str
    pointer: str
    parameters_pointer: str | None
    name_pointer: str | None = None
    description_pointer: str | None = None
    output_schema: JSON = None
    output_pointer: str | None = None
    annotations: Mapping[str, Any] | None = None
    annotations_pointer: str | None = None
    #: the dialect's explicit strict flag; None when the definition does not say
    strict: bool | None = None
    #: e.g. "fastmcp", "langchain" for tools extracted from Python source
    framework: str | None = None
    title: str | None = None
    index: int = 0  # position within its tool set, for ordering
    #: marked `defer_loading: true` in a request body: not in the model's context until a search loads it
    deferred: bool = False
    #: the schema keywords the source format can hold, when schemalint built `parameters` from a format
    #: that is not JSON Schema (Docker's catalog `arguments`); None: the author wrote JSON Schema
    source_keywords: frozenset[str] | None = None

    @property
    def display_name(self) -> str:
        return self.name if self.name else f"<tool #{self.index}>"

    def can_hold(self, keyword: str) -> bool:
        """Whether the author could have written `keyword` in this tool's parameters: a rule that asks
        for a missing keyword has nothing to say where the format has no place for it."""
        return self.source_keywords is None or keyword in self.source_keywords

    def schema_nodes(self) -> Iterator[SchemaNode]:
        """Every sub-schema of the parameters, outermost first."""
        if self.parameters_pointer is None:
            return iter(())
        return iter(_schema_node_list(self, self.parameters, self.parameters_pointer))


@dataclass
class ToolSet:
    """The tools a model sees together (one file by default; config `toolsets` groups files)."""

    name: str
    tools: list[Tool] = field(default_factory=list)


class SchemaNode:
    """A sub-schema reached while walking a tool's parameters.

    `property_name` is the key under `properties` that led here (None for the root and for
    items/anyOf branches); `depth` counts object/array levels below the parameters object
    (the root is depth 0, a top-level property is depth 1).

    Read-only (`Final`, checked by mypy, not at run time, where a frozen dataclass's `__init__` is
    slow). What every rule asks of a node (`is_mapping`, `schema_types`) is worked out here once.
    """

    __slots__ = (
        "depth",
        "is_mapping",
        "is_property",
        "is_root",
        "parent",
        "pointer",
        "property_name",
        "schema",
        "tool",
        "types",
        "via",
    )

    def __init__(
        self,
        tool: Tool,
        schema: JSON,
        pointer: str,
        property_name: str | None,
        depth: int,
        parent: SchemaNode | None = None,
        via: str | None = None,
    ) -> None:
        self.tool: Final = tool
        self.schema: Final = schema
        self.pointer: Final = pointer
        self.property_name: Final = property_name
        self.depth: Final = depth
        self.parent: Final = parent
        #: how this node was reached from its parent: "properties", "items", "anyOf", ...
        self.via: Final = via
        self.is_root: Final = parent is None
        #: reached through `properties`
        self.is_property: Final = via == "properties"
        #: `is_mapping(schema)` (a dict, as nearly every schema is, without the call)
        self.is_mapping: Final = type(schema) is dict or is_mapping(schema)
        #: `schema_types(schema)`
        self.types: Final = schema_types(schema)

    @property
    def words(self) -> tuple[str, ...]:
        """The words of the property name (`split_name`); () for a node that is not a named property."""
        return split_name(self.property_name)

    @property
    def description(self) -> str:
        """The schema's description as the prose rules read it (`description_of`)."""
        return description_of(self.schema)

    def __repr__(self) -> str:
        return f"SchemaNode({self.tool.display_name!r}, {self.pointer!r})"


JSON_SCHEMA_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})


def schema_types(schema: JSON) -> frozenset[str]:
    """The set of `type` values, lower-cased (Gemini spells them upper-case)."""
    if not isinstance(schema, dict):
        return _NO_TYPES
    raw = schema.get("type")
    if isinstance(raw, str):
        return frozenset({raw.lower()})
    if isinstance(raw, list):
        return frozenset(t.lower() for t in raw if isinstance(t, str))
    return _NO_TYPES


_NO_TYPES: frozenset[str] = frozenset()


def is_object_schema(schema: JSON) -> bool:
    return is_mapping(schema) and (
        "object" in schema_types(schema) or ("type" not in schema and is_mapping(schema.get("properties")))
    )


_CHILD_KEYWORDS = frozenset(SCHEMA_KEYWORDS_MAP + SCHEMA_KEYWORDS_SINGLE + SCHEMA_KEYWORDS_LIST)
#: the order a node's children are walked in: keyword lists above, map keywords first
_CHILD_ORDER = {
    keyword: rank for rank, keyword in enumerate(SCHEMA_KEYWORDS_MAP + SCHEMA_KEYWORDS_SINGLE + SCHEMA_KEYWORDS_LIST)
}
#: keywords whose sub-schemas are one object/array level deeper; composition branches stay at the same level
_NESTING_KEYWORDS = frozenset({"properties", "patternProperties", "items", "additionalItems", "prefixItems"})
_MAP_KEYWORDS = frozenset(SCHEMA_KEYWORDS_MAP)
_LIST_KEYWORDS = frozenset(SCHEMA_KEYWORDS_LIST)


def _schema_node_list(tool: Tool, root: JSON, pointer: str) -> list[SchemaNode]:
    nodes: list[SchemaNode] = []
    stack = [SchemaNode(tool, root, pointer, None, 0)]
    while stack:
        node = stack.pop()
        nodes.append(node)
        schema = node.schema
        if not isinstance(schema, dict):
            continue
        keywords = _CHILD_KEYWORDS.intersection(schema)
        if not keywords:
            continue  # a leaf: most nodes are
        children: list[SchemaNode] = []
        tuple_items: list[Any] | None = None
        for keyword in sorted(keywords, key=_CHILD_ORDER.__getitem__) if len(keywords) > 1 else keywords:
            value = schema[keyword]
            depth = node.depth + 1 if keyword in _NESTING_KEYWORDS else node.depth
            prefix = f"{node.pointer}/{keyword}"  # no keyword needs escaping
            if isinstance(value, dict):
                if keyword in _MAP_KEYWORDS:
                    named = keyword == "properties"
                    for key, sub in value.items():
                        children.append(
                            SchemaNode(
                                tool,
                                sub,
                                f"{prefix}/{escape_pointer_token(key)}",
                                key if named else None,
                                depth,
                                node,
                                keyword,
                            )
                        )
                elif keyword not in _LIST_KEYWORDS:
                    children.append(SchemaNode(tool, value, prefix, None, depth, node, keyword))
            elif isinstance(value, list):
                if keyword == "items":
                    tuple_items = value  # draft-04 tuple form: walked after every other keyword
                elif keyword in _LIST_KEYWORDS:
                    for i, sub in enumerate(value):
                        children.append(SchemaNode(tool, sub, f"{prefix}/{i}", None, depth, node, keyword))
        if tuple_items is not None:
            prefix, depth = f"{node.pointer}/items", node.depth + 1
            for i, sub in enumerate(tuple_items):
                children.append(SchemaNode(tool, sub, f"{prefix}/{i}", None, depth, node, "items"))
        children.reverse()
        stack.extend(children)
    return nodes


def nullable_union_branch(schema: JSON) -> tuple[str, JSON] | None:
    """For `anyOf`/`oneOf` of exactly one schema and `{"type": "null"}`: (keyword, the non-null branch)."""
    if not isinstance(schema, dict):
        return None
    for keyword in ("anyOf", "oneOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list) and len(branches) == 2:
            nulls = [b for b in branches if is_mapping(b) and schema_types(b) == {"null"} and len(b) == 1]
            if len(nulls) == 1:
                other = branches[1] if branches[0] is nulls[0] else branches[0]
                return keyword, other
    return None


@dataclass(frozen=True)
class ToolChoice:
    """A request's `tool_choice` (OpenAI, Anthropic) or Gemini `functionCallingConfig`, in one shape.

    `mode` is "auto", "required" (some tool must be called), "none", or "named" (only the tools in
    `names` may be called: one forced tool, or Gemini's `allowedFunctionNames`); `names` holds each
    named tool with the pointer of its name.
    """

    mode: str
    pointer: str
    names: tuple[tuple[str, str], ...] = ()


@dataclass
class Request:
    """A request body that sends tools (OpenAI Chat/Responses, Anthropic Messages, Gemini), with the
    fields beside `tools` that decide how the model may use them."""

    #: the API the body is written for (the dialect of its tools, or of its keys when it sends none)
    api: Dialect
    path: str
    #: the request body
    pointer: str
    tools_pointer: str
    #: the function tools it sends (inside namespaces too), as the tool set's Tools
    tools: list[Tool] = field(default_factory=list)
    tool_choice: ToolChoice | None = None
    #: whether parallel calls are allowed as written (`parallel_tool_calls`, Anthropic's negated
    #: `disable_parallel_tool_use`); None when the body leaves it at the API's default
    parallel_calls: bool | None = None
    parallel_pointer: str | None = None
    #: pointers of the entries of `tools` (or of a namespace's `tools`) marked `defer_loading: true`
    deferred: tuple[str, ...] = ()
    #: pointers of the tool-search tools it sends (a provider's search tool or a client-side one)
    search_tools: tuple[str, ...] = ()
    #: pointers of every top-level entry of `tools` (function, server, search and namespace entries)
    entries: tuple[str, ...] = ()
    #: the names of every entry a `tool_choice` may name: function, server and search tools, in namespaces too
    entry_names: frozenset[str] = frozenset()
    #: it sends tools whose names the body does not list (an MCP server or toolset entry)
    has_unlisted_tools: bool = False


@dataclass(frozen=True)
class EvalCase:
    """One case of an eval fixture: an input and the call the model is expected to make (or not)."""

    pointer: str
    #: the expected tool; None for a negative case (`"tool": null`)
    tool: str | None
    #: where `expect.tool` is (None when the case names no tool: `expect` without `tool`)
    tool_pointer: str | None
    args: JSON = None
    args_pointer: str | None = None
    requires_confirmation: bool = False
    #: the case's kinds, as the guide names them: positive, negative, boundary, adversarial
    kinds: frozenset[str] = frozenset()


@dataclass
class EvalFixture:
    """An eval fixture file: `{name, tools: [names], cases: [{input, expect: {tool, args, requiresConfirmation}}]}`,
    or JSON Lines of cases. `tools` is filled in by the engine: the definitions the fixture is linked to."""

    path: str
    cases: list[EvalCase]
    #: where the cases are (`/cases`, or the document itself for JSON Lines)
    cases_pointer: str
    #: the fixture's own `tools` list as (name, pointer); None when it has none
    listed: tuple[tuple[str, str], ...] | None = None
    #: the tool definitions it is checked against (config `fixtures`, or the set its names are found in)
    tools: list[Tool] | None = None

    def tool_names(self) -> list[tuple[str, str]]:
        """The tools of its set with where to report on each: its own `tools` list, else the linked
        definitions (reported on `cases`); [] for a fixture with neither."""
        if self.listed is not None:
            return list(self.listed)
        return [(tool.name, self.cases_pointer) for tool in self.tools or () if tool.name is not None]
