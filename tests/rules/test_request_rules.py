"""Rules about request bodies (SL801-SL806) and error shapes (SL703), run through the engine on real-shaped files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schemalint.diagnostics import Diagnostic
from schemalint.dialects.requests import detect_requests
from schemalint.engine import LintOptions, lint, lint_source
from schemalint.model import Dialect

OPTIONS = LintOptions(no_config=True, select=("SL703", "SL8"))


def chat_tool(name: str, description: str = "Does one thing.", **properties: Any) -> dict[str, Any]:
    parameters = {"type": "object", "properties": properties or {"order_id": {"type": "string"}}}
    return {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}


def responses_tool(name: str, defer: bool = False) -> dict[str, Any]:
    tool: dict[str, Any] = {"type": "function", "name": name, "description": "Does one thing.", "parameters": {}}
    if defer:
        tool["defer_loading"] = True
    return tool


def anthropic_tool(name: str, description: str = "Does one thing.", defer: bool = False) -> dict[str, Any]:
    tool: dict[str, Any] = {"name": name, "description": description, "input_schema": {"type": "object"}}
    if defer:
        tool["defer_loading"] = True
    return tool


def chat(*tools: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"model": "gpt-4.1", "messages": [{"role": "user", "content": "hi"}], "tools": list(tools), **fields}


def responses(*tools: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"model": "gpt-5.4", "input": "hi", "tools": list(tools), **fields}


def anthropic(*tools: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"model": "claude-sonnet-4-5", "max_tokens": 512, "messages": [], "tools": list(tools), **fields}


def gemini(*declarations: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"contents": [], "tools": [{"functionDeclarations": list(declarations)}], **fields}


def found(body: Any, code: str, filename: str = "request.json") -> list[Diagnostic]:
    text = body if isinstance(body, str) else json.dumps(body, indent=2)
    return [d for d in lint_source(text, filename, OPTIONS).diagnostics if d.code == code]


# --- what a request body is ---------------------------------------------------------------------


def test_a_tools_list_result_is_not_a_request() -> None:
    assert detect_requests({"tools": [anthropic_tool("get_order")]}, "t.json", []) == []
    # nor is a file of tools without any request key, whatever the parallel default would say
    assert found({"tools": [chat_tool("pay_invoice")]}, "SL803") == []


def test_request_fields_are_read_per_api() -> None:
    [req] = lint_source(json.dumps(anthropic(anthropic_tool("get_order"))), "r.json", OPTIONS).files[0].requests
    assert req.api is Dialect.ANTHROPIC and req.parallel_calls is None and [t.name for t in req.tools] == ["get_order"]
    body = anthropic(anthropic_tool("get_order"), tool_choice={"type": "any", "disable_parallel_tool_use": True})
    [req] = lint_source(json.dumps(body), "r.json", OPTIONS).files[0].requests
    assert req.parallel_calls is False and req.tool_choice is not None and req.tool_choice.mode == "required"
    body = gemini({"name": "get_order"}, tool_config={"function_calling_config": {"mode": "any"}})
    [req] = lint_source(json.dumps(body), "r.json", OPTIONS).files[0].requests
    assert req.api is Dialect.GEMINI and req.tool_choice is not None and req.tool_choice.mode == "required"


def test_an_array_of_request_bodies_is_read_body_by_body() -> None:
    bodies = [chat(chat_tool("get_order")), chat(chat_tool("get_order"), tool_choice="none")]
    [finding] = found(bodies, "SL802")
    assert finding.pointer == "/1/tool_choice"


# --- SL801 unknown-tool-choice ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        (chat(chat_tool("get_order"), tool_choice={"type": "function", "function": {"name": "getOrder"}}), None),
        (responses(responses_tool("get_order"), tool_choice={"type": "function", "name": "get_orders"}), None),
        (anthropic(anthropic_tool("get_order"), tool_choice={"type": "tool", "name": "order"}), None),
        (
            gemini({"name": "get_order"}, toolConfig={"functionCallingConfig": {"allowedFunctionNames": ["x"]}}),
            "/toolConfig/functionCallingConfig/allowedFunctionNames/0",
        ),
        (
            chat(
                chat_tool("get_order"),
                tool_choice={
                    "type": "allowed_tools",
                    "allowed_tools": {"mode": "auto", "tools": [{"type": "function", "function": {"name": "gone"}}]},
                },
            ),
            "/tool_choice/allowed_tools/tools/0/function/name",
        ),
        (
            responses(
                responses_tool("get_order"),
                tool_choice={"type": "allowed_tools", "mode": "required", "tools": [{"type": "function", "name": "x"}]},
            ),
            "/tool_choice/tools/0/name",
        ),
    ],
)
def test_sl801_flags_a_choice_of_a_tool_the_request_does_not_send(body: dict[str, Any], pointer: str | None) -> None:
    [finding] = found(body, "SL801")
    assert finding.severity.label == "error"
    assert pointer is None or finding.pointer == pointer


@pytest.mark.parametrize(
    "body",
    [
        chat(chat_tool("get_order"), tool_choice={"type": "function", "function": {"name": "get_order"}}),
        chat(chat_tool("get_order"), tool_choice="required"),
        responses(
            {"type": "namespace", "name": "crm", "tools": [responses_tool("get_order")]},
            tool_choice={"type": "function", "name": "get_order"},
        ),
        responses(responses_tool("get_order"), {"type": "file_search"}, tool_choice={"type": "file_search"}),
        anthropic(
            anthropic_tool("get_order"),
            {"type": "web_search_20250305", "name": "web_search"},
            tool_choice={"type": "tool", "name": "web_search"},
        ),
        gemini({"name": "get_order"}, toolConfig={"functionCallingConfig": {"allowedFunctionNames": ["get_order"]}}),
    ],
)
def test_sl801_accepts_choices_of_tools_the_request_sends(body: dict[str, Any]) -> None:
    assert found(body, "SL801") == []


def test_sl801_points_at_the_name_in_yaml() -> None:
    text = (
        "model: claude-sonnet-4-5\nmax_tokens: 100\nmessages: []\ntools:\n"
        "  - name: get_order\n    input_schema: {type: object}\n"
        "tool_choice:\n  type: tool\n  name: get_orders\n"
    )
    [finding] = found(text, "SL801", "request.yaml")
    assert (finding.span.line, finding.span.column) == (9, 9)


# --- SL802 tool-choice-none ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        chat(chat_tool("get_order"), tool_choice="none"),
        anthropic(anthropic_tool("get_order"), tool_choice={"type": "none"}),
        gemini({"name": "get_order"}, toolConfig={"functionCallingConfig": {"mode": "none"}}),
    ],
)
def test_sl802_flags_tools_sent_with_calls_forbidden(body: dict[str, Any]) -> None:
    [finding] = found(body, "SL802")
    assert finding.severity.label == "info"


@pytest.mark.parametrize(
    "body",
    [
        chat(chat_tool("get_order"), tool_choice="auto"),
        chat(chat_tool("get_order")),
        anthropic(anthropic_tool("get_order"), tool_choice={"type": "auto"}),
        gemini({"name": "get_order"}, toolConfig={"functionCallingConfig": {"mode": "VALIDATED"}}),
    ],
)
def test_sl802_accepts_requests_that_may_call(body: dict[str, Any]) -> None:
    assert found(body, "SL802") == []


# --- SL803 parallel-unsafe-writes ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "pointer", "tools"),
    [
        (chat(chat_tool("get_order"), chat_tool("refund_order")), "/tools", ["refund_order"]),
        (chat(chat_tool("charge_card"), parallel_tool_calls=True), "/parallel_tool_calls", ["charge_card"]),
        (responses(responses_tool("send_invoice"), responses_tool("create_ticket")), "/tools", None),
        (anthropic(anthropic_tool("delete_file")), "/tools", ["delete_file"]),
        (
            anthropic(anthropic_tool("book_room"), tool_choice={"type": "auto", "disable_parallel_tool_use": False}),
            "/tool_choice/disable_parallel_tool_use",
            ["book_room"],
        ),
    ],
)
def test_sl803_flags_parallel_calls_with_unsafe_writes(
    body: dict[str, Any], pointer: str, tools: list[str] | None
) -> None:
    [finding] = found(body, "SL803")
    assert finding.pointer == pointer
    assert tools is None or finding.data["tools"] == tools


@pytest.mark.parametrize(
    "body",
    [
        chat(chat_tool("refund_order"), parallel_tool_calls=False),
        anthropic(anthropic_tool("delete_file"), tool_choice={"type": "auto", "disable_parallel_tool_use": True}),
        chat(chat_tool("refund_order"), tool_choice="none"),
        chat(chat_tool("get_order"), chat_tool("list_orders"), chat_tool("search_products")),
        chat(chat_tool("create_payment", amount_cents={"type": "integer"}, idempotency_key={"type": "string"})),
        chat(chat_tool("update_address", "Replaces the shipping address. Idempotent: safe to retry.")),
        chat(chat_tool("cancel_order", "Cancels an order. 该操作幂等。")),
        gemini({"name": "delete_file", "description": "Deletes a file."}),
    ],
)
def test_sl803_accepts_serial_calls_reads_and_idempotent_writes(body: dict[str, Any]) -> None:
    assert found(body, "SL803") == []


def test_sl803_writing_verbs_are_configurable(tmp_path: Path) -> None:
    (tmp_path / "request.json").write_text(json.dumps(chat(chat_tool("launch_rocket"))), encoding="utf-8")
    (tmp_path / ".schemalint.toml").write_text('[rules.SL803]\nwriting-verbs = ["delete"]\n', encoding="utf-8")
    options = LintOptions(config_file=tmp_path / ".schemalint.toml", select=("SL803",))
    assert [d for d in lint([str(tmp_path / "request.json")], options).diagnostics] == []
    (tmp_path / ".schemalint.toml").write_text('[rules.SL803]\nextend-writing-verbs = ["launch"]\n', encoding="utf-8")
    [finding] = lint([str(tmp_path / "request.json")], options).diagnostics
    assert finding.data["tools"] == ["launch_rocket"]


# --- SL804-SL806 deferred loading ---------------------------------------------------------------

SEARCH = {"type": "tool_search_tool_regex_20251119", "name": "tool_search"}


def test_sl804_flags_a_request_with_every_tool_deferred() -> None:
    [finding] = found(anthropic(anthropic_tool("a", defer=True), anthropic_tool("b", defer=True)), "SL804")
    assert finding.pointer == "/tools" and finding.severity.label == "error"


def test_sl804_flags_a_deferred_search_tool() -> None:
    body = anthropic({**SEARCH, "defer_loading": True}, anthropic_tool("a"), anthropic_tool("b", defer=True))
    [finding] = found(body, "SL804")
    assert finding.pointer == "/tools/0/defer_loading"


@pytest.mark.parametrize(
    "body",
    [
        anthropic(SEARCH, anthropic_tool("a", defer=True)),
        anthropic(anthropic_tool("a"), anthropic_tool("b")),
        responses({"type": "tool_search"}, responses_tool("a", defer=True)),
    ],
)
def test_sl804_accepts_requests_with_an_entry_point(body: dict[str, Any]) -> None:
    assert found(body, "SL804") == []


@pytest.mark.parametrize(
    "body",
    [
        anthropic(anthropic_tool("get_order"), anthropic_tool("refund_order", defer=True)),
        responses(responses_tool("get_order"), responses_tool("refund_order", defer=True)),
        responses(
            responses_tool("get_order"),
            {"type": "namespace", "name": "billing", "tools": [responses_tool("refund_order", defer=True)]},
        ),
        responses(responses_tool("get_order"), {"type": "mcp", "server_label": "crm", "defer_loading": True}),
        # the guide's spelling
        responses(responses_tool("get_order"), {**responses_tool("refund_order"), "deferLoading": True}),
    ],
)
def test_sl805_flags_deferred_tools_nothing_can_load(body: dict[str, Any]) -> None:
    [finding] = found(body, "SL805")
    assert finding.severity.label == "warning"


@pytest.mark.parametrize(
    "body",
    [
        anthropic(SEARCH, anthropic_tool("get_order"), anthropic_tool("refund_order", defer=True)),
        anthropic({"type": "tool_search_tool_bm25_20251119", "name": "s"}, anthropic_tool("r", defer=True)),
        anthropic(anthropic_tool("find_tools"), anthropic_tool("refund_order", defer=True)),
        responses({"type": "tool_search"}, responses_tool("get_order"), responses_tool("refund_order", defer=True)),
        anthropic(anthropic_tool("a", defer=True), anthropic_tool("b", defer=True)),  # SL804's
        anthropic(anthropic_tool("get_order")),
    ],
)
def test_sl805_accepts_deferred_tools_with_a_search(body: dict[str, Any]) -> None:
    assert found(body, "SL805") == []


def test_sl806_flags_many_loaded_tools_where_the_api_can_defer() -> None:
    many = [responses_tool(f"get_thing_{i}") for i in range(31)]
    [finding] = found(responses(*many), "SL806")
    assert finding.data == {"loaded": 31} and finding.severity.label == "info"
    assert found(anthropic(*[anthropic_tool(f"get_thing_{i}") for i in range(31)]), "SL806")


def test_sl806_counts_only_loaded_tools_and_skips_apis_without_deferral() -> None:
    many = [responses_tool(f"get_thing_{i}", defer=i >= 20) for i in range(40)]
    assert found(responses({"type": "tool_search"}, *many), "SL806") == []
    assert found(chat(*[chat_tool(f"get_thing_{i}") for i in range(40)]), "SL806") == []
    assert found(responses(*[responses_tool(f"get_thing_{i}") for i in range(30)]), "SL806") == []


# --- SL703 unactionable-error-shape -------------------------------------------------------------


def mcp_tool(output: Any) -> dict[str, Any]:
    return {"tools": [{"name": "get_order", "inputSchema": {"type": "object"}, "outputSchema": output}]}


@pytest.mark.parametrize(
    ("output", "pointer"),
    [
        ({"type": "object", "properties": {"order": {"type": "object"}, "error": {"type": "string"}}}, "error"),
        ({"type": "object", "properties": {"error": {"type": ["string", "null"]}}}, "error"),
        ({"type": "object", "properties": {"errors": {"type": "array", "items": {"type": "string"}}}}, "errors"),
        (
            {
                "type": "object",
                "properties": {"error": {"type": "object", "properties": {"message": {"type": "string"}}}},
            },
            "error",
        ),
        (
            {
                "anyOf": [
                    {"type": "object", "properties": {"ok": {"type": "boolean"}}},
                    {"type": "object", "properties": {"error_message": {"type": "string"}}},
                ]
            },
            "error_message",
        ),
        (
            {"type": "object", "properties": {"result": {"type": "object", "properties": {"err": {"type": "string"}}}}},
            "err",
        ),
    ],
)
def test_sl703_flags_bare_error_messages(output: Any, pointer: str) -> None:
    [finding] = found(mcp_tool(output), "SL703")
    assert finding.pointer.endswith(f"/properties/{pointer}") and finding.severity.label == "info"


@pytest.mark.parametrize(
    "output",
    [
        {"type": "object", "properties": {"error": {"type": "string"}, "code": {"type": "string"}}},
        {"type": "object", "properties": {"error": {"type": "string"}, "retryable": {"type": "boolean"}}},
        {"type": "object", "properties": {"error": {"type": "string"}, "errorType": {"type": "string"}}},
        {
            "type": "object",
            "properties": {
                "error": {"type": "object", "properties": {"message": {"type": "string"}, "hint": {"type": "string"}}}
            },
        },
        {"type": "object", "properties": {"error": {"type": "object"}}},
        {
            "type": "object",
            "properties": {
                "errors": {"type": "array", "items": {"type": "object", "properties": {"line": {"type": "integer"}}}}
            },
        },
        {"type": "object", "properties": {"order": {"type": "object"}}},
    ],
)
def test_sl703_accepts_actionable_errors_and_results_without_errors(output: Any) -> None:
    assert found(mcp_tool(output), "SL703") == []


def test_sl703_reads_python_return_annotations() -> None:
    source = (
        "from typing import TypedDict\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('shop')\n\n\n"
        "class RefundResult(TypedDict):\n    refunded_cents: int\n    error: str | None\n\n\n"
        "@mcp.tool()\ndef refund_payment(payment_id: str) -> RefundResult:\n    '''Refunds a payment.'''\n"
    )
    [finding] = found(source, "SL703", "server.py")
    assert finding.tool == "refund_payment" and finding.span.line == 13


# --- suppression and output formats -------------------------------------------------------------


def test_request_findings_are_suppressed_inline_in_yaml_and_by_pointer_in_json(tmp_path: Path) -> None:
    text = (
        "model: claude-sonnet-4-5\nmax_tokens: 100\nmessages: []\ntools:\n"
        "  - name: get_order\n    input_schema: {type: object}\n"
        "tool_choice: {type: tool, name: get_orders}  # schemalint: disable=SL801\n"
    )
    assert found(text, "SL801", "request.yaml") == []
    (tmp_path / "request.json").write_text(
        json.dumps(chat(chat_tool("get_order"), tool_choice="none")), encoding="utf-8"
    )
    (tmp_path / ".schemalint.toml").write_text(
        '[per-file-ignores]\n"request.json#/tool_choice" = ["SL802"]\n', encoding="utf-8"
    )
    options = LintOptions(config_file=tmp_path / ".schemalint.toml", select=("SL802",))
    assert lint([str(tmp_path / "request.json")], options).diagnostics == []


@pytest.mark.parametrize("output_format", ["json", "sarif", "github", "gitlab", "junit", "text"])
def test_request_findings_reach_every_output_format(tmp_path: Path, output_format: str) -> None:
    from click.testing import CliRunner

    from schemalint.cli import main

    path = tmp_path / "request.json"
    path.write_text(json.dumps(chat(chat_tool("get_order"), tool_choice="none"), indent=2), encoding="utf-8")
    args = ["check", str(path), "--no-config", "--select", "SL802", "--output-format", output_format]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0  # info does not fail the run
    assert "SL802" in result.output


def test_sl703_follows_a_union_branch_into_defs() -> None:
    output = {
        "type": "object",
        "properties": {"result": {"anyOf": [{"$ref": "#/$defs/Ok"}, {"$ref": "#/$defs/Failure"}]}},
        "$defs": {
            "Ok": {"type": "object", "properties": {"id": {"type": "string"}}},
            "Failure": {"type": "object", "properties": {"error": {"type": "string"}}},
        },
    }
    [finding] = found(mcp_tool(output), "SL703")
    assert finding.pointer == "/tools/0/outputSchema/$defs/Failure/properties/error"
    output["$defs"]["Failure"]["properties"]["error_type"] = {"type": "string"}  # type: ignore[index]
    assert found(mcp_tool(output), "SL703") == []


def test_sl703_leaves_an_error_field_typed_null_alone() -> None:
    output = {"type": "object", "properties": {"values": {"type": "array"}, "error": {"type": "null"}}}
    assert found(mcp_tool(output), "SL703") == []


def test_deferred_tools_count_neither_towards_sl501_nor_sl503() -> None:
    described = "Returns one record of the archive. " * 40
    deferred = [{**anthropic_tool(f"get_record_{i}", described), "defer_loading": True} for i in range(40)]
    body = anthropic(SEARCH, anthropic_tool("get_order"), *deferred)
    options = LintOptions(no_config=True, select=("SL501", "SL503"))
    assert lint_source(json.dumps(body), "request.json", options).diagnostics == []
    loaded = anthropic(anthropic_tool("get_order"), *[anthropic_tool(f"get_record_{i}", described) for i in range(40)])
    assert {d.code for d in lint_source(json.dumps(loaded), "request.json", options).diagnostics} == {"SL501", "SL503"}


def test_an_mcp_toolset_deferred_by_its_default_config() -> None:
    toolset = {"type": "mcp_toolset", "mcp_server_name": "drive", "default_config": {"defer_loading": True}}
    assert found(anthropic(anthropic_tool("get_order"), toolset), "SL805")
    assert found(anthropic(SEARCH, anthropic_tool("get_order"), toolset), "SL805") == []
    keeps_one = {**toolset, "configs": {"search_files": {"defer_loading": False}}}
    assert found(anthropic(anthropic_tool("get_order", defer=True), keeps_one), "SL804") == []
    assert found(anthropic(anthropic_tool("get_order", defer=True), toolset), "SL804")


def test_sl801_leaves_requests_with_mcp_servers_alone() -> None:
    toolset = {"type": "mcp_toolset", "mcp_server_name": "drive"}
    assert (
        found(anthropic(anthropic_tool("get_order"), toolset, tool_choice={"type": "tool", "name": "x"}), "SL801") == []
    )
    server = {"type": "mcp", "server_label": "crm", "server_url": "https://crm.example/mcp"}
    body = responses(responses_tool("get_order"), server, tool_choice={"type": "function", "name": "x"})
    assert found(body, "SL801") == []
