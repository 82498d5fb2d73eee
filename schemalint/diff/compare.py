"""Structural comparison of one tool's schemas, old against new, into change events.

Direction decides what breaks. For the input schema (what the model sends), a change is breaking when
the new schema rejects a call the old one accepted, or drops what callers send. For an MCP
`outputSchema` (what callers read), a change is breaking when the new schema lets the server return
something the old one ruled out, or stops promising a field. Parameters are matched by name at every
level, through local `$ref`s, `items`, nested objects and nullable unions.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from schemalint.diff.composition import SchemaChecker, composition_part, find_rejection, has_union
from schemalint.diff.matching import match_branches
from schemalint.model import JSON, Severity, join_pointer, nullable_union_branch, resolve_pointer, schema_types
from schemalint.tools_hash import canonical_json as canonical

Side = Literal["old", "new"]

#: 2**53 - 1: a bound this far out (zod's `.int()` writes one) rejects no number a client sends as an integer
_SAFE_INTEGER = 9007199254740991
#: a lower value is stricter
UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains")
#: a higher value is stricter
LOWER_BOUNDS = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains")
#: adding or changing one of these can only narrow what is accepted (removing it widens)
EXACT_CONSTRAINTS = ("pattern", "format", "multipleOf", "contentEncoding", "contentMediaType")
_MAX_REF_HOPS = 16
#: the input-schema codes that say an old call is now rejected
BREAKING_CODES = frozenset({"SL903", "SL904", "SL905", "SL906", "SL907", "SL908"})
#: keywords that give a schema its shape: without them, a union's alternatives are the whole schema
_SHAPE_KEYWORDS = ("type", "properties", "items", "enum", "const")


@dataclass
class Change:
    """One difference between the old and the new definitions, before it is placed in a file.

    `side` says which document `pointer` addresses: the new one for changes and additions, the old one
    for removals. `severity` overrides the rule's default only where the rule's docs say so.
    """

    code: str
    message: str
    side: Side
    pointer: str
    key: bool = False
    severity: Severity | None = None
    data: dict[str, Any] = field(default_factory=dict)
    #: the file `pointer` is in; filled in by the caller that knows which tools were compared
    path: str = ""


def show(value: JSON) -> str:
    text = canonical(value)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass(frozen=True)
class Node:
    """A sub-schema with its `$ref` and nullable union unwrapped.

    `schema` merges the wrapper's own keywords (description, default) over the branch it wraps;
    `origins` maps each keyword to the pointer of the object that holds it, so findings point at the
    key the user wrote.
    """

    schema: Mapping[str, Any]
    pointer: str
    origins: Mapping[str, str]
    types: frozenset[str]

    def at(self, keyword: str) -> str:
        return join_pointer(self.origins.get(keyword, self.pointer), keyword)


class SchemaView(SchemaChecker):
    """One side's schema root: resolves local `$ref`s (`#/$defs/...`, `#/definitions/...`) into nodes, and
    (as a SchemaChecker) validates values against its sub-schemas."""

    def __init__(self, root: JSON, root_pointer: str) -> None:
        super().__init__(root)
        self.root_pointer = root_pointer

    def _deref(self, schema: JSON, pointer: str) -> tuple[JSON, str, dict[str, str]]:
        origins: dict[str, str] = {}
        merged: dict[str, Any] = {}
        for _ in range(_MAX_REF_HOPS):
            if not isinstance(schema, Mapping):
                break
            for key in schema:
                if key != "$ref" and key not in merged:
                    merged[key] = schema[key]
                    origins[key] = pointer
            ref = schema.get("$ref")
            if not (isinstance(ref, str) and ref.startswith("#")):
                break
            try:
                target = resolve_pointer(self.root, ref[1:])
            except KeyError:
                break  # unresolvable: SL308 reports it; compare what is written
            schema, pointer = target, self.root_pointer + ref[1:]
        return merged, pointer, origins

    def node(self, schema: JSON, pointer: str) -> Node:
        merged, target_pointer, origins = self._deref(schema, pointer)
        union = nullable_union_branch(merged)
        if union is not None:
            keyword, branch = union
            index = next(i for i, b in enumerate(merged[keyword]) if b is branch)
            inner, target_pointer, inner_origins = self._deref(branch, join_pointer(origins[keyword], keyword, index))
            for key, value in inner.items():
                if key not in merged or key == keyword:
                    merged[key] = value
                    origins[key] = inner_origins[key]
            if keyword not in inner:
                del merged[keyword]
        types = set(schema_types(merged)) or implied_types(merged)
        if (union is not None or merged.get("nullable") is True) and types:  # Gemini/OpenAPI spell it `nullable: true`
            types.add("null")
        return Node(merged, target_pointer, origins, frozenset(types))


def implied_types(schema: Mapping[str, Any]) -> set[str]:
    """The types a schema without `type` admits when its other keywords pin them down."""
    if isinstance(schema.get("properties"), Mapping):
        return {"object"}
    if "items" in schema or "prefixItems" in schema:
        return {"array"}
    values = enum_values(schema)
    if values is None:
        return set()
    return {_json_type(v) for v in values.values()}


def _json_type(value: JSON) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def type_label(types: frozenset[str]) -> str:
    return " | ".join(sorted(types)) if types else "any"


def accepts(wider: frozenset[str], narrower: frozenset[str]) -> bool:
    """Every value of a type in `narrower` is valid under `wider` (an empty set means any type)."""
    if not wider:
        return True
    if not narrower:
        return False
    return all(t in wider or (t == "integer" and "number" in wider) for t in narrower)


def enum_values(schema: Mapping[str, Any]) -> dict[str, JSON] | None:
    """The allowed values (`enum`, or `const` as a one-value enum) keyed by canonical text."""
    if isinstance(schema.get("enum"), list):
        return {canonical(v): v for v in schema["enum"]}
    if "const" in schema:
        return {canonical(schema["const"]): schema["const"]}
    return None


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _closed(schema: Mapping[str, Any]) -> bool:
    return schema.get("additionalProperties") is False or schema.get("unevaluatedProperties") is False


def _required(schema: Mapping[str, Any]) -> set[str]:
    raw = schema.get("required")
    return {r for r in raw if isinstance(r, str)} if isinstance(raw, list) else set()


def _shape_in_branches(schema: Mapping[str, Any]) -> bool:
    return has_union(schema) and not any(k in schema for k in _SHAPE_KEYWORDS)


def _alternatives(node: Node) -> list[tuple[JSON, str]]:
    """The alternatives of a union whose base has no shape, each with the base's other keywords; or the schema."""
    for keyword in ("anyOf", "oneOf"):
        branches = node.schema.get(keyword)
        if isinstance(branches, list) and _shape_in_branches(node.schema):
            base = {k: v for k, v in node.schema.items() if k != keyword}
            return [
                ({**base, **b} if isinstance(b, Mapping) else b, join_pointer(node.at(keyword), i))
                for i, b in enumerate(branches)
            ]
    return [(dict(node.schema), node.pointer)]


def _breaking(changes: list[Change]) -> bool:
    return any(c.code in BREAKING_CODES and c.severity is not Severity.INFO for c in changes)


def _properties(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    raw = schema.get("properties")
    return raw if isinstance(raw, Mapping) else {}


def compare_schemas(
    tool: str, old: JSON, old_pointer: str, new: JSON, new_pointer: str, output: bool = False
) -> list[Change]:
    """What differs between two versions of a tool's input schema (or, with `output`, its output schema)."""
    comparison = ToolComparison(tool, SchemaView(old, old_pointer), SchemaView(new, new_pointer), output)
    comparison.compare(old, old_pointer, new, new_pointer)
    return comparison.changes


class ToolComparison:
    """Compares one matched pair of schemas (a tool's input, or its output); `changes` collects what differs.

    The views resolve `$ref`s against each side's schema root, so input and output schemas each get
    their own comparison.
    """

    def __init__(self, tool_name: str, old_view: SchemaView, new_view: SchemaView, output: bool = False) -> None:
        self.tool = tool_name
        self.old_view = old_view
        self.new_view = new_view
        self.output = output
        self.changes: list[Change] = []
        self._seen: set[tuple[str, str]] = set()

    # -- helpers -------------------------------------------------------------------------------------

    def _what(self, label: str) -> str:
        if self.output:
            return f"`{self.tool}`: output field `{label}`" if label else f"`{self.tool}`: the output"
        return f"`{self.tool}`: parameter `{label}`" if label else f"`{self.tool}`: the parameters object"

    def _add(self, code: str, message: str, side: Side, pointer: str, label: str, **extra: Any) -> None:
        key = extra.pop("key", False)
        severity = extra.pop("severity", None)
        data = {"tool": self.tool, "parameter": label or None, **extra}
        self.changes.append(Change(code, message, side, pointer, key, severity, data))

    def _changed_nodes(self, old: JSON, old_pointer: str, new: JSON, new_pointer: str) -> tuple[Node, Node] | None:
        """Both sides as nodes to compare, or None when they are identical (the same content, and no
        `$ref` whose target could differ: a whole schema root carries its targets) or already compared
        (a recursive `$ref`, or a `$def` reached twice)."""
        text = canonical(old)
        if text == canonical(new) and (
            '"$ref"' not in text or (old is self.old_view.root and new is self.new_view.root)
        ):
            return None
        old_node = self.old_view.node(old, old_pointer)
        new_node = self.new_view.node(new, new_pointer)
        if (old_node.pointer, new_node.pointer) in self._seen:
            return None
        self._seen.add((old_node.pointer, new_node.pointer))
        return old_node, new_node

    def compare(self, old: JSON, old_pointer: str, new: JSON, new_pointer: str, label: str = "") -> None:
        pair = self._changed_nodes(old, old_pointer, new, new_pointer)
        if pair is None:
            return
        o, n = pair
        if self.output:
            self._output_type_and_enum(o, n, label)
            self._output_object(o, n, label)
            self._items(o, n, label)
            return
        # a schema whose content moved into (or out of) alternatives is compared as a whole, by example:
        # its properties and type are no longer where keyword-by-keyword comparison looks for them
        reshaped = _shape_in_branches(o.schema) != _shape_in_branches(n.schema)
        if not reshaped:
            self._input_type(o, n, label)
            self._input_enum(o, n, label)
            self._input_constraints(o, n, label)
        self._annotations_of_parameter(o, n, label)
        if not reshaped:
            if "object" in n.types or _properties(n.schema) or _properties(o.schema):
                self._input_object(o, n, label)
            self._items(o, n, label)
        self._input_composition(o, n, label, reshaped)

    def _input_type(self, o: Node, n: Node, label: str) -> None:
        if o.types == n.types:
            return
        data = {"old": type_label(o.types), "new": type_label(n.types)}
        where = n.at("type") if "type" in n.schema else n.pointer
        if accepts(n.types, o.types):
            message = (
                f"{self._what(label)} widened from `{data['old']}` to `{data['new']}` "
                "(not breaking: every call the old schema accepted is still accepted)"
            )
            self._add("SL904", message, "new", where, label, severity=Severity.INFO, **data)
            return
        lost = sorted(t for t in o.types if not accepts(n.types, frozenset({t}))) or sorted(o.types)
        message = (
            f"{self._what(label)} changed type from `{data['old']}` to `{data['new']}`; "
            f"calls that send {' or '.join(lost) if o.types else 'other types'} are now rejected"
        )
        self._add("SL904", message, "new", where, label, **data)

    def _input_enum(self, o: Node, n: Node, label: str) -> None:
        old_values, new_values = enum_values(o.schema), enum_values(n.schema)
        if new_values is None or old_values == new_values:
            return
        keyword = "enum" if "enum" in n.schema else "const"
        data = {
            "old": list(old_values.values()) if old_values is not None else None,
            "new": list(new_values.values()),
        }
        if old_values is None:
            message = f"{self._what(label)} is now restricted to {show(data['new'])}; other values are rejected"
            self._add("SL908", message, "new", n.at(keyword), label, keyword=keyword, **data)
            return
        removed = [v for k, v in old_values.items() if k not in new_values]
        added = [v for k, v in new_values.items() if k not in old_values]
        if removed:
            message = f"{self._what(label)} no longer accepts {', '.join(show(v) for v in removed)}"
            self._add("SL905", message, "new", n.at(keyword), label, removed=removed, **data)
        if added:
            message = f"{self._what(label)} accepts new value(s) {', '.join(show(v) for v in added)}"
            self._add("SL910", message, "new", n.at(keyword), label, added=added, **data)

    def _input_constraints(self, o: Node, n: Node, label: str) -> None:
        for keyword, reason in self._tightened(o.schema, n.schema):
            data = {"old": o.schema.get(keyword), "new": n.schema.get(keyword)}
            message = f"{self._what(label)}: `{keyword}` {reason}; calls the old schema accepted can be rejected"
            self._add("SL908", message, "new", n.at(keyword), label, keyword=keyword, **data)
        if _closed(n.schema) and not _closed(o.schema) and ("object" in n.types or _properties(n.schema)):
            keyword = (
                "additionalProperties" if n.schema.get("additionalProperties") is False else "unevaluatedProperties"
            )
            message = f"{self._what(label)}: `{keyword}` is now false; calls with extra keys are rejected"
            data = {"old": o.schema.get(keyword, True), "new": False}
            self._add("SL908", message, "new", n.at(keyword), label, keyword=keyword, **data)

    @staticmethod
    def _tightened(old: Mapping[str, Any], new: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
        for keyword in UPPER_BOUNDS + LOWER_BOUNDS:
            new_value = _number(new.get(keyword))
            if new_value is None:
                if isinstance(new.get(keyword), bool) and new.get(keyword) and not old.get(keyword):
                    yield keyword, "became true"  # draft-04 boolean exclusiveMaximum/exclusiveMinimum
                continue
            old_value = _number(old.get(keyword))
            if old_value is None:
                if abs(new_value) < _SAFE_INTEGER:
                    yield keyword, f"added ({new[keyword]})"
            elif (keyword in UPPER_BOUNDS and new_value < old_value) or (
                keyword in LOWER_BOUNDS and new_value > old_value
            ):
                yield keyword, f"tightened from {old[keyword]} to {new[keyword]}"
        for keyword in EXACT_CONSTRAINTS:
            if keyword not in new or canonical(new[keyword]) == canonical(old.get(keyword)):
                continue
            if keyword not in old:
                yield keyword, f"added ({show(new[keyword])})"
            else:
                yield keyword, f"changed from {show(old[keyword])} to {show(new[keyword])}"
        if new.get("uniqueItems") is True and old.get("uniqueItems") is not True:
            yield "uniqueItems", "became true"

    def _annotations_of_parameter(self, o: Node, n: Node, label: str) -> None:
        old_text, new_text = o.schema.get("description"), n.schema.get("description")
        if old_text != new_text and (isinstance(old_text, str) or isinstance(new_text, str)):
            verb = "added" if old_text is None else "removed" if new_text is None else "changed"
            side: Side = "old" if new_text is None else "new"
            where = o.at("description") if new_text is None else n.at("description")
            whose = f"parameter `{label}`" if label else "the parameters object"
            message = f"`{self.tool}`: description of {whose} {verb}; the model reads it: re-run the evals"
            self._add("SL909", message, side, where, label, old=old_text, new=new_text)
        old_default, new_default = o.schema.get("default"), n.schema.get("default")
        if ("default" in o.schema, canonical(old_default)) != ("default" in n.schema, canonical(new_default)):
            side = "new" if "default" in n.schema else "old"
            where = n.at("default") if side == "new" else o.at("default")
            shown_old = show(old_default) if "default" in o.schema else "none"
            shown_new = show(new_default) if "default" in n.schema else "none"
            message = f"{self._what(label)}: default changed from {shown_old} to {shown_new}"
            self._add("SL913", message, side, where, label, old=old_default, new=new_default)

    def _input_object(self, o: Node, n: Node, label: str) -> None:
        old_props, new_props = _properties(o.schema), _properties(n.schema)
        old_required, new_required = _required(o.schema), _required(n.schema)
        old_at, new_at = o.at("properties"), n.at("properties")
        rejected = _closed(n.schema)
        for name in old_props:
            child = f"{label}.{name}" if label else name
            if name in new_props:
                self.compare(
                    old_props[name], join_pointer(old_at, name), new_props[name], join_pointer(new_at, name), child
                )
                continue
            if rejected:
                consequence = "calls that still send it are now rejected (`additionalProperties: false`)"
            else:
                consequence = "calls that still send it are silently ignored (the value is dropped)"
            message = f"{self._what(child)} was removed; {consequence}"
            where = join_pointer(old_at, name)
            self._add("SL906", message, "old", where, child, key=True, old=old_props[name], new=None, rejected=rejected)
        for name in new_props:
            if name in old_props:
                continue
            child = f"{label}.{name}" if label else name
            where = join_pointer(new_at, name)
            if name in new_required:
                message = f"{self._what(child)} is new and required; existing calls that omit it are rejected"
                self._add("SL903", message, "new", where, child, key=True, old=None, new=new_props[name])
            else:
                message = f"{self._what(child)} is new and optional"
                self._add("SL911", message, "new", where, child, key=True, old=None, new=new_props[name])
        for name in sorted(new_required - old_required):
            if name in new_props and name not in old_props:
                continue  # reported above as a new required parameter
            child = f"{label}.{name}" if label else name
            where = join_pointer(new_at, name) if name in new_props else n.at("required")
            if name in old_props:
                message = f"{self._what(child)} became required; calls that omit it are rejected"
                self._add("SL907", message, "new", where, child, key=name in new_props, old=False, new=True)
            else:
                message = f"{self._what(child)} is now required (listed in `required`); calls that omit it are rejected"
                self._add("SL903", message, "new", where, child, old=None, new=True)

    def _items(self, o: Node, n: Node, label: str) -> None:
        """Array items, and for inputs the value schema of a map (`additionalProperties: {...}`)."""
        for keyword, suffix in (("items", "[]"), ("additionalProperties", ".*"))[: 1 if self.output else 2]:
            old_sub, new_sub = o.schema.get(keyword), n.schema.get(keyword)
            if isinstance(old_sub, Mapping) and isinstance(new_sub, Mapping):
                self.compare(old_sub, o.at(keyword), new_sub, n.at(keyword), f"{label}{suffix}")

    def _input_composition(self, o: Node, n: Node, label: str, reshaped: bool) -> None:
        """`anyOf`/`oneOf`/`allOf`/`not`/`if`-`then`-`else`/`dependentRequired`/`dependentSchemas`.

        Alternatives are paired by what they share and compared like any schema; then values the old
        schema accepts are tried against the new composition. A rejected value is a break (quoted in the
        message); no rejected value found, where the change is not provably a loosening, is a warning.
        """
        old_part, new_part = composition_part(o.schema), composition_part(n.schema)
        if not old_part and not new_part:
            return
        new_text = canonical(new_part)
        if not reshaped and canonical(old_part) == new_text and '"$ref"' not in new_text:
            return
        before = len(self.changes)
        loosening = self._reshaped_is_loosening(o, n) if reshaped else self._parts_loosen(o, n, label)
        target = n.schema if reshaped else new_part
        rejection = find_rejection(o.schema, self.old_view, target, self.new_view, hints=n.schema)
        if _breaking(self.changes[before:]):
            if rejection is None:  # another alternative may still take what a paired one no longer does
                for change in self.changes[before:]:
                    if change.code in BREAKING_CODES and change.severity is None:
                        change.severity = Severity.WARNING
                        change.message += " (not confirmed: another alternative may still accept such calls)"
            return  # the paired alternatives' own changes say what is rejected
        changed = [k for k in new_part if canonical(new_part[k]) != canonical(old_part.get(k))] or list(new_part)
        if rejection is None:
            if loosening:
                return
            keyword = changed[0] if changed else next(iter(old_part))
            message = (
                f"{self._what(label)}: `{'`, `'.join(changed or old_part)}` changed; no value the old schema "
                "accepts was found that the new one rejects, but that is no proof: check that old calls still pass"
            )
            code = "SL904" if reshaped or keyword in ("anyOf", "oneOf") else "SL908"
            where = n.at(keyword) if keyword in n.schema else n.pointer
            self._add(
                code, message, "new", where, label, severity=Severity.WARNING, keyword=keyword, **self._parts(o, n)
            )
            return
        keyword = rejection.keyword
        what = "a call with the arguments" if not label else "the value"
        verb = "was added" if keyword and keyword not in old_part else "changed"
        cause = f"`{keyword}` {verb}" if keyword else "the schema was restructured into alternatives"
        message = (
            f"{self._what(label)}: {cause}; {what} {show(rejection.value)}, which the old schema accepted, "
            f"is now rejected: {rejection.reason}"
        )
        code = "SL904" if keyword in ("anyOf", "oneOf", "") else "SL908"
        where = n.at(keyword) if keyword in n.schema else n.pointer
        data = {"keyword": keyword or None, "rejected_value": rejection.value, **self._parts(o, n)}
        self._add(code, message, "new", where, label, **data)

    @staticmethod
    def _parts(o: Node, n: Node) -> dict[str, Any]:
        return {"old": composition_part(o.schema) or None, "new": composition_part(n.schema) or None}

    def _parts_loosen(self, o: Node, n: Node, label: str) -> bool:
        """Compares paired alternatives; True when every composition keyword of the new schema provably
        accepts what the old one did (alternatives only added, `allOf` parts or dependencies dropped)."""
        old_part, new_part = composition_part(o.schema), composition_part(n.schema)
        loosening = True
        for keyword, new_value in new_part.items():
            old_value = old_part.get(keyword)
            if isinstance(old_value, list) and isinstance(new_value, list):
                unpaired_old, unpaired_new = self._compare_branches(o, n, keyword, label)
                if keyword == "allOf":
                    loosening = loosening and not unpaired_new
                else:
                    loosening = loosening and all(self._covered(o, keyword, i, n) for i in unpaired_old)
            elif keyword == "dependentRequired" and isinstance(old_value, Mapping) and isinstance(new_value, Mapping):
                loosening = loosening and all(
                    isinstance(names, list) and set(names) <= set(old_value.get(key) or ())
                    for key, names in new_value.items()
                )
            elif canonical(old_value) != canonical(new_value) or keyword not in old_part:
                loosening = False
        return loosening

    def _compare_branches(self, o: Node, n: Node, keyword: str, label: str) -> tuple[list[int], list[int]]:
        """Compares each old alternative with its counterpart; returns the unpaired old and new indexes."""
        old_branches, new_branches = o.schema[keyword], n.schema[keyword]
        old_resolved = [self.old_view.node(b, "").schema for b in old_branches]
        new_resolved = [self.new_view.node(b, "").schema for b in new_branches]
        pairs = match_branches(old_resolved, new_resolved)
        before = len(self.changes)
        for i, j in pairs:
            old_pointer, new_pointer = join_pointer(o.at(keyword), i), join_pointer(n.at(keyword), j)
            self.compare(old_branches[i], old_pointer, new_branches[j], new_pointer, label)
        # an alternative that only constrains a property the schema itself declares drops nothing when
        # it stops naming it: the property is still there, and still kept
        declared = {f"{label}.{name}" if label else name for name in _properties(n.schema)}
        self.changes[before:] = [
            c
            for c in self.changes[before:]
            if not (c.code == "SL906" and not c.data.get("rejected") and c.data.get("parameter") in declared)
        ]
        paired_old, paired_new = {i for i, _ in pairs}, {j for _, j in pairs}
        return (
            [i for i in range(len(old_branches)) if i not in paired_old],
            [j for j in range(len(new_branches)) if j not in paired_new],
        )

    def _covered(self, o: Node, keyword: str, index: int, n: Node) -> bool:
        """An old alternative with no counterpart is still accepted whole by one of the new ones."""
        branch = o.schema[keyword][index]
        pointer = join_pointer(o.at(keyword), index)
        return any(
            self._no_break(branch, pointer, new_branch, join_pointer(n.at(keyword), j))
            for j, new_branch in enumerate(n.schema[keyword])
        )

    def _reshaped_is_loosening(self, o: Node, n: Node) -> bool:
        """Alternatives appeared or went away: a loosening when each old alternative (or the old schema)
        passes one new alternative (or the new schema) with no breaking change."""
        if any(k not in ("anyOf", "oneOf") for k in composition_part(n.schema)):
            return False
        old_cases = _alternatives(o)
        new_cases = _alternatives(n)
        return all(any(self._no_break(old, op, new, np) for new, np in new_cases) for old, op in old_cases)

    def _no_break(self, old: JSON, old_pointer: str, new: JSON, new_pointer: str) -> bool:
        probe = ToolComparison(self.tool, self.old_view, self.new_view)
        probe.compare(old, old_pointer, new, new_pointer)
        return not _breaking(probe.changes)

    # -- output schemas (responses) -------------------------------------------------------------------

    def _output_type_and_enum(self, o: Node, n: Node, label: str) -> None:
        if o.types != n.types and not accepts(o.types, n.types):
            types = {"old": type_label(o.types), "new": type_label(n.types)}
            message = (
                f"{self._what(label)} changed type from `{types['old']}` to `{types['new']}`; "
                "callers that read it may break"
            )
            self._add("SL915", message, "new", n.at("type") if "type" in n.schema else n.pointer, label, **types)
        old_values, new_values = enum_values(o.schema), enum_values(n.schema)
        if old_values is not None and old_values != new_values:
            added = [] if new_values is None else [v for k, v in new_values.items() if k not in old_values]
            if new_values is None or added:
                what = "is no longer limited to its enum" if new_values is None else f"may now be {show(added)}"
                message = f"{self._what(label)} {what}; callers that switch over the values may break"
                where = n.at("enum") if "enum" in n.schema else n.pointer
                data: dict[str, Any] = {
                    "old": list(old_values.values()),
                    "new": None if new_values is None else list(new_values.values()),
                }
                self._add("SL915", message, "new", where, label, severity=Severity.WARNING, **data)

    def _output_object(self, o: Node, n: Node, label: str) -> None:
        old_props, new_props = _properties(o.schema), _properties(n.schema)
        old_required, new_required = _required(o.schema), _required(n.schema)
        for name, old_child in old_props.items():
            child = f"{label}.{name}" if label else name
            old_where = join_pointer(o.at("properties"), name)
            if name not in new_props:
                message = f"{self._what(child)} was removed; callers that read it break"
                self._add("SL915", message, "old", old_where, child, key=True, old=old_child, new=None)
                continue
            new_where = join_pointer(n.at("properties"), name)
            if name in old_required and name not in new_required:
                message = f"{self._what(child)} is no longer required; callers that read it may find it missing"
                self._add("SL915", message, "new", new_where, child, key=True, old="required", new="optional")
            self.compare(old_child, old_where, new_props[name], new_where, child)
