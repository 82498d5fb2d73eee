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

from .helpers import case_id, prop, tool


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


def _obj(**properties: object) -> dict[str, object]:
    return {"type": "object", "properties": properties}


def _arr(items: dict[str, object]) -> dict[str, object]:
    return {"type": "array", "items": items}


# A vague name is read with what holds it: `recipients[].value` says "a recipient's value" as `recipient_value`
# would; one-letter names that are a convention where they stand (a point's `x` beside `y`, operands `a` and `b`, a
# search's `q`); the `data` of a chart or a statistic; `value` beside the selector, operator or default that says
# what it is; the inputs of a job or process, or beside an output; the params of a template.
SL106_VALID = [
    tool("notify", recipients=_arr(_obj(kind=prop(description="Channel."), value=prop()))),
    tool("set_thermostat", schedule=_obj(start=prop(description="Start hour."), data=_obj(temp=prop("number")))),
    tool("place_pin", marker=_obj(x=prop("number"), y=prop("number"))),
    tool("move_cursor", x=prop("integer"), y=prop("integer")),
    tool("greatest_common_divisor", a=prop("integer"), b=prop("integer")),
    tool("parse_flag", value=prop(description="Text to read as a flag."), default_value=prop("boolean", "If unclear.")),
    tool("transcode", input=prop(description="Source stream."), output=prop(description="Target stream.")),
    tool("instantiate_template", template_id=prop(description="Template."), params=prop("object", "Its fields.")),
    tool("search_recipes", q=prop(), page=prop("integer")),
    tool("render_line_chart", data=prop("array", "Points to draw, oldest first."), title=prop()),
    tool("rolling_median", data=prop("array", "Readings to summarise."), window=prop("integer")),
    tool("type_into", selector=prop(description="CSS selector of the box."), value=prop()),
    tool("match_rows", operator=prop(description="eq or gt."), negate=prop("boolean", "Invert."), value=prop()),
    tool("rerun_job", job_id=prop(description="Job to run."), inputs=prop("object", "Named job inputs.")),
    tool("write_to_process", pid=prop("integer", "Process id."), input=prop(description="Keys to send.")),
    tool("draw_flows", links=_arr(_obj(source=prop(), target=prop(), value=prop("number")))),
    tool("make_pivot", rows=prop("array", "Row fields."), values=prop("array", "Fields summed in each cell.")),
    {
        "name": "apply_retry",
        "description": "Apply a retry policy.",
        "parameters": {
            "type": "object",
            "properties": {"policy": {"$ref": "#/$defs/RetryPolicy"}},
            "$defs": {"RetryPolicy": _obj(value=prop("integer"), jitter=prop("boolean"))},
        },
    },
]

# Still vague: a holder that names nothing (`request.data`, `payload.value`, `items[].item`), a lone letter, `q`
# outside a search, the `data` of a tool that is not a chart or an undescribed chart `data`, `value` beside a
# currency, `input` beside words that do not say whose input it is.
SL106_INVALID = [
    tool("send_webhook", request=_obj(data=prop(), retries=prop("integer", "Attempts."))),
    tool("queue_message", payload=_obj(value=prop(), headers=prop("object", "Extra headers."))),
    tool("scale_image", x=prop("integer"), width=prop("integer", "Width in px.")),
    tool("pick_color", a=prop("integer"), hue=prop("integer", "Hue in degrees.")),
    tool("update_invoice", q=prop(), invoice_id=prop(description="Invoice.")),
    tool("sync_inventory", data=prop("array", "Rows to sync into stock."), store_id=prop(description="Store.")),
    tool("render_line_chart", data=prop("array"), title=prop()),
    tool("ask_assistant", input=prop(description="What to ask."), model=prop(description="Which model.")),
    tool("convert_money", value=prop("number", "Amount to convert."), target_currency=prop(description="ISO code.")),
    tool("order_lunch", items=_arr(_obj(item=prop(description="Dish to order."), quantity=prop("integer")))),
]


@pytest.mark.parametrize(
    ("definition", "findings"), [(d, 0) for d in SL106_VALID] + [(d, 1) for d in SL106_INVALID], ids=case_id
)
def test_sl106_names_in_context(definition: dict[str, object], findings: int) -> None:
    assert len(run_rule(VagueParameterName(), [definition])) == findings
