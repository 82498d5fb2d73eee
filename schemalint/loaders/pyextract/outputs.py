"""The `outputSchema` FastMCP and the MCP SDK derive from a tool function's return annotation.

Both build pydantic's schema of the return type; an object type (a model, TypedDict, dataclass,
`dict[str, X]`) is the schema itself, anything else is wrapped as `{"result": <type>}`. Where they
differ (which types get no schema, titles, `$defs`) follows `fastmcp.tools.function_parsing` and
`mcp.server.mcpserver.utilities.func_metadata`; tests/test_python_frameworks.py checks each case
against the installed frameworks. A return type this file does not define gets no schema.
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from schemalint.loaders.pyextract import postprocess
from schemalint.loaders.pyextract.schema import Flavor, JSONSchema, SchemaBuilder, class_kind
from schemalint.loaders.pyextract.source import UNKNOWN, Assumptions, SourceModule, call_argument, dotted_name, names_in

#: MCP content types and helpers: the model reads them as content, no structured output is derived
_CONTENT = frozenset(
    "Image Audio File ToolResult CallToolResult InputRequiredResult ContentBlock TextContent ImageContent "
    "AudioContent ResourceLink EmbeddedResource".split()
)
#: wrapped by the MCP SDK (as are generics other than `dict[str, X]`)
_MCP_WRAPPED_NAMES = frozenset({"str", "int", "float", "bool", "bytes", "None"})
_UNCONSTRAINED_SEQUENCES = frozenset({"list", "tuple", "List", "Tuple", "Sequence"})
_NO_SCHEMA = frozenset({"Any", "Ellipsis"})


def output_schema(
    source: SourceModule,
    framework: str,
    flavor: Flavor,
    function: cst.FunctionDef,
    call: cst.Call | None,
) -> JSONSchema | None:
    """The output schema the framework publishes for `function`, or None."""
    explicit = _explicit(source, framework, call)
    if explicit is not UNKNOWN:
        return explicit if isinstance(explicit, dict) else None
    if function.returns is None:
        return None
    builder = SchemaBuilder(source, flavor, Assumptions())
    annotation = function.returns.annotation
    inner = builder._unwrap_annotated(annotation)
    if inner is None or names_in(inner) & _CONTENT:
        return None
    if framework == "fastmcp":
        schema = _fastmcp(builder, annotation, inner)
    else:
        schema = _mcp(builder, annotation, inner, function.name.value)
    # a type this file does not define (or one not understood) would be a guess
    return schema if schema is not None and not builder.assumptions.items else None


def _explicit(source: SourceModule, framework: str, call: cst.Call | None) -> Any:
    """`output_schema={...}` / `output_schema=None` (FastMCP), `structured_output=False` (MCP SDK)."""
    if call is None:
        return UNKNOWN
    if framework == "fastmcp":
        argument = call_argument(call, "output_schema")
        if argument is None:
            return UNKNOWN
        value = source.literal(argument.value)
        return value if value is None or isinstance(value, dict) else UNKNOWN
    argument = call_argument(call, "structured_output")
    return None if argument is not None and source.literal(argument.value) is False else UNKNOWN


def _fastmcp(builder: SchemaBuilder, annotation: cst.BaseExpression, inner: cst.BaseExpression) -> JSONSchema | None:
    name = dotted_name(inner)
    if name == "None" or name in _NO_SCHEMA or _has_bytes(builder, inner) or _unconstrained_sequence(builder, inner):
        return None
    base = _root(builder, inner)
    if not _is_object(base):
        result = builder.parameter("result", annotation, None, annotation, annotation).schema
        base = {"properties": {"result": result}, "required": ["result"], "type": "object"}
        if builder.defs:
            base["$defs"] = dict(builder.defs)
        base["x-fastmcp-wrap-result"] = True
    if postprocess.refers_to_itself(base):
        base = _inline_root_ref(base)
    else:
        base, _ = postprocess.dereference(base, {})
    return postprocess.prune_titles_fastmcp(base)


def _mcp(
    builder: SchemaBuilder, annotation: cst.BaseExpression, inner: cst.BaseExpression, function_name: str
) -> JSONSchema | None:
    name = dotted_name(inner)
    if isinstance(inner, cst.Subscript):
        base_name = dotted_name(inner.value) or ""
        args = [e.slice.value for e in inner.slice if isinstance(e.slice, cst.Index)]
        if base_name == "dict" and len(args) == 2 and dotted_name(args[0]) == "str":
            schema = {**builder.type_schema(inner), "title": f"{function_name}DictOutput"}
            return _with_defs(schema, builder)
        return _wrapped(builder, annotation, function_name)  # list[...], Union[...], Optional[...], ...
    if isinstance(inner, (cst.Name, cst.Attribute)) and name is not None:
        if name in _MCP_WRAPPED_NAMES:
            return _wrapped(builder, annotation, function_name)
        kind = class_kind(builder.source, name) if name in builder.source.classes else None
        if kind in ("model", "typeddict", "dataclass"):
            root = _root(builder, inner)
            if kind == "dataclass":  # rebuilt with pydantic's create_model: the docstring is not kept
                root.pop("description", None)
            return _inline_root_ref(root)
        if name in builder.source.constants and name not in builder.source.imports:
            return _wrapped(builder, annotation, function_name)  # an alias of a typing construct
        return None  # a class without annotations (Any, datetime, an Enum ...): no structured output
    return _wrapped(builder, annotation, function_name)


def _wrapped(builder: SchemaBuilder, annotation: cst.BaseExpression, function_name: str) -> JSONSchema:
    """`create_model(f"{name}Output", result=<annotation>)`."""
    result = builder.parameter("result", annotation, None, annotation, annotation).schema
    schema = {"properties": {"result": result}, "required": ["result"], "title": f"{function_name}Output"}
    schema["type"] = "object"
    return _with_defs(schema, builder)


def _root(builder: SchemaBuilder, inner: cst.BaseExpression) -> JSONSchema:
    """pydantic's schema of the type at the root: a class's own schema with the other `$defs` beside it
    (a recursive class stays a root `$ref`, as pydantic emits it)."""
    schema = builder.type_schema(inner)
    ref = schema.get("$ref")
    if set(schema) == {"$ref"} and isinstance(ref, str):
        name = ref.rsplit("/", 1)[-1]
        if not postprocess.refers_to_itself({"$defs": builder.defs, "$ref": ref}):
            schema = dict(builder.defs.pop(name))
    return _with_defs(schema, builder)


def _with_defs(schema: JSONSchema, builder: SchemaBuilder) -> JSONSchema:
    return {**schema, "$defs": dict(builder.defs)} if builder.defs else schema


def _inline_root_ref(schema: JSONSchema) -> JSONSchema:
    """A root `$ref` into `$defs` becomes the definition, `$defs` kept (both frameworks do this)."""
    ref = schema.get("$ref")
    defs = schema.get("$defs", {})
    if not isinstance(ref, str) or not ref.startswith("#/$defs/") or ref[len("#/$defs/") :] not in defs:
        return schema
    siblings = {k: v for k, v in schema.items() if k != "$ref"}
    return {**defs[ref[len("#/$defs/") :]], **siblings}


def _is_object(schema: JSONSchema) -> bool:
    """FastMCP's `is_object_schema`: an object type (or object-or-null), properties, or a `$ref` to one."""
    kind = schema.get("type")
    if isinstance(kind, list):
        return [t for t in kind if t != "null"] == ["object"]
    if "type" in schema:
        return bool(kind == "object")
    if "properties" in schema:
        return True
    ref = schema.get("$ref")
    defs = schema.get("$defs", {})
    if isinstance(ref, str) and ref.startswith("#/$defs/") and isinstance(defs.get(ref[8:]), dict):
        return _is_object(defs[ref[8:]])
    return False


def _has_bytes(builder: SchemaBuilder, node: cst.BaseExpression) -> bool:
    """`bytes` itself or as an arm of a union (FastMCP's `_contains_bytes_type`)."""
    members = builder._union_members(node) or [node]
    return any(dotted_name(builder._unwrap_annotated(m)) == "bytes" for m in members)


def _unconstrained_sequence(builder: SchemaBuilder, node: cst.BaseExpression) -> bool:
    """Bare `list`/`tuple`/`Sequence`, `list[Any]`, `tuple[Any, ...]` (FastMCP derives nothing from them)."""
    if isinstance(node, (cst.Name, cst.Attribute)):
        return (dotted_name(node) or "").rsplit(".", 1)[-1] in _UNCONSTRAINED_SEQUENCES
    if not isinstance(node, cst.Subscript):
        return False
    base = (dotted_name(node.value) or "").rsplit(".", 1)[-1]
    if base not in _UNCONSTRAINED_SEQUENCES:
        return False
    args = [e.slice.value for e in node.slice if isinstance(e.slice, cst.Index)]
    if base in ("tuple", "Tuple"):
        return len(args) == 2 and dotted_name(args[0]) == "Any" and isinstance(args[1], cst.Ellipsis)
    return all(dotted_name(a) == "Any" for a in args)
