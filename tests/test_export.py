"""`schemalint export`: valid JSON Schema out of Gemini's OpenAPI spelling, and what a dialect cannot hold is said."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from schemalint.cli import main

GEMINI = {
    "functionDeclarations": [
        {
            "name": "find_flights",
            "description": "Flights between two airports on one day.",
            "parameters": {
                "type": "OBJECT",
                "properties": {
                    "origin": {"type": "STRING", "enum": ["AMS", "BCN"]},
                    "max_stops": {"type": "INTEGER", "nullable": True},
                    "legs": {"type": "ARRAY", "items": {"type": "OBJECT", "properties": {"day": {"type": "STRING"}}}},
                },
                "required": ["origin"],
            },
            "response": {"type": "OBJECT", "properties": {"flights": {"type": "ARRAY", "items": {"type": "STRING"}}}},
        }
    ]
}


def export(path: Path, to: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["export", str(path), "--to", to])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("to", ["openai", "anthropic", "mcp", "canonical", "gemini"])
def test_gemini_parameters_export_as_json_schema_that_schemalint_accepts(tmp_path: Path, to: str) -> None:
    source = tmp_path / "gemini.json"
    source.write_text(json.dumps(GEMINI))
    code, out, _ = export(source, to)
    assert code == 0
    assert '"OBJECT"' not in out and '"STRING"' not in out and "nullable" not in out
    assert '"AMS"' in out  # data keeps its case
    exported = tmp_path / f"exported.{to}.json"
    exported.write_text(out)
    check = CliRunner().invoke(main, ["check", "--no-config", "--select", "SL309,SL402", str(exported)])
    assert check.exit_code == 0, check.output


def test_max_stops_becomes_a_nullable_type_list(tmp_path: Path) -> None:
    source = tmp_path / "gemini.json"
    source.write_text(json.dumps(GEMINI))
    [tool] = json.loads(export(source, "mcp")[1])
    assert tool["inputSchema"]["properties"]["max_stops"] == {"type": ["integer", "null"]}
    assert tool["outputSchema"]["properties"]["flights"]["items"] == {"type": "string"}


def test_fields_the_target_cannot_hold_are_named_on_stderr(tmp_path: Path) -> None:
    source = tmp_path / "gemini.json"
    source.write_text(json.dumps(GEMINI))
    _, out, err = export(source, "openai")
    assert "outputSchema" not in out and "response" not in out
    assert err.splitlines() == [
        f"schemalint: {source}#/functionDeclarations/0: `find_flights`: openai has no place for output_schema; left out"
    ]
    assert export(source, "mcp")[2] == ""
    mcp_tool = tmp_path / "mcp.json"
    mcp_tool.write_text(
        json.dumps({"tools": [{"name": "t", "title": "T", "inputSchema": {"type": "object"}, "annotations": {}}]})
    )
    assert "has no place for title, annotations; left out" in export(mcp_tool, "gemini")[2]


def test_a_json_schema_declaration_is_exported_unchanged(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string", "nullable": True}}}
    source = tmp_path / "gemini.json"
    source.write_text(json.dumps({"functionDeclarations": [{"name": "q", "parametersJsonSchema": schema}]}))
    [tool] = json.loads(export(source, "anthropic")[1])
    assert tool["input_schema"] == schema
