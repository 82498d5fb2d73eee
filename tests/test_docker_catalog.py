"""Docker's MCP catalog `tools.json` (`arguments: [{name, type, desc}]`) read as the `docker-catalog` dialect."""

from __future__ import annotations

import json
from pathlib import Path

from schemalint.engine import lint
from schemalint.model import Dialect
from schemalint.targets import is_forwarded, resolve_targets

CATALOG = [
    {
        "name": "fetch_invoice",
        "description": "Fetch one invoice by its number and return its lines and totals.",
        "arguments": [
            {"name": "invoice_number", "type": "string", "desc": "The invoice number, e.g. INV-2041."},
            {"name": "currency", "type": "str", "desc": "Currency to convert the totals to.", "optional": True},
            {"name": "line_ids", "type": "array", "items": {"type": "integer"}, "desc": "Only these lines."},
        ],
    },
    {"name": "list_invoices", "description": "List the invoices of the current month, newest first."},
]


def write(directory: Path, data: object, name: str = "tools.json") -> Path:
    path = directory / name
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_arguments_become_a_json_schema(tmp_path: Path) -> None:
    path = write(tmp_path, CATALOG)
    result = lint([str(path)])
    tools = result.files[0].tools
    assert [t.name for t in tools] == ["fetch_invoice", "list_invoices"]
    assert {t.dialect for t in tools} == {Dialect.DOCKER_CATALOG}
    assert tools[0].parameters == {
        "type": "object",
        "properties": {
            "invoice_number": {"type": "string", "description": "The invoice number, e.g. INV-2041."},
            "currency": {"type": "str", "description": "Currency to convert the totals to."},
            "line_ids": {"type": "array", "description": "Only these lines.", "items": {"type": "integer"}},
        },
        "required": ["invoice_number", "line_ids"],
    }
    assert tools[1].parameters == {"type": "object", "properties": {}}
    assert all(d.code not in ("SL002", "SL003") for d in result.diagnostics)


def test_findings_point_at_the_argument(tmp_path: Path) -> None:
    path = write(tmp_path, CATALOG)
    diagnostics = lint([str(path)]).diagnostics
    invalid_type = next(d for d in diagnostics if d.code == "SL309")
    assert invalid_type.span.line == line_of(path, '"type": "str"')
    assert invalid_type.pointer.endswith("/properties/currency/type")


def test_names_and_descriptions_are_linted(tmp_path: Path) -> None:
    catalog = [{"name": "do", "description": "", "arguments": [{"name": "x", "type": "string", "desc": "x"}]}]
    path = write(tmp_path, catalog)
    codes = {d.code for d in lint([str(path)]).diagnostics}
    assert {"SL101", "SL201"} <= codes


def test_catalog_tools_default_to_every_provider_like_mcp(tmp_path: Path) -> None:
    tool = lint([str(write(tmp_path, CATALOG))]).files[0].tools[0]
    mcp_tool = {"name": "x", "description": "y", "inputSchema": {"type": "object"}}
    other = lint([str(write(tmp_path, [mcp_tool], "mcp.json"))]).files[0].tools[0]
    assert resolve_targets(tool) == resolve_targets(other)
    assert is_forwarded(tool)  # served through the gateway to any client: provider findings are warnings


def test_other_lists_are_not_catalogs(tmp_path: Path) -> None:
    # a name/description list not named tools.json, and items with keys the catalog does not have
    plain = write(tmp_path, [{"name": "a", "description": "b"}], "items.json")
    assert lint([str(plain)]).files[0].tools == []
    extra = [{**CATALOG[0], "version": 2}]
    assert lint([str(write(tmp_path, extra, "catalog.json"))]).files[0].tools == []
    # ...but a tools.json of catalog tools without arguments is one
    assert len(lint([str(write(tmp_path, [{"name": "a", "description": "b"}]))]).files[0].tools) == 1


def test_no_additional_properties_asked_of_a_format_without_a_place_for_it(tmp_path: Path) -> None:
    catalog_codes = {d.code for d in lint([str(write(tmp_path, CATALOG))]).diagnostics}
    assert "SL303" not in catalog_codes
    # the same parameters written as JSON Schema by hand are asked to close the object
    mcp_tool = {"name": "fetch_invoice", "description": "Fetch one invoice.", "inputSchema": {"type": "object"}}
    mcp_tool["inputSchema"]["properties"] = {"invoice_number": {"type": "string", "description": "Its number."}}
    assert "SL303" in {d.code for d in lint([str(write(tmp_path, [mcp_tool], "mcp.json"))]).diagnostics}


def test_catalog_files_are_found_in_a_folder(tmp_path: Path) -> None:
    # a registry checkout: servers/<name>/tools.json, with and without arguments, none naming `parameters`
    for name, tools in (("invoices", CATALOG), ("notes", [{"name": "list_notes", "description": "List notes."}])):
        (tmp_path / "servers" / name).mkdir(parents=True)
        write(tmp_path / "servers" / name, tools)
    result = lint([str(tmp_path / "servers")])
    assert sorted(t.name for f in result.files for t in f.tools) == ["fetch_invoice", "list_invoices", "list_notes"]


def test_arguments_spelled_with_description_and_required(tmp_path: Path) -> None:
    arguments = [
        {"name": "zone", "type": "string", "description": "DNS zone name.", "required": True},
        {"name": "ttl", "type": "integer", "description": "Record TTL, in seconds.", "required": False},
        {"name": "note", "type": "string", "desc": "Shown to admins.", "description": "ignored"},
    ]
    path = write(tmp_path, [{"name": "create_record", "description": "Create a DNS record.", "arguments": arguments}])
    [tool] = lint([str(path)]).files[0].tools
    assert tool.parameters["required"] == ["zone", "note"]
    assert tool.parameters["properties"]["zone"]["description"] == "DNS zone name."
    assert tool.parameters["properties"]["note"]["description"] == "Shown to admins."
