"""Python annotations -> JSON Schema, the way pydantic v2 builds it (`model_json_schema`).

Positions are recorded beside the schema as relative JSON pointers (from the parameters object)
mapped to (key span, value span), so diagnostics can point at a parameter or a model field.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any

import libcst as cst

from schemalint.loaders.pyextract.source import (
    UNKNOWN,
    Assumptions,
    SourceModule,
    call_argument,
    dotted_name,
    enum_members,
    last_name,
    raw_docstring,
)
from schemalint.model import Span, join_pointer

JSONSchema = dict[str, Any]
SpanPair = tuple[Span, Span]

_SIMPLE: dict[str, JSONSchema] = {
    "str": {"type": "string"},
    "int": {"type": "integer"},
    "float": {"type": "number"},
    "bool": {"type": "boolean"},
    "bytes": {"type": "string", "format": "binary"},
    "None": {"type": "null"},
    "NoneType": {"type": "null"},
    "Any": {},
    "object": {},
    "datetime": {"type": "string", "format": "date-time"},
    "AwareDatetime": {"type": "string", "format": "date-time"},
    "NaiveDatetime": {"type": "string", "format": "date-time"},
    "date": {"type": "string", "format": "date"},
    "time": {"type": "string", "format": "time"},
    "timedelta": {"type": "string", "format": "duration"},
    "UUID": {"type": "string", "format": "uuid"},
    "UUID4": {"type": "string", "format": "uuid4"},
    "Path": {"type": "string", "format": "path"},
    "PurePath": {"type": "string", "format": "path"},
    "FilePath": {"type": "string", "format": "file-path"},
    "DirectoryPath": {"type": "string", "format": "directory-path"},
    "EmailStr": {"type": "string", "format": "email"},
    "AnyUrl": {"type": "string", "format": "uri", "minLength": 1},
    "AnyHttpUrl": {"type": "string", "format": "uri", "minLength": 1},
    "HttpUrl": {"type": "string", "format": "uri", "minLength": 1, "maxLength": 2083},
    "Decimal": {"anyOf": [{"type": "number"}, {"type": "string", "pattern": "^(?!^[-+.]*$)[+-]?0*\\d*\\.?\\d*$"}]},
    "SecretStr": {"type": "string", "format": "password", "writeOnly": True},
    "Json": {},
    "JsonValue": {},
}
_ARRAYS = {"list", "List", "Sequence", "MutableSequence", "Iterable", "Collection", "Iterator", "Deque", "deque"}
_SETS = {"set", "Set", "frozenset", "FrozenSet", "AbstractSet", "MutableSet"}
_MAPPINGS = {"dict", "Dict", "Mapping", "MutableMapping", "OrderedDict", "DefaultDict", "defaultdict"}
_TUPLES = {"tuple", "Tuple"}
_FIELD_CONSTRAINTS = {
    "ge": "minimum",
    "gt": "exclusiveMinimum",
    "le": "maximum",
    "lt": "exclusiveMaximum",
    "multiple_of": "multipleOf",
    "pattern": "pattern",
    "title": "title",
    "examples": "examples",
    "deprecated": "deprecated",
}
_CONSTRAINED_TYPES = {"constr": "str", "conint": "int", "confloat": "float", "conlist": "list", "conset": "set"}


@dataclass(frozen=True)
class Flavor:
    """How one framework's schema generation differs before its own post-processing."""

    framework: str
    #: `Annotated[T, "doc"]` becomes the property description
    annotated_doc: bool = True
    #: an unannotated parameter is `{"type": "string"}` titled with the raw name (MCP SDK)
    untyped_as_string: bool = False


@dataclass
class FieldSpec:
    """One parameter or model field, before it is placed in an object schema."""

    name: str
    schema: JSONSchema
    required: bool
    key_span: Span
    value_span: Span


def field_title(name: str) -> str:
    return name.title().replace("_", " ").strip()


class SchemaBuilder:
    """Builds schemas for one tool; `defs` collects same-file classes referenced as `$defs`."""

    def __init__(self, source: SourceModule, flavor: Flavor, assumptions: Assumptions) -> None:
        self.source = source
        self.flavor = flavor
        self.assumptions = assumptions
        self.defs: dict[str, JSONSchema] = {}
        self.def_spans: dict[str, SpanPair] = {}
        #: classes and aliases whose schema is being built (a reference back to one is recursion)
        self._building: set[str] = set()
        #: plain aliases found to refer to themselves
        self._recursive: set[str] = set()

    # -- entry points ----------------------------------------------------------------------------

    def parameter(
        self,
        name: str,
        annotation: cst.BaseExpression | None,
        default: cst.BaseExpression | None,
        key_node: cst.CSTNode,
        value_node: cst.CSTNode | None,
    ) -> FieldSpec:
        """A function parameter as a pydantic field (Annotated metadata and `= Field(...)` defaults)."""
        key_span = self.source.span(key_node)
        value_span = self.source.span(value_node) if value_node is not None else key_span
        if annotation is None:
            if self.flavor.untyped_as_string:
                schema: JSONSchema = {"title": name, "type": "string"}
            else:
                schema = {"title": field_title(name)}
            spec = FieldSpec(name, schema, default is None, key_span, value_span)
            self._apply_default(spec, default, None)
            return spec
        return self._field(name, annotation, default, key_span, value_span)

    def is_local_model(self, annotation: cst.BaseExpression | None) -> bool:
        node = self._unwrap_annotated(annotation)
        name = dotted_name(node) if node is not None else None
        return name in self.source.classes and class_kind(self.source, name) in ("model", "typeddict", "dataclass")

    def class_schema(self, name: str) -> JSONSchema:
        """The `$defs` entry for a same-file class (built once)."""
        self.type_schema(cst.Name(name))
        return self.defs[name]

    # -- fields ----------------------------------------------------------------------------------

    def _field(
        self,
        name: str,
        annotation: cst.BaseExpression,
        default: cst.BaseExpression | None,
        key_span: Span,
        value_span: Span,
    ) -> FieldSpec:
        annotation = self._parse_string_annotation(annotation)
        inner, metadata = self._split_annotated(annotation)
        schema = self.type_schema(inner)
        spec = FieldSpec(name, schema, True, key_span, value_span)
        field_call: cst.Call | None = None
        for meta in metadata:
            if isinstance(meta, cst.Call) and last_name(meta.func) == "Field":
                field_call = meta
            elif self.flavor.annotated_doc and isinstance(meta, (cst.SimpleString, cst.ConcatenatedString)):
                text = self.source.literal(meta)
                if isinstance(text, str) and "description" not in schema:
                    schema["description"] = text
            elif isinstance(meta, cst.Call) and last_name(meta.func) in ("Ge", "Gt", "Le", "Lt", "MinLen", "MaxLen"):
                self._annotated_types(schema, meta)
        if isinstance(default, cst.Call) and last_name(default.func) == "Field":
            field_call = default
            default = None
        field_default: cst.BaseExpression | None = None
        has_factory = False
        if field_call is not None:
            self._apply_field(spec, field_call)
            first = call_argument(field_call, "default", 0)
            if first is not None and not (isinstance(first.value, cst.Ellipsis)):
                field_default = first.value
            has_factory = call_argument(field_call, "default_factory") is not None
        if has_factory:
            spec.required = False
        self._apply_default(spec, default or field_default, inner)
        if "title" not in schema and self._titled(inner):
            schema["title"] = field_title(spec.name)
        return spec

    def _apply_default(
        self, spec: FieldSpec, default: cst.BaseExpression | None, annotation: cst.BaseExpression | None
    ) -> None:
        if default is None:
            return
        spec.required = False
        value = self.source.literal(default)
        if value is UNKNOWN:
            self.assumptions.add(f"the default of `{spec.name}` is computed at run time; it is left out of the schema")
            return
        spec.schema["default"] = value

    def _apply_field(self, spec: FieldSpec, call: cst.Call) -> None:
        schema = spec.schema
        is_array = schema.get("type") == "array"
        is_object = schema.get("type") == "object"
        for arg in call.args:
            if arg.keyword is None:
                continue
            key = arg.keyword.value
            if key == "alias":
                alias = self.source.literal(arg.value)
                if isinstance(alias, str):
                    spec.name = alias
                continue
            if key in ("default", "default_factory"):
                continue
            value = self.source.literal(arg.value)
            if key == "description":
                if isinstance(value, str):
                    schema["description"] = value
                else:
                    self.assumptions.add(f"the description of `{spec.name}` is built at run time")
                continue
            if value is UNKNOWN:
                if key in _FIELD_CONSTRAINTS or key in ("min_length", "max_length", "json_schema_extra"):
                    self.assumptions.add(f"`{key}` of `{spec.name}` is computed at run time; left out")
                continue
            if key in _FIELD_CONSTRAINTS:
                schema[_FIELD_CONSTRAINTS[key]] = value
            elif key in ("min_length", "max_length"):
                prefix = "min" if key.startswith("min") else "max"
                suffix = "Items" if is_array else "Properties" if is_object else "Length"
                schema[prefix + suffix] = value
            elif key == "json_schema_extra" and isinstance(value, dict):
                schema.update(value)

    def _annotated_types(self, schema: JSONSchema, call: cst.Call) -> None:
        if not call.args:
            return
        value = self.source.literal(call.args[0].value)
        if value is UNKNOWN:
            return
        kind = last_name(call.func)
        keyword = {"Ge": "minimum", "Gt": "exclusiveMinimum", "Le": "maximum", "Lt": "exclusiveMaximum"}.get(kind or "")
        if keyword:
            schema[keyword] = value
        elif kind in ("MinLen", "MaxLen"):
            prefix = "min" if kind == "MinLen" else "max"
            schema[prefix + ("Items" if schema.get("type") == "array" else "Length")] = value

    def _titled(self, annotation: cst.BaseExpression) -> bool:
        """pydantic leaves the title off a field whose type is a referenced class (or Optional of one)."""
        node = self._unwrap_annotated(annotation)
        members = self._union_members(node) if node is not None else None
        if members is not None:
            non_null = [m for m in members if dotted_name(m) not in ("None", "NoneType")]
            if len(non_null) != 1 or len(non_null) == len(members):
                return True
            node = self._unwrap_annotated(non_null[0])
        name = dotted_name(node) if node is not None else None
        if name is not None and name in self.defs and name not in self.source.classes:
            return False  # a `$ref` to an alias's `$defs` entry
        return not (name is not None and name in self.source.classes and class_kind(self.source, name) is not None)

    # -- types -----------------------------------------------------------------------------------

    def type_schema(self, node: cst.BaseExpression | None, depth: int = 0) -> JSONSchema:
        if node is None or depth > 30:
            return {}
        node = self._parse_string_annotation(node)
        if isinstance(node, (cst.Name, cst.Attribute)):
            return self._named(node, depth)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
            return self._union([node.left, node.right], depth)
        if isinstance(node, cst.Subscript):
            return self._subscript(node, depth)
        if isinstance(node, cst.Call) and last_name(node.func) in _CONSTRAINED_TYPES:
            base = self.type_schema(cst.Name(_CONSTRAINED_TYPES[last_name(node.func) or ""]), depth + 1)
            if base.get("type") == "array" and node.args and node.args[0].keyword is None:
                base["items"] = self.type_schema(node.args[0].value, depth + 1)
            spec = FieldSpec("value", base, True, Span(1, 1, 1, 1), Span(1, 1, 1, 1))
            self._apply_field(spec, node)
            return spec.schema
        self.assumptions.add(f"the annotation `{self.source.module.code_for_node(node)}` is not understood")
        return {}

    def _named(self, node: cst.Name | cst.Attribute, depth: int) -> JSONSchema:
        dotted = dotted_name(node) or ""
        name = dotted.rsplit(".", 1)[-1]
        if dotted in self.source.classes:
            return self._class_ref(dotted, depth)
        if dotted in self.source.constants and dotted not in self.source.imports:
            alias = self.source.constants[dotted]
            declared = type_alias_value(alias)
            if declared is not None:
                return self._alias_ref(dotted, declared, depth, declared=True)
            if isinstance(alias, (cst.Subscript, cst.BinaryOperation, cst.Name, cst.Attribute)):
                return self._alias_ref(dotted, alias, depth, declared=False)
        if name in _SIMPLE:
            return dict(_SIMPLE[name])
        if name in _ARRAYS or name in _TUPLES:
            return {"type": "array", "items": {}}
        if name in _SETS:
            return {"type": "array", "items": {}, "uniqueItems": True}
        if name in _MAPPINGS:
            return {"type": "object", "additionalProperties": True}
        qualified = self.source.qualified_name(node) or dotted
        origin = f" (imported from `{qualified.rsplit('.', 1)[0]}`)" if qualified != dotted else ""
        self.assumptions.add(
            f"the type `{dotted}`{origin} is not defined in this file; it is assumed to accept any value"
        )
        return {}

    def _alias_ref(self, name: str, value: cst.BaseExpression, depth: int, declared: bool) -> JSONSchema:
        """A type alias: pydantic gives a `TypeAliasType` a `$defs` entry and inlines a plain alias.
        A plain alias that refers to itself (`Json = Union[dict[str, "Json"], ...]`) makes pydantic
        fail at run time; it gets the schema its `TypeAliasType` spelling has, and an SL004 note."""
        if name in self.defs:
            return {"$ref": f"#/$defs/{name}"}
        if name in self._building:
            self._recursive.add(name)
            return {"$ref": f"#/$defs/{name}"}
        self._building.add(name)
        schema = self.type_schema(value, depth + 1)
        self._building.discard(name)
        if not declared and name not in self._recursive:
            return schema
        if not declared:
            self.assumptions.add(
                f"the alias `{name}` refers to itself: pydantic cannot build it (RecursionError) unless it is "
                f'declared as `{name} = TypeAliasType("{name}", ...)`; that schema is assumed'
            )
        self.defs[name] = schema
        return {"$ref": f"#/$defs/{name}"}

    def _subscript(self, node: cst.Subscript, depth: int) -> JSONSchema:
        base = last_name(node.value) or ""
        args = [e.slice.value for e in node.slice if isinstance(e.slice, cst.Index)]
        if base == "Optional" and args:
            return self._union([args[0], cst.Name("None")], depth)
        if base == "Union":
            return self._union(args, depth)
        if base == "Annotated" and args:
            inner, metadata = self._split_annotated(node)
            schema = self.type_schema(inner, depth + 1)
            for meta in metadata:
                if isinstance(meta, cst.Call) and last_name(meta.func) == "Field":
                    spec = FieldSpec("value", schema, True, Span(1, 1, 1, 1), Span(1, 1, 1, 1))
                    self._apply_field(spec, meta)
            return schema
        if base == "Literal":
            return self._literal(args)
        if base in ("Required", "NotRequired", "ReadOnly", "Final", "ClassVar") and args:
            return self.type_schema(args[0], depth + 1)
        if base in _ARRAYS and args:
            return {"type": "array", "items": self.type_schema(args[0], depth + 1)}
        if base in _SETS and args:
            return {"type": "array", "items": self.type_schema(args[0], depth + 1), "uniqueItems": True}
        if base in _TUPLES:
            if len(args) == 2 and isinstance(args[1], cst.Ellipsis):
                return {"type": "array", "items": self.type_schema(args[0], depth + 1)}
            if not args:
                return {"type": "array", "items": {}}
            items = [self.type_schema(a, depth + 1) for a in args]
            return {"type": "array", "prefixItems": items, "minItems": len(items), "maxItems": len(items)}
        if base in _MAPPINGS:
            if len(args) == 2:
                value = self.type_schema(args[1], depth + 1)
                return {"type": "object", "additionalProperties": value if value else True}
            return {"type": "object", "additionalProperties": True}
        if base in ("Type", "type", "Callable"):
            self.assumptions.add(f"`{self.source.module.code_for_node(node)}` has no JSON Schema")
            return {}
        return self.type_schema(node.value, depth + 1)

    def _union(self, members: list[cst.BaseExpression], depth: int) -> JSONSchema:
        flat: list[JSONSchema] = []
        for member in members:
            schema = self.type_schema(member, depth + 1)
            inner = schema.get("anyOf") if set(schema) == {"anyOf"} else None
            for option in inner if inner is not None else [schema]:
                if option not in flat:
                    flat.append(option)
        return flat[0] if len(flat) == 1 else {"anyOf": flat}

    def _literal(self, args: list[cst.BaseExpression]) -> JSONSchema:
        values: list[Any] = []
        for arg in args:
            value = self.source.literal(arg)
            if value is UNKNOWN:
                self.assumptions.add(f"a Literal value `{self.source.module.code_for_node(arg)}` is not a constant")
                continue
            if isinstance(value, list):  # Literal["a", "b"] written as a nested tuple alias
                values.extend(value)
            else:
                values.append(value)
        values = list(dict.fromkeys(values))
        json_type = _json_type_of(values)
        schema: JSONSchema = {"const": values[0]} if len(values) == 1 else {"enum": values}
        if json_type:
            schema["type"] = json_type
        return schema

    # -- classes ---------------------------------------------------------------------------------

    def _class_ref(self, name: str, depth: int) -> JSONSchema:
        kind = class_kind(self.source, name)
        if kind is None:
            self.assumptions.add(f"the class `{name}` is not a pydantic model, TypedDict, dataclass or Enum")
            return {}
        if name not in self.defs and name not in self._building:
            self._building.add(name)
            node = self.source.classes[name]
            self.source.activate(node)
            self.def_spans[join_pointer("", "$defs", name)] = (self.source.span(node.name), self.source.span(node.name))
            if kind == "enum":
                self.defs[name] = self._enum_schema(node)
            else:
                self.defs[name] = self._object_class_schema(name, node, kind, depth)
            self._building.discard(name)
        return {"$ref": f"#/$defs/{name}"}

    def _enum_schema(self, node: cst.ClassDef) -> JSONSchema:
        members = enum_members(self.source, node)
        values = [value for _, value in members if value is not UNKNOWN]
        if len(values) < len(members):
            self.assumptions.add(f"some values of the Enum `{node.name.value}` are computed at run time")
        schema: JSONSchema = {"enum": values, "title": node.name.value}
        doc, _ = raw_docstring(self.source, node.body)
        if doc:
            schema["description"] = inspect.cleandoc(doc)
        json_type = _json_type_of(values)
        if json_type:
            schema["type"] = json_type
        return schema

    def _object_class_schema(self, name: str, node: cst.ClassDef, kind: str, depth: int) -> JSONSchema:
        fields: list[FieldSpec] = []
        total = True
        for keyword in node.keywords:
            if keyword.keyword is not None and keyword.keyword.value == "total":
                total = self.source.literal(keyword.value) is not False
        for base in self._class_chain(node):
            fields.extend(self._class_fields(base, kind, total))
        properties: JSONSchema = {}
        required: list[str] = []
        prefix = join_pointer("", "$defs", name, "properties")
        for spec in fields:
            properties[spec.name] = spec.schema
            if spec.required:
                required.append(spec.name)
            self.def_spans[join_pointer(prefix, spec.name)] = (spec.key_span, spec.value_span)
        schema: JSONSchema = {"properties": properties}
        if required:
            schema["required"] = required
        schema["title"] = name
        schema["type"] = "object"
        doc, _ = raw_docstring(self.source, node.body)
        if doc:
            schema["description"] = inspect.cleandoc(doc)
        if kind == "model" and self._forbids_extra(node):
            schema["additionalProperties"] = False
        return schema

    def _class_chain(self, node: cst.ClassDef) -> list[cst.ClassDef]:
        """The class and its same-file bases, base first (pydantic orders inherited fields first)."""
        chain: list[cst.ClassDef] = []
        seen: set[str] = set()

        def visit(current: cst.ClassDef) -> None:
            if current.name.value in seen:
                return
            seen.add(current.name.value)
            for base in current.bases:
                base_name = dotted_name(base.value)
                if base_name and base_name in self.source.classes:
                    visit(self.source.classes[base_name])
            chain.append(current)

        visit(node)
        return chain

    def _class_fields(self, node: cst.ClassDef, kind: str, total: bool) -> list[FieldSpec]:
        fields: list[FieldSpec] = []
        if not isinstance(node.body, cst.IndentedBlock):
            return fields
        for statement in node.body.body:
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for small in statement.body:
                if not isinstance(small, cst.AnnAssign) or not isinstance(small.target, cst.Name):
                    continue
                field_name = small.target.value
                annotation = small.annotation.annotation
                if field_name.startswith("_") or last_name(_subscript_base(annotation)) == "ClassVar":
                    continue
                if field_name == "model_config":
                    continue
                default = small.value
                if kind == "dataclass" and isinstance(default, cst.Call) and last_name(default.func) == "field":
                    default = self._dataclass_field_default(default)
                spec = self._field(
                    field_name, annotation, default, self.source.span(small.target), self.source.span(annotation)
                )
                if kind == "typeddict":
                    marker = last_name(_subscript_base(self._parse_string_annotation(annotation)))
                    spec.required = marker == "Required" or (total and marker != "NotRequired")
                fields.append(spec)
        return fields

    def _dataclass_field_default(self, call: cst.Call) -> cst.BaseExpression | None:
        default = call_argument(call, "default")
        if default is not None:
            return default.value
        if call_argument(call, "default_factory") is not None:
            return cst.Call(
                func=cst.Name("Field"), args=[cst.Arg(keyword=cst.Name("default_factory"), value=cst.Name("list"))]
            )
        return None

    def _forbids_extra(self, node: cst.ClassDef) -> bool:
        if not isinstance(node.body, cst.IndentedBlock):
            return False
        for statement in node.body.body:
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if (
                        isinstance(small, (cst.Assign, cst.AnnAssign))
                        and isinstance(small.value, cst.Call)
                        and "extra" in self.source.module.code_for_node(small.value)
                    ):
                        extra = call_argument(small.value, "extra")
                        if extra is not None and self.source.literal(extra.value) == "forbid":
                            return True
        return False

    # -- helpers ---------------------------------------------------------------------------------

    def _parse_string_annotation(self, node: cst.BaseExpression) -> cst.BaseExpression:
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            text = self.source.literal(node)
            if isinstance(text, str):
                try:
                    return cst.parse_expression(text)
                except cst.ParserSyntaxError:
                    self.assumptions.add(f"the string annotation {text!r} does not parse")
        return node

    def _split_annotated(self, node: cst.BaseExpression) -> tuple[cst.BaseExpression, list[cst.BaseExpression]]:
        """`Annotated[T, m1, m2]` -> (T, [m1, m2]); nested Annotated are flattened."""
        metadata: list[cst.BaseExpression] = []
        while isinstance(node, cst.Subscript) and last_name(node.value) == "Annotated":
            args = [e.slice.value for e in node.slice if isinstance(e.slice, cst.Index)]
            if not args:
                break
            metadata = args[1:] + metadata
            node = self._parse_string_annotation(args[0])
        return node, metadata

    def _unwrap_annotated(self, node: cst.BaseExpression | None) -> cst.BaseExpression | None:
        if node is None:
            return None
        return self._split_annotated(self._parse_string_annotation(node))[0]

    def _union_members(self, node: cst.BaseExpression) -> list[cst.BaseExpression] | None:
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
            left = self._union_members(node.left) or [node.left]
            right = self._union_members(node.right) or [node.right]
            return left + right
        if isinstance(node, cst.Subscript) and last_name(node.value) in ("Optional", "Union"):
            args = [e.slice.value for e in node.slice if isinstance(e.slice, cst.Index)]
            return [*args, cst.Name("None")] if last_name(node.value) == "Optional" else args
        return None


def type_alias_value(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """The aliased type of `TypeAliasType("Name", <type>)`."""
    if isinstance(node, cst.Call) and last_name(node.func) == "TypeAliasType":
        value = call_argument(node, "value", 1)
        return value.value if value is not None else None
    return None


def _subscript_base(node: cst.BaseExpression) -> cst.BaseExpression:
    return node.value if isinstance(node, cst.Subscript) else node


def _json_type_of(values: list[Any]) -> str | None:
    if not values:
        return None
    if all(isinstance(v, str) for v in values):
        return "string"
    if all(isinstance(v, bool) for v in values):
        return "boolean"
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return "integer"
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return "number"
    if all(v is None for v in values):
        return "null"
    return None


def class_kind(source: SourceModule, name: str, seen: frozenset[str] = frozenset()) -> str | None:
    """'model', 'typeddict', 'dataclass', 'enum' or None for a class defined in this file."""
    node = source.classes.get(name)
    if node is None or name in seen:
        return None
    for decorator in node.decorators:
        target = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
        if last_name(target) == "dataclass":
            return "dataclass"
    for base in node.bases:
        base_name = dotted_name(base.value) or ""
        short = base_name.rsplit(".", 1)[-1]
        if short in ("BaseModel", "RootModel"):
            return "model"
        if short == "TypedDict":
            return "typeddict"
        if short in ("Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"):
            return "enum"
        if base_name in source.classes:
            inherited = class_kind(source, base_name, seen | {name})
            if inherited is not None:
                return inherited
    return None
