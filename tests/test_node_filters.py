"""Node rules declare which nodes they report on (`nodes`, `types`, `keywords`, `targets`, a name
predicate), and only the engine's dispatch tests it (`applies`, kept per kind of node by NodeDispatch).

These tests check that the declarations select the nodes they say, that the per-kind answers are
the per-node ones, that every rule copes with every node it is handed, and the facts the nodes and
names keep (walked nodes, split names).
"""

from __future__ import annotations

import os
from functools import partial
from types import MappingProxyType
from typing import Any

from hypothesis import HealthCheck, given, settings

from schemalint.model import Dialect, SchemaNode, is_mapping, schema_types
from schemalint.rules import all_rules
from schemalint.rules.base import LintContext, NodeDispatch, NodeRule, Nodes, applies
from schemalint.targets import TARGETS, resolve_targets
from schemalint.testing import make_tool
from schemalint.text import description_of, split_name

from .strategies import json_schemas

EXAMPLES = int(os.environ.get("SCHEMALINT_PROPERTY_EXAMPLES", "60"))
NODE_RULES = [rule() for rule in all_rules() if issubclass(rule, NodeRule)]

#: one of each kind of node a filter tells apart: boolean, malformed and empty-named properties,
#: items and anyOf branches, definitions, nested objects
AWKWARD_SCHEMA = {
    "type": "object",
    "properties": {
        "": {"type": "string"},
        "flag": True,
        "odd": "not a schema",
        "x": {"type": "number"},
        "data": ["a", "list"],
        "api_key": {"type": "string", "description": "the API key"},
        "timeout": {"type": "integer"},
        "created_at": {"type": "string"},
        "file_path": {"type": "string"},
        "sql": {"type": "string"},
        "ids": {"type": "array", "items": {"type": "string", "oneOf": [{"const": "a"}, {"type": "null"}]}},
        "bad name!": {"$ref": "#/$defs/Nope"},
        "deep": {"type": "object", "properties": {"deeper": {"type": "object", "properties": {"a": {}}}}},
        "loose": {"properties": {"page_size": {"type": "integer"}}},
        "file_paths": {"type": "array", "items": {"type": "string"}},
        "order_ids": {"type": ["array", "null"], "items": {"type": "string"}},
        "amount": {"type": "NUMBER"},
        "script": {"type": ["string", "null"]},
        "status": {"type": "string", "allOf": [{"minLength": 1}]},
        "page_token": {"type": "string", "description": "auth cursor"},
        "session_key": {"type": "string", "description": "The auth key."},
        "query": {"type": "string", "description": "SQL to execute"},
        "country_code": {"type": "string"},
        "expires_at": {"type": "string"},
        "batch_size": {"type": "integer", "description": "Size of the data batch."},
        "n": {"type": "integer"},
    },
    "anyOf": [{"required": ["x", "y"]}, {"type": "null"}],
    "$defs": {"thing": {"type": "object", "properties": {"status": {"type": "string"}}}},
    "patternProperties": {"^s_": {"type": "string"}},
}


ALL_TARGETS = frozenset(TARGETS)
#: all targets at once, and each on its own (a rule about one target's mode is skipped without it)
TARGET_SETS = (ALL_TARGETS, *(frozenset({target}) for target in TARGETS))


def dispatched_findings(schema: Any, dialect: Dialect, targets: frozenset[str] = ALL_TARGETS) -> list[str]:
    """Every node rule on the nodes the dispatch hands it, checking that the dispatch's answer per kind of
    node is `applies` asked of that node."""
    tool = make_tool({"name": "get_thing", "description": "Gets a thing.", "parameters": schema}, dialect=dialect)
    targets = targets | resolve_targets(tool) if targets == ALL_TARGETS else targets
    context = LintContext({id(tool): targets})
    dispatch = NodeDispatch(NODE_RULES)
    found = []
    for node in tool.schema_nodes():
        rules = dispatch.rules_for(node, targets)
        assert rules == [rule for rule in NODE_RULES if applies(rule, node, targets)], node.pointer
        found.extend(f"{rule.code} at {node.pointer}" for rule in rules for _ in rule.check(node, context))
    return found


def test_rules_cope_with_every_node_dispatched_to_them() -> None:
    for dialect in (Dialect.GENERIC, Dialect.GEMINI, Dialect.MCP):
        for targets in TARGET_SETS:
            dispatched_findings(AWKWARD_SCHEMA, dialect, targets)
    assert "SL401 at /0/parameters/properties/timeout" in dispatched_findings(AWKWARD_SCHEMA, Dialect.GENERIC)


def test_target_filters_skip_tools() -> None:
    """A rule about strict mode is not handed the nodes of a tool that is not checked against it."""
    tool = make_tool({"name": "t", "parameters": AWKWARD_SCHEMA})
    node = next(node for node in tool.schema_nodes() if node.property_name == "timeout")
    wanted = {rule.code: rule for rule in NODE_RULES}
    assert applies(wanted["SL401"], node, frozenset({"openai-strict"}))
    assert not applies(wanted["SL401"], node, frozenset({"openai", "anthropic-strict"}))
    assert applies(wanted["SL402"], node, frozenset({"openai"}))


def test_type_and_keyword_filters_skip_nodes() -> None:
    """The filters do skip: a string property is not handed to the number rule, nor a schema without
    `$ref` to the reference rule; an untyped object with `properties` still reaches SL303."""
    tool = make_tool({"name": "t", "parameters": AWKWARD_SCHEMA})
    nodes = {node.pointer: node for node in tool.schema_nodes()}
    wanted = {rule.code: partial(applies, rule, targets=ALL_TARGETS) for rule in NODE_RULES}
    file_path, loose = nodes["/0/parameters/properties/file_path"], nodes["/0/parameters/properties/loose"]
    assert not wanted["SL304"](file_path) and wanted["SL603"](file_path)
    assert not wanted["SL308"](file_path) and wanted["SL308"](nodes["/0/parameters/properties/bad name!"])
    assert wanted["SL303"](loose) and not wanted["SL302"](loose)


def test_name_filters_skip_properties() -> None:
    """A rule about names is not handed a property whose name it has nothing to say about."""
    tool = make_tool({"name": "t", "parameters": AWKWARD_SCHEMA})
    nodes = {node.property_name: node for node in tool.schema_nodes() if node.property_name is not None}
    wanted = {
        rule.code: {name for name, node in nodes.items() if applies(rule, node, ALL_TARGETS)} for rule in NODE_RULES
    }
    assert {"api_key", "session_key"} <= wanted["SL605"] and "page_token" not in wanted["SL605"]
    assert {"sql", "query"} <= wanted["SL604"] and "country_code" not in wanted["SL604"]
    assert wanted["SL207"] == {"ids", "order_ids"} and wanted["SL307"] == {"created_at", "expires_at"}
    assert {"x", "data"} <= wanted["SL106"] and "timeout" not in wanted["SL106"]
    assert "timeout" in wanted["SL304"] and "amount" in wanted["SL304"] and "x" not in wanted["SL304"]


def test_the_awkward_schema_reaches_every_filter() -> None:
    tool = make_tool({"name": "t", "parameters": AWKWARD_SCHEMA})
    for kind in Nodes:
        admitted = [node.pointer for node in tool.schema_nodes() if kind.admit(node)]
        assert admitted and (kind is Nodes.ALL or len(admitted) < len(list(tool.schema_nodes()))), kind
    assert any(not Nodes.NAMED_PROPERTIES.admit(n) and n.is_property for n in tool.schema_nodes())


@given(json_schemas)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_dispatch_on_arbitrary_schemas(schema: Any) -> None:
    for targets in TARGET_SETS:
        dispatched_findings(schema, Dialect.GENERIC, targets)


def node_facts_asked_again(schema: Any) -> list[str]:
    """Nodes whose facts, worked out when the node was made, differ from asking the schema again."""
    tool = make_tool({"name": "t", "parameters": schema})
    return [
        node.pointer
        for node in tool.schema_nodes()
        if (node.is_mapping, node.types, node.is_root, node.is_property)
        != (is_mapping(node.schema), schema_types(node.schema), node.parent is None, node.via == "properties")
    ]


@given(json_schemas)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_node_facts_on_arbitrary_schemas(schema: Any) -> None:
    assert node_facts_asked_again(schema) == []


def test_node_facts_of_awkward_schemas() -> None:
    assert node_facts_asked_again(AWKWARD_SCHEMA) == []
    tool = make_tool({"name": "t", "parameters": {}})
    proxy = SchemaNode(tool, MappingProxyType({"type": "string"}), "/p", "p", 1, None, "properties")
    assert proxy.is_mapping and proxy.types == schema_types(proxy.schema) and proxy.is_property
    flag = SchemaNode(tool, True, "/p/items", None, 1, proxy, "items")
    assert not flag.is_mapping and flag.types == frozenset() and not flag.is_root and not flag.is_property


def test_property_facts_are_the_nodes() -> None:
    tool = make_tool({"name": "t", "parameters": AWKWARD_SCHEMA})
    for node in tool.schema_nodes():
        assert node.words == split_name(node.property_name) and node.description == description_of(node.schema)
    nodes = {node.pointer: node for node in tool.schema_nodes()}
    assert nodes["/0/parameters/properties/api_key"].words == ("api", "key")
    assert nodes["/0/parameters/properties/api_key"].description == "the API key"
    assert nodes["/0/parameters"].words == () and nodes["/0/parameters/properties/flag"].description == ""


def test_split_name_reads_whole_names_as_it_reads_their_parts() -> None:
    """One pass of the word pattern over the name gives the words of splitting at separators first."""
    for name, words in [
        ("getHTTPResponse_v2.fetch-all", ["get", "http", "response", "v", "2", "fetch", "all"]),
        ("HTTP_response", ["http", "response"]),
        ("ABC.def:ghi/JKL mno", ["abc", "def", "ghi", "jkl", "mno"]),
        ("查询_订单ID", ["查询", "订单", "id"]),
        ("a$b#c++", ["a", "b", "c"]),
        ("__init__", ["init"]),
    ]:
        assert list(split_name(name)) == words
