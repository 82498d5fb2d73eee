from __future__ import annotations

import json
from pathlib import Path

import pytest

from schemalint.engine import LintOptions, lint
from schemalint.model import Dialect, Severity
from schemalint.rules.sl202_short_description import Options as SL202Options
from schemalint.rules.sl202_short_description import ShortDescription
from schemalint.rules.sl203_missing_when_not_to_use import MissingWhenNotToUse
from schemalint.rules.sl204_missing_parameter_description import MissingParameterDescription
from schemalint.rules.sl205_undocumented_side_effects import Options as SL205Options
from schemalint.rules.sl205_undocumented_side_effects import UndocumentedSideEffects
from schemalint.rules.sl206_unknown_tool_reference import UnknownToolReference, referenced_tool_names
from schemalint.rules.sl207_identifier_without_format import IdentifierWithoutFormat
from schemalint.testing import run_rule

from .helpers import prop, tool


@pytest.mark.parametrize("description", ["Book a reservation.", "查询订单", "Get weather"])
def test_sl202_flags_short_descriptions(description: str) -> None:
    [finding] = run_rule(ShortDescription(), [tool(description=description)])
    assert finding.pointer == "/0/description"


@pytest.mark.parametrize(
    "description",
    ["Look up one order by number when the user asks about it.", "用于查询公司内部知识库，不要用于实时新闻。"],
)
def test_sl202_accepts_descriptions_that_can_say_something(description: str) -> None:
    assert run_rule(ShortDescription(), [tool(description=description)]) == []


def test_sl202_min_words_and_missing_description() -> None:
    assert len(run_rule(ShortDescription(SL202Options(min_words=20)), [tool(description="One two three four six")]))
    assert run_rule(ShortDescription(), [{"name": "x", "parameters": {"type": "object"}}]) == []


@pytest.mark.parametrize(
    "description",
    [
        "Search the web. Do not use for internal documents.",
        "Search orders. Not for reports.",
        "Search orders. For a single order use `get_order` instead.",
        "Only for paid orders.",
        "This function should be invoked only in response to a direct user request.",
        "查询订单。统计、报表不要用于此工具。",
        "查询订单。批量导出请用 export_orders。",
        "何时不用：用户已提供事实时。",
    ],
)
def test_sl203_recognises_boundary_text(description: str) -> None:
    findings = run_rule(MissingWhenNotToUse(), [tool(description=description), tool("b", "Does things.")])
    assert [f.pointer for f in findings] == ["/1/description"]


def test_sl203_skips_single_tool_sets() -> None:
    assert run_rule(MissingWhenNotToUse(), [tool(description="Search the web.")]) == []


def test_sl204_flags_properties_without_description_at_any_depth() -> None:
    nested = {"type": "object", "description": "Address.", "properties": {"city": prop()}}
    findings = run_rule(MissingParameterDescription(), [tool(order_id=prop(), address=nested)])
    assert sorted(f.pointer for f in findings) == [
        "/0/parameters/properties/address/properties/city",
        "/0/parameters/properties/order_id",
    ]


def test_sl204_accepts_described_and_ref_properties() -> None:
    definition = tool(order_id=prop(description="Order number."), address={"$ref": "#/$defs/Address"})
    assert run_rule(MissingParameterDescription(), [definition]) == []


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("refund_order", "Refund an order to the original payment method."),
        ("send_email", "Send an email to a customer."),
        ("github_create_issue", "Create an issue in a repository."),
        ("publish_post", "Publish a post. Readers see it at once and it stays up."),
        ("create_webhook", "Create a webhook; use it to watch pushes."),
    ],
)
def test_sl205_flags_writing_tools_without_side_effect_text(name: str, description: str) -> None:
    [finding] = run_rule(UndocumentedSideEffects(), [tool(name, description)])
    assert finding.pointer == "/0/description"


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("refund_order", "Refund an order. Moves money and cannot be undone."),
        ("create_issue", "Create an issue. Not idempotent: a retry creates a duplicate."),
        ("cancel_order", "取消订单。不可撤销，请先确认。"),
        ("get_order", "Look up an order."),
        ("grocery_store_find_nearby", "Find grocery stores nearby."),
        ("add_binary_numbers", "Adds two binary numbers."),
        ("create_board", "Create a board. It changes the shared workspace and needs admin rights."),
        ("order_status", "The status of an order."),
        ("transfer_to_human_agents", "Hand the conversation over to a person."),
    ],
)
def test_sl205_accepts_documented_writes_and_reads(name: str, description: str) -> None:
    assert run_rule(UndocumentedSideEffects(), [tool(name, description)]) == []


@pytest.mark.parametrize("name", ["deregister_node", "run_pipeline", "trigger_alarm", "execute_workflow"])
def test_sl205_knows_verbs_that_start_work_or_drop_registrations(name: str) -> None:
    [finding] = run_rule(UndocumentedSideEffects(), [tool(name, "Does it for the named target.")])
    assert finding.data["tool"] == name


def test_sl205_mcp_annotations_document_side_effects_and_verbs_are_configurable() -> None:
    annotated = {**tool("delete_file", "Delete a file."), "annotations": {"destructiveHint": True}}
    assert run_rule(UndocumentedSideEffects(), [annotated], Dialect.MCP) == []
    options = SL205Options(extend_writing_verbs=("rebook",))
    assert len(run_rule(UndocumentedSideEffects(options), [tool("rebook_flight", "Move a booking.")])) == 1


def test_sl206_finds_references_in_english_and_chinese() -> None:
    text = "Not for reports; use export_orders instead. Call `get_user` first. 统计请用 report_orders 工具。"
    assert list(referenced_tool_names(text)) == ["export_orders", "get_user", "report_orders"]
    assert list(referenced_tool_names("use the `nextPage` value as the page parameter")) == []


def test_sl206_flags_unknown_tools_only() -> None:
    tools = [
        tool("get_order", "One order. For many orders use list_orders instead; see `status_code` parameter."),
        tool("list_orders", "Many orders. For one use get_order.", status_code=prop()),
        tool("kb_search", "Knowledge base. For news use the web_search tool."),
    ]
    findings = run_rule(UnknownToolReference(), tools)
    assert [(f.pointer, f.data["reference"]) for f in findings] == [("/2/description", "web_search")]


def test_sl207_flags_identifiers_without_shape() -> None:
    findings = run_rule(
        IdentifierWithoutFormat(),
        [
            tool(
                order_id=prop(description="The order."),
                skus={"type": "array", "items": prop()},
                batch_id=prop(description="Unique id of the batch, as listed by list_batches."),
            )
        ],
    )
    assert sorted(f.data["parameter"] for f in findings) == ["batch_id", "order_id", "skus"]


def test_sl207_accepts_pattern_example_enum_and_integers() -> None:
    definition = tool(
        order_id=prop(pattern="^A[0-9]+$"),
        user_id=prop(description="User id, e.g. u_123."),
        team_id=prop(description="The team; a GUID."),
        device_id=prop(description="Serial of the device, 12 hex digits."),
        region_id=prop(enum=["eu", "us"]),
        account_id=prop("integer"),
        id_type=prop(),
    )
    assert run_rule(IdentifierWithoutFormat(), [definition]) == []


def test_sl206_ignores_the_actions_of_a_multiplexed_tool() -> None:
    action = prop(description="What to do: list_runs, retry_run or fetch_run_log.")
    tools = [
        tool("ci_job", "CI jobs. To get logs use fetch_run_log; to rerun call retry_run.", action=action),
        tool("ci_pipeline", "Pipelines. Actions: list_pipelines, cancel_pipeline. Use cancel_pipeline.", op=prop()),
        tool("ci_admin", "Admin. For runners use list_runners.", action=prop(enum=["a", "b"])),
    ]
    findings = run_rule(UnknownToolReference(), tools)
    assert [f.data["reference"] for f in findings] == ["list_runners"]


def test_sl206_is_info_for_python_tools_whose_siblings_may_live_in_other_modules() -> None:
    [finding] = run_rule(UnknownToolReference(), [tool("get_order", "For many use list_orders.")], Dialect.PYTHON)
    assert finding.severity is Severity.INFO and "`toolsets`" in finding.message


def test_sl206_reports_in_the_file_of_the_referring_tool(tmp_path: Path) -> None:
    (tmp_path / ".schemalint.toml").write_text('[toolsets]\nshop = ["*.json"]\n')
    (tmp_path / "a_orders.json").write_text(json.dumps(tool("get_order", "One order.")))
    (tmp_path / "b_labels.json").write_text(json.dumps(tool("label_write", "Labels. To tag orders use tag_order.")))
    result = lint([str(tmp_path)], LintOptions(config_file=tmp_path / ".schemalint.toml", select=("SL206",)))
    [finding] = result.diagnostics
    assert (Path(finding.path).name, finding.tool) == ("b_labels.json", "label_write")


def test_sl206_knows_a_tool_in_another_case_style_or_without_the_server_prefix() -> None:
    tools = [
        tool("list_watched_repos", "Repositories you watch."),
        tool("acme_fetch_invoice", "One invoice."),
        tool("run_report", "Reports. The repo slug comes from listWatchedRepos; for one invoice use fetch_invoice."),
        tool("send_reminder", "Reminders. Use list-watched-repos first, then call fetch_receipt for the receipt."),
    ]
    findings = run_rule(UnknownToolReference(), tools)
    assert [f.data["reference"] for f in findings] == ["fetch_receipt"]


def test_sl206_skips_fields_code_and_files_written_unlike_the_sets_tool_names() -> None:
    tools = [
        tool("create_event", "New event. Do not use startDateTime; use the nested start object."),
        tool("run_script", "Runs JS. Use frame.appendChild(node) to nest, and node.remove() to clean up."),
        tool("open_diagram", "Opens it in the draw.io editor. See the changes.json file it writes."),
        tool("export_sheet", "Export. Use sheet.export_csv for CSV."),  # dotted, but no tool name is
        tool("sync_calendar", "Sync. For a single event use update_event instead."),
    ]
    findings = run_rule(UnknownToolReference(), tools)
    assert [f.data["reference"] for f in findings] == ["update_event"]
    # where the set's names are camelCase, a camelCase name is a tool
    camel = [tool("createEvent", "New event."), tool("syncCalendar", "Sync. For one event use updateEvent.")]
    assert [f.data["reference"] for f in run_rule(UnknownToolReference(), camel)] == ["updateEvent"]


def test_sl206_skips_sql_names_and_values_listed_by_a_parameter() -> None:
    query = tool(
        "run_query",
        "Read-only SQL. Use the order_items table for lines, and use `customer_totals` view for sums."
        " To profile, run the collect_samples or all recipes. For writes use execute_write.",
        recipe=prop(description="Recipe to run: code_hotspots, collect_samples, or all."),
    )
    findings = run_rule(UnknownToolReference(), [query])
    assert [f.data["reference"] for f in findings] == ["execute_write"]


def test_sl206_knows_the_actions_of_a_multiplexed_server() -> None:
    runner_text = (
        "CI runners.\nActions:\n- list: all runners\n- pause_runner: stop taking jobs\n"
        "- register: project_id*, token*, tag_list, run_untagged\n"
        "Use register with run_untagged to accept any job. To merge, use merge_request.accept."
    )
    tools = [
        tool("ci_runner", runner_text, action=prop()),
        tool("ci_merge_request", "Merge requests.\n- accept: merge it\n- close: close it", action=prop()),
        tool(
            "ci_job",
            "Jobs. Before retrying, use runner.pause_runner or ci_runner_list; then use ci_runner_drain_all.",
            action=prop(),
        ),
    ]
    findings = run_rule(UnknownToolReference(), tools)
    assert [f.data["reference"] for f in findings] == ["ci_runner_drain_all"]
