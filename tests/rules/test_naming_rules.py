from __future__ import annotations

import pytest

from schemalint.model import Severity
from schemalint.rules.sl101_generic_tool_name import GenericToolName
from schemalint.rules.sl101_generic_tool_name import Options as SL101Options
from schemalint.rules.sl102_name_not_verb_noun import NameNotVerbNoun
from schemalint.rules.sl102_name_not_verb_noun import Options as SL102Options
from schemalint.rules.sl105_inconsistent_naming_style import InconsistentNamingStyle
from schemalint.rules.sl106_vague_parameter_name import Options as SL106Options
from schemalint.rules.sl106_vague_parameter_name import VagueParameterName
from schemalint.testing import run_rule

from .helpers import prop, tool


@pytest.mark.parametrize("name", ["search", "query", "lookup", "get_data", "runTool", "process-request", "api.call"])
def test_sl101_flags_names_made_of_generic_words(name: str) -> None:
    [finding] = run_rule(GenericToolName(), [tool(name)])
    assert f"`{name}`" in finding.message and finding.pointer == "/0/name"


@pytest.mark.parametrize(
    "name",
    ["search_orders", "kb_search", "web_search", "get_order", "lookupUser", "get_task", "fetchItems", "list_results"],
)
def test_sl101_accepts_names_with_a_specific_word(name: str) -> None:
    assert run_rule(GenericToolName(), [tool(name)]) == []


def test_sl101_extend_generic_words() -> None:
    options = SL101Options(extend_generic_words=("acme",))
    assert len(run_rule(GenericToolName(options), [tool("acme_search")])) == 1


@pytest.mark.parametrize("name", ["order", "orders_tool", "user_profile", "calculate"])
def test_sl102_flags_names_without_verb_or_object(name: str) -> None:
    [finding] = run_rule(NameNotVerbNoun(), [tool(name)])
    assert finding.pointer == "/0/name"


@pytest.mark.parametrize(
    "name",
    [
        "get_order",
        "search_orders",
        "kb_search",
        "issue_write",
        "linear_equation_solver",
        "fahrenheit_to_celsius",
        "copy_invoice",
        "restore_backup",
        "customize_theme",
        "attach_file",
        "expand_short_link",
        "counter_decr",
    ],
)
def test_sl102_accepts_verb_object_names(name: str) -> None:
    assert run_rule(NameNotVerbNoun(), [tool(name)]) == []


def test_sl102_leaves_generic_names_to_sl101_and_accepts_extra_verbs() -> None:
    assert run_rule(NameNotVerbNoun(), [tool("search")]) == []
    assert run_rule(NameNotVerbNoun(SL102Options(extend_verbs=("geocode",))), [tool("geocode_address")]) == []
    assert len(run_rule(NameNotVerbNoun(), [tool("geocode_address")])) == 1


@pytest.mark.parametrize(
    ("name", "description", "flagged"),
    [
        ("fleet_rebalance", "Rebalance the fleet across depots.", False),
        ("queue_peek", "Peeks at the next message without taking it.", False),
        ("beta_node_reparent", "[Beta] Reparent a node under another one.", False),
        ("lamp_dim", "Dim, then switch off a lamp.", False),
        ("fleet_rebalance", "Tools for the fleet.", True),
        ("ocr_engine", "OCR engine for scanned pages.", True),  # an acronym opening
        ("route_map_v2", "Route-aware map.", True),  # part of a compound
    ],
)
def test_sl102_reads_a_verb_the_description_opens_with(name: str, description: str, flagged: bool) -> None:
    findings = run_rule(NameNotVerbNoun(), [{"name": name, "description": description, "parameters": {}}])
    assert len(findings) == flagged


def test_sl105_flags_the_minority_style_and_mixed_names() -> None:
    findings = run_rule(
        InconsistentNamingStyle(), [tool("get_order"), tool("list_orders"), tool("cancelOrder"), tool("get_orderId")]
    )
    assert [f.pointer for f in findings] == ["/2/name", "/3/name"]
    assert "camelCase while 2 tool(s) in this set use snake_case" in findings[0].message
    assert "mixes naming styles" in findings[1].message


def test_sl105_consistent_sets_pass() -> None:
    assert run_rule(InconsistentNamingStyle(), [tool("get_order"), tool("search"), tool("math.get_factorial")]) == []
    assert run_rule(InconsistentNamingStyle(), [tool("getOrder"), tool("listOrders")]) == []


def test_sl106_undescribed_vague_name_is_a_warning() -> None:
    [finding] = run_rule(VagueParameterName(), [tool(data=prop(), order_id=prop(description="Order number."))])
    assert finding.severity is None and finding.key and finding.pointer == "/0/parameters/properties/data"


def test_sl106_described_vague_name_is_info() -> None:
    described = prop(description="The payload of the webhook event.")
    [finding] = run_rule(VagueParameterName(), [tool(payload=described, event_type=prop(description="Event kind."))])
    assert finding.severity is Severity.INFO


def test_sl106_idioms_and_specific_names_pass() -> None:
    key_value = tool(key=prop(description="Cache key."), value=prop())
    id_value = tool(id=prop(description="Which custom property."), value=prop(description="What it is set to."))
    http = tool(
        url=prop(description="Endpoint."),
        params={"type": "object", "properties": {"q": prop(description="Query string.")}},
    )
    bound_query = tool(sql=prop(description="One SELECT."), params={"type": "array", "description": "Values for $1."})
    data_point = tool(category=prop(description="Bar label."), value=prop("number"))
    specific = tool(user_data=prop(), search_text=prop())
    only_parameter = tool(value=prop(description="The string to parse as a boolean."))
    for definition in (key_value, id_value, http, bound_query, data_point, specific, only_parameter):
        assert run_rule(VagueParameterName(), [definition]) == []


def test_sl106_single_letters() -> None:
    assert len(run_rule(VagueParameterName(), [tool(x=prop("number"))])) == 1
    assert run_rule(VagueParameterName(), [tool(x=prop("number", "The x coordinate."))]) == []
    strict = SL106Options(allow_described_single_letters=False)
    assert len(run_rule(VagueParameterName(strict), [tool(x=prop("number", "The x coordinate."))])) == 1
