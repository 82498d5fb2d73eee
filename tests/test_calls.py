"""`schemalint calls`: recorded calls of every provider's shape checked against the tool definitions."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from schemalint.calls import check_calls
from schemalint.cli import main
from schemalint.dialects import detect_tools
from schemalint.loaders.discover import parse_document

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "refund_payment",
            "description": "Refunds a captured payment, fully or in part.",
            "parameters": {
                "type": "object",
                "properties": {
                    "payment_id": {"type": "string"},
                    "amount_cents": {"type": "integer", "minimum": 1},
                    "reason": {"type": "string", "enum": ["duplicate", "fraud", "requested"]},
                },
                "required": ["payment_id", "amount_cents"],
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "get_payment",
            "description": "One payment by id.",
            "parameters": {
                "type": "object",
                "properties": {"payment_id": {"type": "string"}},
                "required": ["payment_id"],
            },
        },
    },
]
GOOD_ARGS = {"payment_id": "py_1", "amount_cents": 500}


def tools() -> list[Any]:
    return detect_tools(parse_document(json.dumps(TOOLS), "tools.json"))


def trace(calls: list[dict[str, Any]], **fields: Any) -> str:
    return json.dumps({"trace_id": "t1", "finish_reason": "tool_calls", "tool_calls": calls, **fields})


def kinds(lines: list[str]) -> list[tuple[int, str]]:
    return [(p.line, p.kind) for p in check_calls(lines, tools()).problems]


def test_valid_calls_in_every_shape_are_clean() -> None:
    args = json.dumps(GOOD_ARGS)
    lines = [
        trace([{"name": "refund_payment", "arguments": GOOD_ARGS}]),
        json.dumps({"choices": [{"finish_reason": "tool_calls", "message": {"tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "refund_payment", "arguments": args}}]}}]}),
        json.dumps({"output": [{"type": "function_call", "name": "get_payment", "arguments": '{"payment_id": "p"}'}]}),
        json.dumps({"stop_reason": "tool_use", "content": [
            {"type": "text", "text": "ok"},
            {"type": "tool_use", "id": "u", "name": "refund_payment", "input": GOOD_ARGS}]}),
        json.dumps({"candidates": [{"finishReason": "STOP", "content": {"parts": [
            {"functionCall": {"name": "get_payment", "args": {"payment_id": "p"}}}]}}]}),
        "",
    ]  # fmt: skip
    report = check_calls(lines, tools())
    assert report.problems == []
    assert report.responses == 5
    assert report.tools["refund_payment"].calls == 3 and report.tools["get_payment"].calls == 2


def test_trace_fields_holding_the_chat_api_s_own_tool_calls_are_read() -> None:
    # `tool_calls` logged as the assistant message has them: {id, type, function: {name, arguments}}
    chat_call = {"id": "c1", "type": "function", "function": {"name": "refund_payment", "arguments": "{}"}}
    good = {**chat_call, "function": {"name": "get_payment", "arguments": '{"payment_id": "p"}'}}
    report = check_calls([trace([chat_call]), trace([good], trace_id="t2")], tools())
    assert {(p.line, p.kind, p.tool, p.keyword) for p in report.problems} == {
        (1, "invalid-arguments", "refund_payment", "required")
    }
    assert report.tools["refund_payment"].calls == 1 and report.tools["get_payment"].calls == 1


def test_unknown_tools_are_reported_in_each_shape() -> None:
    lines = [
        trace([{"name": "refund_order", "arguments": {}}]),
        json.dumps({"choices": [{"message": {"tool_calls": [{"function": {"name": "cancel", "arguments": "{}"}}]}}]}),
        json.dumps({"stop_reason": "tool_use", "content": [{"type": "tool_use", "name": "lookup", "input": {}}]}),
    ]
    assert kinds(lines) == [(1, "unknown-tool"), (2, "unknown-tool"), (3, "unknown-tool")]


def test_invalid_arguments_name_the_field_and_the_keyword() -> None:
    lines = [
        trace([{"name": "refund_payment", "arguments": {"payment_id": "p", "amount_cents": "5"}}]),
        trace([{"name": "refund_payment", "arguments": {"payment_id": "p", "amount_cents": 5, "reason": "x"}}]),
        trace([{"name": "refund_payment", "arguments": {"amount_cents": 0}}]),
        json.dumps(
            {"choices": [{"message": {"tool_calls": [{"function": {"name": "get_payment", "arguments": "{"}}]}}]}
        ),
    ]
    problems = check_calls(lines, tools()).problems
    found = [(p.line, p.pointer, p.keyword) for p in problems]
    assert found == [
        (1, "/amount_cents", "type"),
        (2, "/reason", "enum"),
        (3, "/", "required"),
        (3, "/amount_cents", "minimum"),
        (4, "/", None),
    ]
    report = check_calls(lines, tools())
    assert report.tools["refund_payment"].invalid == 3
    assert report.tools["refund_payment"].to_json()["invalid_rate"] == 1.0


def test_a_changed_tools_hash_is_said_once_per_hash() -> None:
    current = check_calls([], tools()).tools_hash
    lines = [
        trace([{"name": "get_payment", "arguments": {"payment_id": f"p{i}"}}], tools_hash=logged)
        for i, logged in enumerate([current, "sha256:old", "sha256:old"])
    ]
    assert kinds(lines) == [(2, "tools-hash-changed")]


def test_a_truncated_response_without_a_call_is_reported() -> None:
    lines = [
        trace([], finish_reason="length"),
        json.dumps({"stop_reason": "max_tokens", "content": [{"type": "text", "text": "Let me"}]}),
        json.dumps({"candidates": [{"finishReason": "MAX_TOKENS", "content": {"parts": [{"text": "I will"}]}}]}),
        json.dumps({"output": [], "incomplete_details": {"reason": "max_output_tokens"}}),
        trace([], finish_reason="stop"),
    ]
    assert kinds(lines) == [(n, "truncated-before-call") for n in (1, 2, 3, 4)]


def test_the_same_call_with_the_same_result_three_times_is_a_loop() -> None:
    def call(result: Any, trace_id: str = "t1") -> str:
        return json.dumps(
            {
                "trace_id": trace_id,
                "tool_calls": [{"name": "get_payment", "arguments": {"payment_id": "p"}, "result": result}],
            }
        )

    looping = [call({"error": "timeout"}) for _ in range(4)]
    assert kinds(looping) == [(3, "repeated-call")]
    progressing = [call({"status": s}) for s in ("pending", "pending", "captured")]
    assert kinds(progressing) == []
    interleaved = [call("x", "a"), call("x", "b"), call("x", "a"), call("x", "b"), call("x", "a")]
    assert kinds(interleaved) == [(5, "repeated-call")]


def test_unreadable_lines_are_reported_and_reading_goes_on() -> None:
    lines = ['{"trace_id": ', json.dumps({"hello": 1}), trace([{"name": "nope"}])]
    assert kinds(lines) == [(1, "unreadable-line"), (2, "unreadable-line"), (3, "unknown-tool")]


def test_a_long_log_is_read_in_constant_memory() -> None:
    def log(n: int) -> Iterator[str]:
        for i in range(n):
            yield trace([{"name": "get_payment", "arguments": {"payment_id": f"p{i}"}}], trace_id=f"t{i % 50}")

    tracemalloc.start()
    check_calls(log(1_000), tools())
    small = tracemalloc.get_traced_memory()[1]
    tracemalloc.reset_peak()
    check_calls(log(8_000), tools())
    large = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert large < small * 2


def test_the_command_prints_problems_and_the_summary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("tools.json").write_text(json.dumps(TOOLS))
    Path("calls.jsonl").write_text(
        "\n".join([trace([{"name": "refund_payment", "arguments": {"payment_id": "p"}}]), trace([{"name": "get_pay"}])])
        + "\n"
    )
    result = CliRunner().invoke(main, ["calls", "calls.jsonl", "--tools", "tools.json"])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert (
        lines[0]
        == "calls.jsonl:1: invalid-arguments: `refund_payment` /: 'amount_cents' is a required property (required)"
    )
    assert lines[1].startswith("calls.jsonl:2: unknown-tool: called `get_pay`")
    assert lines[2].startswith("2 responses checked against sha256:")
    assert lines[4].split() == ["refund_payment", "1", "1", "100.0%", "/", "(1)"]
    as_json = json.loads(CliRunner().invoke(main, ["calls", "calls.jsonl", "--tools", "tools.json", "--json"]).stdout)
    assert as_json["tools"]["get_payment"] == {"calls": 0, "invalid": 0, "invalid_rate": 0.0, "top_failing": []}
    assert [p["kind"] for p in as_json["problems"]] == ["invalid-arguments", "unknown-tool"]


def test_a_clean_log_exits_0_and_a_missing_one_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("tools.json").write_text(json.dumps(TOOLS))
    Path("calls.jsonl").write_text(trace([{"name": "get_payment", "arguments": {"payment_id": "p"}}]) + "\n")
    assert CliRunner().invoke(main, ["calls", "calls.jsonl", "--tools", "tools.json"]).exit_code == 0
    missing = CliRunner().invoke(main, ["calls", "absent.jsonl", "--tools", "tools.json"])
    assert missing.exit_code == 2 and "absent.jsonl" in missing.output
