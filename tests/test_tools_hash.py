"""`schemalint hash`: one hash for the same tools in any dialect, key order or format; order counts."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from schemalint.cli import main
from schemalint.tools_hash import digest

PARAMETERS = {
    "type": "object",
    "properties": {
        "invoice_id": {"type": "string", "description": "Invoice number, e.g. INV-2041."},
        "lines": {"type": "array", "items": {"type": "integer"}, "maxItems": 20},
    },
    "required": ["invoice_id"],
}
VOID = ("void_invoice", "Voids an unpaid invoice. Do not use for paid invoices: refund them instead.")
SEND = ("send_invoice", "Emails an invoice to the customer on file.")
SEND_PARAMETERS = {"type": "object", "properties": {"invoice_id": {"type": "string"}}, "required": ["invoice_id"]}


def openai_chat(tools: list[tuple[str, str, dict[str, Any]]]) -> list[dict[str, Any]]:
    return [{"type": "function", "function": {"name": n, "description": d, "parameters": p}} for n, d, p in tools]


def anthropic_yaml(tools: list[tuple[str, str, dict[str, Any]]]) -> str:
    lines = ["tools:"]
    for name, description, parameters in tools:
        lines += [f"  - name: {name}", f"    description: {json.dumps(description)}"]
        lines.append(f"    input_schema: {json.dumps(parameters)}")
    return "\n".join(lines) + "\n"


def gemini(tools: list[tuple[str, str, dict[str, Any]]]) -> dict[str, Any]:
    def upper(schema: Any) -> Any:
        if isinstance(schema, dict):
            return {k: (v.upper() if k == "type" else upper(v)) for k, v in schema.items()}
        return schema

    declarations = [{"name": n, "description": d, "parameters": upper(p)} for n, d, p in tools]
    return {"tools": [{"functionDeclarations": declarations}]}


def mcp(tools: list[tuple[str, str, dict[str, Any]]]) -> dict[str, Any]:
    return {
        "tools": [
            {"name": n, "description": d, "inputSchema": p, "annotations": {"destructiveHint": True}}
            for n, d, p in tools
        ]
    }


TOOLS = [(*VOID, PARAMETERS), (*SEND, SEND_PARAMETERS)]


def hashes(*paths: Path) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(main, ["hash", "--json", *map(str, paths)])
    return result.exit_code, json.loads(result.stdout)


def test_the_same_tools_hash_alike_in_every_dialect_and_format(tmp_path: Path) -> None:
    files = {
        "chat.json": json.dumps(openai_chat(TOOLS), indent=2),
        "minified.json": json.dumps(openai_chat(TOOLS), separators=(",", ":"), sort_keys=True),
        "anthropic.yaml": anthropic_yaml(TOOLS),
        "gemini.json": json.dumps(gemini(TOOLS)),
        "mcp.json": json.dumps(mcp(TOOLS)),
    }
    seen = {}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        code, out = hashes(tmp_path / name)
        assert code == 0, name
        seen[name] = (out["tools_hash"], tuple(t["hash"] for t in out["tools"]), tuple(t["name"] for t in out["tools"]))
    assert len(set(seen.values())) == 1, seen
    assert seen["chat.json"][2] == ("void_invoice", "send_invoice")


def test_order_changes_the_set_hash_but_not_the_tools(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps(openai_chat(TOOLS)))
    (tmp_path / "b.json").write_text(json.dumps(openai_chat(TOOLS[::-1])))
    _, a = hashes(tmp_path / "a.json")
    _, b = hashes(tmp_path / "b.json")
    assert a["tools_hash"] != b["tools_hash"]
    assert sorted(t["hash"] for t in a["tools"]) == sorted(t["hash"] for t in b["tools"])


@pytest.mark.parametrize(
    "edit",
    [
        lambda tools: tools[0]["function"].update(description=tools[0]["function"]["description"] + "!"),
        lambda tools: tools[0]["function"]["parameters"]["properties"]["lines"].update(maxItems=21),
        lambda tools: tools[0]["function"].update(strict=True),
        lambda tools: tools[1]["function"].update(name="email_invoice"),
    ],
)
def test_what_the_model_reads_changes_the_hash(tmp_path: Path, edit: Any) -> None:
    tools = openai_chat(TOOLS)
    (tmp_path / "before.json").write_text(json.dumps(tools))
    edit(tools)
    (tmp_path / "after.json").write_text(json.dumps(tools))
    assert hashes(tmp_path / "before.json")[1]["tools_hash"] != hashes(tmp_path / "after.json")[1]["tools_hash"]


def test_what_the_model_never_reads_does_not_count(tmp_path: Path) -> None:
    plain, annotated = mcp(TOOLS), mcp(TOOLS)
    for tool in plain["tools"]:
        del tool["annotations"]
    annotated["tools"][0]["outputSchema"] = {"type": "object"}
    (tmp_path / "plain.json").write_text(json.dumps(plain))
    (tmp_path / "annotated.json").write_text(json.dumps(annotated))
    assert hashes(tmp_path / "plain.json")[1] != hashes(tmp_path / "annotated.json")[1]  # paths differ
    assert hashes(tmp_path / "plain.json")[1]["tools_hash"] == hashes(tmp_path / "annotated.json")[1]["tools_hash"]


def test_gemini_data_values_keep_their_case(tmp_path: Path) -> None:
    with_enum = [(VOID[0], VOID[1], {"type": "object", "properties": {"mode": {"type": "string", "enum": ["A"]}}})]
    lower = [(VOID[0], VOID[1], {"type": "object", "properties": {"mode": {"type": "string", "enum": ["a"]}}})]
    (tmp_path / "upper.json").write_text(json.dumps(gemini(with_enum)))
    (tmp_path / "lower.json").write_text(json.dumps(gemini(lower)))
    assert hashes(tmp_path / "upper.json")[1]["tools_hash"] != hashes(tmp_path / "lower.json")[1]["tools_hash"]


def test_text_output_lists_the_set_then_each_tool(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(json.dumps(openai_chat(TOOLS)))
    result = CliRunner().invoke(main, ["hash", str(tmp_path / "tools.json")])
    lines = result.stdout.splitlines()
    assert result.exit_code == 0
    assert lines[0].startswith("sha256:") and lines[0].endswith("  2 tools")
    assert lines[1].split("  ")[1:] == ["void_invoice", f"{tmp_path / 'tools.json'}#/0"]


def test_an_unreadable_file_is_said_and_the_others_are_hashed(tmp_path: Path) -> None:
    (tmp_path / "good.json").write_text(json.dumps(openai_chat(TOOLS)))
    (tmp_path / "bad.json").write_text('{"tools": [')
    result = CliRunner().invoke(main, ["hash", "--json", str(tmp_path / "bad.json"), str(tmp_path / "good.json")])
    assert result.exit_code == 2
    assert "bad.json:1:" in result.stderr
    assert [t["name"] for t in json.loads(result.stdout)["tools"]] == ["void_invoice", "send_invoice"]


def test_a_lone_surrogate_hashes(tmp_path: Path) -> None:
    (tmp_path / "odd.json").write_text('[{"name": "get_\\ud800x", "description": "d", "parameters": {}}]')
    result = CliRunner().invoke(main, ["hash", str(tmp_path / "odd.json")])
    assert result.stdout.startswith("sha256:")


def test_digest_is_the_sha256_of_compact_sorted_json() -> None:
    """The formula `schemalint mcp --lock` files were written with: old locks stay valid."""
    value = {"name": "é", "b": [1, {"z": None, "a": True}]}
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert digest(value) == "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_a_reorder_in_the_diff_says_the_hash_changed(tmp_path: Path) -> None:
    (tmp_path / "old.json").write_text(json.dumps(openai_chat(TOOLS)))
    (tmp_path / "new.json").write_text(json.dumps(openai_chat(TOOLS[::-1])))
    result = CliRunner().invoke(main, ["diff", str(tmp_path / "old.json"), str(tmp_path / "new.json")])
    assert "SL912" in result.stdout and "tools hash (`schemalint hash`) changes" in result.stdout


@pytest.mark.parametrize("command", [["hash"], ["export"], ["calls", "calls.jsonl", "--tools"]])
def test_paths_without_any_tool_are_an_error_not_an_empty_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty").mkdir()
    (tmp_path / "calls.jsonl").write_text(json.dumps({"tool_calls": [{"name": "void_invoice", "arguments": {}}]}))
    result = CliRunner().invoke(main, [*command, "empty"])
    assert result.exit_code == 2
    assert "no tool definitions found in empty" in result.stderr
    assert result.stdout == ""
    unreadable = CliRunner().invoke(main, [*command, "absent.json"])
    assert unreadable.exit_code == 2 and "absent.json:1:1: cannot read" in unreadable.stderr
    assert unreadable.stdout == ""
